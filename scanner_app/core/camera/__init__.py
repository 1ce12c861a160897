"""Camera frames (no Qt): finding a document's edges in a frame and flattening it.

May import: ``scanner_app.contract`` and numpy/OpenCV only.
"""
