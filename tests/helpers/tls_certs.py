"""Throw-away TLS material for tests: a CA, a server certificate for 127.0.0.1, a client certificate."""

from __future__ import annotations

import datetime
import ipaddress
from dataclasses import dataclass
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID


@dataclass(frozen=True)
class TlsFiles:
    """PEM files written by make_tls_files."""

    ca_cert: Path
    server_cert: Path
    server_key: Path
    client_cert: Path
    client_key: Path
    other_ca_cert: Path  # a CA that signed nothing here: trusting only it must fail


def _name(common_name: str) -> x509.Name:
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common_name)])


def _write_key(key: ec.EllipticCurvePrivateKey, path: Path) -> None:
    pem = key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    path.write_bytes(pem)
    path.chmod(0o600)


def _make_ca(common_name: str) -> tuple[ec.EllipticCurvePrivateKey, x509.Certificate]:
    key = ec.generate_private_key(ec.SECP256R1())
    now = datetime.datetime.now(datetime.timezone.utc)
    cert = (
        x509.CertificateBuilder()
        .subject_name(_name(common_name))
        .issuer_name(_name(common_name))
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=True,
                content_commitment=False,
                key_encipherment=False,
                data_encipherment=False,
                key_agreement=False,
                key_cert_sign=True,
                crl_sign=True,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
        .sign(key, hashes.SHA256())
    )
    return key, cert


def _issue(
    ca_key: ec.EllipticCurvePrivateKey,
    ca_cert: x509.Certificate,
    common_name: str,
    usage: x509.ObjectIdentifier,
    ip: str | None = None,
) -> tuple[ec.EllipticCurvePrivateKey, x509.Certificate]:
    key = ec.generate_private_key(ec.SECP256R1())
    now = datetime.datetime.now(datetime.timezone.utc)
    builder = (
        x509.CertificateBuilder()
        .subject_name(_name(common_name))
        .issuer_name(ca_cert.subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.ExtendedKeyUsage([usage]), critical=False)
    )
    if ip is not None:
        san = x509.SubjectAlternativeName(
            [x509.IPAddress(ipaddress.ip_address(ip)), x509.DNSName("localhost")]
        )
        builder = builder.add_extension(san, critical=False)
    return key, builder.sign(ca_key, hashes.SHA256())


def make_tls_files(directory: Path, ip: str = "127.0.0.1") -> TlsFiles:
    """Write a CA, a server cert (IP SAN `ip`), a client cert and an unrelated CA into `directory`."""
    directory.mkdir(parents=True, exist_ok=True)
    ca_key, ca_cert = _make_ca("scanner-app test CA")
    server_key, server_cert = _issue(
        ca_key, ca_cert, "scanner-app test server", ExtendedKeyUsageOID.SERVER_AUTH, ip
    )
    client_key, client_cert = _issue(
        ca_key, ca_cert, "scanner-app test client", ExtendedKeyUsageOID.CLIENT_AUTH
    )
    _, other_ca = _make_ca("some other CA")
    files = TlsFiles(
        ca_cert=directory / "ca.pem",
        server_cert=directory / "server.pem",
        server_key=directory / "server.key",
        client_cert=directory / "client.pem",
        client_key=directory / "client.key",
        other_ca_cert=directory / "other-ca.pem",
    )
    pem = serialization.Encoding.PEM
    files.ca_cert.write_bytes(ca_cert.public_bytes(pem))
    files.server_cert.write_bytes(server_cert.public_bytes(pem))
    files.client_cert.write_bytes(client_cert.public_bytes(pem))
    files.other_ca_cert.write_bytes(other_ca.public_bytes(pem))
    _write_key(server_key, files.server_key)
    _write_key(client_key, files.client_key)
    return files


def server_tls_args(files: TlsFiles, mutual: bool = False) -> list[str]:
    """tritonserver arguments that turn on TLS (and client-certificate checks when `mutual`)."""
    args = [
        "--grpc-use-ssl=true",
        f"--grpc-server-cert={files.server_cert}",
        f"--grpc-server-key={files.server_key}",
        f"--grpc-root-cert={files.ca_cert}",
    ]
    if mutual:
        args.append("--grpc-use-ssl-mutual=true")
    return args
