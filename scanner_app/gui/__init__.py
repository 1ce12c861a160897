"""The PySide6 desktop app: thin Qt views over scanner_app.core, one package per feature.

The modules at this level are the shell and what every feature shares: ``app`` (start the app),
``background`` (the one way to run blocking work off the GUI thread), ``theme``, ``dialog_paths``
and ``units``. Features: ``window`` (the main window, which assembles the rest), ``document``,
``viewer``, ``lines``, ``fields``, ``batch``, ``review``, ``library`` (the receipt library's tab),
``capture``, ``camera``, ``connection``, ``server``, ``dashboard`` (the Stress tab) and ``i18n``.

May import: anything of the app's; sibling features only as the import-linter contracts allow.
"""
