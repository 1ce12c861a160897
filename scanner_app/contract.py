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
ALL_MODELS = (PIPELINE_MODEL, PREPROCESS_MODEL, DETECTION_MODEL, POSTPROCESS_MODEL, RECOGNITION_MODEL)
ONNX_MODELS = (DETECTION_MODEL, RECOGNITION_MODEL)

# Pipeline (ensemble) tensors, as the client sees them.
IMAGE_INPUT = "IMAGE"  # BYTES [1]: the encoded file (JPEG, PNG, BMP, WebP, TIFF)
BOXES_OUTPUT = "BOXES"  # FP32 [N, 4, 2]: quadrilaterals in original image pixels
TEXTS_OUTPUT = "TEXTS"  # BYTES [N]: UTF-8 text of each line
SCORES_OUTPUT = "SCORES"  # FP32 [N]: recognition confidence of each line
IMAGE_SIZE_OUTPUT = "IMAGE_SIZE"  # INT32 [2]: decoded image height and width

# Inner tensors between the pipeline steps.
DET_INPUT = "det_input"  # UINT8 [H, W, 3]: resized BGR image padded to a detection bucket
DET_OUTPUT = "det_prob"  # UINT8 [1, H, W]: text probability map scaled to 0..255
ORIGINAL_IMAGE = "original_image"  # UINT8 [H, W, 3]: decoded image (BGR) for cropping
RESIZE_INFO = "resize_info"  # FP32 [4]: original height, width, resized height, width
REC_INPUT = "rec_input"  # FP32 [3, 48, W]: text line crops, W a width bucket
REC_INDICES = "rec_indices"  # INT32 [T]: best class per time step (0 = CTC blank)
REC_PROBS = "rec_probs"  # FP32 [T]: probability of that class

# Limits of one request, shared by the server steps and the client.
MAX_IMAGE_BYTES = 50 * 1024 * 1024
MAX_IMAGE_PIXELS = 80_000_000
MAX_IMAGE_SIDE = 20_000
MAX_PDF_BYTES = 10 * MAX_IMAGE_BYTES  # a PDF file read by the client (its pages are rendered, not sent)
MAX_FILE_PAGES = 500  # pages read from one PDF or TIFF
PDF_RENDER_DPI = 200  # PDF pages are rendered at this resolution

# Files the model fetcher writes beside the ONNX models.
KEYS_FILE = "keys.json"  # in model_repository/text_recognition/: index -> character, 0 = blank
MODEL_SET_FILE = "model_set.json"  # in model_repository/: which set is placed, with hashes
