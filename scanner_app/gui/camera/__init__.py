"""Capture from a camera or a video file: the frame source, the live preview, the shutter, the dialog.

May import: the GUI's shared modules, ``core.camera`` and ``core.client``; no other GUI feature.
"""
