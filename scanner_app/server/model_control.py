"""Live model control on the embedded demo server: dynamic batching and instance counts (no Qt).

Triton's repository API `load` with a `config` parameter replaces a model's configuration and
reloads it while the server keeps serving (ensembles that use it follow). The embedded server
allows this only when started with `model_control=True` on loopback (explicit model-control
mode; scanner_app.server.embedded), and the repository API answers only requests carrying that
start's admin key (scanner_app.server.listen). A LAN or remote server never gets this: `ModelControl`
refuses any address that is not loopback.

`apply` reads the model's current configuration back from the server, changes only the dynamic
batcher and the instance count, loads it, and reads it back again to confirm.
"""

from __future__ import annotations

import contextlib
import json
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, urlparse

from scanner_app.server.listen import ADMIN_HEADER, is_loopback
from scanner_app.server.shm import Stub, model_of, stubs_of

LOAD_TIMEOUT_S = 300.0  # a reload starts new Python stubs and ONNX Runtime sessions
RELOAD_PARAMETER = "reloaded_at"  # ModelControl.reload's mark (ns since the epoch)
_NO_PROXY = urllib.request.build_opener(urllib.request.ProxyHandler({}))


class ModelControlError(RuntimeError):
    """The server refused or failed a config change; the message names the model and the cause."""


@dataclass(frozen=True)
class ModelSettings:
    """What the presenter switches per model."""

    dynamic_batching: bool
    instances: int

    def describe(self) -> str:
        return f"dyn-batching {'on' if self.dynamic_batching else 'off'} · {self.instances} inst"


def settings_of(config: dict[str, Any]) -> ModelSettings:
    """The switchable settings of a model config as Triton's JSON gives it."""
    groups = config.get("instance_group") or []
    instances = sum(int(g.get("count", 1)) for g in groups) or 1
    return ModelSettings("dynamic_batching" in config, instances)


def with_settings(config: dict[str, Any], settings: ModelSettings) -> dict[str, Any]:
    """A copy of `config` with the dynamic batcher on/off and one instance group of `instances`."""
    if settings.instances < 1:
        raise ValueError(f"instances must be at least 1, not {settings.instances}")
    out = json.loads(json.dumps(config))  # a deep copy of plain JSON
    if settings.dynamic_batching:
        if int(out.get("max_batch_size", 0)) < 1:
            raise ValueError(f"{out.get('name', 'the model')} has max_batch_size 0: it cannot batch")
        out.setdefault("dynamic_batching", {})
    else:
        out.pop("dynamic_batching", None)
    groups = out.get("instance_group") or [{"kind": "KIND_CPU"}]
    first = dict(groups[0])
    first["count"] = settings.instances
    first.pop("name", None)  # Triton names the group after the model again
    out["instance_group"] = [first]
    return out


