"""DATEV-Format Buchungsstapel (EXTF, header version 700, category 21, format version 13) for
DATEV Rechnungswesen or Unternehmen online: one booking per receipt (no Qt).

Line 1 is the 31-field header, line 2 the 125 column names of format version 13, then one line
per booking; ``;`` separated, text fields in double quotes, decimal comma, CRLF, Windows-1252
(characters it lacks become their unaccented letter, else ``?``). A booking: Umsatz = the gross
total, unsigned, with Soll/Haben-Kz ``S`` (``H`` for a refund), Konto = the category's account,
Gegenkonto = ``contra_account`` (a cash or clearing account), BU-Schlüssel from the tax rate
(``tax_keys``: SKR03/SKR04 input-tax keys 9 = 19 %, 8 = 7 %), Belegdatum DDMM, Belegfeld 1 the
receipt number (DATEV's characters only, at most 36), Buchungstext at most 60 characters.

DATEV takes the bookings' year from the header: a batch covers one calendar year inside one
fiscal year (Datum vom..bis), and receipts dated outside it are skipped, as are receipts in
another currency than the batch's, without a total (never booked as 0) or without an account.
Rules from DATEV's Formatbeschreibung as restated by seamless-engineering/datev-extf (validator)
and the ledermann/datev gem.
"""

from __future__ import annotations

import datetime
import re
import unicodedata
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path

from scanner_app.core.accounting.common import (
    ExportSummary,
    Skipped,
    booking_problem,
    cents,
    currency_of,
    label_of,
    one_line,
    tax_rate_of,
)
from scanner_app.core.accounting.records import AccountingReceipt
from scanner_app.core.atomic_write import atomic_path

ENCODING = "cp1252"
_INFO = [f"Beleginfo - {kind} {n}" for n in range(1, 9) for kind in ("Art", "Inhalt")]
_EXTRA = [f"Zusatzinformation{sep} {n}" for n in range(1, 21) for sep in (" - Art", "- Inhalt")]
COLUMNS = (
    "Umsatz (ohne Soll/Haben-Kz)", "Soll/Haben-Kennzeichen", "WKZ Umsatz", "Kurs", "Basis-Umsatz",
    "WKZ Basis-Umsatz", "Konto", "Gegenkonto (ohne BU-Schlüssel)", "BU-Schlüssel", "Belegdatum",
    "Belegfeld 1", "Belegfeld 2", "Skonto", "Buchungstext", "Postensperre", "Diverse Adressnummer",
    "Geschäftspartnerbank", "Sachverhalt", "Zinssperre", "Beleglink", *_INFO, "KOST1 - Kostenstelle",
    "KOST2 - Kostenstelle", "Kost-Menge", "EU-Land u. UStID (Bestimmung)", "EU-Steuersatz (Bestimmung)",
    "Abw. Versteuerungsart", "Sachverhalt L+L", "Funktionsergänzung L+L", "BU 49 Hauptfunktionstyp",
    "BU 49 Hauptfunktionsnummer", "BU 49 Funktionsergänzung", *_EXTRA, "Stück", "Gewicht", "Zahlweise",
    "Forderungsart", "Veranlagungsjahr", "Zugeordnete Fälligkeit", "Skontotyp", "Auftragsnummer",
    "Buchungstyp", "USt-Schlüssel (Anzahlungen)", "EU-Land (Anzahlungen)", "Sachverhalt L+L (Anzahlungen)",
    "EU-Steuersatz (Anzahlungen)", "Erlöskonto (Anzahlungen)", "Herkunft-Kz", "Buchungs GUID", "KOST-Datum",
    "SEPA-Mandatsreferenz", "Skontosperre", "Gesellschaftername", "Beteiligtennummer",
    "Identifikationsnummer", "Zeichnernummer", "Postensperre bis", "Bezeichnung SoBil-Sachverhalt",
    "Kennzeichen SoBil-Buchung", "Festschreibung", "Leistungsdatum", "Datum Zuord. Steuerperiode",
    "Fälligkeit", "Generalumkehr (GU)", "Steuersatz", "Land", "Abrechnungsreferenz", "BVV-Position",
    "EU-Land u. UStID (Ursprung)", "EU-Steuersatz (Ursprung)", "Abw. Skontokonto",
)  # fmt: skip
DEFAULT_TAX_KEYS: Mapping[Decimal, str] = {Decimal("19"): "9", Decimal("7"): "8"}  # Vorsteuer, SKR03/04
TEXT_MAX = 60  # Buchungstext
BELEG_MAX = 36  # Belegfeld 1
LABEL_MAX = 30  # the header's Bezeichnung
AMOUNT_MAX = Decimal("9999999999.99")  # 10 digits before the comma
_NOT_BELEG = re.compile(r"[^A-Za-z0-9$&%*+\-/]")


