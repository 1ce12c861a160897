"""The recognised lines of the document on screen as a table: editable, filterable, synced with the viewer.

May import: ``gui.document``, ``gui.viewer`` (its overlay style) and the GUI's shared modules.
"""
