"""The document on screen: its model, the controller that opens and recognises it off the GUI
thread, the blocking jobs, its export, its undo stack and the session folder it is kept in.

May import: the GUI's shared modules, ``gui.connection``, ``gui.i18n`` and the core; no view.
"""
