"""The segments view: a lazily fetched table over the store, filters, a candidate detail pane, overrides, export.

:class:`SegmentTableModel` pulls segments page by page from
``store.segments.iter`` (keyset pages, so 100,000 segments cost nothing
until scrolled to) together with their recommendations, and keeps only
the rows that pass the filter. The pick shown is the library's
(``tmtprime.recommend.pick.pick_of``: the user's override, else the model's).
"""

from __future__ import annotations

import html
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from itertools import islice
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt, Signal, Slot
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from tmtprime.store import Store
from tmtprime.recommend.pick import Pick, best_fuzzy, candidate_confidence, pick_of
from tmtprime.report.exporter import EXPORT_FORMATS
from tmtprime.store.records import CandidateRecord, RecommendationRecord, SegmentRecord
from tmtprime.gui.context import ProjectContext
from tmtprime.gui.diffs import highlight

PAGE = 200
COLUMNS = ("#", "Source", "Recommended text", "System", "Band", "Confidence", "Fuzzy")
ANY = "(any)"

BandOf = Callable[[SegmentRecord, RecommendationRecord | None, Pick | None], str]
"""Names the cost band of a segment's pick (given by the analysis' cost scheme)."""


@dataclass(frozen=True, slots=True)
class SegmentRow:
    """One table row: the segment, its recommendation and the chosen candidate."""

    segment: SegmentRecord
    recommendation: RecommendationRecord | None
    pick: Pick | None
    fuzzy: float | None
    band: str = ""

    @property
    def system(self) -> str:
        return self.pick.candidate.system if self.pick else ""

    @property
    def confidence(self) -> float | None:
        return self.pick.confidence if self.pick else None


@dataclass
class SegmentFilter:
    """What the table shows: picked system, band, confidence range, text (source or pick), document role."""

    system: str | None = None
    band: str | None = None
    min_confidence: float = 0.0
    max_confidence: float = 1.0
    text: str = ""
    role: str | None = "document"
    systems: frozenset[str] | None = field(default=None)
    """Only these systems' candidates take part (the analysis' checkboxes); None = all."""

    def accepts(self, row: SegmentRow) -> bool:
        if self.system is not None and row.system != self.system:
            return False
        if self.band is not None and row.band != self.band:
            return False
        if self.min_confidence > 0.0 or self.max_confidence < 1.0:
            c = row.confidence
            if c is None or not self.min_confidence <= c <= self.max_confidence:
                return False
        if self.text:
            needle = self.text.casefold()
            pick_text = row.pick.candidate.text if row.pick else ""
            if needle not in row.segment.source.casefold() and needle not in pick_text.casefold():
                return False
        return True


def scheme_bands(scheme) -> tuple[list[str], BandOf]:  # noqa: ANN001 - tmtprime.cost.CostScheme
    """The CAT-convention band names of a cost scheme and the band of a pick, labelled as the estimate labels them.

    A TM pick by its fuzzy band (``TM 85-94``, ``context``, ``new``), an MT pick by
    the quality band of its predicted score, 100 - predicted TER (``MT 75-84``).
    """
    import numpy as np

    flat = scheme.mt_pricing == "flat"
    names = [f"TM {b.label}" for b in scheme.tm_bands] + ["context", "new"]
    names += ["MT flat"] if flat else [f"MT {b.label}" for b in scheme.mt_bands]

    def band_of(seg: SegmentRecord, rec: RecommendationRecord | None, pick: Pick | None) -> str:
        if pick is None:
            return ""
        c = pick.candidate
        if c.kind == "tm":
            label, _payable = scheme.tm_band(c.fuzzy, c.attributes.get("match_type"))
            return label if label in ("context", "new") else f"TM {label}"
        if flat:
            return "MT flat"
        prediction = rec.predictions.get(c.id) if rec is not None else None
        if prediction is None or prediction.predicted_ter is None:
            return ""
        index = int(scheme.quality_band_index(np.array([100.0 - prediction.predicted_ter]))[0])
        return f"MT {scheme.mt_bands[index].label}"

    return names, band_of


