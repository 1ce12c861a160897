"""Synthetic phone photos of a receipt: a pinhole camera looking at a tilted, rotated page on a table."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from scanner_app.samples.documents import RenderedDoc, RenderedLine, find_font

# A till receipt: (left text, right text) per row; "" for none. Rows are tight, as on thermal paper.
RECEIPT_ROWS = [
    ("HARBOR POINT MARKET", ""), ("1840 Lakeview Drive", ""), ("Portland OR 97205", ""),
    ("Receipt R-48213", "2024-03-17"), ("Cashier Emily", "14:52"), ("Copy Paper", "9.40"),
    ("Ballpoint Pens", "4.75"), ("Sticky Notes", "3.20"), ("Packing Tape", "2.95"),
    ("Wireless Mouse", "21.80"), ("Coffee Beans", "14.60"), ("Paper Towels", "19.30"),
    ("Shipping Labels", "7.15"), ("Whiteboard Markers", "8.45"), ("Subtotal", "118.60"),
    ("Tax", "9.49"), ("Total", "128.09"), ("Card VISA 4417", "128.09"), ("Approval 093651", ""),
    ("Thank you", ""), ("Please come again", ""),
]  # fmt: skip
RECEIPT_SIZE, RECEIPT_PITCH, RECEIPT_MARGIN, RECEIPT_WIDTH = 24, 38, 36, 560


@dataclass(frozen=True)
class Scene:
    """A photo (BGR uint8) of ``doc``; ``quad``: the page's corners in it, clockwise from top-left."""

    photo: np.ndarray
    quad: np.ndarray
    doc: RenderedDoc

    @property
    def doc_aspect(self) -> float:
        return self.doc.image.width / self.doc.image.height


def receipt() -> RenderedDoc:
    """A tall, narrow till receipt; its lines are in reading order (row by row, left to right)."""
    font = ImageFont.truetype(str(find_font()), RECEIPT_SIZE, layout_engine=ImageFont.Layout.BASIC)
    height = 2 * RECEIPT_MARGIN + len(RECEIPT_ROWS) * RECEIPT_PITCH
    image = Image.new("RGB", (RECEIPT_WIDTH, height), "white")
    draw = ImageDraw.Draw(image)
    lines = []
    for row, (left, right) in enumerate(RECEIPT_ROWS):
        y = RECEIPT_MARGIN + row * RECEIPT_PITCH + RECEIPT_SIZE
        for x, text, anchor in ((RECEIPT_MARGIN, left, "ls"), (RECEIPT_WIDTH - RECEIPT_MARGIN, right, "rs")):
            if text:
                draw.text((x, y), text, font=font, fill=(20, 20, 20), anchor=anchor)
                box = tuple(float(v) for v in draw.textbbox((x, y), text, font=font, anchor=anchor))
                lines.append(RenderedLine(text, box))  # type: ignore[arg-type]
    return RenderedDoc(image, lines)


def _rotation(tilt_x: float, tilt_y: float, roll: float) -> np.ndarray:
    ax, ay, az = np.radians([tilt_x, tilt_y, roll])
    rx = np.array([[1, 0, 0], [0, np.cos(ax), -np.sin(ax)], [0, np.sin(ax), np.cos(ax)]])
    ry = np.array([[np.cos(ay), 0, np.sin(ay)], [0, 1, 0], [-np.sin(ay), 0, np.cos(ay)]])
    rz = np.array([[np.cos(az), -np.sin(az), 0], [np.sin(az), np.cos(az), 0], [0, 0, 1]])
    return rz @ rx @ ry


def _table(size: tuple[int, int], rng: np.random.Generator, kind: str = "wood") -> np.ndarray:
    """A table top: "wood" (dark grain), "light" (pale grain, low contrast with the paper) or "busy"
    (wood strewn with bright coloured discs, some touching the page)."""
    width, height = size
    y, x = np.mgrid[0:height, 0:width].astype(np.float32)
    grain = np.sin(0.05 * y + 3.0 * np.sin(0.004 * x) + 0.8 * np.sin(0.021 * y + 0.01 * x))
    base = (190 if kind == "light" else 70) + 18 * grain + rng.normal(0, 6, (height, width))
    base = cv2.GaussianBlur(base.astype(np.float32), (0, 0), 1.5)
    tint = (1.0, 1.0, 1.0) if kind == "light" else (0.55, 0.8, 1.0)  # grey, or brownish in BGR
    colour = np.stack([t * base for t in tint], axis=2)
    table = np.clip(colour, 0, 255).astype(np.uint8)
    if kind == "busy":
        for _ in range(60):
            centre = (int(rng.integers(0, width)), int(rng.integers(0, height)))
            fill = tuple(int(v) for v in rng.integers(0, 256, 3))
            cv2.circle(table, centre, int(rng.integers(10, 80)), fill, -1)
    return table


