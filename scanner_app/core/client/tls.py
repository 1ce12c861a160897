"""TLS for the gRPC client: check the PEM files up front, explain handshake failures in words.

gRPC reports every TLS failure as status UNAVAILABLE, with the reason buried in the message
("Tls handshake failed (TSI_PROTOCOL_FAILURE): ... CERTIFICATE_VERIFY_FAILED ..."). A server that
requires TLS, or a client certificate, simply closes the socket: the client sees only
"failed to connect to all addresses; ... Socket closed", the same as for a dropped connection.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from scanner_app.core.errors import ClientConfigError

# Substrings of gRPC messages that mean the handshake itself failed (never worth a retry).
_HANDSHAKE_MARKERS = ("tls handshake failed", "ssl_error", "certificate_verify_failed", "handshake failed")
_HOSTNAME_MARKER = "hostname verification check failed"


@dataclass(frozen=True)
class TlsSettings:
    """The TLS part of the client options: PEM file paths and an optional name override."""

    enabled: bool = False
    root_certificates: Path | None = None  # CA bundle that signed the server's certificate
    private_key: Path | None = None  # client key, for servers that require mutual TLS
    certificate_chain: Path | None = None  # client certificate (chain) matching private_key
    target_name: str | None = None  # name to check the server certificate against, if not the host

    @property
    def client_certificate(self) -> bool:
        """True when the client presents a certificate of its own (mutual TLS)."""
        return self.private_key is not None


def check_files(tls: TlsSettings) -> None:
    """Raise ClientConfigError unless every configured PEM file is readable and looks like PEM."""
    if (tls.private_key is None) != (tls.certificate_chain is None):
        raise ClientConfigError(
            "A client certificate needs both files: the private key and the certificate chain."
        )
    files = {
        "CA certificate (root_certificates)": tls.root_certificates,
        "client private key (private_key)": tls.private_key,
        "client certificate (certificate_chain)": tls.certificate_chain,
    }
    for what, path in files.items():
        if path is None:
            continue
        try:
            data = Path(path).read_bytes()
        except OSError as err:
            raise ClientConfigError(f"Cannot read the {what} {path}: {err.strerror or err}") from None
        if b"-----BEGIN " not in data:
            raise ClientConfigError(f"The {what} {path} is not a PEM file (no '-----BEGIN' line).")


def is_handshake_failure(message: str) -> bool:
    """True when a gRPC error message says the TLS handshake failed (not worth retrying)."""
    low = message.lower()
    return _HOSTNAME_MARKER in low or any(marker in low for marker in _HANDSHAKE_MARKERS)


def explain(message: str, url: str, tls: TlsSettings) -> str | None:
    """A sentence for people about a TLS failure in `message`, or None when it is not about TLS."""
    low = message.lower()
    if _HOSTNAME_MARKER in low:
        name = tls.target_name or url.rsplit(":", 1)[0]
        return (
            f"TLS: the certificate of {url} is not issued for {name!r}. Connect by a name or IP that "
            "the certificate lists, or set the TLS target name override to one it lists."
        )
    if any(marker in low for marker in _HANDSHAKE_MARKERS):
        roots = f"the CA certificate {tls.root_certificates}" if tls.root_certificates else "the system CAs"
        if "certificate_verify_failed" in low or "certificate verify failed" in low:
            reason = f"its certificate is not signed by {roots}"
            hint = "Pass the CA certificate that signed the server's certificate (root_certificates)."
        else:
            reason = "the handshake was refused"
            hint = "Check that the server and client certificates match their keys and CAs."
        detail = message.rsplit("SSL_ERROR_SSL:", 1)[-1] if "SSL_ERROR" in message else message
        detail = detail.strip(" :").removesuffix(": OK")
        return f"TLS: could not verify server {url}: {reason} ({detail}). {hint}"
    if "failed to connect" in low and "socket closed" in low:
        if not tls.enabled:
            return (
                f"{url} closed the connection during setup: the server probably requires TLS. "
                "Pass its CA certificate (root_certificates) to connect over TLS."
            )
        if not tls.client_certificate:
            return (
                f"{url} closed the TLS connection during setup: the server probably requires a client "
                "certificate (mutual TLS). Pass private_key and certificate_chain."
            )
        return (
            f"{url} closed the TLS connection during setup: it may not accept this client certificate "
            "(is it signed by the CA the server trusts?)."
        )
    return None
