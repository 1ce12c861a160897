"""The server contract: model names, tensor names and shared limits, written once.

Everything that talks to Triton (the model repository's Python steps, the client, the launcher,
the model fetcher, the tests) imports these names instead of spelling them again.
"""

from __future__ import annotations

# Models in model_repository/.
PIPELINE_MODEL = "ocr_pipeline"
PREPROCESS_MODEL = "ocr_preprocess"
DETECTION_MODEL = "text_detection"
POSTPROCESS_MODEL = "ocr_postprocess"
RECOGNITION_MODEL = "text_recognition"
ORIENTATION_MODEL = "textline_orientation"  # PP-OCR text-line classifier: 0 or 180 degrees
ALL_MODELS = (
    PIPELINE_MODEL,
    PREPROCESS_MODEL,
    DETECTION_MODEL,
    POSTPROCESS_MODEL,
    RECOGNITION_MODEL,
    ORIENTATION_MODEL,
)
ONNX_MODELS = (DETECTION_MODEL, RECOGNITION_MODEL, ORIENTATION_MODEL)

# Pipeline (ensemble) tensors, as the client sees them.
IMAGE_INPUT = "IMAGE"  # BYTES [1]: the encoded file (JPEG, PNG, BMP, WebP, TIFF)
BOXES_OUTPUT = "BOXES"  # FP32 [N, 4, 2]: quadrilaterals in original image pixels
TEXTS_OUTPUT = "TEXTS"  # BYTES [N]: UTF-8 text of each line
SCORES_OUTPUT = "SCORES"  # FP32 [N]: recognition confidence of each line
IMAGE_SIZE_OUTPUT = "IMAGE_SIZE"  # INT32 [2]: decoded image height and width
# INT32 [1]: degrees (0, 90, 180, 270) the image as sent must turn clockwise to be upright; the
# page was read upright, BOXES stay in the pixels of the image as sent.
ORIENTATION_OUTPUT = "ORIENTATION"
DOCUMENTS_OUTPUT = "DOCUMENTS"  # FP32 [D, 4, 2]: each document's outline (receipts on a bed), image pixels
LINE_DOCUMENTS_OUTPUT = "LINE_DOCUMENTS"  # INT32 [N]: the document each line belongs to (index in DOCUMENTS)
MARK_DOCUMENT = -1  # LINE_DOCUMENTS of a note in another ink than the print (a pen mark: ocr.line_ink)

# Inner tensors between the pipeline steps.
DET_INPUT = "det_input"  # UINT8 [H, W, 3]: resized BGR image padded to a detection bucket
DET_OUTPUT = "det_prob"  # UINT8 [1, H, W]: text probability map scaled to 0..255
ORIGINAL_IMAGE = "original_image"  # UINT8 [H, W, 3]: decoded image (BGR) for cropping
RESIZE_INFO = "resize_info"  # FP32 [4]: original height, width, resized height, width
REC_INPUT = "rec_input"  # FP32 [3, 48, W]: text line crops, W a width bucket
REC_INDICES = "rec_indices"  # INT32 [T]: best class per time step (0 = CTC blank)
REC_PROBS = "rec_probs"  # FP32 [T]: probability of that class
CLS_INPUT = "cls_input"  # FP32 [3, 48, 192]: text line crops for the orientation classifier
CLS_PROBS = "cls_probs"  # FP32 [2]: probability of 0 and of 180 degrees

# Limits of one request, shared by the server steps and the client.
MAX_IMAGE_BYTES = 50 * 1024 * 1024
MAX_IMAGE_PIXELS = 80_000_000
MAX_IMAGE_SIDE = 20_000
# Larger images are downscaled while decoding (JPEG by DCT scaling, before the full image exists):
# the decoded image every later step holds is at most this many pixels.
MAX_WORK_PIXELS = 24_000_000
MAX_PDF_BYTES = 10 * MAX_IMAGE_BYTES  # a PDF file read by the client (its pages are rendered, not sent)
MAX_FILE_PAGES = 500  # pages read from one PDF or TIFF
PDF_RENDER_DPI = 200  # PDF pages are rendered at this resolution

# Limits of each inner model's request: every model is reachable by any client, so each checks
# its inputs against these before any work (INVALID_ARGUMENT naming the limit).
MAX_DET_BATCH = 8  # text_detection: images per request
MAX_DET_SIDE = 2048  # height and width of a detection input (the pipeline sends <= 2016)
MAX_DET_REQUEST_PIXELS = 2 * MAX_DET_SIDE * MAX_DET_SIDE  # batch x height x width
MAX_REC_BATCH = 64  # text_recognition: crops per request
MAX_REC_WIDTH = 3200  # the widest width bucket
MAX_REC_REQUEST_PIXELS = 16 * 48 * MAX_REC_WIDTH  # batch x height x width (FP32: 29 MiB)
MAX_TENSOR_BYTES = 256 * 1024 * 1024  # any one inner input tensor

# Files the model fetcher writes beside the ONNX models.
KEYS_FILE = "keys.json"  # in model_repository/text_recognition/: index -> character, 0 = blank
MODEL_SET_FILE = "model_set.json"  # in model_repository/: which set is placed, with hashes
