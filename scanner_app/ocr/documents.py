"""Several documents on one page: each receipt's outline on a scanner bed, and its lines.

Classical CV on a small copy of the page: the bed's colour is the median of the page border;
pixels unlike it by more than the bed's own noise (receipts scanned on a grey backing are only
5-10 levels off a grey bed), closed and hole-filled, are paper. Each solid, large-enough region
that is mostly paper-coloured (not a text block or a bar on a page) and reaches at most one side
of the frame is a document (its minimum-area rectangle, so receipts turned a few degrees are
outlined tightly). The lines the server read then decide: outlines missing much of the text, or
holding fewer than two lines, are not documents (see assign_lines). The
common page, one receipt filling the frame, has a border of paper, so nothing solid stands out:
it is one document at the cost of one resize and a few morphology passes.

Each line belongs to the document that holds its centre (else the nearest); reading order is
per document, taken in the document's own (de-skewed) frame.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np

from scanner_app.contract import MARK_DOCUMENT
from scanner_app.ocr.engine import RecognizedLine
from scanner_app.ocr.line_ink import InkParams, foreign_ink
from scanner_app.ocr.order import reading_order
from scanner_app.ocr.orientation import boxes_to_sent, rotate_upright


@dataclass(frozen=True)
class DocumentParams:
    """How documents are told from the bed."""

    enabled: bool = True
    work_side: int = 1024  # the page is analysed at this long side (gaps of 3 mm stay ~10 px)
    border: float = 0.02  # share of each side sampled as the bed
    bed_delta: float = 24.0  # at most this far (max over channels, local mean) from the bed is bed
    min_delta: float = 4.0  # at least this far; between the two, set by the bed's own noise
    min_area: float = 0.015  # a document covers at least this share of the page
    max_aspect: float = 10.0  # and is at most this much longer than wide (a till roll on A4: ~5)
    min_solidity: float = 0.7  # its share of "not bed" pixels inside its outline, holes filled
    min_paper: float = 0.7  # its share of "not bed" pixels inside its outline as seen
    max_documents: int = 12
    min_lines: int = 2  # a region holding fewer lines is not a document (a logo, a stain)
    min_inside: float = 0.9  # share of lines whose centre lies in an outline, else one document
    # Lines in an ink apart from the print (pen notes) belong to no document (ocr.line_ink).
    ink: InkParams = field(default_factory=InkParams)


@dataclass(frozen=True)
class Documents:
    """Outlines (4x2, clockwise from top-left, page pixels) and each line's document index."""

    boxes: list[np.ndarray]
    line_documents: list[int]
    order: list[int]  # line indices, document by document, each in its own reading order


