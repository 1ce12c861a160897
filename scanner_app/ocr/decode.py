"""Decoding of encoded image bytes on the server side, with the shared size limits."""

from __future__ import annotations

import io
import math
from dataclasses import dataclass

import cv2
import numpy as np
from PIL import ExifTags, Image, ImageOps, UnidentifiedImageError

from scanner_app.contract import MAX_IMAGE_BYTES, MAX_IMAGE_PIXELS, MAX_IMAGE_SIDE, MAX_WORK_PIXELS


class ImageDecodeError(ValueError):
    """The bytes are not an image this pipeline can read; the message says why."""


@dataclass(frozen=True)
class DecodedImage:
    """The decoded pixels (BGR, at most MAX_WORK_PIXELS) and the upright size of the image as sent."""

    pixels: np.ndarray
    height: int
    width: int


def decode_image(data: bytes) -> np.ndarray:
    """Decode JPEG/PNG/BMP/WebP/TIFF/GIF bytes into an upright BGR uint8 array (EXIF applied).

    Images over MAX_WORK_PIXELS come back downscaled (see decode_sized for the size as sent).
    """
    return decode_sized(data).pixels


def decode_sized(data: bytes) -> DecodedImage:
    """decode_image, with the upright size of the image as sent (before any downscaling)."""
    if not data:
        raise ImageDecodeError("empty input: 0 bytes")
    if len(data) > MAX_IMAGE_BYTES:
        raise ImageDecodeError(
            f"{len(data)} bytes is over the limit of {MAX_IMAGE_BYTES} bytes (MAX_IMAGE_BYTES)"
        )
    try:
        with Image.open(io.BytesIO(data)) as image:
            width, height = image.size
            if width < 1 or height < 1:
                raise ImageDecodeError(f"image has no pixels ({width}x{height})")
            if max(width, height) > MAX_IMAGE_SIDE or width * height > MAX_IMAGE_PIXELS:
                raise ImageDecodeError(
                    f"image is {width}x{height} pixels, over the limit of {MAX_IMAGE_PIXELS} pixels "
                    f"(MAX_IMAGE_PIXELS) or {MAX_IMAGE_SIDE} pixels a side (MAX_IMAGE_SIDE)"
                )
            swapped = image.getexif().get(ExifTags.Base.Orientation, 1) in (5, 6, 7, 8)
            if width * height > MAX_WORK_PIXELS and image.format == "JPEG":
                # DCT scaling by a power of two: the full-size image is never decoded.
                factor = 2 ** math.ceil(math.log2(math.sqrt(width * height / MAX_WORK_PIXELS)))
                image.draft("RGB", (width // factor, height // factor))
            image.load()
            # Reduce before anything copies the full-size image (exif_transpose returns a copy).
            reduced = _reduced(image)
            upright = ImageOps.exif_transpose(reduced) or reduced
            rgb = upright if upright.mode == "RGB" else upright.convert("RGB")
            del reduced, upright
    except UnidentifiedImageError:
        raise ImageDecodeError("not a recognised image format") from None
    except Image.DecompressionBombError as exc:
        raise ImageDecodeError(f"refused as a decompression bomb: {exc}") from None
    except (OSError, SyntaxError, ValueError) as exc:
        if isinstance(exc, ImageDecodeError):
            raise
        raise ImageDecodeError(f"corrupt or truncated image: {exc}") from None
    pixels = np.array(rgb)  # one copy; swapped to BGR in place
    del rgb
    cv2.cvtColor(pixels, cv2.COLOR_RGB2BGR, dst=pixels)
    upright_h, upright_w = (width, height) if swapped else (height, width)
    return DecodedImage(pixels, upright_h, upright_w)


def _work_size(width: int, height: int) -> tuple[int, int]:
    """The largest size of the same aspect within MAX_WORK_PIXELS."""
    scale = min(1.0, math.sqrt(MAX_WORK_PIXELS / (width * height)))
    return max(1, math.floor(width * scale)), max(1, math.floor(height * scale))


def _reduced(image: Image.Image) -> Image.Image:
    """`image` downscaled within MAX_WORK_PIXELS, in its own mode where Pillow can (less memory)."""
    if image.width * image.height <= MAX_WORK_PIXELS:
        return image
    if image.mode == "1":
        image = image.convert("L")
    elif image.mode not in ("L", "LA", "RGB", "RGBA", "I", "F"):
        image = image.convert("RGBA" if "A" in image.mode or "transparency" in image.info else "RGB")
    return image.resize(_work_size(image.width, image.height), Image.Resampling.BOX, reducing_gap=2.0)
