"""The Server tab: endpoints and TLS, test connection, model configurations, live model
control, the log.

May import: ``gui.connection``, ``gui.i18n``, the GUI's shared modules, ``core.client`` and
``scanner_app.server``.
"""
