"""TCP port checks for the embedded server: is a port free, and a free one when it is not."""

from __future__ import annotations

import socket
from collections.abc import Callable, Iterable, Mapping

LOOPBACK = "127.0.0.1"


def port_is_free(port: int, host: str = LOOPBACK) -> bool:
    """True when a listening socket could bind `host:port` now (a server's view, SO_REUSEADDR on)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((host, port))
        except OSError:
            return False
    return True


def free_port(host: str = LOOPBACK, exclude: Iterable[int] = ()) -> int:
    """A port the kernel calls free on `host`, not in `exclude`."""
    excluded = set(exclude)
    for _ in range(100):
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
            sock.bind((host, 0))
            port = sock.getsockname()[1]
        if port not in excluded:
            return port
    raise OSError(f"no free TCP port found on {host}")


def resolve_ports(
    requested: Mapping[str, int],
    on_message: Callable[[str], object],
    host: str | Mapping[str, str] = LOOPBACK,
) -> dict[str, int]:
    """Map each service name to its requested port, or a free one when it is 0 or busy.

    `host` is one address for all services, or each service's own. A busy requested port is
    replaced and reported through `on_message`.
    """
    chosen: dict[str, int] = {}
    for name, port in requested.items():
        where = host if isinstance(host, str) else host[name]
        taken = set(chosen.values())
        if port and port not in taken and port_is_free(port, where):
            chosen[name] = port
            continue
        new_port = free_port(where, exclude=taken | set(requested.values()))
        if port:
            on_message(f"{name} port {port} on {where} is already in use; using port {new_port} instead.")
        chosen[name] = new_port
    return chosen
