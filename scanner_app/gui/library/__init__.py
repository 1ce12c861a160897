"""The Library tab: every receipt the app has read, by any way in, from the one receipt library.

``hub`` opens the library (``--library``, else the setting, else the default) off the GUI thread
and hands the GUI's ways in their page sinks; ``search`` (no Qt) is a search as the tab holds it
and what one fetch brings back; ``table_model`` and ``thumbnails`` show the receipts; ``search_bar``,
``filter_row`` and ``saved_searches`` ask; ``edit_bar`` edits the selection, ``duplicate_panel``
decides a flagged pair, ``export_dialog`` chooses an accounting export; ``panel`` assembles the
tab. Opening a receipt in the viewer is a signal the main window connects.

May import: the GUI's shared modules, ``gui.i18n``, ``core.library``, ``core.store`` (the page
sink protocol) and the core. Not the viewer, the document, another tab or the main window.
"""