class ModelControl:
    """Reads and changes model configs on one loopback Triton over its HTTP endpoint."""

    def __init__(self, http_url: str, admin_key: str, server_pid: int | None = None) -> None:
        """`server_pid`: the local tritonserver, whose stub processes show when a reload is over."""
        host = urlparse(http_url).hostname or ""
        if host != "localhost" and not _loopback(host):
            raise ModelControlError(f"model control is for the local demo server only, not {http_url}")
        self.http_url = http_url.rstrip("/")
        self.server_pid = server_pid
        self._headers = {ADMIN_HEADER: admin_key, "Content-Type": "application/json"}

    @classmethod
    def for_server(cls, server: Any) -> ModelControl | None:
        """For an EmbeddedServer started with model control on loopback, else None."""
        if server is None or not getattr(server, "model_control", False) or not server.is_running():
            return None
        if server.listen.exposed:
            return None
        return cls(server.http_url, server.admin_key, server.pid)

    def config(self, model: str) -> dict[str, Any]:
        """The model's configuration as the server has it now (Triton's JSON)."""
        return json.loads(self._request("GET", f"/v2/models/{quote(model)}/config", model=model))

    def settings(self, model: str) -> ModelSettings:
        return settings_of(self.config(model))

    def apply(self, model: str, settings: ModelSettings) -> ModelSettings:
        """Reload `model` with `settings`; the settings the server then reports (checked equal)."""
        config = with_settings(self.config(model), settings)
        body = json.dumps({"parameters": {"config": json.dumps(config)}}).encode()
        had_stubs = bool(self._stubs(model))
        self._request("POST", f"/v2/repository/models/{quote(model)}/load", body, model=model,
                      timeout=LOAD_TIMEOUT_S)  # fmt: skip
        self.wait_ready(model)
        if had_stubs:  # Python-backend instances: the replaced ones exit after the load has answered
            self._wait_until(lambda: len(self._stubs(model)) == settings.instances, model,
                             f"{settings.instances} instance processes")  # fmt: skip
        now = self.settings(model)
        if now != settings:
            raise ModelControlError(
                f"{model}: asked for {settings.describe()}, the server reports {now.describe()}"
            )
        return now

    def reload(self, model: str) -> None:
        """Load `model` again as it is: Triton starts its new instances first, the in-flight requests
        finish on the old ones, whose processes (and shared-memory regions) then go."""
        config = self.config(model)
        # Triton skips a load whose config did not change: a parameter no step reads makes it new.
        config.setdefault("parameters", {})[RELOAD_PARAMETER] = {"string_value": str(time.time_ns())}
        body = json.dumps({"parameters": {"config": json.dumps(config)}}).encode()
        old = {s.info.pid for s in self._stubs(model)}
        self._request("POST", f"/v2/repository/models/{quote(model)}/load", body, model=model,
                      timeout=LOAD_TIMEOUT_S)  # fmt: skip
        self.wait_ready(model)
        self._wait_until(lambda: not old & {s.info.pid for s in self._stubs(model)}, model,
                         "the old instance processes exiting")  # fmt: skip

    def wait_ready(self, model: str) -> None:
        """Until the whole server is ready again: the pipeline ensemble that uses `model` is reloaded
        after it, and a run started before then is answered "Server not ready"."""
        self._wait_until(lambda: self._answers("/v2/health/ready", model), model, "the server to be ready")

    def _answers(self, path: str, model: str) -> bool:
        try:
            self._request("GET", path, model=model)
        except ModelControlError:
            return False
        return True

    def _stubs(self, model: str) -> list[Stub]:
        if self.server_pid is None:
            return []
        return [s for s in stubs_of(self.server_pid) if model_of(s.instance) == model]

    @staticmethod
    def _wait_until(condition: Callable[[], bool], model: str, what: str,
                    timeout_s: float = LOAD_TIMEOUT_S) -> None:  # fmt: skip
        # Polled: neither Triton's readiness nor its stub processes have an event to wait on.
        deadline = time.monotonic() + timeout_s
        pause = threading.Event()
        while not condition():
            if time.monotonic() > deadline:
                raise ModelControlError(f"{model}: reloaded, but no sign of {what} after {timeout_s:.0f} s")
            pause.wait(0.2)

    def _request(self, method: str, path: str, body: bytes | None = None, *, model: str,
                 timeout: float = 10.0) -> bytes:  # fmt: skip
        url = self.http_url + path
        request = urllib.request.Request(url, data=body, headers=self._headers, method=method)
        try:
            with _NO_PROXY.open(request, timeout=timeout) as response:
                return response.read()
        except urllib.error.HTTPError as err:
            detail = err.read().decode("utf-8", "replace")
            with contextlib.suppress(ValueError):
                detail = json.loads(detail).get("error", detail)
            raise ModelControlError(f"{model}: the server answered {err.code}: {detail}") from None
        except (urllib.error.URLError, OSError) as err:
            where = self.http_url
            raise ModelControlError(f"{model}: the server at {where} cannot be reached: {err}") from None


def _loopback(host: str) -> bool:
    try:
        return is_loopback(host)
    except ValueError:
        return False
