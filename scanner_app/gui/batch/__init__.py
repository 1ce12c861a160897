"""The Batch tab: the queue table, progress, pause/resume/cancel, exports, the watched folder's row.

May import: the GUI's shared modules, ``gui.connection``, ``gui.review``, ``gui.i18n`` and the core.
Not the viewer, the camera, the capture dialogs or the main window.
"""
