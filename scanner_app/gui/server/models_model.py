"""The models a server reported (ModelFacts) as a read-only Qt table."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, QPersistentModelIndex, Qt

from scanner_app.core.client.triton import InstanceGroup, ModelFacts, PipelineInfo

_Index = QModelIndex | QPersistentModelIndex


def describe_groups(groups: Sequence[InstanceGroup]) -> str:
    """ "2 x KIND_CPU, 1 x KIND_GPU (gpus 0)" - or "default" when the config names none."""
    if not groups:
        return "default"
    parts = []
    for group in groups:
        text = f"{group.count} x {group.kind}"
        if group.gpus:
            text += f" (gpus {', '.join(str(g) for g in group.gpus)})"
        parts.append(text)
    return ", ".join(parts)


def facts_of(infos: Sequence[PipelineInfo]) -> list[tuple[str, ModelFacts]]:
    """(endpoint url, model) rows: each endpoint's pipeline first, then its steps."""
    return [(info.url, facts) for info in infos for facts in (info.pipeline, *info.models)]


class ModelFactsModel(QAbstractTableModel):
    """Columns: server, model, backend, max_batch_size, dynamic batching, instance groups."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._rows: list[tuple[str, ModelFacts]] = []
        self._headers = (self.tr("Server"), self.tr("Model"), self.tr("Backend"), self.tr("max_batch_size"),
                         self.tr("Dynamic batching"), self.tr("Instance groups"))  # fmt: skip

    def set_infos(self, infos: Sequence[PipelineInfo]) -> None:
        self.beginResetModel()
        self._rows = facts_of(infos)
        self.endResetModel()

    def facts(self, row: int) -> ModelFacts:
        return self._rows[row][1]

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008 (Qt's default argument)
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._headers)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole):
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return self._headers[section]
        return None

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._tooltip(index)
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        url, facts = self._rows[index.row()]
        column = index.column()
        if column == 0:
            return url
        if column == 1:
            return facts.name
        if column == 2:
            return facts.backend
        if column == 3:
            return str(facts.max_batch_size)
        if column == 4:
            return self.tr("on") if facts.dynamic_batching else self.tr("off")
        groups = describe_groups(facts.instance_groups)
        return self.tr("default") if groups == "default" else groups

    def _tooltip(self, index: _Index) -> str | None:
        """Why the embedded CPU server's choices are what they are (see the note under the table)."""
        facts = self._rows[index.row()][1]
        if index.column() == 2 and facts.backend == "python":
            return self.tr("The embedded tritonserver (nvidia-pytriton wheel) has only the Python backend: "
                           "ONNX models run through ONNX Runtime inside it.")  # fmt: skip
        if index.column() == 4 and not facts.dynamic_batching:
            return self.tr("Off on purpose on a CPU: measured slower there (see the note below); "
                           "switch it live below to see the effect.")  # fmt: skip
        return None
