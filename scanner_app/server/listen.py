"""Where the embedded server listens, and the rule that keeps it off the network without TLS.

The rule (`plan_listen`):
- A loopback address (127.0.0.0/8, `localhost`): gRPC, HTTP and metrics all listen there; TLS on
  gRPC is optional.
- Any other address (a LAN address, 0.0.0.0 for every interface) needs TLS on gRPC
  (`--grpc-use-ssl`, the server's certificate and key; with client verification Triton's
  `--grpc-use-ssl-mutual` and the CA that signed the clients' certificates). Triton's HTTP and
  metrics endpoints cannot do TLS at all, so with TLS they stay on 127.0.0.1: the GPU box itself
  can still probe health and scrape metrics; other machines reach only the encrypted gRPC port.
- `insecure=True` lifts the rule: every listener without TLS goes on the address, with a loud
  warning. Without it, a non-loopback address and no TLS is refused before anything starts.
Model control is explicit whatever the address (set by the launcher: the supervisor reloads a model
whose shared-memory region grew too large), and its repository API answers only the start's admin key.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType

from scanner_app.server.ports import LOOPBACK

SERVICES = ("gRPC", "HTTP", "metrics")


class ListenRefused(ValueError):
    """The listen address and TLS settings break the rule; the message says what to pass instead."""


@dataclass(frozen=True)
class ServerTls:
    """PEM files for Triton's gRPC TLS; `client_ca` signs the client certificates that are accepted."""

    cert: Path
    key: Path
    client_ca: Path | None = None
    verify_client: bool = False

    def triton_args(self) -> list[str]:
        """Triton's own --grpc-use-ssl options for these files."""
        args = ["--grpc-use-ssl=true", f"--grpc-server-cert={self.cert}", f"--grpc-server-key={self.key}"]
        if self.client_ca is not None:
            args.append(f"--grpc-root-cert={self.client_ca}")
        if self.verify_client:
            args.append("--grpc-use-ssl-mutual=true")
        return args


@dataclass(frozen=True)
class ListenPlan:
    """The address of each listener, the gRPC TLS settings and the warnings to show."""

    hosts: Mapping[str, str] = field(default_factory=lambda: dict.fromkeys(SERVICES, LOOPBACK))
    tls: ServerTls | None = None
    warnings: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if set(self.hosts) != set(SERVICES):
            raise ValueError(f"hosts must name exactly {SERVICES}")
        object.__setattr__(self, "hosts", MappingProxyType(dict(self.hosts)))  # read-only

    def triton_args(self, ports: Mapping[str, int]) -> list[str]:
        """tritonserver's address, port and TLS arguments."""
        args = []
        for service, flag in (("gRPC", "grpc"), ("HTTP", "http"), ("metrics", "metrics")):
            args += [f"--{flag}-address={self.hosts[service]}", f"--{flag}-port={ports[service]}"]
        return args + (self.tls.triton_args() if self.tls else [])

    def connect_host(self, service: str) -> str:
        """The address a client on this machine uses for `service` (0.0.0.0 is reached on loopback)."""
        host = self.hosts[service]
        return LOOPBACK if ipaddress.ip_address(host).is_unspecified else host

    @property
    def exposed(self) -> bool:
        """True when some listener is reachable from other machines."""
        return any(not is_loopback(h) for h in self.hosts.values())


LOOPBACK_PLAN = ListenPlan()

# Triton APIs that answer only requests carrying ADMIN_HEADER with the server's own random key:
# shared-memory (a client could register Triton's internal regions), model-repository (load and
# unload; the refusal then says "restricted"), logging (a client could point the log file
# anywhere) and trace, for everyone; statistics too where a listener is open to other machines.
ADMIN_HEADER = "scanner-app-admin"
GRPC_ADMIN_HEADER = f"triton-grpc-protocol-{ADMIN_HEADER}"  # the name Triton's gRPC side expects
RESTRICTED_APIS = ("shared-memory", "model-repository", "logging", "trace")
RESTRICTED_FOR_LAN = ("statistics",)


