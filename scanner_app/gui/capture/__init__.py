"""Ways in besides a file: a scanner (File > Scan...), a region of the screen, a drop or a paste.

May import: ``gui.document``, the GUI's shared modules, ``core.devices`` and the core.
"""
