"""The app's own exceptions, with messages meant for people."""

from __future__ import annotations


class ScannerError(Exception):
    """Base of every error the app reports to a user."""


class ServerUnavailable(ScannerError):
    """The server cannot be reached or is not ready."""


class InvalidImage(ScannerError):
    """The server (or the client) refused the image; the message says why."""


class ServerContractError(ScannerError):
    """The server is up but does not serve the pipeline this client expects."""


class InferenceFailed(ScannerError):
    """The server failed while processing a valid request."""


class UnreadableFile(ScannerError):
    """A file the client cannot read as an image or PDF; the message names the file and the cause."""


class ServerTimeout(ServerUnavailable):
    """A call to the server ran past its deadline (the server may be alive but busy)."""


class TlsError(ScannerError):
    """The TLS handshake with the server failed; the message says which side refused and why.

    A setup mistake (certificates, names), not an outage: retrying or failing over cannot fix it.
    """


class ClientConfigError(ScannerError):
    """The client's own settings are wrong, for example a TLS file that cannot be read."""