def restricted_api_args(plan: ListenPlan, key: str) -> list[str]:
    """tritonserver's --grpc-restricted-protocol and --http-restricted-api options for `plan`."""
    args = []
    for service, flag in (("gRPC", "--grpc-restricted-protocol"), ("HTTP", "--http-restricted-api")):
        apis = RESTRICTED_APIS + (() if is_loopback(plan.hosts[service]) else RESTRICTED_FOR_LAN)
        args.append(f"{flag}={','.join(apis)}:{ADMIN_HEADER}={key}")
    return args


def parse_address(address: str) -> ipaddress.IPv4Address:
    """The IPv4 address to listen on; `localhost` is 127.0.0.1. ListenRefused for anything else."""
    if address.strip().lower() == "localhost":
        return ipaddress.IPv4Address(LOOPBACK)
    try:
        parsed = ipaddress.ip_address(address.strip())
    except ValueError:
        raise ListenRefused(
            f"--listen {address!r} is not an IP address. Give an IPv4 address of this machine "
            "(for example 192.168.1.20), 0.0.0.0 for every interface, or 127.0.0.1."
        ) from None
    if not isinstance(parsed, ipaddress.IPv4Address):
        raise ListenRefused(f"--listen {address}: only IPv4 addresses are supported (try 0.0.0.0).")
    return parsed


def is_loopback(address: str) -> bool:
    """True for 127.0.0.0/8 and `localhost`."""
    return parse_address(address).is_loopback


def check_tls_files(tls: ServerTls) -> None:
    """ListenRefused unless every TLS file is readable PEM and client verification has a CA."""
    if tls.verify_client and tls.client_ca is None:
        raise ListenRefused(
            "--tls-verify-client needs --tls-ca: the CA certificate that signed the clients' certificates."
        )
    named = {"--tls-cert": tls.cert, "--tls-key": tls.key, "--tls-ca": tls.client_ca}
    for flag, path in named.items():
        if path is None:
            continue
        try:
            data = Path(path).read_bytes()
        except OSError as err:
            raise ListenRefused(f"{flag} {path}: cannot read it ({err.strerror or err}).") from None
        if b"-----BEGIN " not in data:
            raise ListenRefused(f"{flag} {path} is not a PEM file (no '-----BEGIN' line).")


def plan_listen(
    address: str = LOOPBACK, tls: ServerTls | None = None, *, insecure: bool = False
) -> ListenPlan:
    """Apply the rule (see the module docstring); ListenRefused with the reason and the fix."""
    host = str(parse_address(address))
    if tls is not None:
        check_tls_files(tls)
    if ipaddress.IPv4Address(host).is_loopback:
        return ListenPlan(dict.fromkeys(SERVICES, host), tls)
    where = "every network interface" if host == "0.0.0.0" else host
    if insecure:
        unencrypted = "HTTP and metrics" if tls else "gRPC, HTTP and metrics"
        warning = (
            f"WARNING: --insecure: {unencrypted} listen on {where} WITHOUT TLS. Anyone on the network can "
            "send images to this server and read the results"
            + ("" if tls else ", and nothing proves to clients that they reach this server")
            + ". Use this only on a network you trust."
        )
        return ListenPlan(dict.fromkeys(SERVICES, host), tls, (warning,))
    if tls is None:
        raise ListenRefused(
            f"Refusing to listen on {where} without TLS: receipts and invoices would cross the network "
            "in clear text. Pass --tls-cert FILE --tls-key FILE (and --tls-ca FILE --tls-verify-client to "
            "accept only clients with a certificate), listen on 127.0.0.1, or add --insecure to do it anyway."
        )
    note = (
        f"gRPC listens on {where} with TLS"
        + (" and requires a client certificate" if tls.verify_client else "")
        + f"; HTTP and metrics stay on {LOOPBACK} (Triton serves them without TLS; "
        "add --insecure to expose them too)."
    )
    hosts = {"gRPC": host, "HTTP": LOOPBACK, "metrics": LOOPBACK}
    return ListenPlan(hosts, tls, (note,))
