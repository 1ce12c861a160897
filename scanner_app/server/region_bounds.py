"""How large each Python-backend model's shared-memory region can grow on requests the contract allows,
and how often a model whose region grew past that may be reloaded (pure: no Triton, no /proc).

The backend copies a request's inputs into the stub's region before any check of ours runs and grows
the region by the allocation that did not fit, rounded up to whole growth steps; it never shrinks one
(measured on 2.51: a 16 MiB region handed a refused 36 MiB detection input became 56 MiB, the
contract's largest detection request, 24 MiB in and 8 MiB out, left it at 48 MiB). So a region larger
than the start size plus every tensor of the largest allowed request, each rounded up to a step, can
only come from a request the contract refuses: the model is worth reloading (its new stubs start
at the start size again).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field

from scanner_app import contract
from scanner_app.ocr.orientation import CLS_HEIGHT, CLS_WIDTH
from scanner_app.server.shm import model_of

FP32 = 4
INT32 = 4
# Text is small beside the tensors around it: one growth step holds all of a page's outputs.
ONE_STEP = 1
_DET_IMAGE = contract.MAX_DET_SIDE * contract.MAX_DET_SIDE  # one detection input's pixels
_WORK_IMAGE = contract.MAX_WORK_PIXELS * 3  # the decoded page (UINT8 BGR)
_REC_BATCH = contract.MAX_REC_REQUEST_PIXELS * 3 * FP32  # recognition input (FP32 [b, 3, 48, w])
_REC_OUT = contract.MAX_REC_BATCH * contract.MAX_REC_WIDTH * INT32  # one time step per column at most
_CLS_BATCH = contract.MAX_REC_BATCH * 3 * CLS_HEIGHT * CLS_WIDTH * FP32
_CLS_OUT = contract.MAX_REC_BATCH * 2 * FP32

# model -> the byte size of each tensor in its region at once for its largest allowed request:
# inputs, outputs, and (ocr_postprocess) the requests it sends to the recognition models.
LARGEST_REQUEST: dict[str, tuple[int, ...]] = {
    contract.DETECTION_MODEL: (contract.MAX_DET_REQUEST_PIXELS * 3, contract.MAX_DET_REQUEST_PIXELS),
    contract.RECOGNITION_MODEL: (_REC_BATCH, _REC_OUT, _REC_OUT),
    contract.ORIENTATION_MODEL: (_CLS_BATCH, _CLS_OUT),
    # IMAGE (a BYTES tensor: a 4-byte length before the file), det_input, original_image, resize_info
    contract.PREPROCESS_MODEL: (contract.MAX_IMAGE_BYTES + 4, _DET_IMAGE * 3, _WORK_IMAGE, 4 * FP32),
    contract.POSTPROCESS_MODEL: (
        _DET_IMAGE, _WORK_IMAGE, 4 * FP32,  # det_prob, original_image, resize_info
        _REC_BATCH, _REC_OUT, _REC_OUT, _CLS_BATCH, _CLS_OUT,  # its recognition requests
        ONE_STEP,  # BOXES, TEXTS, SCORES and the rest
    ),
}  # fmt: skip


def region_bound(model: str, start_bytes: int, growth_bytes: int) -> int | None:
    """The largest region `model`'s stub reaches on requests the contract allows (None: not ours)."""
    tensors = LARGEST_REQUEST.get(model)
    if tensors is None:
        return None
    return start_bytes + sum(math.ceil(size / growth_bytes) * growth_bytes for size in tensors)


@dataclass(frozen=True)
class Oversized:
    """A model instance whose region grew past its bound."""

    model: str
    instance: str
    region_bytes: int
    bound_bytes: int

    def describe(self) -> str:
        mib = 2**20
        return (
            f"{self.model} reloaded: the shared-memory region of {self.instance} had grown to "
            f"{self.region_bytes / mib:.0f} MiB, over the {self.bound_bytes / mib:.0f} MiB that the "
            "largest request the contract allows needs (a refused request's size)"
        )


@dataclass
class RecycleLimiter:
    """At most one reload per model every `min_interval_s`: a flood of refused requests regrows a
    region at once, and must not keep the model reloading."""

    min_interval_s: float
    _last: dict[str, float] = field(default_factory=dict)

    def allow(self, model: str, now: float) -> bool:
        """True (and counted from `now`) when `model` was not reloaded within the interval."""
        last = self._last.get(model)
        if last is not None and now - last < self.min_interval_s:
            return False
        self._last[model] = now
        return True


def oversized(sizes: Mapping[str, int], start_bytes: int, growth_bytes: int) -> list[Oversized]:
    """One entry per model with an instance (`sizes`: instance -> region bytes) past the bound."""
    found: dict[str, Oversized] = {}
    for instance, size in sorted(sizes.items()):
        model = model_of(instance)
        bound = region_bound(model, start_bytes, growth_bytes)
        if bound is not None and size > bound and model not in found:
            found[model] = Oversized(model, instance, size, bound)
    return list(found.values())