def segment_rows(store: Store, role: str | None, band_of: BandOf | None = None) -> Iterator[SegmentRow]:
    """Every segment of ``role`` with its recommendation and pick, page by page."""
    segments = store.segments.iter(role=role, batch_size=PAGE)
    while page := list(islice(segments, PAGE)):
        recs = store.recommendations.for_segments([s.id for s in page])
        for seg in page:
            rec = recs.get(seg.id)
            pick = pick_of(seg, rec)
            band = band_of(seg, rec, pick) if band_of is not None else ""
            yield SegmentRow(seg, rec, pick, best_fuzzy(seg), band)


class SegmentTableModel(QAbstractTableModel):
    """Segments of the project, fetched lazily (``canFetchMore``/``fetchMore``) and filtered."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._rows: list[SegmentRow] = []
        self._source: Iterator[SegmentRow] | None = None
        self.filter = SegmentFilter()
        self.band_of: BandOf | None = None
        self._store: Store | None = None

    def reload(self, store: Store | None, flt: SegmentFilter | None = None) -> None:
        """Start again from the first segment (another project, filter or data)."""
        self.beginResetModel()
        self._store = store
        if flt is not None:
            self.filter = flt
        self._rows = []
        self._source = None
        if store is not None:
            self._source = (r for r in segment_rows(store, self.filter.role, self.band_of) if self.filter.accepts(r))
        self.endResetModel()
        self.fetchMore(QModelIndex())

    def row(self, i: int) -> SegmentRow:
        return self._rows[i]

    def refresh_segment(self, segment_id: int) -> None:
        """Re-read one segment's recommendation (after an override)."""
        if self._store is None:
            return
        for i, row in enumerate(self._rows):
            if row.segment.id == segment_id:
                rec = self._store.recommendations.for_segments([segment_id], model=row.recommendation.model if row.recommendation else None).get(segment_id)
                pick = pick_of(row.segment, rec)
                band = self.band_of(row.segment, rec, pick) if self.band_of else row.band
                self._rows[i] = SegmentRow(row.segment, rec, pick, row.fuzzy, band)
                self.dataChanged.emit(self.index(i, 0), self.index(i, len(COLUMNS) - 1))
                return

    # -- Qt model API ----------------------------------------------------------------

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008,N802
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008,N802
        return 0 if parent.isValid() else len(COLUMNS)

    def canFetchMore(self, parent: QModelIndex | QPersistentModelIndex) -> bool:  # noqa: N802
        return not parent.isValid() and self._source is not None

    def fetchMore(self, parent: QModelIndex | QPersistentModelIndex) -> None:  # noqa: N802
        if parent.isValid() or self._source is None:
            return
        more = list(islice(self._source, PAGE))
        if len(more) < PAGE:
            self._source = None
        if more:
            start = len(self._rows)
            self.beginInsertRows(QModelIndex(), start, start + len(more) - 1)
            self._rows.extend(more)
            self.endInsertRows()

    def fetch_all(self) -> None:
        """Fetch every remaining row (tests, select-all)."""
        while self._source is not None:
            self.fetchMore(QModelIndex())

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:  # noqa: N802
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return COLUMNS[section]
        return None

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        row = self._rows[index.row()]
        col = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return self._display(row, col)
        if role == Qt.ItemDataRole.ToolTipRole and col in (1, 2):
            return self._display(row, col)
        if role == Qt.ItemDataRole.TextAlignmentRole and col in (0, 5, 6):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.ForegroundRole and col == 3 and row.pick and row.pick.overridden:
            return QColor(30, 110, 220)
        if role == Qt.ItemDataRole.BackgroundRole and col == 5 and row.confidence is not None:
            return _confidence_colour(row.confidence)
        return None

    @staticmethod
    def _display(row: SegmentRow, col: int) -> str:
        if col == 0:
            return str(row.segment.position + 1)
        if col == 1:
            return row.segment.source
        if col == 2:
            return row.pick.candidate.text if row.pick else ""
        if col == 3:
            if row.pick is None:
                return ""
            return row.system + (" (yours)" if row.pick.overridden else "")
        if col == 4:
            return row.band
        if col == 5:
            return "" if row.confidence is None else f"{row.confidence:.2f}"
        if col == 6:
            return "" if row.fuzzy is None else f"{row.fuzzy:.0f}"
        return ""


