"""Three PEM file pickers (CA, client certificate, client key) for the Server tab."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QFileDialog, QFormLayout, QHBoxLayout, QLineEdit, QPushButton, QWidget

from scanner_app.core.client.triton import ClientOptions
from scanner_app.gui.connection.logic import options_from_settings


class TlsFields(QWidget):
    """Line edits with Browse buttons; ``options(base)`` builds ClientOptions from them."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        form = QFormLayout(self)
        form.setContentsMargins(0, 0, 0, 0)
        self.ca_edit = self._row(form, self.tr("CA certificate (PEM):"))
        self.cert_edit = self._row(form, self.tr("Client certificate (PEM):"))
        self.key_edit = self._row(form, self.tr("Client key (PEM):"))

    def _row(self, form: QFormLayout, label: str) -> QLineEdit:
        edit = QLineEdit(self)
        edit.setPlaceholderText(self.tr("none (plain gRPC unless a file is set)"))
        browse = QPushButton(self.tr("Browse..."), self)
        browse.clicked.connect(lambda: self._browse(edit))
        row = QHBoxLayout()
        row.addWidget(edit, 1)
        row.addWidget(browse)
        form.addRow(label, row)
        return edit

    def _browse(self, edit: QLineEdit) -> None:
        start = edit.text() or str(Path.home())
        kinds = self.tr("PEM files (*.pem *.crt *.key);;All files (*)")
        name, _ = QFileDialog.getOpenFileName(self, self.tr("Choose a PEM file"), start, kinds)
        if name:
            edit.setText(name)

    def set_options(self, options: ClientOptions) -> None:
        for edit, path in ((self.ca_edit, options.root_certificates),
                           (self.cert_edit, options.certificate_chain),
                           (self.key_edit, options.private_key)):  # fmt: skip
            edit.setText("" if path is None else str(path))

    def options(self, base: ClientOptions | None = None) -> ClientOptions:
        return options_from_settings(self.ca_edit.text(), self.cert_edit.text(), self.key_edit.text(), base)
