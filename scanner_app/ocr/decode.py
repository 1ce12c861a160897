"""Decoding of encoded image bytes on the server side, with the shared size limits."""

from __future__ import annotations

import io

import numpy as np
from PIL import Image, ImageOps, UnidentifiedImageError

from scanner_app.contract import MAX_IMAGE_BYTES, MAX_IMAGE_PIXELS, MAX_IMAGE_SIDE


class ImageDecodeError(ValueError):
    """The bytes are not an image this pipeline can read; the message says why."""


def decode_image(data: bytes) -> np.ndarray:
    """Decode JPEG/PNG/BMP/WebP/TIFF/GIF bytes into an upright BGR uint8 array (EXIF applied)."""
    if not data:
        raise ImageDecodeError("empty input: 0 bytes")
    if len(data) > MAX_IMAGE_BYTES:
        raise ImageDecodeError(f"{len(data)} bytes is over the limit of {MAX_IMAGE_BYTES} bytes")
    try:
        with Image.open(io.BytesIO(data)) as image:
            width, height = image.size
            if width < 1 or height < 1:
                raise ImageDecodeError(f"image has no pixels ({width}x{height})")
            if max(width, height) > MAX_IMAGE_SIDE or width * height > MAX_IMAGE_PIXELS:
                raise ImageDecodeError(
                    f"image is {width}x{height} pixels, over the limit of {MAX_IMAGE_PIXELS} pixels "
                    f"or {MAX_IMAGE_SIDE} pixels a side"
                )
            image.load()
            upright = ImageOps.exif_transpose(image) or image
            rgb = upright.convert("RGB")
    except UnidentifiedImageError:
        raise ImageDecodeError("not a recognised image format") from None
    except Image.DecompressionBombError as exc:
        raise ImageDecodeError(f"refused as a decompression bomb: {exc}") from None
    except (OSError, SyntaxError, ValueError) as exc:
        if isinstance(exc, ImageDecodeError):
            raise
        raise ImageDecodeError(f"corrupt or truncated image: {exc}") from None
    return np.ascontiguousarray(np.asarray(rgb)[:, :, ::-1])
