"""The viewer outlines each document of a glass page (several receipts); an ordinary page has none."""

from __future__ import annotations

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QGraphicsPolygonItem

from scanner_app.core.results import PageResult, Receipt, TextLine
from scanner_app.gui.document.model import DocumentModel
from scanner_app.gui.fields.panel import FieldsPanel
from scanner_app.gui.viewer.panel import ViewerPanel


def _line(x: float, text: str = "text", y: float = 10.0) -> TextLine:
    return TextLine(((x, y), (x + 40, y), (x + 40, y + 10), (x, y + 10)), text, 0.99)


def _outlines(panel: ViewerPanel) -> list[QGraphicsPolygonItem]:
    return [i for i in panel.canvas.scene().items() if isinstance(i, QGraphicsPolygonItem)]


def _blank_page_viewer(qtbot, name: str) -> tuple[DocumentModel, ViewerPanel]:
    """A viewer on a white 200x100 page called ``name``, no result yet."""
    document = DocumentModel()
    panel = ViewerPanel(document)
    qtbot.addWidget(panel)
    image = QImage(200, 100, QImage.Format.Format_RGB32)
    image.fill(0xFFFFFFFF)
    document.set_image(image, 1.0, name, None)
    return document, panel


def test_viewer_outlines_each_receipt_on_a_glass_page(qtbot) -> None:
    document, panel = _blank_page_viewer(qtbot, "glass.png")
    left = ((5.0, 5.0), (95.0, 5.0), (95.0, 95.0), (5.0, 95.0))
    right = tuple((x + 100, y) for x, y in left)
    receipts = (Receipt(left, (0,)), Receipt(right, (1,)))
    document.set_result(PageResult("glass.png", 200, 100, (_line(10), _line(110)), receipts=receipts))
    outlines = _outlines(panel)
    assert sorted(o.polygon().boundingRect().left() for o in outlines) == [5.0, 105.0]
    document.set_result(PageResult("glass.png", 200, 100, (_line(10),)))  # an ordinary page
    assert _outlines(panel) == []


def test_viewer_outlines_a_pen_note_dotted_with_its_text_as_tooltip(qtbot) -> None:
    document, panel = _blank_page_viewer(qtbot, "noted.png")
    note = _line(110, "Paid 12/03", y=60.0)
    document.set_result(PageResult("noted.png", 200, 100, (_line(10),), marks=(note,)))
    (outline,) = _outlines(panel)
    assert outline.polygon().boundingRect().left() == 110.0
    assert outline.pen().style() == Qt.PenStyle.DotLine and "Paid 12/03" in outline.toolTip()
    document.set_result(PageResult("noted.png", 200, 100, (_line(10),)))
    assert _outlines(panel) == []