def photograph(
    doc: RenderedDoc,
    *,
    frame: tuple[int, int] = (1280, 960),
    tilt_x: float = 28.0,
    tilt_y: float = -12.0,
    roll: float = 18.0,
    coverage: float = 0.8,
    background: str = "wood",
    seed: int = 0,
) -> Scene:
    """Photograph ``doc`` lying on a table: tilted (degrees about x and y), rolled, blurred, noisy, JPEG'd.

    ``coverage`` is roughly the page's share of the frame height; ``background`` a kind of ``_table``.
    """
    rng = np.random.default_rng(seed)
    page = cv2.cvtColor(np.asarray(doc.image.convert("RGB")), cv2.COLOR_RGB2BGR)
    page_h, page_w = page.shape[:2]
    frame_w, frame_h = frame
    focal = 0.9 * frame_w
    camera = np.array([[focal, 0, frame_w / 2], [0, focal, frame_h / 2], [0, 0, 1.0]])
    rotation = _rotation(tilt_x, tilt_y, roll)
    distance = focal * page_h / (coverage * frame_h)
    # Page pixel (x, y) -> plane point (x - w/2, y - h/2, 0) -> camera -> frame.
    to_plane = np.array([[1, 0, -page_w / 2], [0, 1, -page_h / 2], [0, 0, 1.0]])
    corners = np.array([[0, 0], [page_w, 0], [page_w, page_h], [0, page_h]], dtype=np.float32)
    margin = 0.03 * np.array([frame_w, frame_h])
    while True:  # step back until the whole page is in the picture
        extrinsic = np.column_stack([rotation[:, 0], rotation[:, 1], [0, 0, distance]])
        homography = camera @ extrinsic @ to_plane
        quad = cv2.perspectiveTransform(corners.reshape(-1, 1, 2), homography).reshape(4, 2)
        if (quad >= margin).all() and (quad <= np.array([frame_w, frame_h]) - margin).all():
            break
        distance *= 1.05

    photo = _table(frame, rng, background)
    warped = cv2.warpPerspective(page, homography, frame, flags=cv2.INTER_AREA)
    mask = cv2.warpPerspective(np.full((page_h, page_w), 255, np.uint8), homography, frame)
    alpha = (mask.astype(np.float32) / 255.0)[:, :, None]
    photo = warped * alpha + photo * (1.0 - alpha)
    y, x = np.mgrid[0:frame_h, 0:frame_w].astype(np.float32)
    light = 1.0 - 0.18 * (x / frame_w) * (y / frame_h)  # a soft shadow towards the bottom right
    photo = cv2.GaussianBlur(photo * light[:, :, None], (0, 0), 1.0)
    photo = np.clip(photo + rng.normal(0, 4, photo.shape), 0, 255).astype(np.uint8)
    ok, jpeg = cv2.imencode(".jpg", photo, [cv2.IMWRITE_JPEG_QUALITY, 88])
    assert ok
    return Scene(photo=cv2.imdecode(jpeg, cv2.IMREAD_COLOR), quad=quad.astype(np.float32), doc=doc)


def exact_lines(truth: Iterable[str], read: Iterable[str]) -> int:
    """How many truth lines were read back exactly (whitespace-normalised; each read line counts once)."""
    available = Counter(" ".join(text.split()) for text in read)
    found = 0
    for text in truth:
        key = " ".join(text.split())
        if available[key] > 0:
            available[key] -= 1
            found += 1
    return found


def in_order(truth: list[str], read: list[str]) -> int:
    """How many truth lines were read back exactly and in reading order (longest common subsequence)."""
    a = [" ".join(t.split()) for t in truth]
    b = [" ".join(t.split()) for t in read]
    previous = [0] * (len(b) + 1)
    for x in a:
        current = [0]
        for j, y in enumerate(b):
            current.append(previous[j] + 1 if x == y else max(previous[j + 1], current[j]))
        previous = current
    return previous[-1]
