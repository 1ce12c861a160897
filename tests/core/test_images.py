"""Client-side image loading: formats, orientation, colour modes, limits, errors, discovery, wire encoding.

Every file is generated in tmp_path (Pillow, or bytes written by hand); no server is needed.
"""

from __future__ import annotations

import io
import os
import struct
import time
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from scanner_app import contract
from scanner_app.core import images
from scanner_app.core.errors import UnreadableFile
from scanner_app.core.images import Page, count_pages, discover, encode_for_wire, iter_pages
from scanner_app.core.pdf import pages as pdf_pages
from scanner_app.core.pdf.pages import render_scale
from scanner_app.ocr.decode import decode_image
from scanner_app.samples import documents as samples
from tests.helpers.filegen import png_claiming

RED, GREEN, BLUE, WHITE = (255, 0, 0), (0, 160, 0), (0, 0, 255), (255, 255, 255)


def _marked(size: tuple[int, int] = (64, 48), mode: str = "RGB") -> Image.Image:
    """White image with a red 10x10 marker in the top-left corner."""
    image = Image.new("RGB", size, WHITE)
    image.paste(RED, (0, 0, 10, 10))
    return image.convert(mode)


def _close(pixel: tuple[int, ...], want: tuple[int, ...], tol: int = 40) -> bool:
    return all(abs(a - b) <= tol for a, b in zip(pixel, want, strict=True))


def _one(path: Path) -> Image.Image:
    pages = list(iter_pages(path))
    assert len(pages) == 1 and pages[0].count == 1 and pages[0].index == 0
    assert pages[0].name == path.name and pages[0].source == path
    assert pages[0].image.mode == "RGB"
    return pages[0].image


def _refused(path: Path, *words: str) -> str:
    with pytest.raises(UnreadableFile) as info:
        list(iter_pages(path))
    message = str(info.value)
    assert message.startswith(f"{path}: "), message
    for word in words:
        assert word in message, message
    return message


def _pdf(objects: list[bytes], trailer: bytes = b"") -> bytes:
    """A minimal PDF with a correct cross-reference table; object 1 is the catalog."""
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R %s>>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        trailer,
        xref,
    )
    return bytes(out)


@pytest.mark.parametrize("suffix", [".jpg", ".JPEG", ".png", ".bmp", ".webp", ".gif", ".tif", ".TIFF"])
def test_each_format_reads_as_upright_rgb(tmp_path: Path, suffix: str) -> None:
    path = tmp_path / f"page{suffix}"
    _marked().save(path, **({"quality": 95} if suffix.lower() in (".jpg", ".jpeg") else {}))
    image = _one(path)
    assert image.size == (64, 48)
    assert _close(image.getpixel((3, 3)), RED) and _close(image.getpixel((40, 30)), WHITE)
    assert count_pages(path) == 1
    assert suffix.lower() in images.SUPPORTED_SUFFIXES


def test_gif_gives_its_first_frame_only(tmp_path: Path) -> None:
    path = tmp_path / "anim.gif"
    frames = [Image.new("RGB", (20, 20), colour) for colour in (RED, BLUE, GREEN)]
    frames[0].save(path, save_all=True, append_images=frames[1:], duration=100)
    assert _close(_one(path).getpixel((10, 10)), RED)


def test_tiff_gives_every_page(tmp_path: Path) -> None:
    path = tmp_path / "scan.tif"
    Image.new("RGB", (30, 40), RED).save(path, save_all=True, append_images=[Image.new("L", (50, 20), 0)])
    pages = list(iter_pages(path))
    assert [(p.index, p.count, p.image.size, p.image.mode) for p in pages] == [
        (0, 2, (30, 40), "RGB"),
        (1, 2, (50, 20), "RGB"),
    ]
    assert [p.name for p in pages] == ["scan.tif#p1", "scan.tif#p2"]
    assert pages[0].image.getpixel((5, 5)) == RED and pages[1].image.getpixel((5, 5)) == (0, 0, 0)
    assert count_pages(path) == 2


