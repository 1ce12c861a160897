"""Tunable settings of detection and recognition, with PaddleOCR's defaults where they apply."""

from __future__ import annotations

from dataclasses import dataclass

# PaddleOCR's detection normalisation (ImageNet statistics, applied to BGR as PaddleOCR does);
# baked into the detection graph when a model set is placed (scanner_app.server.onnx_rewrite).
DET_MEAN = (0.485, 0.456, 0.406)
DET_STD = (0.229, 0.224, 0.225)
REC_HEIGHT = 48
# A CTC frame the blank wins is read as a space when the space class (the last one, PaddleOCR's
# use_space_char) still has this probability there: the recognizer hedges on the space after a
# colon ("TEL: 03-..."), which plain argmax drops. Baked into the rec graph when a set is placed
# (scanner_app.server.onnx_rewrite); 0.02-0.3 all win on both sets (benchmarks/accuracy.py).
REC_SPACE_PROB = 0.05
# A frame read as a space (by argmax or by the rule above) where "." keeps this probability reads
# as the point: the recognizer hedges on a faint decimal point ("80 91" for "80.91").
REC_POINT_PROB = 0.05


@dataclass(frozen=True)
class DetParams:
    """How an image is resized for detection and how the probability map becomes boxes."""

    # Receipts are tall and narrow with small print: scaling the short side up to 736 (as
    # rapidocr does) reads small text far better than PaddleOCR's "longest side 960".
    limit_side_len: int = 2000  # the longest side is scaled down to this
    min_side_len: int = 736  # the shortest side is scaled up to this, at most 4x (0: never upscale)
    bucket_step: int = 32  # padded height and width are multiples of this (batchable shapes)
    thresh: float = 0.3
    box_thresh: float = 0.5
    unclip_ratio: float = 1.8  # more room around the text than 1.5: fewer clipped characters
    max_candidates: int = 1000
    min_size: int = 3
    use_dilation: bool = False
    score_mode: str = "fast"  # "slow": mean inside the contour; "fast": inside its bounding box


@dataclass(frozen=True)
class BoxFit:
    """How a line's reported box is drawn from the box it was cropped by (scanner_app.ocr.detect.fit_box).

    The crop box (DB unclip 1.8) leaves room for clipped characters; the box reported for a line
    hugs its text, as SROIE's annotation does, with a margin that follows the page's print size:
    height = ``height`` x its own + ``height_page`` x the page's median line height; length =
    its own + ``length_height`` x its height + ``length_page`` x the median (fit on sroie-dev, see
    benchmarks/accuracy.py). ``BoxFit(1.0, 0.0, 0.0, 0.0)`` reports the crop box.
    """

    height: float = 0.7
    height_page: float = 0.2
    length_height: float = -0.2
    length_page: float = 0.2


@dataclass(frozen=True)
class ColonParams:
    """Where a colon the detector dropped is looked for, and what counts as one (scanner_app.ocr.punctuation).

    Sizes are fractions of the line box's height. ``enabled=False`` reads every line as its box was
    detected. On (benchmarks/accuracy.py): CER 0.0350 -> 0.0324 on sroie, 0.0397 -> 0.0351 on
    sroie-dev, exact lines 0.749 -> 0.762 and 0.752 -> 0.773; ink_contrast 0.5 / 0.3 / 0.15 won less.
    Reading the dots where the recogniser drops the colon again, and colons inside the box: CER
    0.0319 -> 0.0309 and 0.0350 -> 0.0316, exact 0.768 -> 0.773 and 0.774 -> 0.790
    (docs/benchmarks/accuracy.md).
    """

    enabled: bool = True
    gap: float = 1.5  # how far past the box the colon may start
    dot_min: float = 0.04  # a dot's width and height, at least ...
    dot_max: float = 0.3  # ... and at most
    dot_offset: float = 0.25  # the two dots' centres at most this far apart along the line (stacked)
    dot_spacing: tuple[float, float] = (0.2, 0.75)  # the two dots' centre distance along the height
    speck: float = 0.03  # ink blobs smaller than this (both sides) are ignored as noise
    ink_contrast: float = 0.2  # ink: this share of the line's paper-to-ink contrast darker than paper
    pad: float = 0.15  # the extended box ends this far past the colon
    space_gap: float = 0.25  # a colon this far from the line's last ink reads after a space
    inside_gap: float = 0.6  # a colon inside the box at most this far from the line's last ink
    leading: bool = True  # also look before a line's start (a value's leading ": ")


@dataclass(frozen=True)
class MergeParams:
    """When two detected pieces of a row are one line (scanner_app.ocr.line_merge).

    Sizes are fractions of the pieces' mean height. ``enabled=False`` reads every box as detected.
    On sroie-dev's and sroie's receipts, pieces whose boxes overlap by more than 0.3 of their height
    were one annotated line 14 times in 15 ("Date:" and "04/01/2018"); with less or no overlap, table
    columns outnumber them (benchmarks/accuracy.py; docs/benchmarks/accuracy.md has the figures). Pieces a
    blank apart are one line only across a dotted leader (``leader_*``; ``leader=False`` leaves them apart).
    """

    enabled: bool = True
    overlap: float = 0.3  # the pieces' lengths overlap by more than this
    row_offset: float = 0.3  # their centres at most this far apart across the line
    height_ratio: float = 1.5  # the taller at most this many times the shorter
    max_angle: float = 5.0  # degrees between their text directions, at most
    # Dotted leaders (ocr.line_leader): "TOTAL AMT...." and "RM" with faint dots between them.
    leader: bool = True
    leader_reach: float = 12.0  # the blank between the pieces is at most this long
    leader_touch: float = 0.5  # a blank up to this long needs no dots in it
    leader_dot: float = 0.35  # each ink blob in the blank is at most this tall and wide
    leader_space: float = 1.0  # and no stretch of the blank wider than this is without ink
    leader_word_space: float = 0.4  # a blank next to the dots this wide (and 1.5x their spacing): a space
    leader_contrast: float = 0.2  # ink: this share of the line's paper-to-ink contrast darker than paper
    leader_speck: float = 0.03  # blobs smaller than this both ways are noise


@dataclass(frozen=True)
class SplitParams:
    """Where one detected box holds two lines (scanner_app.ocr.line_split).

    Sizes are fractions of the box's height. ``enabled=False`` reads every box as detected.
    """

    enabled: bool = True
    gap: float = 1.05  # a blank this wide, at least, parts the box
    band: tuple[float, float] = (0.2, 0.8)  # the rows looked at (a neighbour's descender is not ink)
    ink_contrast: float = 0.2  # ink: this share of the box's paper-to-ink contrast darker than paper
    speck: float = 0.03  # ink blobs smaller than this (both sides) are noise
    reach: float = 0.25  # each part reaches this share of the blank into it


@dataclass(frozen=True)
class RecParams:
    """How crops are sized for recognition and which lines are kept."""

    height: int = REC_HEIGHT
    width_buckets: tuple[int, ...] = (160, 320, 480, 640, 960, 1280, 1920, 2560, 3200)
    max_batch: int = 16  # crops per recognition call, <= text_recognition's max_batch_size
    drop_score: float = 0.6  # lines recognised with a lower mean confidence are dropped (PaddleOCR: 0.5)
    margin: float = 0.1  # crops widened along the text by this fraction of the line height, each end
    box_fit: BoxFit = BoxFit()
    colon: ColonParams = ColonParams()
    merge: MergeParams = MergeParams()
    split: SplitParams = SplitParams()
    repair_text: bool = True  # "15.0C" -> "15.00", "( 801580-T )" -> "(801580-T)" (ocr.text_repair)