def _confidence_colour(value: float) -> QColor:
    """Red (unsure) to green (sure), faint enough for text on top in light and dark palettes."""
    value = min(max(value, 0.0), 1.0)
    return QColor(int(220 * (1 - value)), int(180 * value), 60, 70)


class CandidateCard(QFrame):
    """One candidate: system, kind, scores, its text with the differences to the TM match; "Use this"."""

    chosen = Signal(int)

    def __init__(self, candidate: CandidateRecord, *, tm_target: str | None, source: str, rec: RecommendationRecord | None, picked: bool) -> None:
        super().__init__()
        self.candidate = candidate
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setObjectName("card")
        if picked:
            self.setStyleSheet("#card { border: 2px solid #3574f0; border-radius: 4px; }")
        layout = QVBoxLayout(self)
        facts = [f"<b>{html.escape(candidate.system)}</b> <span style='color:gray'>{candidate.kind.upper()}</span>"]
        if candidate.fuzzy is not None:
            facts.append(f"fuzzy {candidate.fuzzy:.0f}")
        conf = candidate_confidence(rec, candidate.id)
        if conf is not None:
            facts.append(f"confidence {conf:.2f}")
        prediction = rec.predictions.get(candidate.id) if rec else None
        if prediction is not None and prediction.predicted_ter is not None:
            facts.append(f"predicted TER {prediction.predicted_ter:.0f}")
        if picked:
            facts.append("<b style='color:#3574f0'>picked</b>")
        head = QLabel(" · ".join(facts))
        head.setWordWrap(True)
        layout.addWidget(head)
        if candidate.kind == "tm" and candidate.tm_source is not None:
            tm_src = QLabel(f"<span style='color:gray'>TM source:</span> {highlight(candidate.tm_source, source, show_deleted=False)}")
            tm_src.setWordWrap(True)
            layout.addWidget(tm_src)
        against = None if candidate.kind == "tm" else tm_target
        self.text = QLabel(highlight(candidate.text, against))
        self.text.setWordWrap(True)
        self.text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.text)
        layout.addStretch(1)
        self.use = QPushButton("Use this")
        self.use.setEnabled(rec is not None and not picked)
        self.use.clicked.connect(lambda: self.chosen.emit(candidate.id))
        layout.addWidget(self.use, 0, Qt.AlignmentFlag.AlignRight)


class DetailPane(QWidget):
    """Every candidate of the selected segment side by side; differences to the TM match highlighted."""

    override = Signal(int, int)  # segment id, candidate id (-1: back to the model's pick)

    def __init__(self) -> None:
        super().__init__()
        self.header = QLabel("Select a segment to see its candidates.")
        self.header.setWordWrap(True)
        self.header.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.reset = QPushButton("Back to the model's pick")
        self.reset.setVisible(False)
        self.cards_host = QWidget()
        self.cards = QHBoxLayout(self.cards_host)
        self.cards.setContentsMargins(0, 0, 0, 0)
        scroll = QScrollArea(widgetResizable=True, frameShape=QFrame.Shape.NoFrame)
        scroll.setWidget(self.cards_host)
        top = QHBoxLayout()
        top.addWidget(self.header, 1)
        top.addWidget(self.reset, 0, Qt.AlignmentFlag.AlignTop)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(scroll, 1)
        self.row: SegmentRow | None = None
        self.reset.clicked.connect(lambda: self.row and self.override.emit(self.row.segment.id, -1))

    def show_row(self, row: SegmentRow | None) -> None:
        self.row = row
        while self.cards.count():
            item = self.cards.takeAt(0)
            if item.widget() is not None:
                item.widget().deleteLater()
        if row is None:
            self.header.setText("Select a segment to see its candidates.")
            self.reset.setVisible(False)
            return
        seg = row.segment
        ref = f"<br><span style='color:gray'>Reference:</span> {html.escape(seg.reference)}" if seg.reference else ""
        ctx = f" <span style='color:gray'>({html.escape(seg.context)})</span>" if seg.context else ""
        self.header.setText(
            f"<span style='color:gray'>{html.escape(seg.document)} #{seg.position + 1}</span>{ctx}<br>"
            f"<span style='font-size:115%'>{html.escape(seg.source)}</span>{ref}"
        )
        self.reset.setVisible(bool(row.pick and row.pick.overridden))
        tm = [c for c in seg.candidates if c.kind == "tm"]
        tm_target = max(tm, key=lambda c: c.fuzzy or 0.0).text if tm else None
        picked = row.pick.candidate.id if row.pick else None
        for c in seg.candidates:
            card = CandidateCard(c, tm_target=tm_target, source=seg.source, rec=row.recommendation, picked=c.id == picked)
            card.chosen.connect(lambda cid, sid=seg.id: self.override.emit(sid, cid))
            self.cards.addWidget(card, 1)
        if not seg.candidates:
            self.cards.addWidget(QLabel("This segment has no candidates yet: run TM lookup or MT."))

    def card_for(self, system: str) -> CandidateCard:
        """The card of ``system``'s candidate (tests, keyboard users)."""
        for i in range(self.cards.count()):
            w = self.cards.itemAt(i).widget()
            if isinstance(w, CandidateCard) and w.candidate.system == system:
                return w
        raise KeyError(system)


