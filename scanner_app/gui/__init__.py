"""The PySide6 desktop app: thin Qt views over scanner_app.core."""
