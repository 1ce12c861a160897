"""File > Scan... against SANE's `test` backend, a real virtual scanner (not a mock).

The dialog's device list comes from SANE only (``network=False``): the eSCL search would send
multicast DNS to the LAN. eSCL devices go through the same ``open_device`` (tests/core/devices/test_escl.py).
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QDialog, QMenuBar, QWidget

from scanner_app.core.devices import list_devices, open_device
from scanner_app.gui.capture.scan_dialog import ScanDialog
from scanner_app.gui.window.actions import MainActions
from tests.helpers.sane_backend import use_sane_test_backend

BASE = {"read_return_value": "Default", "hand_scanner": False, "test_picture": "Color pattern", "depth": 8,
        "read_delay": False}  # fmt: skip


def _opener(**options: object):  # type: ignore[no-untyped-def]
    """Opens the test device with its options reset (they persist across opens) plus ``options``."""

    def open_with(device_id: str):  # type: ignore[no-untyped-def]
        device = open_device(device_id)
        for name, value in {**BASE, **options}.items():
            device.set_option(name, value)
        return device

    return open_with


def _dialog(qtbot, tmp_path: Path, **options: object) -> ScanDialog:  # type: ignore[no-untyped-def]
    use_sane_test_backend()
    dialog = ScanDialog(tmp_path, lister=lambda: list_devices(network=False), opener=_opener(**options))
    qtbot.addWidget(dialog)
    qtbot.waitUntil(lambda: dialog.source_box.count() > 0, timeout=10_000)
    return dialog


def _choose(box, data: object) -> None:  # type: ignore[no-untyped-def]
    box.setCurrentIndex(box.findData(data))


def test_lists_devices_remembers_the_choice_and_fills_the_options(qtbot, tmp_path: Path) -> None:
    QSettings().setValue("scan/device", "sane:test:1")
    dialog = _dialog(qtbot, tmp_path)
    assert [dialog.device_box.itemData(i) for i in range(dialog.device_box.count())] == [
        "sane:test:0",
        "sane:test:1",
    ]
    assert dialog.device_id() == "sane:test:1"  # remembered in QSettings
    assert [dialog.source_box.itemData(i) for i in range(dialog.source_box.count())] == ["flatbed", "feeder"]
    assert 300 in [dialog.dpi_box.itemData(i) for i in range(dialog.dpi_box.count())]
    _choose(dialog.source_box, "feeder")
    assert not dialog.duplex_box.isEnabled()  # the test device has no duplex
    assert not dialog.preview_button.isEnabled()  # a preview is for the flatbed
    _choose(dialog.source_box, "flatbed")
    assert dialog.preview_button.isEnabled()


def test_feeder_scan_with_progress_hands_over_ten_pages(qtbot, tmp_path: Path) -> None:
    dialog = _dialog(qtbot, tmp_path)
    _choose(dialog.source_box, "feeder")
    _choose(dialog.dpi_box, 75)
    _choose(dialog.mode_box, "color")
    values: list[int] = []
    dialog.progress.valueChanged.connect(values.append)
    with qtbot.waitSignal(dialog.accepted, timeout=60_000):
        dialog.scan_button.click()
    assert [p.name for p in dialog.result_pages] == [f"page-{i:04d}.png" for i in range(1, 11)]
    assert all(p.is_file() and p.is_relative_to(tmp_path) for p in dialog.result_pages)
    assert 1000 in values  # a page was followed to its end
    settings = QSettings()  # widget -> settings: the next dialog starts from these
    assert (settings.value("scan/device"), settings.value("scan/source"), int(settings.value("scan/dpi")),
            settings.value("scan/mode")) == ("sane:test:0", "feeder", 75, "color")  # fmt: skip


def test_cancel_keeps_the_pages_scanned_before(qtbot, tmp_path: Path) -> None:
    # read-delay slows each page of the virtual device, so that Cancel lands mid-feeder
    dialog = _dialog(qtbot, tmp_path, read_delay=True, read_delay_duration=100_000)
    _choose(dialog.source_box, "feeder")
    _choose(dialog.dpi_box, 75)
    dialog.scan_button.click()
    assert dialog.cancel_button.text() == "Cancel"
    qtbot.waitUntil(lambda: len(dialog.result_pages) >= 1, timeout=60_000)
    dialog.cancel_button.click()
    qtbot.waitUntil(lambda: dialog.last_result is not None, timeout=60_000)
    assert dialog.last_result.cancelled
    assert 1 <= len(dialog.result_pages) < 10
    assert "cancelled" in dialog.status.text()
    assert dialog.result() != QDialog.DialogCode.Accepted  # stays open to show what happened
    dialog.cancel_button.click()  # now "Close": the pages kept are handed over
    assert dialog.result() == QDialog.DialogCode.Accepted


def test_a_jam_is_shown_clearly_and_a_preview_is_drawn(qtbot, tmp_path: Path) -> None:
    dialog = _dialog(qtbot, tmp_path, read_return_value="SANE_STATUS_JAMMED")
    _choose(dialog.source_box, "feeder")
    dialog.scan_button.click()
    qtbot.waitUntil(lambda: dialog.last_result is not None, timeout=60_000)
    assert "paper jam" in dialog.status.text() and dialog.result_pages == []
    preview = _dialog(qtbot, tmp_path)
    _choose(preview.source_box, "flatbed")
    preview.preview_button.click()
    qtbot.waitUntil(lambda: preview.preview.pixmap() is not None and not preview.preview.pixmap().isNull(),
                    timeout=60_000)  # fmt: skip


def test_file_menu_has_scan_with_its_shortcut(qtbot) -> None:
    parent = QWidget()
    qtbot.addWidget(parent)
    called: list[bool] = []
    actions = MainActions(parent, {"scan_device": lambda: called.append(True)})
    bar = QMenuBar(parent)
    actions.build_menus(bar, [], actions.actions["copy"])
    file_menu = bar.actions()[0].menu()
    scan = actions.actions["scan_device"]
    assert scan in file_menu.actions()
    assert scan.text() == "Sc&an..." and scan.shortcut().toString() == "Ctrl+Shift+A"
    scan.trigger()
    assert called == [True]