def test_pdf_pages_render_at_the_contract_dpi(tmp_path: Path) -> None:
    path = tmp_path / "doc.pdf"
    frames = [Image.new("RGB", (612, 792), colour) for colour in (RED, GREEN, BLUE)]  # 8.5 x 11 in
    frames[0].save(path, save_all=True, append_images=frames[1:], resolution=72)
    pages = list(iter_pages(path))
    size = (round(8.5 * contract.PDF_RENDER_DPI), round(11 * contract.PDF_RENDER_DPI))
    assert [(p.index, p.count, p.image.size, p.image.mode) for p in pages] == [
        (i, 3, size, "RGB") for i in range(3)
    ]
    assert [p.name for p in pages] == ["doc.pdf#p1", "doc.pdf#p2", "doc.pdf#p3"]
    for page, colour in zip(pages, (RED, GREEN, BLUE), strict=True):
        assert _close(page.image.getpixel((size[0] // 2, size[1] // 2)), colour, tol=8)
    assert count_pages(path) == 3


@pytest.mark.parametrize("points", [(595, 842), (14400, 14400), (40000, 300), (3, 100000), (12000, 9000)])
def test_pdf_render_scale_keeps_pages_within_the_pixel_limits(points: tuple[float, float]) -> None:
    scale = render_scale(*points)
    width, height = (int(np.ceil(p * scale)) for p in points)
    assert max(width, height) <= contract.MAX_IMAGE_SIDE and width * height <= contract.MAX_IMAGE_PIXELS
    assert scale <= contract.PDF_RENDER_DPI / 72
    if points == (595, 842):
        assert scale == contract.PDF_RENDER_DPI / 72  # an A4 page is not scaled down


def test_pdf_pages_over_the_pixel_limit_are_rendered_smaller(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(pdf_pages, "MAX_IMAGE_SIDE", 1000)  # a real over-limit page takes seconds
    Image.new("RGB", (612, 792), BLUE).save(tmp_path / "letter.pdf", resolution=72)
    (page,) = iter_pages(tmp_path / "letter.pdf")
    assert page.image.height <= 1000 and abs(page.image.width - 1000 * 612 / 792) <= 2


def test_exif_orientation_is_applied(tmp_path: Path) -> None:
    exif = Image.Exif()
    exif[0x0112] = 6  # the camera was turned: rotate 90 degrees clockwise to view
    _marked((40, 20)).save(tmp_path / "phone.jpg", exif=exif, quality=95)
    image = _one(tmp_path / "phone.jpg")
    assert image.size == (20, 40)
    assert _close(image.getpixel((16, 3)), RED)  # top-left marker ends up top-right
    assert _close(image.getpixel((3, 3)), WHITE) and _close(image.getpixel((16, 36)), WHITE)
    wire = encode_for_wire(Page(tmp_path / "phone.jpg", 0, 1, image))  # sent upright, with no EXIF
    assert decode_image(wire.data).shape == (40, 20, 3)
    # A TIFF's orientation is per page. Pillow writes the tag on every page: set page 2's back to 1.
    two = tmp_path / "two.tif"
    _marked((40, 20)).save(two, exif=exif, save_all=True, append_images=[_marked((40, 20))])
    entry = struct.pack("<HHIH", 0x0112, 3, 1, 6)  # little-endian IFD entry: Orientation, SHORT, 1, 6
    data = two.read_bytes()
    assert data.count(entry) == 2
    two.write_bytes(
        data[: data.rfind(entry)] + struct.pack("<HHIH", 0x0112, 3, 1, 1) + data[data.rfind(entry) + 10 :]
    )
    assert [p.image.size for p in iter_pages(two)] == [(20, 40), (40, 20)]


def test_cmyk_jpeg_colours_are_not_inverted(tmp_path: Path) -> None:
    path = tmp_path / "print.jpg"
    cmyk = Image.new("CMYK", (32, 16), (0, 255, 255, 0))  # red
    cmyk.paste((255, 0, 0, 0), (16, 0, 32, 16))  # cyan
    cmyk.save(path, quality=95)
    assert b"Adobe" in path.read_bytes()  # the APP14 marker of Adobe's inverted CMYK
    image = _one(path)
    assert _close(image.getpixel((4, 8)), RED) and _close(image.getpixel((28, 8)), (0, 255, 255))


def test_16_bit_greyscale_is_scaled_not_clipped(tmp_path: Path) -> None:
    path = tmp_path / "deep.png"
    ramp = np.linspace(0, 65535, 256).astype(np.uint16).reshape(1, 256).repeat(4, axis=0)
    Image.fromarray(ramp).save(path)
    assert Image.open(path).mode.startswith("I")
    row = np.asarray(_one(path))[0, :, 0].astype(int)
    assert row[0] == 0 and row[-1] == 255 and abs(row[128] - 128) <= 1
    assert np.all(np.diff(row) >= 0)
    Image.fromarray(ramp.astype(np.int32)).save(tmp_path / "deep.tif")  # 32-bit integer: mode I
    assert np.array_equal(np.asarray(_one(tmp_path / "deep.tif"))[0, :, 0], row)


def test_palette_1_bit_and_greyscale_images(tmp_path: Path) -> None:
    _marked().convert("P", palette=Image.Palette.ADAPTIVE, colors=4).save(tmp_path / "p.png")
    _marked().convert("1").save(tmp_path / "bw.png")
    _marked().convert("L").save(tmp_path / "grey.bmp")
    assert _close(_one(tmp_path / "p.png").getpixel((3, 3)), RED, tol=2)
    for name in ("bw.png", "grey.bmp"):
        image = _one(tmp_path / name)
        assert image.getpixel((40, 30)) == WHITE and image.getpixel((3, 3))[0] < 128


def test_transparency_is_composited_on_white(tmp_path: Path) -> None:
    rgba = Image.new("RGBA", (40, 20), (0, 0, 0, 0))  # transparent black background
    rgba.paste((0, 0, 255, 255), (0, 0, 10, 10))
    rgba.paste((0, 0, 0, 128), (20, 0, 30, 10))  # half-transparent black: mid grey on white
    rgba.save(tmp_path / "a.png")
    image = _one(tmp_path / "a.png")
    assert image.getpixel((35, 15)) == WHITE and image.getpixel((5, 5)) == BLUE
    assert _close(image.getpixel((25, 5)), (127, 127, 127), tol=2)
    Image.new("LA", (8, 8), (0, 0)).save(tmp_path / "la.png")
    assert _one(tmp_path / "la.png").getpixel((4, 4)) == WHITE
    palette = Image.new("P", (8, 8), 0)
    palette.putpalette([0, 0, 0, 255, 0, 0])
    palette.save(tmp_path / "pt.png", transparency=0)
    assert _one(tmp_path / "pt.png").getpixel((4, 4)) == WHITE


def test_unreadable_files_are_refused_with_the_cause(tmp_path: Path) -> None:
    (tmp_path / "empty.jpg").write_bytes(b"")
    _refused(tmp_path / "empty.jpg", "empty file (0 bytes)")
    _refused(tmp_path / "missing.png", "not found")
    _refused(tmp_path, "folder")
    (tmp_path / "notes.png").write_text("Shopping list:\n- milk\n- eggs\n")
    _refused(tmp_path / "notes.png", "not an image or PDF", "text")
    buf = io.BytesIO()
    Image.effect_noise((200, 200), 60).save(buf, "JPEG")
    (tmp_path / "cut.jpg").write_bytes(buf.getvalue()[: len(buf.getvalue()) // 2])
    _refused(tmp_path / "cut.jpg", "truncated")
    (tmp_path / "head.png").write_bytes(b"\x89PNG\r\n\x1a\n\0\0")
    _refused(tmp_path / "head.png", "corrupt or truncated PNG")
    (tmp_path / "blob.webp").write_bytes(bytes(range(256)) * 4)
    _refused(tmp_path / "blob.webp", "not an image or PDF")


def test_size_limits_are_checked_before_decoding(tmp_path: Path) -> None:
    bomb = tmp_path / "bomb.png"
    bomb.write_bytes(png_claiming(30000, 30000))  # 2.7 GB of pixels in 100 bytes
    started = time.perf_counter()
    _refused(bomb, "too large", f"{contract.MAX_IMAGE_PIXELS:,}")
    assert time.perf_counter() - started < 1.0
    with pytest.raises(UnreadableFile, match="too large"):
        count_pages(bomb)
    wide = tmp_path / "wide.png"
    wide.write_bytes(png_claiming(contract.MAX_IMAGE_SIDE + 1, 2))  # few pixels, one side too long
    _refused(wide, "too large", f"{contract.MAX_IMAGE_SIDE + 1}x2")
    big = tmp_path / "big.png"
    with open(big, "wb") as f:  # sparse: no data written
        f.write(b"\x89PNG")
        f.truncate(contract.MAX_IMAGE_BYTES + 1)
    _refused(big, "too large", "50.0 MiB")


def test_too_many_pages_is_refused(tmp_path: Path) -> None:
    n = contract.MAX_FILE_PAGES + 1
    pdf_frames = [Image.new("1", (8, 8), 1) for _ in range(n)]
    pdf_frames[0].save(tmp_path / "many.pdf", save_all=True, append_images=pdf_frames[1:])
    tiff_frames = [Image.new("1", (8, 8), 1) for _ in range(n)]  # Pillow: never reuse frames across formats
    tiff_frames[0].save(
        tmp_path / "many.tif", save_all=True, append_images=tiff_frames[1:], compression="tiff_lzw"
    )
    for name in ("many.pdf", "many.tif"):
        _refused(tmp_path / name, f"{n} pages", f"limit of {contract.MAX_FILE_PAGES}")
        assert count_pages(tmp_path / name) == n


def test_bad_pdfs_are_refused(tmp_path: Path) -> None:
    catalog, pages = b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>"
    page = b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>"
    junk = b"<" + b"ab" * 32 + b">"  # /O and /U that no password matches, not even the empty one
    encrypt = b"<< /Filter /Standard /V 1 /R 2 /O " + junk + b" /U " + junk + b" /P -4 >>"
    file_id = b"/ID [<0123456789abcdef0123456789abcdef> <0123456789abcdef0123456789abcdef>] "
    (tmp_path / "locked.pdf").write_bytes(_pdf([catalog, pages, page, encrypt], b"/Encrypt 4 0 R " + file_id))
    (tmp_path / "blank.pdf").write_bytes(_pdf([catalog, b"<< /Type /Pages /Kids [] /Count 0 >>"]))
    (tmp_path / "junk.pdf").write_bytes(b"%PDF-1.7\n" + bytes(range(256)) * 8)
    # Twice each: PDFium's last-error code is stale after some failures, and must not leak into the next.
    for _ in range(2):
        _refused(tmp_path / "locked.pdf", "password-protected")
        _refused(tmp_path / "blank.pdf", "no pages")
        _refused(tmp_path / "junk.pdf", "corrupt")
    (tmp_path / "ok.pdf").write_bytes(_pdf([catalog, pages, page]))
    assert _one(tmp_path / "ok.pdf").size == (round(200 * contract.PDF_RENDER_DPI / 72),) * 2


def test_pages_before_a_corrupt_page_are_still_yielded(tmp_path: Path) -> None:
    path = tmp_path / "scan.tif"
    frames = [Image.effect_noise((64, 64), 40).convert("RGB") for _ in range(3)]
    frames[0].save(path, save_all=True, append_images=frames[1:], compression="tiff_deflate")
    with Image.open(path) as tiff:
        tiff.seek(1)
        offset, length = tiff.tag_v2[273][0], tiff.tag_v2[279][0]  # strip of page 2
    data = bytearray(path.read_bytes())
    data[offset : offset + length] = b"\xff" * length
    path.write_bytes(bytes(data))
    pages = iter_pages(path)
    first = next(pages)
    assert (first.index, first.count, first.name) == (0, 3, "scan.tif#p1")
    with pytest.raises(UnreadableFile, match=r"scan\.tif: page 2 of 3: corrupt"):
        next(pages)


def test_discover_expands_folders_and_says_what_it_skipped(tmp_path: Path) -> None:
    root = tmp_path / "in"
    for name in (
        "b/10.png",
        "b/2.JPG",
        "a.pdf",
        "notes.docx",
        "README",
        ".hidden.png",
        ".git/x.png",
        "C/z.tif",
    ):
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes(b"x")
    os.symlink(root, root / "b" / "loop")
    files, skipped = discover([root, tmp_path / "gone.png", root / "a.pdf"])
    assert files == [root / "a.pdf", root / "b/2.JPG", root / "b/10.png", root / "C/z.tif"]
    assert sorted(skipped) == sorted(
        [
            (root / ".git", "hidden folder"),
            (root / ".hidden.png", "hidden file"),
            (root / "b/loop", "folder already visited (symlink loop)"),
            (root / "notes.docx", "unsupported type .docx"),
            (root / "README", "unsupported type (no extension)"),
            (tmp_path / "gone.png", "not found"),
            (root / "a.pdf", "already listed"),
        ]
    )


def test_wire_encoding_of_a_clean_document_is_lossless_png(tmp_path: Path) -> None:
    image = samples.render_invoice(0).image.convert("RGB")
    wire = encode_for_wire(Page(tmp_path / "inv.png", 0, 1, image))
    assert (wire.format, wire.scale, wire.width, wire.height) == ("PNG", 1.0, *image.size)
    assert np.array_equal(decode_image(wire.data)[:, :, ::-1], np.asarray(image))
    assert Image.open(io.BytesIO(wire.data)).mode == "L"  # grey only: one channel
    stamp = image.copy()
    stamp.paste((200, 30, 30), (50, 50, 250, 90))  # a red stamp: still few colours, kept as RGB
    wire = encode_for_wire(Page(tmp_path / "inv.png", 0, 1, stamp))
    assert wire.format == "PNG" and np.array_equal(decode_image(wire.data)[:, :, ::-1], np.asarray(stamp))


def test_wire_encoding_of_a_photo_is_jpeg_and_large_ones_are_downscaled(tmp_path: Path) -> None:
    photo = Image.effect_noise((300, 200), 50).convert("RGB")  # grey, < 256 levels, but noisy: JPEG
    wire = encode_for_wire(Page(tmp_path / "p.jpg", 0, 1, photo))
    assert (wire.format, wire.scale, wire.width, wire.height) == ("JPEG", 1.0, 300, 200)
    assert decode_image(wire.data).shape == (200, 300, 3)
    big = photo.resize((300, 5000))  # long side over WIRE_MAX_SIDE (tall, like a till receipt)
    wire = encode_for_wire(Page(tmp_path / "big.jpg", 0, 1, big))
    assert (wire.format, wire.width, wire.height) == ("JPEG", round(300 / wire.scale), images.WIRE_MAX_SIDE)
    assert wire.scale == pytest.approx(5000 / images.WIRE_MAX_SIDE)
    assert decode_image(wire.data).shape == (wire.height, wire.width, 3)


def test_plain_jpeg_and_png_are_sent_as_their_own_bytes(tmp_path: Path) -> None:
    _marked((64, 48)).save(tmp_path / "plain.jpg", quality=90)
    _marked((64, 48)).save(tmp_path / "plain.png")
    for name in ("plain.jpg", "plain.png"):
        (page,) = iter_pages(tmp_path / name)
        wire = encode_for_wire(page)
        assert wire.data == (tmp_path / name).read_bytes() and wire.scale == 1.0
    exif = Image.Exif()
    exif[0x0112] = 3  # upside down: same size, so only the tag tells
    _marked((64, 48)).save(tmp_path / "turned.jpg", exif=exif)
    _marked((64, 48)).convert("CMYK").save(tmp_path / "cmyk.jpg")
    for name in ("turned.jpg", "cmyk.jpg"):
        (page,) = iter_pages(tmp_path / name)
        assert page.original is None and encode_for_wire(page).data != (tmp_path / name).read_bytes()
