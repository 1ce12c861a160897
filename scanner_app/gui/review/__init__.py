"""A clerk's review of a batch in the Batch tab: the review bar and its session (edits stored, undoable).

May import: the GUI's shared modules, ``gui.document`` (the undo stack), ``gui.fields`` (flag
sentences), ``gui.i18n`` and the core.
"""