class SegmentsView(QWidget):
    """Filter bar, the segment table and the detail pane."""

    def __init__(self, context: ProjectContext) -> None:
        super().__init__()
        self.context = context
        self.model = SegmentTableModel(self)
        self.table = QTableView()
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setAlternatingRowColors(True)
        self.table.verticalHeader().setVisible(False)
        self.table.verticalHeader().setDefaultSectionSize(24)
        self.table.setWordWrap(False)
        header = self.table.horizontalHeader()
        for col, mode in enumerate((QHeaderView.ResizeMode.ResizeToContents, QHeaderView.ResizeMode.Stretch,
                                    QHeaderView.ResizeMode.Stretch, QHeaderView.ResizeMode.ResizeToContents,
                                    QHeaderView.ResizeMode.ResizeToContents, QHeaderView.ResizeMode.ResizeToContents,
                                    QHeaderView.ResizeMode.ResizeToContents)):  # fmt: skip
            header.setSectionResizeMode(col, mode)
        self.table.selectionModel().currentRowChanged.connect(self._current_changed)

        self.system = QComboBox()
        self.band = QComboBox()
        self.min_conf = QDoubleSpinBox(minimum=0.0, maximum=1.0, singleStep=0.05, decimals=2, value=0.0)
        self.max_conf = QDoubleSpinBox(minimum=0.0, maximum=1.0, singleStep=0.05, decimals=2, value=1.0)
        self.text = QLineEdit(placeholderText="Find in source or recommended text", clearButtonEnabled=True)
        self.role = QComboBox()
        self.role.addItem("Documents", "document")
        self.role.addItem("Dev data", "dev")
        self.role.addItem("All", None)
        self.count = QLabel()
        bar = QHBoxLayout()
        for label, w in (("Show", self.role), ("System", self.system), ("Band", self.band),
                         ("Confidence", self.min_conf), ("to", self.max_conf)):  # fmt: skip
            bar.addWidget(QLabel(label))
            bar.addWidget(w)
        bar.addWidget(self.text, 1)
        export = QPushButton("Export…")
        export.clicked.connect(self.export_dialog)
        bar.addWidget(export)
        for combo in (self.system, self.band, self.role):
            combo.currentIndexChanged.connect(self.apply_filter)
        for spin in (self.min_conf, self.max_conf):
            spin.valueChanged.connect(self.apply_filter)
        self.text.returnPressed.connect(self.apply_filter)
        self.text.textChanged.connect(lambda t: t == "" and self.apply_filter())

        self.detail = DetailPane()
        self.detail.override.connect(self.override)
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.table)
        split.addWidget(self.detail)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        layout = QVBoxLayout(self)
        layout.addLayout(bar)
        layout.addWidget(split, 1)
        layout.addWidget(self.count)
        self.model.rowsInserted.connect(self._update_count)
        self.model.modelReset.connect(self._update_count)
        context.project_changed.connect(self.reload)
        context.data_changed.connect(self.reload)

    # -- filters ----------------------------------------------------------------------

    def current_filter(self) -> SegmentFilter:
        system = self.system.currentText()
        band = self.band.currentText()
        return SegmentFilter(
            system=None if system in ("", ANY) else system,
            band=None if band in ("", ANY) else band,
            min_confidence=self.min_conf.value(),
            max_confidence=self.max_conf.value(),
            text=self.text.text().strip(),
            role=self.role.currentData(),
        )

    def set_bands(self, bands: list[str], band_of: BandOf | None) -> None:
        """The bands of the cost scheme and how to name a pick's band (from the analysis)."""
        self.model.band_of = band_of
        _refill(self.band, bands)
        self.apply_filter()

    @Slot()
    def reload(self) -> None:
        store = self.context.store
        systems = [s.name for s in store.systems.list()] if store is not None else []
        _refill(self.system, systems)
        self.apply_filter()

    @Slot()
    def apply_filter(self) -> None:
        self.model.reload(self.context.store, self.current_filter())
        self.detail.show_row(None)

    def _update_count(self) -> None:
        more = "+" if self.model.canFetchMore(QModelIndex()) else ""
        self.count.setText(f"{self.model.rowCount()}{more} segments shown")

    @Slot(QModelIndex, QModelIndex)
    def _current_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        self.detail.show_row(self.model.row(current.row()) if current.isValid() else None)

    # -- overrides and export -------------------------------------------------------------

    @Slot(int, int)
    def override(self, segment_id: int, candidate_id: int) -> None:
        """Store the user's pick for a segment (``-1``: back to the model's); every view follows."""
        store = self.context.store
        row = self.detail.row
        if store is None or row is None or row.recommendation is None:
            return
        from tmtprime.errors import TmtprimeError

        try:
            store.recommendations.set_override(segment_id, None if candidate_id < 0 else candidate_id, model=row.recommendation.model)
        except TmtprimeError as error:
            self.context.message.emit(str(error))
            return
        self.model.refresh_segment(segment_id)
        current = self.table.currentIndex()
        if current.isValid():
            self.detail.show_row(self.model.row(current.row()))
        self.context.message.emit("your pick is stored; exports and the analysis use it")
        self.context.overrides_changed.emit()

    def export_dialog(self) -> None:
        dialog = ExportDialog(self)
        if dialog.exec() == QDialog.DialogCode.Accepted and dialog.path.text().strip():
            self.export(dialog.format.currentText(), dialog.path.text().strip())

    def export(self, fmt: str, path: str) -> bool:
        """Export the picks on the worker thread (the library writes the file)."""
        from tmtprime.gui import work

        role = self.role.currentData()
        return self.context.run(
            f"Export {fmt}", lambda st, rep: work.export(st, rep, fmt, path, role=role), self.context.message.emit, changes_data=False
        )


class ExportDialog(QDialog):
    """Format and file of an export."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Export picks")
        self.format = QComboBox()
        self.format.addItems(list(EXPORT_FORMATS))
        self.path = QLineEdit()
        browse = QPushButton("Browse…")
        browse.clicked.connect(self._browse)
        row = QHBoxLayout()
        row.addWidget(self.path, 1)
        row.addWidget(browse)
        form = QFormLayout(self)
        form.addRow("Format", self.format)
        form.addRow("File", row)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)

    def _browse(self) -> None:
        suffix = {"xliff": "xlf", "xliff2": "xlf"}.get(self.format.currentText(), self.format.currentText())
        path, _ = QFileDialog.getSaveFileName(self, "Export to", f"picks.{suffix}")
        if path:
            self.path.setText(path)


def _refill(combo: QComboBox, items: list[str]) -> None:
    current = combo.currentText()
    combo.blockSignals(True)
    combo.clear()
    combo.addItem(ANY)
    combo.addItems(items)
    combo.setCurrentText(current if current in items else ANY)
    combo.blockSignals(False)