def find_documents(image_bgr: np.ndarray, params: DocumentParams) -> list[np.ndarray]:
    """Outlines of the documents lying on a bed; [] when the page is one document filling it."""
    if not params.enabled:
        return []
    h, w = image_bgr.shape[:2]
    scale = min(1.0, params.work_side / max(h, w))
    small = cv2.resize(image_bgr, (max(1, round(w * scale)), max(1, round(h * scale))), cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (3, 3), 0)
    sh, sw = small.shape[:2]
    band = max(2, round(params.border * min(sh, sw)))
    border = np.concatenate(
        [small[:band].reshape(-1, 3), small[-band:].reshape(-1, 3), small[:, :band].reshape(-1, 3),
         small[:, -band:].reshape(-1, 3)]
    )  # fmt: skip
    bed = np.median(border[:: max(1, len(border) // 4096)], axis=0)
    channels = [cv2.absdiff(small[:, :, c], np.full((sh, sw), bed[c], np.uint8)) for c in range(3)]
    diff = cv2.blur(cv2.max(cv2.max(channels[0], channels[1]), channels[2]), (3, 3))
    paper = (diff > _bed_threshold(diff, band, params)).astype(np.uint8)
    mask = paper
    kernel = np.ones((3, 3), np.uint8)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, kernel)
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, kernel)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    filled = np.zeros_like(mask)
    cv2.drawContours(filled, contours, -1, 1, thickness=cv2.FILLED)
    boxes = []
    for contour in contours:
        rect = cv2.minAreaRect(contour)
        (rw, rh) = rect[1]
        if rw * rh < params.min_area * sh * sw or max(rw, rh) > params.max_aspect * min(rw, rh):
            continue  # too small, or a rule / shaded bar across a page rather than a sheet of paper
        outline = np.zeros_like(mask)
        cv2.fillPoly(outline, [cv2.boxPoints(rect).astype(np.int32)], 1)
        inside = cv2.countNonZero(outline)
        if inside == 0 or cv2.countNonZero(filled & outline) / inside < params.min_solidity:
            continue
        if cv2.countNonZero(paper & outline) / inside < params.min_paper:
            continue  # mostly bed-coloured inside: a block of text or a logo on the page, not paper
        if rw * rh > 0.9 * sh * sw:  # the whole frame: no bed around it
            continue
        if _sides_touched(contour, sw, sh, band) >= 2:  # a page's corner or strip, not paper on a bed
            continue
        boxes.append(_clockwise(cv2.boxPoints(rect) / scale))
    boxes = sorted(boxes, key=lambda b: (float(b[:, 0].min()), float(b[:, 1].min())))
    return boxes[: params.max_documents]


def _sides_touched(contour: np.ndarray, width: int, height: int, band: int) -> int:
    """How many sides of the frame the region reaches (within the sampled border band)."""
    x, y, w, h = cv2.boundingRect(contour)
    return (x < band) + (y < band) + (x + w > width - band) + (y + h > height - band)


def _bed_threshold(diff: np.ndarray, band: int, params: DocumentParams) -> float:
    """How far from the bed colour paper starts: above the bed's own noise (its border's spread).

    Receipts scanned on a grey backing are often nearly bed-grey (5-10 levels off), so a fixed
    threshold misses them; a flat bed's border varies by 1-2 levels, a noisy one by more.
    """
    border = np.concatenate(
        [diff[:band].ravel(), diff[-band:].ravel(), diff[:, :band].ravel(), diff[:, -band:].ravel()]
    )
    noise = float(np.percentile(border, 95))
    return float(np.clip(2 * noise + 2, params.min_delta, params.bed_delta))


def assign_lines(
    doc_boxes: Sequence[np.ndarray],
    line_boxes: Sequence[np.ndarray],
    page_size: tuple[int, ...],
    params: DocumentParams | None = None,
) -> Documents:
    """Each line's document (centre inside, else the nearest) and the per-document reading order.

    Outlines holding fewer than ``min_lines`` lines are dropped; with fewer than two left the
    page is one document: the whole page, lines in the page's own reading order.
    """
    params = params or DocumentParams()
    min_lines = params.min_lines
    kept = list(range(len(doc_boxes)))
    if doc_boxes and _inside_share(doc_boxes, line_boxes) < params.min_inside:
        kept = []  # the outlines miss much of the text: not a bed with documents on it
    while True:
        owners = _owners([doc_boxes[d] for d in kept], line_boxes)
        counts = [owners.count(i) for i in range(len(kept))]
        weakest = int(np.argmin(counts)) if kept else -1
        if len(kept) < 2 or counts[weakest] >= min_lines:
            break
        kept.pop(weakest)
    if len(kept) < 2:
        h, w = page_size
        whole = np.array([[0, 0], [w, 0], [w, h], [0, h]], dtype=np.float32)
        return Documents([whole], [0] * len(line_boxes), reading_order(list(line_boxes)))
    order: list[int] = []
    for d, source in enumerate(kept):
        members = [i for i, owner in enumerate(owners) if owner == d]
        upright = _deskewed([line_boxes[i] for i in members], doc_boxes[source])
        order += [members[j] for j in reading_order(upright)]
    return Documents([doc_boxes[d] for d in kept], owners, order)


def _inside_share(doc_boxes: Sequence[np.ndarray], line_boxes: Sequence[np.ndarray]) -> float:
    if not line_boxes:
        return 0.0
    contours = [b.reshape(-1, 1, 2).astype(np.float32) for b in doc_boxes]
    inside = 0
    for box in line_boxes:
        cx, cy = (float(v) for v in np.mean(box, axis=0))
        inside += any(cv2.pointPolygonTest(c, (cx, cy), False) >= 0 for c in contours)
    return inside / len(line_boxes)


def _owners(doc_boxes: Sequence[np.ndarray], line_boxes: Sequence[np.ndarray]) -> list[int]:
    if not doc_boxes:
        return [0] * len(line_boxes)
    contours = [b.reshape(-1, 1, 2).astype(np.float32) for b in doc_boxes]
    owners = []
    for box in line_boxes:
        cx, cy = (float(v) for v in np.mean(box, axis=0))
        distances = [cv2.pointPolygonTest(c, (cx, cy), True) for c in contours]
        owners.append(int(np.argmax(distances)))  # inside: positive; else the least negative
    return owners


def _deskewed(boxes: Sequence[np.ndarray], outline: np.ndarray) -> list[np.ndarray]:
    """The boxes turned by the outline's tilt (at most 45 degrees), so rows are level."""
    top = outline[1] - outline[0]
    angle = float(np.arctan2(top[1], top[0]))
    if abs(angle) < 1e-3:
        return list(boxes)
    c, s = np.cos(-angle), np.sin(-angle)
    turn = np.array([[c, -s], [s, c]], dtype=np.float32)
    centre = outline.mean(axis=0)
    return [((b - centre) @ turn.T + centre).astype(np.float32) for b in boxes]


def _clockwise(points: np.ndarray) -> np.ndarray:
    """Four points clockwise from the top-left (the smallest x + y)."""
    centre = points.mean(axis=0)
    angles = np.arctan2(points[:, 1] - centre[1], points[:, 0] - centre[0])
    ordered = points[np.argsort(angles)]  # clockwise in image coordinates (y down)
    start = int(np.argmin(ordered.sum(axis=1)))
    return np.roll(ordered, -start, axis=0).astype(np.float32)


@dataclass(frozen=True)
class PageDocuments:
    """A page's lines regrouped document by document, with outlines in the image's pixels; notes
    in another ink (document MARK) come last, in their own reading order."""

    lines: list[RecognizedLine]
    outlines: list[np.ndarray]
    line_documents: list[int]


MARK = MARK_DOCUMENT  # the "document" of a line written in another ink than the page's print (a pen note)


def split_documents(
    image_bgr: np.ndarray, lines: Sequence[RecognizedLine], orientation: int, params: DocumentParams
) -> PageDocuments:
    """Find the documents on the upright page and regroup ``lines`` (boxes as sent) by document."""
    boxes = [np.asarray(line.box, dtype=np.float32) for line in lines]
    foreign = foreign_ink(image_bgr, boxes, params.ink)  # colour does not depend on the turn
    printed = [i for i, mark in enumerate(foreign) if not mark]
    marks = [i for i, mark in enumerate(foreign) if mark]
    upright = rotate_upright(image_bgr, orientation) if orientation else image_bgr
    back = (360 - orientation) % 360
    upright_boxes = boxes_to_sent(boxes, back, upright.shape[:2]) if orientation else boxes
    outlines = find_documents(upright, params)
    docs = assign_lines(outlines, [upright_boxes[i] for i in printed], upright.shape[:2], params)
    sent_outlines = boxes_to_sent(docs.boxes, orientation, image_bgr.shape[:2]) if orientation else docs.boxes
    mark_order = [marks[k] for k in reading_order([upright_boxes[i] for i in marks])] if marks else []
    order = [printed[k] for k in docs.order] + mark_order
    return PageDocuments(
        lines=[lines[i] for i in order],
        outlines=sent_outlines,
        line_documents=[docs.line_documents[k] for k in docs.order] + [MARK] * len(mark_order),
    )
