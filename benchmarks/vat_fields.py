"""VAT invoice fields on rendered 增值税电子普通发票 read through the real OCR: per layout, the
share of pages on which each field is read exactly, and whether each misprint is flagged.

Usage: ``python benchmarks/vat_fields.py [--seeds N] [--server HOST:PORT]``

Pages come from ``scanner_app.samples.fapiao.render_fapiao`` (every layout in ``LAYOUTS``, seeds
0..N-1, and each misprint in ``WRONG`` on seed 0 of the ``company`` layout), OCR'd by a running
server or, without ``--server``, by the embedded server started here. Field groups: ``items`` is
every ``itemN_*`` field of the page; ``address`` / ``bank`` are the seller's address and phone,
bank and account; ``QR agrees``: the QR code (zxing-cpp) decoded and every field it carries
equal to the OCR'd one. Exit status: 0 every field read and every misprint flagged, 1 otherwise.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Iterator, Sequence

from scanner_app.core.client.triton import OcrClient
from scanner_app.core.fields.extract import extract_fields
from scanner_app.core.fields.vat_qr import cross_check_image
from scanner_app.samples.documents import encode
from scanner_app.samples.fapiao import LAYOUTS, WRONG, render_fapiao
from scanner_app.server.embedded import EmbeddedServer
from scanner_app.server.model_fetch import default_repository

GROUPS = {
    "code": ("invoice_code",), "number": ("number",), "date": ("date",), "check": ("check_code",),
    "buyer": ("buyer_name", "buyer_tax_id"), "seller": ("seller_name",), "tax id": ("seller_tax_id",),
    "address": ("seller_address", "seller_phone"), "bank": ("seller_bank", "seller_account"),
    "items": ("item",), "net": ("net",), "tax": ("tax",), "words": ("total_words",), "total": ("total",),
}  # fmt: skip
COLUMNS = (*GROUPS, "QR agrees")


@contextlib.contextmanager
def _server(url: str | None) -> Iterator[str]:
    if url:
        yield url
        return
    with EmbeddedServer(default_repository(), grpc_port=0, http_port=0, metrics_port=0) as server:
        yield server.grpc_url


def _group_ok(names: tuple[str, ...], truth: dict[str, str], got: dict[str, str]) -> bool:
    keys = [k for k in truth if k in names or (names == ("item",) and k.startswith("item"))]
    return all(got.get(k) == truth[k] for k in keys)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=3, help="pages per layout (default 3)")
    ap.add_argument("--server", metavar="HOST:PORT", help="a running server (default: start one here)")
    args = ap.parse_args(argv)
    rows: dict[str, list[int]] = {layout: [0] * len(COLUMNS) for layout in LAYOUTS}
    misses: list[str] = []
    flagged: dict[str, bool] = {}
    with _server(args.server) as url, OcrClient(url) as client:
        client.connect()
        for layout in LAYOUTS:
            for seed in range(args.seeds):
                invoice = render_fapiao(seed, layout)
                fields = extract_fields(client.recognize(encode(invoice.doc.image), f"{layout}-{seed}.png"))
                got = {n: fields.value(n) for n in fields.names()}
                for i, names in enumerate(GROUPS.values()):
                    ok = _group_ok(names, invoice.truth, got)
                    rows[layout][i] += ok
                checked, qr = cross_check_image(fields, invoice.doc.image)
                qr_checks = [c.ok for c in checked.checks if c.name.startswith("qr_")]
                rows[layout][-1] += bool(qr) and bool(qr_checks) and all(qr_checks)
                misses += [f"{layout}-{seed} {k}: {got.get(k)!r} != {v!r} (flags: {fields.flags(k)})"
                           for k, v in invoice.truth.items() if got.get(k) != v]  # fmt: skip
        for wrong in WRONG:
            invoice = render_fapiao(0, "company", wrong)
            fields = extract_fields(client.recognize(encode(invoice.doc.image), f"wrong-{wrong}.png"))
            flagged[wrong] = fields.flagged and any(not c.ok for c in fields.checks)
    print(f"| layout ({args.seeds} pages) | " + " | ".join(COLUMNS) + " |")
    print("|---|" + "---|" * len(COLUMNS))
    for layout, counts in rows.items():
        print(f"| {layout} | " + " | ".join(f"{c}/{args.seeds}" for c in counts) + " |")
    print("\nmisprint flagged: " + ", ".join(f"{w} {'yes' if ok else 'NO'}" for w, ok in flagged.items()))
    for miss in misses:
        print("miss:", miss)
    return 0 if not misses and all(flagged.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
