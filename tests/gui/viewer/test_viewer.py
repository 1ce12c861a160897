"""The viewer and results panel: overlay, hit-testing, zoom, hover/selection sync both ways, copy."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QColor, QGuiApplication, QImage, QPainter
from PySide6.QtTest import QTest

from scanner_app.gui.lines.model import TEXT
from scanner_app.gui.viewer import hit_test
from scanner_app.gui.viewer.overlay import LineGeometry, OverlayStyle, paint_line, polygon_of
from scanner_app.samples.documents import render_invoice
from tests.helpers.gui_shell import RECOGNIZE_TIMEOUT_MS, main_window, show_synthetic, synthetic_page


# Pure parts -------------------------------------------------------------------------------------
def test_hit_test_picks_the_smallest_box_and_honours_tolerance() -> None:
    boxes = hit_test.boxes_array([
        [[0, 0], [100, 0], [100, 100], [0, 100]],
        [[10, 10], [30, 10], [30, 20], [10, 20]],
        [[200, 0], [300, 10], [290, 40], [195, 30]],  # rotated quad
    ])  # fmt: skip
    assert hit_test.line_at(boxes, 15, 15) == 1
    assert hit_test.line_at(boxes, 50, 50) == 0
    assert hit_test.line_at(boxes, 250, 20) == 2
    assert hit_test.line_at(boxes, 150, 50) == -1
    assert hit_test.line_at(boxes, 102, 50) == -1
    assert hit_test.line_at(boxes, 102, 50, tolerance=4) == 0
    assert hit_test.line_at(hit_test.boxes_array([]), 1, 1) == -1
    assert hit_test.lines_in_rect(boxes, 0, 0, 120, 120) == [0, 1]


def _painted(score: float) -> np.ndarray:
    image = QImage(200, 80, QImage.Format.Format_RGB32)
    image.fill(0xFFFFFFFF)
    painter = QPainter(image)
    line = LineGeometry(polygon_of(((20, 20), (180, 20), (180, 60), (20, 60))), "", score)
    paint_line(painter, line, OverlayStyle(show_text=False))
    painter.end()
    return np.array([[QColor(image.pixel(x, y)).getRgb()[:3] for x in range(200)] for y in (20, 60)])


def test_low_confidence_lines_are_drawn_in_their_own_colour() -> None:
    style = OverlayStyle()
    good, low = _painted(0.99), _painted(0.30)
    assert (np.abs(good - style.box_color).sum(axis=2) < 60).sum() > 100
    assert (np.abs(low - style.low_color).sum(axis=2) < 60).sum() > 100
    assert (np.abs(good - style.low_color).sum(axis=2) < 60).sum() == 0


# Against the real server -------------------------------------------------------------------------
def test_invoice_overlay_has_one_box_per_recognised_line(qtbot, triton, tmp_path: Path) -> None:
    doc = render_invoice(seed=3)
    path = tmp_path / "invoice-3.png"
    doc.image.save(path)
    with main_window(qtbot, [triton.grpc_url], tmp_path / "session") as window:
        with qtbot.waitSignal(window.controller.recognized, timeout=RECOGNIZE_TIMEOUT_MS) as blocker:
            window.open_paths([path])
        result = blocker.args[0]
        assert len(result.lines) >= 0.8 * len(doc.lines)
        items = window.viewer.canvas.line_items
        assert len(items) == len(result.lines) == window.results.model.rowCount()
        assert [item.geometry.text for item in items] == [line.text for line in result.lines]
        assert window.document.source == path
        recognised = " ".join(line.text for line in result.lines)
        assert "INVOICE" in recognised
        assert str(path.name) in window.statusBar().currentMessage()


# Synthetic pages: sync and view actions ------------------------------------------------------------
@pytest.fixture
def offline_window(qtbot, tmp_path: Path):
    with main_window(qtbot, ["127.0.0.1:9"], tmp_path / "session", wait_ready=False) as window:
        window.resize(1200, 800)
        show_synthetic(window, synthetic_page(5))
        QTest.qWaitForWindowExposed(window)
        yield window


def _canvas_point(window, line: int) -> QPoint:
    canvas = window.viewer.canvas
    rect = canvas.line_items[line].geometry.rect
    return canvas.mapFromScene(rect.center())


def test_hover_syncs_viewer_to_table_and_table_to_viewer(qtbot, offline_window) -> None:
    window, canvas, table = offline_window, offline_window.viewer.canvas, offline_window.results.table
    QTest.mouseMove(canvas.viewport(), _canvas_point(window, 2))
    qtbot.waitUntil(lambda: window.document.hovered == 2)
    model = window.results.model
    assert model.data(model.index(2, TEXT), Qt.ItemDataRole.BackgroundRole) is not None
    assert model.data(model.index(1, TEXT), Qt.ItemDataRole.BackgroundRole) is None
    QTest.mouseMove(table.viewport(), table.visualRect(table.model().index(3, TEXT)).center())
    qtbot.waitUntil(lambda: window.document.hovered == 3)
    assert [i.index for i in canvas.line_items if i._hovered] == [3]


def test_selection_syncs_both_ways_and_ctrl_c_copies_it(qtbot, offline_window) -> None:
    window, canvas, table = offline_window, offline_window.viewer.canvas, offline_window.results.table
    QTest.mouseClick(canvas.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                     _canvas_point(window, 4))  # fmt: skip
    assert window.document.selection == [4]
    assert [r.row() for r in table.selectionModel().selectedRows()] == [4]
    QTest.mouseClick(canvas.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.ControlModifier,
                     _canvas_point(window, 0))  # fmt: skip
    assert window.document.selection == [0, 4]
    row_2 = table.visualRect(table.model().index(2, TEXT)).center()
    QTest.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, row_2)
    assert window.document.selection == [2]
    assert [i.index for i in canvas.line_items if i._selected] == [2]
    window.main_actions.actions["copy"].trigger()
    assert QGuiApplication.clipboard().text() == "line 2 text"
    window.viewer.view_actions["copy_all"].trigger()
    assert QGuiApplication.clipboard().text() == "\n".join(f"line {i} text" for i in range(5))
    QTest.mouseClick(canvas.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                     QPoint(canvas.viewport().width() - 5, canvas.viewport().height() - 5))  # fmt: skip
    assert window.document.selection == []
    assert table.selectionModel().selectedRows() == []


def test_shift_drag_selects_the_lines_inside_the_rectangle(qtbot, offline_window) -> None:
    window, canvas = offline_window, offline_window.viewer.canvas
    start, end = _canvas_point(window, 1) - QPoint(5, 5), _canvas_point(window, 3) + QPoint(5, 5)
    shift = Qt.KeyboardModifier.ShiftModifier
    QTest.mousePress(canvas.viewport(), Qt.MouseButton.LeftButton, shift, start)
    QTest.mouseMove(canvas.viewport(), end)
    QTest.mouseRelease(canvas.viewport(), Qt.MouseButton.LeftButton, shift, end)
    assert window.document.selection == [1, 2, 3]
    assert [r.row() for r in window.results.table.selectionModel().selectedRows()] == [1, 2, 3]


def test_filter_keeps_selection_mapping_to_the_right_lines(qtbot, offline_window) -> None:
    panel = offline_window.results
    panel.filter_edit.setText("LINE 3")
    assert panel.proxy.rowCount() == 1
    row_0 = panel.table.visualRect(panel.proxy.index(0, TEXT)).center()
    QTest.mouseClick(panel.table.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, row_0)
    assert offline_window.document.selection == [3]
    panel.filter_edit.clear()
    assert panel.proxy.rowCount() == 5


def test_zoom_fit_actual_size_and_rotation(qtbot, offline_window) -> None:
    canvas = offline_window.viewer.canvas
    canvas.fit()
    fitted = canvas.zoom()
    canvas.zoom_in()
    assert canvas.zoom() == pytest.approx(fitted * 1.25)
    canvas.actual_size()
    assert canvas.zoom() == pytest.approx(1.0)
    canvas.rotate_by(90)
    assert canvas.transform().m12() == pytest.approx(1.0)
    assert canvas.zoom() == pytest.approx(1.0)
    QTest.mouseMove(canvas.viewport(), canvas.mapFromScene(QPointF(220, 20 + 60 * 2 + 20)))
    qtbot.waitUntil(lambda: offline_window.document.hovered == 2)  # hit-testing follows the rotation
    offline_window.viewer.view_actions["show_text"].trigger()
    assert canvas.style_options.show_text is False


@pytest.mark.parametrize("zoom", [0.1, 0.45, 1.0, 1.5])
def test_label_text_sits_inside_its_box_and_is_readable_or_absent(qapp, zoom: float) -> None:
    """The recognised text lies inside its box at any zoom: readable where the box is big enough on
    screen, not drawn where it is not (min_text_px)."""
    style = OverlayStyle(show_boxes=False, plate_color=(255, 255, 255, 255))
    image = QImage(round(800 * max(zoom, 0.5)), round(120 * max(zoom, 0.5)), QImage.Format.Format_RGB32)
    image.fill(0xFFFFFFFF)
    painter = QPainter(image)
    painter.scale(zoom, zoom)
    line = LineGeometry(polygon_of(((86, 10), (596, 10), (596, 39), (86, 39))),
                        "Payment terms: Net 30 days by bank transfer", 0.99)  # fmt: skip
    paint_line(painter, line, style, text_height=29)
    painter.end()
    pixels = np.frombuffer(image.constBits(), np.uint8).reshape(image.height(), image.bytesPerLine() // 4, 4)
    dark = (pixels[..., :3] < 128).any(axis=2)
    if 29 * zoom * 0.72 < style.min_text_px:
        assert not dark.any()
        return
    columns, rows = np.flatnonzero(dark.any(axis=0)), np.flatnonzero(dark.any(axis=1))
    assert columns.min() >= 86 * zoom - 1 and columns.max() <= 596 * zoom + 1
    assert rows.min() >= 10 * zoom - 1 and rows.max() <= 39 * zoom + 1
    assert abs(columns.min() - 86 * zoom) <= 0.3 * 29 * zoom + 3  # starts at the box's left edge
    assert rows.max() - rows.min() + 1 >= 0.6 * style.min_text_px  # glyph ink of a readable size
    assert columns.max() - columns.min() >= 0.6 * 510 * zoom  # most of the box's width


def test_document_model_signals_only_on_change_and_persists_edits(qtbot, tmp_path: Path) -> None:
    from scanner_app.core.store.batch_store import BatchStore
    from scanner_app.gui.document.model import DocumentModel, StoredPage

    page = synthetic_page(3)
    store = BatchStore(tmp_path / "store.sqlite")
    image = tmp_path / "synthetic.png"
    QImage(10, 10, QImage.Format.Format_RGB32).save(str(image))
    record = store.add_files([image])[0]
    page_id = store.save_page(record, 0, page)
    model = DocumentModel()
    model.set_result(page, StoredPage(store, page_id))
    hovered, selected = [], []
    model.hovered_changed.connect(hovered.append)
    model.selection_changed.connect(selected.append)
    model.set_hovered(1)
    model.set_hovered(1)
    model.set_hovered(7)  # out of range -> none
    model.select([2, 0, 9, 2])
    model.select([0, 2])
    assert hovered == [1, -1] and selected == [[0, 2]]
    assert model.selected_text() == "line 0 text\nline 2 text"
    with qtbot.waitSignal(model.line_edited, timeout=10_000) as edited:
        model.edit_line(1, "fixed")
    assert edited.args == [1, "fixed"] and model.page.lines[1].text == "fixed"
    assert store.page(page_id).line_texts == ["line 0 text", "fixed", "line 2 text"]
    model.set_result(None)
    assert selected[-1] == [] and model.line_count() == 0
    store.close()