@dataclass(frozen=True)
class DatevBatch:
    """The header's settings: consultant (Berater, 1001-9999999) and client (Mandant, 1-99999)
    numbers, fiscal year start (None: 1 January of the first receipt's year), account length
    (Sachkontenlänge 4-8), chart (Sachkontenrahmen "03" SKR03, "04" SKR04), the batch's dates
    (None: the receipts'), label and initials (Diktatkürzel), currency (WKZ), creation time."""

    consultant: int = 1001
    client: int = 1
    fiscal_year_start: datetime.date | None = None
    account_length: int = 4
    chart: str = "03"
    date_from: datetime.date | None = None
    date_to: datetime.date | None = None
    label: str = "Belege scanner-app"
    initials: str = ""
    currency: str = "EUR"
    exported_by: str = "scanner-app"
    created: datetime.datetime | None = None

    def check(self) -> None:
        """ValueError for a setting DATEV rejects."""
        if not 1001 <= self.consultant <= 9_999_999:
            raise ValueError(f"consultant number {self.consultant} not in 1001-9999999")
        if not 1 <= self.client <= 99_999:
            raise ValueError(f"client number {self.client} not in 1-99999")
        if not 4 <= self.account_length <= 8:
            raise ValueError(f"account length {self.account_length} not in 4-8")
        if not re.fullmatch(r"[A-Z]{3}", self.currency):
            raise ValueError(f"currency {self.currency!r} is not an ISO 4217 code")


def to_cp1252(text: str) -> str:
    """``text`` on one line in characters Windows-1252 has: another as its unaccented letter
    (``ő`` -> ``o``), else ``?``, one for a run of them (``ł``, Chinese, emoji)."""
    out: list[str] = []
    for ch in one_line(text):
        try:
            ch.encode(ENCODING)
            out.append(ch)
            continue
        except UnicodeEncodeError:
            pass
        base = "".join(c for c in unicodedata.normalize("NFKD", ch) if not unicodedata.combining(c))
        try:
            base.encode(ENCODING)
            out.append(base)
        except UnicodeEncodeError:
            if not out or out[-1] != "?":
                out.append("?")
    return "".join(out)


def _quote(text: str) -> str:
    return '"' + text.replace('"', '""') + '"'


def _amount(value: Decimal) -> str:
    return f"{value:.2f}".replace(".", ",")


def _account_ok(account: str, length: int) -> bool:
    return bool(re.fullmatch(r"\d+", account)) and int(account) > 0 and len(account) <= length + 1


def _tax_key(receipt: AccountingReceipt, keys: Mapping[Decimal, str]) -> tuple[str, str | None]:
    """(BU-Schlüssel or "", a note when a taxed receipt gets no key)."""
    rate = tax_rate_of(receipt)
    if rate is None or (rate == 0 and not receipt.tax):
        return "", None
    for known, key in keys.items():
        if abs(rate - known) <= Decimal("0.5"):
            return key, None
    return "", f"receipt {receipt.id}: tax rate {rate:.2f} % has no BU-Schlüssel, booked gross without one"


Dates = tuple[datetime.date, datetime.date, datetime.date]


def _busiest_year(dates: list[datetime.date]) -> int:
    """The calendar year most of ``dates`` fall in (the later on a tie; this year without dates)."""
    counts = Counter(d.year for d in dates)
    return max(counts, key=lambda year: (counts[year], year)) if counts else datetime.date.today().year


def _period(batch: DatevBatch, dates: list[datetime.date]) -> Dates:
    """(fiscal year start, Datum vom, Datum bis): one calendar year inside one fiscal year; by
    default the calendar year of most receipts (of the fiscal year, when its start is given)."""
    start = batch.fiscal_year_start or datetime.date(_busiest_year(dates), 1, 1)
    fy_end = start.replace(year=start.year + 1) - datetime.timedelta(days=1)
    in_fy = [d for d in dates if start <= d <= fy_end]
    year = batch.date_from.year if batch.date_from else _busiest_year(in_fy or [start])
    in_year = [d for d in in_fy if d.year == year and (batch.date_to is None or d <= batch.date_to)]
    date_from = batch.date_from or min(in_year, default=max(start, datetime.date(year, 1, 1)))
    date_to = batch.date_to or max((d for d in in_year if d >= date_from), default=date_from)
    if not start <= date_from <= date_to <= fy_end or date_from.year != date_to.year:
        raise ValueError(f"batch {date_from}..{date_to}: not one calendar year of the fiscal year {start}")
    return start, date_from, date_to