def test_fields_tab_shows_the_chosen_receipt(qtbot) -> None:
    document = DocumentModel()
    panel = FieldsPanel(document)
    qtbot.addWidget(panel)
    texts = ["LEFT MART SDN BHD", "TOTAL 12.50", "RIGHT CAFE SDN BHD", "TOTAL 99.00"]
    lines = tuple(_line(10 + 500 * (i // 2), text, 10 + 40 * (i % 2)) for i, text in enumerate(texts))
    left = ((0.0, 0.0), (400.0, 0.0), (400.0, 100.0), (0.0, 100.0))
    receipts = (Receipt(left, (0, 1)), Receipt(tuple((x + 500, y) for x, y in left), (2, 3)))
    with qtbot.waitSignal(panel.fields_changed, timeout=10_000):
        document.set_result(PageResult("glass.png", 1000, 100, lines, receipts=receipts))
    assert panel.receipt_box.count() == 2 and not panel.receipt_box.isHidden()
    assert panel.fields.value("total") == "12.50"
    with qtbot.waitSignal(panel.fields_changed, timeout=10_000):
        panel.receipt_box.setCurrentIndex(1)
    assert panel.fields.value("total") == "99.00"
    panel.select_field("total")
    assert document.selection == [3]  # the page's line, not the receipt's own number
    with qtbot.waitSignal(panel.fields_changed, timeout=10_000):
        document.set_result(PageResult("one.png", 400, 100, lines[:2]))
    assert panel.receipt_box.isHidden() and panel.fields.value("total") == "12.50"


def _glass() -> PageResult:
    texts = ["LEFT MART SDN BHD", "TOTAL 12.50", "RIGHT CAFE SDN BHD", "TOTAL 99.00"]
    lines = tuple(_line(10 + 500 * (i // 2), text, 10 + 40 * (i % 2)) for i, text in enumerate(texts))
    left = ((0.0, 0.0), (400.0, 0.0), (400.0, 100.0), (0.0, 100.0))
    receipts = (Receipt(left, (0, 1)), Receipt(tuple((x + 500, y) for x, y in left), (2, 3)))
    return PageResult("glass.png", 1000, 100, lines, receipts=receipts)


def test_a_field_edit_goes_to_the_chosen_receipt(qtbot, tmp_path) -> None:
    from scanner_app.core.store.batch_store import BatchStore
    from scanner_app.gui.document.model import StoredPage

    (tmp_path / "glass.png").write_bytes(b"an image")
    store = BatchStore(tmp_path / "store.sqlite")
    (record,) = store.add_files([tmp_path / "glass.png"])
    document = DocumentModel()
    page = _glass()
    page_id = store.save_page(record, 0, page)
    panel = FieldsPanel(document)
    qtbot.addWidget(panel)
    with qtbot.waitSignal(panel.fields_changed, timeout=10_000):
        document.set_result(page, StoredPage(store, page_id))
    with qtbot.waitSignal(panel.fields_changed, timeout=10_000):
        panel.receipt_box.setCurrentIndex(1)
    with qtbot.waitSignal(document.field_edited, timeout=10_000):
        panel.edit_field("total", "98.00")
    assert store.receipt_field_edits() == {page_id: {2: {"total": "98.00"}}} and store.field_edits() == {}
    with qtbot.waitSignal(panel.fields_changed, timeout=10_000):
        panel.receipt_box.setCurrentIndex(0)
    assert panel.fields.value("total") == "12.50"  # the other receipt keeps its own reading
    with qtbot.waitSignal(panel.fields_changed, timeout=10_000):
        document.set_result(page, StoredPage(store, page_id))  # reopened: the edit is read back
    with qtbot.waitSignal(panel.fields_changed, timeout=10_000):
        panel.receipt_box.setCurrentIndex(1)
    assert panel.fields.value("total") == "98.00"
    store.close()


def test_a_click_inside_a_receipt_shows_its_fields(qtbot) -> None:
    document = DocumentModel()
    viewer, panel = ViewerPanel(document), FieldsPanel(document)
    qtbot.addWidget(viewer)
    qtbot.addWidget(panel)
    viewer.canvas.document_clicked.connect(panel.choose_receipt)  # as the main window connects them
    viewer.resize(800, 200)
    viewer.show()
    image = QImage(1000, 100, QImage.Format.Format_RGB32)
    image.fill(0xFFFFFFFF)
    document.set_image(image, 1.0, "glass.png", None)
    with qtbot.waitSignal(panel.fields_changed, timeout=10_000):
        document.set_result(_glass())
    assert panel.receipt_box.currentIndex() == 0
    canvas = viewer.canvas
    where = canvas.mapFromScene(QPointF(700.0, 80.0))  # inside the right receipt, below its lines
    clicked = qtbot.waitSignal(canvas.document_clicked, timeout=5_000)
    with clicked as blocker, qtbot.waitSignal(panel.fields_changed, timeout=10_000):
        qtbot.mouseClick(canvas.viewport(), Qt.MouseButton.LeftButton, pos=where)
    assert blocker.args == [1] and panel.receipt_box.currentIndex() == 1
    assert panel.fields.value("total") == "99.00"
