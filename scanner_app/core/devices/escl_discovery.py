"""Finding driverless eSCL scanners on the local network: DNS-SD ``_uscan._tcp`` (and ``_uscans``).

Multicast DNS goes to the LAN, so the tests never call ``discover``; they check ``device_from_service``,
the part that turns an announcement into a device address.
"""

from __future__ import annotations

import ipaddress
import threading
from collections.abc import Mapping

from scanner_app.core.devices.base import DeviceInfo
from scanner_app.core.devices.escl import PREFIX

SERVICE_TYPES = ("_uscan._tcp.local.", "_uscans._tcp.local.")


def device_from_service(
    service_type: str, addresses: list[str], port: int, txt: Mapping[bytes, bytes | None], name: str
) -> DeviceInfo | None:
    """The device an announcement names (TXT ``rs`` is the eSCL root, ``ty`` the model)."""
    if not addresses:
        return None
    host = addresses[0]
    if ipaddress.ip_address(host).version == 6:
        host = f"[{host}]"
    scheme = "https" if service_type.startswith("_uscans") else "http"
    root = (txt.get(b"rs") or b"eSCL").decode("utf-8", "replace").strip("/")
    model = (txt.get(b"ty") or name.split(".")[0].encode()).decode("utf-8", "replace")
    return DeviceInfo(f"{PREFIX}{scheme}://{host}:{port}/{root}", "", model, "network scanner (eSCL)")


def discover(timeout_s: float = 3.0) -> list[DeviceInfo]:
    """eSCL scanners that answer within ``timeout_s``; [] when zeroconf is not installed."""
    try:
        from zeroconf import ServiceBrowser, ServiceListener, Zeroconf
    except ImportError:
        return []
    found: dict[str, DeviceInfo] = {}
    lock = threading.Lock()

    class Listener(ServiceListener):
        def add_service(self, zc: Zeroconf, type_: str, name: str) -> None:
            info = zc.get_service_info(type_, name, timeout=int(timeout_s * 1000))
            if info is None or info.port is None:
                return
            device = device_from_service(type_, info.parsed_addresses(), info.port, info.properties, name)
            if device is not None:
                with lock:
                    found[device.id] = device

        def update_service(self, zc: Zeroconf, type_: str, name: str) -> None:
            self.add_service(zc, type_, name)

        def remove_service(self, zc: Zeroconf, type_: str, name: str) -> None:
            pass

    zc = Zeroconf()
    try:
        browser = ServiceBrowser(zc, list(SERVICE_TYPES), Listener())
        threading.Event().wait(timeout_s)  # announcements arrive on zeroconf's threads meanwhile
        browser.cancel()
    finally:
        zc.close()
    with lock:
        return sorted(found.values(), key=lambda d: d.id)