def _header(batch: DatevBatch, start: datetime.date, date_from: datetime.date, date_to: datetime.date) -> str:
    created = batch.created or datetime.datetime.now()
    stamp = created.strftime("%Y%m%d%H%M%S") + f"{created.microsecond // 1000:03d}"
    ymd = "%Y%m%d"
    fields = [
        _quote("EXTF"), "700", "21", _quote("Buchungsstapel"), "13", stamp, "", _quote("RE"),
        _quote(to_cp1252(batch.exported_by)[:25]), _quote(""), str(batch.consultant), str(batch.client),
        start.strftime(ymd), str(batch.account_length), date_from.strftime(ymd), date_to.strftime(ymd),
        _quote(to_cp1252(batch.label)[:LABEL_MAX]), _quote(to_cp1252(batch.initials)[:2]), "1", "0", "0",
        _quote(batch.currency), "", _quote(""), "", "", _quote(batch.chart), "", "", _quote(""), _quote(""),
    ]  # fmt: skip
    return ";".join(fields)


def _booking(receipt: AccountingReceipt, account: str, contra: str, key: str, currency: str) -> str:
    assert receipt.total is not None and receipt.date is not None  # booking_problem
    fields = [""] * len(COLUMNS)
    number = _NOT_BELEG.sub("", one_line(receipt.number))[-BELEG_MAX:] or f"SA-{receipt.id}"
    fields[0] = _amount(abs(cents(receipt.total)))
    fields[1] = _quote("S" if receipt.total > 0 else "H")
    fields[2] = _quote(currency)
    fields[6], fields[7] = account, contra
    fields[8] = _quote(key)
    fields[9] = receipt.date.strftime("%d%m")
    fields[10] = _quote(number)
    fields[13] = _quote(to_cp1252(label_of(receipt))[:TEXT_MAX])
    return ";".join(fields)


def write_datev(
    receipts: Sequence[AccountingReceipt],
    path: Path,
    *,
    batch: DatevBatch | None = None,
    contra_account: str = "1000",
    tax_keys: Mapping[Decimal, str] = DEFAULT_TAX_KEYS,
    default_account: str | None = None,
    default_currency: str | None = None,
) -> ExportSummary:
    """Write the EXTF Buchungsstapel; ``batch`` the header (defaults: see DatevBatch),
    ``contra_account`` the Gegenkonto (default 1000, Kasse in SKR03; 1600 in SKR04).

    Skipped: no total, a zero total, no date, no account (after ``default_account``) or one that is
    not a DATEV account number, no currency (after ``default_currency``) or not the batch's, an
    amount over 10 digits, a date outside the batch. ValueError for a bad header or contra account.
    """
    batch = batch or DatevBatch()
    batch.check()
    if not _account_ok(contra_account, batch.account_length):
        raise ValueError(f"contra account {contra_account!r} is not a DATEV account number")
    skipped: list[Skipped] = []
    ready: list[tuple[AccountingReceipt, str]] = []
    for receipt in receipts:
        account = one_line(receipt.account_code) or (default_account or "")
        code = currency_of(receipt, default_currency)
        problem = booking_problem(receipt)
        if problem is None and not account:
            problem = "no account code"
        elif problem is None and not _account_ok(account, batch.account_length):
            problem = f"account {account!r} is not a DATEV account number of {batch.account_length}+ digits"
        elif problem is None and code != batch.currency:
            problem = f"currency {code}, not the batch's {batch.currency}" if code else "no currency"
        elif problem is None and receipt.total is not None and abs(receipt.total) > AMOUNT_MAX:
            problem = "total over DATEV's 10 digits"
        if problem is not None:
            skipped.append(Skipped(receipt.id, problem))
        else:
            ready.append((receipt, account))
    start, date_from, date_to = _period(batch, [r.date for r, _ in ready if r.date is not None])
    lines = [_header(batch, start, date_from, date_to), ";".join(COLUMNS)]
    notes: list[str] = []
    for receipt, account in ready:
        assert receipt.date is not None
        if not date_from <= receipt.date <= date_to:
            reason = f"dated {receipt.date}, outside this batch ({date_from}..{date_to}), another batch's"
            skipped.append(Skipped(receipt.id, reason))
            continue
        key, note = _tax_key(receipt, tax_keys)
        notes += [note] if note else []
        lines.append(_booking(receipt, account, contra_account, key, batch.currency))
    with atomic_path(Path(path)) as tmp:
        tmp.write_bytes(("\r\n".join(lines) + "\r\n").encode(ENCODING, errors="replace"))
    return ExportSummary(Path(path), len(lines) - 2, tuple(skipped), tuple(notes))
