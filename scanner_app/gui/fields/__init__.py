"""A page's invoice fields beside its text: the table model, the panel, flags as sentences.

May import: ``gui.document``, ``gui.i18n``, the GUI's shared modules, ``core.fields`` and ``core.export``.
"""
