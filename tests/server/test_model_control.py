"""Live model control's pure half: config overrides and the loopback-only rule (the real server: see
tests/gui/server/test_model_control_box.py)."""

from __future__ import annotations

import pytest

from scanner_app.server.embedded import EmbeddedServer
from scanner_app.server.listen import ListenPlan
from scanner_app.server.model_control import (
    ModelControl,
    ModelControlError,
    ModelSettings,
    settings_of,
    with_settings,
)

CONFIG = {
    "name": "text_detection", "backend": "python", "max_batch_size": 8,
    "instance_group": [{"name": "text_detection_0", "kind": "KIND_CPU", "count": 2, "gpus": []}],
    "parameters": {"intra_op_threads": {"string_value": "1"}},
}  # fmt: skip


def test_settings_are_read_and_overridden_without_touching_the_rest() -> None:
    assert settings_of(CONFIG) == ModelSettings(False, 2)
    on = with_settings(CONFIG, ModelSettings(True, 1))
    assert settings_of(on) == ModelSettings(True, 1)
    assert on["instance_group"] == [{"kind": "KIND_CPU", "count": 1, "gpus": []}]
    assert on["parameters"] == CONFIG["parameters"] and CONFIG["instance_group"][0]["count"] == 2  # a copy
    assert "dynamic_batching" not in with_settings(on, ModelSettings(False, 3))
    with pytest.raises(ValueError, match="at least 1"):
        with_settings(CONFIG, ModelSettings(False, 0))
    with pytest.raises(ValueError, match="max_batch_size 0"):
        with_settings({**CONFIG, "max_batch_size": 0}, ModelSettings(True, 1))


def test_model_control_is_for_the_loopback_demo_server_only(tmp_path) -> None:
    with pytest.raises(ModelControlError, match="local demo server only"):
        ModelControl("http://192.168.1.20:8000", "key")
    assert ModelControl("http://127.0.0.1:8000", "key").http_url == "http://127.0.0.1:8000"
    assert ModelControl.for_server(None) is None
    lan = ListenPlan(hosts={"gRPC": "0.0.0.0", "HTTP": "127.0.0.1", "metrics": "127.0.0.1"})
    exposed = EmbeddedServer(tmp_path, model_control=True, listen=lan)
    assert not exposed.model_control  # a LAN listener never gets model control
    loopback = EmbeddedServer(tmp_path, model_control=True)
    assert loopback.model_control
    assert not EmbeddedServer(tmp_path).model_control  # off unless asked for
