"""The segments view: a lazily fetched, sortable table, live filters, the candidates pane, picks, export.

:class:`SegmentTableModel` shows the lines of ``workflows.segment_lines``
a page at a time, as the project's child process reads, filters and sorts
them (:mod:`.served`): 100,000 segments cost the window nothing until
scrolled to, and a sort or a filter never holds up its UI thread. Pick, band and confidence are the use
case's: the user's override or edited text, else the model's pick, in the
band the estimate counts it in. Export writes what the filters show.
"""

from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from PySide6.QtCore import (
    QT_TRANSLATE_NOOP,
    QAbstractTableModel,
    QCoreApplication,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
    QTimer,
    Signal,
    Slot,
)
from PySide6.QtGui import QColor, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QSplitter,
    QStyle,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from tmtprime import workflows as wf
from tmtprime.errors import Cancelled, TmtprimeError
from tmtprime.progress import Reporter
from tmtprime.workflows.estimation import CostScheme
from tmtprime.workflows.exporting import EXPORT_FORMATS
from tmtprime.workflows.segment_page import SegmentLine, SegmentQuery
from tmtprime.gui import served
from tmtprime.gui.context import ProjectContext
from tmtprime.gui.session import Session
from tmtprime.gui.tasks import ask_child
from tmtprime.gui.candidates import DetailPane
from tmtprime.gui.file_dialogs import save_file_name

PAGE = 200
COLUMNS = (
    QT_TRANSLATE_NOOP("SegmentTableModel", "Document"),
    QT_TRANSLATE_NOOP("SegmentTableModel", "#"),
    QT_TRANSLATE_NOOP("SegmentTableModel", "Source"),
    QT_TRANSLATE_NOOP("SegmentTableModel", "Recommended text"),
    QT_TRANSLATE_NOOP("SegmentTableModel", "System"),
    QT_TRANSLATE_NOOP("SegmentTableModel", "Band"),
    QT_TRANSLATE_NOOP("SegmentTableModel", "Confidence"),
    QT_TRANSLATE_NOOP("SegmentTableModel", "Fuzzy"),
)
"""Column names (English, as the code refers to them); the header shows them translated."""
ANY = QT_TRANSLATE_NOOP("SegmentsView", "(any)")
"""The filter entry that keeps every value (shown translated: :func:`any_label`)."""
TYPING_PAUSE_MS = 250
"""The text filter applies once typing pauses this long."""

def any_label() -> str:
    """The "(any)" entry of the filter boxes in the user's language."""
    return QCoreApplication.translate("SegmentsView", ANY)


class _Delivery(QObject):
    """Answers of the project's child (pages, bands), delivered on the UI thread."""

    page = Signal(int, object)  # list key, (lines, complete) | TmtprimeError
    bands = Signal(int, object)  # bands request, (band names, {segment id: band}) | TmtprimeError


class SegmentTableModel(QAbstractTableModel):
    """Segments of the project (``workflows.segment_lines``), a page at a time from the project's child process.

    The child (:mod:`.served`) reads, filters and sorts the list and keeps
    it; ``fetchMore`` asks for the next page and the rows are inserted when it
    arrives, so the UI thread never reads or sorts more than a page. Bands
    come with a page once the child has read them, else in a second answer.
    """

    complete = Signal()
    """Every row of the filter is fetched (the count is exact)."""
    band_names = Signal(list)
    """The bands the picks are in (the report's order), when they are read."""
    failed = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._rows: list[SegmentLine] = []
        self._session: Session | None = None
        self.filter = SegmentQuery()
        self.scheme: CostScheme | None = None
        self._sort: tuple[int, Qt.SortOrder] = (-1, Qt.SortOrder.AscendingOrder)
        self._key = 0
        self._bands_request = 0
        self._complete = True
        self.reading = False
        """True while a page is asked for (a sorted or band-filtered list: the whole list is read first)."""
        self.loading_bands = False
        self._reporter = Reporter()
        self._signals = _Delivery(self)
        self._signals.page.connect(self._page_arrived)
        self._signals.bands.connect(self._bands_arrived)

    def reload(self, session: Session | None, flt: SegmentQuery | None = None) -> None:
        """Start again from the first segment (another project, filter, sort or data)."""
        self.beginResetModel()
        self._session = session
        if flt is not None:
            self.filter = flt
        self._rows = []
        self._key += 1
        self._reporter.request_cancel()  # the list being read is not wanted any more
        self._reporter = Reporter()
        self._complete = session is None
        self.reading = False
        self.fetchMore(QModelIndex())  # before the reset ends: the views see the list being read
        self.endResetModel()

    def row(self, i: int) -> SegmentLine:
        return self._rows[i]

    def set_scheme(self, scheme: CostScheme | None) -> None:
        """The scheme whose bands the list shows: the rows fetched so far get theirs."""
        self.scheme = scheme
        self.refresh_bands()

    def refresh_bands(self) -> None:
        """Ask for the bands of the rows fetched (another scheme, or a pick changed)."""
        self._bands_request += 1
        session, scheme, ids = self._session, self.scheme, [r.segment.id for r in self._rows]
        if session is None or scheme is None:
            self.loading_bands = False
            return
        self.loading_bands = True
        options = {"scheme": scheme, "segment_ids": ids}
        ask_child(session, served.bands_of, options, self._signals.bands, self._bands_request, channel="analysis")

    @Slot(int, object)
    def _bands_arrived(self, request: int, answer: object) -> None:
        if request != self._bands_request:
            return  # a newer request is under way
        self.loading_bands = False
        if isinstance(answer, TmtprimeError):
            self.failed.emit(QCoreApplication.translate("SegmentsView", "bands not shown: {error}").format(error=answer))
            return
        assert isinstance(answer, tuple)
        names, by_segment = answer
        self._rows = [replace(r, band=by_segment.get(r.segment.id, r.band)) for r in self._rows]
        if self._rows:
            band = COLUMNS.index("Band")
            self.dataChanged.emit(self.index(0, band), self.index(len(self._rows) - 1, band))
        self.band_names.emit(names)

    def replace_row(self, line: SegmentLine) -> None:
        """Show a segment's line as it now is (after the user chose or edited its pick)."""
        for i, row in enumerate(self._rows):
            if row.segment.id == line.segment.id:
                self._rows[i] = line
                self.dataChanged.emit(self.index(i, 0), self.index(i, len(COLUMNS) - 1))
                return

    # -- Qt model API ----------------------------------------------------------------

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008,N802
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008,N802
        return 0 if parent.isValid() else len(COLUMNS)

    def canFetchMore(self, parent: QModelIndex | QPersistentModelIndex) -> bool:  # noqa: N802
        return not parent.isValid() and not self._complete

    def fetchMore(self, parent: QModelIndex | QPersistentModelIndex) -> None:  # noqa: N802
        """Ask the child for the next page (once: the view asks again while scrolling)."""
        if parent.isValid() or self._complete or self.reading or self._session is None:
            return
        self.reading = True
        column, order = self._sort
        options = {
            "key": self._key, "query": self.filter, "scheme": self.scheme, "offset": len(self._rows), "size": PAGE,
            "sort": None if column < 0 else (COLUMNS[column], order == Qt.SortOrder.DescendingOrder),
        }  # fmt: skip
        session, reporter = self._session, self._reporter
        ask_child(session, served.segment_page, options, self._signals.page, self._key, channel="list", reporter=reporter)

    @Slot(int, object)
    def _page_arrived(self, key: int, answer: object) -> None:
        if key != self._key:
            return  # reloaded meanwhile
        self.reading = False
        if isinstance(answer, TmtprimeError):
            self._complete = True
            if not isinstance(answer, Cancelled):
                self.failed.emit(str(answer))
            self.complete.emit()
            return
        assert isinstance(answer, tuple)
        lines, self._complete = answer
        if lines:
            start = len(self._rows)
            self.beginInsertRows(QModelIndex(), start, start + len(lines) - 1)
            self._rows.extend(lines)
            self.endInsertRows()
            if self.scheme is not None and any(not line.band for line in lines):
                self.refresh_bands()
        if self._complete:
            self.complete.emit()

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """Sort every row of the filter by a column (``-1``: file order): the child reads and sorts the list
        (seconds for 100,000 segments), then pages come from the sorted list."""
        if (column, order) == self._sort:
            return
        self._sort = (column, order)
        self.reload(self._session)

    def fetch_all(self) -> None:
        """Wait for every row of the list, processing events (tests; the UI thread itself never waits)."""
        deadline = time.monotonic() + 120
        while (self.reading or self.canFetchMore(QModelIndex())) and time.monotonic() < deadline:
            self.fetchMore(QModelIndex())
            QCoreApplication.processEvents()
            time.sleep(0.002)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:  # noqa: N802
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return QCoreApplication.translate("SegmentTableModel", COLUMNS[section])
        return None

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        row = self._rows[index.row()]
        col = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return self._display(row, col)
        if role == Qt.ItemDataRole.ToolTipRole and col in (0, 2, 3):
            return self._display(row, col)
        if role == Qt.ItemDataRole.TextAlignmentRole and col in (1, 6, 7):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.ForegroundRole and col == 4 and row.pick and row.pick.overridden:
            return QColor(30, 110, 220)
        if role == Qt.ItemDataRole.BackgroundRole and col == 6 and row.confidence is not None:
            return _confidence_colour(row.confidence)
        return None

    @staticmethod
    def _display(row: SegmentLine, col: int) -> str:
        if col == 0:
            return row.segment.document
        if col == 1:
            return str(row.segment.position + 1)
        if col == 2:
            return row.segment.source
        if col == 3:
            return row.pick.candidate.text if row.pick else ""
        if col == 4:
            if row.pick is None:
                return ""
            return row.system + (QCoreApplication.translate("SegmentTableModel", " (yours)") if row.pick.overridden else "")
        if col == 5:
            return row.band
        if col == 6:
            return "" if row.confidence is None else f"{row.confidence:.2f}"
        if col == 7:
            return "" if row.fuzzy is None else f"{row.fuzzy:.0f}"
        return ""


def _confidence_colour(value: float) -> QColor:
    """Red (unsure) to green (sure), faint enough for text on top in light and dark palettes."""
    value = min(max(value, 0.0), 1.0)
    return QColor(int(220 * (1 - value)), int(180 * value), 60, 70)


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
        # Sized from what a column can hold, never from its rows: Qt's ResizeToContents asks the model for every
        # role of every fetched row at each page, band or pick (100-600 ms on the UI thread for 200 rows).
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        for col in (COLUMNS.index("Source"), COLUMNS.index("Recommended text")):
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.Stretch)
        self.table.selectionModel().currentRowChanged.connect(self._current_changed)
        header.setSortIndicatorShown(True)
        header.setSortIndicator(-1, Qt.SortOrder.AscendingOrder)  # file order until a header is clicked
        self.table.setSortingEnabled(True)
        self.model.band_names.connect(self._bands_known)
        self.model.failed.connect(self.context.message.emit)

        self.document = QComboBox()
        self.system = QComboBox()
        self.band = QComboBox()
        self.min_conf = QDoubleSpinBox(minimum=0.0, maximum=1.0, singleStep=0.05, decimals=2, value=0.0)
        self.max_conf = QDoubleSpinBox(minimum=0.0, maximum=1.0, singleStep=0.05, decimals=2, value=1.0)
        self.text = QLineEdit(placeholderText=self.tr("Find in source or recommended text"), clearButtonEnabled=True)
        self.role = QComboBox()
        self.role.addItem(self.tr("Documents"), "document")
        self.role.addItem(self.tr("Dev data"), "dev")
        self.role.addItem(self.tr("All"), None)
        self.count = QLabel()
        bar = QHBoxLayout()
        for label, w in ((self.tr("Show"), self.role), (self.tr("Document"), self.document), (self.tr("System"), self.system),
                         (self.tr("Band"), self.band), (self.tr("Confidence"), self.min_conf), (self.tr("to"), self.max_conf)):  # fmt: skip
            bar.addWidget(QLabel(label))
            bar.addWidget(w)
        bar.addWidget(self.text, 1)
        export = QPushButton(self.tr("Export…"))
        export.clicked.connect(self.export_dialog)
        bar.addWidget(export)
        for combo in (self.document, self.system, self.band, self.role):
            combo.currentIndexChanged.connect(self.apply_filter)
        for spin in (self.min_conf, self.max_conf):
            spin.valueChanged.connect(self.apply_filter)
        self._typing = QTimer(self, singleShot=True, interval=TYPING_PAUSE_MS)
        self._typing.timeout.connect(self.apply_filter)
        self.text.textChanged.connect(self._typing.start)
        self.text.returnPressed.connect(self.apply_filter)
        self._shortcuts()

        self.detail = DetailPane()
        self.detail.override.connect(self.override)
        self.detail.edited.connect(self.override)
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.table)
        split.addWidget(self.detail)
        split.setStretchFactor(0, 1)
        split.setStretchFactor(1, 1)
        layout = QVBoxLayout(self)
        layout.addLayout(bar)
        layout.addWidget(split, 1)
        layout.addWidget(self.count)
        self.model.rowsInserted.connect(self._update_count)
        self.model.modelReset.connect(self._update_count)
        self.model.complete.connect(self._update_count)
        context.project_changed.connect(self.reload)
        context.data_changed.connect(self.reload)
        self._fit_columns()

    # -- filters ----------------------------------------------------------------------

    def current_filter(self) -> SegmentQuery:
        system = self.system.currentText()
        band = self.band.currentText()
        document = self.document.currentText()
        none = ("", any_label())
        return SegmentQuery(
            document=None if document in none else document,
            system=None if system in none else system,
            band=None if band in none else band,
            min_confidence=self.min_conf.value(),
            max_confidence=self.max_conf.value(),
            text=self.text.text().strip(),
            role=self.role.currentData(),
        )

    @property
    def scheme(self) -> CostScheme | None:
        return self.model.scheme

    @property
    def loading_bands(self) -> bool:
        return self.model.loading_bands

    def set_scheme(self, scheme: CostScheme | None) -> None:
        """The analysis' cost scheme: the bands are those its estimate counts each pick in."""
        self.model.set_scheme(scheme)

    @Slot(list)
    def _bands_known(self, names: list[str]) -> None:
        before = [self.band.itemText(i) for i in range(1, self.band.count())]
        _refill(self.band, names)
        self._fit_columns()
        if names != before and self.band.currentText() not in ("", any_label()):
            self.apply_filter()

    def _fit_columns(self) -> None:
        """Width of the short columns: their header, or the widest value they can show (the systems and bands
        the filters offer, a six-digit number, a confidence), whichever is wider."""
        header, metrics = self.table.horizontalHeader(), self.table.fontMetrics()
        combo = lambda box: [box.itemText(i) for i in range(1, box.count())]  # noqa: E731 - without "(any)"
        yours = QCoreApplication.translate("SegmentTableModel", " (yours)")
        values = {"#": ["999999"], "System": [s + yours for s in combo(self.system)], "Band": combo(self.band),
                  "Confidence": ["0.00"], "Fuzzy": ["100"]}  # fmt: skip
        padding = 2 * self.table.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin) + 12
        for name, texts in values.items():
            col = COLUMNS.index(name)
            width = max([metrics.horizontalAdvance(t) + padding for t in texts], default=0)
            header.resizeSection(col, max(width, header.sectionSizeHint(col)))

    def _shortcuts(self) -> None:
        """Alt+1…9: take candidate 1…9 of the segment; Alt+Down / Alt+Up: next / previous segment."""
        within = Qt.ShortcutContext.WidgetWithChildrenShortcut
        for n in range(1, 10):
            QShortcut(QKeySequence(f"Alt+{n}"), self, lambda n=n: self.take_candidate(n), context=within)
        QShortcut(QKeySequence("Alt+Down"), self, lambda: self.move(1), context=within)
        QShortcut(QKeySequence("Alt+Up"), self, lambda: self.move(-1), context=within)

    def take_candidate(self, n: int) -> None:
        """Make the ``n``-th card (1-based, left to right) the pick, as its "Use this" does."""
        cards = self.detail.cards_in_order()
        if self.detail.row is not None and 1 <= n <= len(cards):
            self.override(self.detail.row.segment.id, cards[n - 1].candidate.id)

    def move(self, step: int) -> None:
        """Select the next (``step`` 1) or previous (-1) segment of the list."""
        current = self.table.currentIndex().row()
        target = max(0, current + step) if current >= 0 else 0
        if target >= self.model.rowCount() and self.model.canFetchMore(QModelIndex()):
            self.model.fetchMore(QModelIndex())
        if target < self.model.rowCount():
            self.table.selectRow(target)

    @Slot()
    def reload(self) -> None:
        store = self.context.store
        systems = [s.name for s in store.systems.list()] if store is not None else []
        _refill(self.system, systems)
        _refill(self.document, self.documents())
        self._fit_columns()
        self.apply_filter()

    def documents(self) -> list[str]:
        """Names of the project's documents of the role shown (what the Document filter offers)."""
        store = self.context.store
        return [d.name for d in store.documents.list(role=self.role.currentData())] if store is not None else []

    @Slot()
    def apply_filter(self) -> None:
        self.model.reload(self.context.session, self.current_filter())
        self.detail.show_row(None)

    def _update_count(self) -> None:
        n = self.model.rowCount()
        if self.model.reading and n == 0:
            self.count.setText(self.tr("reading the segments…"))
        elif self.model.canFetchMore(QModelIndex()):
            self.count.setText(self.tr("%n+ segments shown", "", n))
        else:
            self.count.setText(self.tr("%n segment(s) shown", "", n))

    @Slot(QModelIndex, QModelIndex)
    def _current_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        self.detail.show_row(self.model.row(current.row()) if current.isValid() else None)

    # -- overrides and export -------------------------------------------------------------

    def override(self, segment_id: int, candidate_id: int, text: str | None = None) -> None:
        """Store the user's pick for a segment (``-1``: back to the model's; ``text``: as edited); every view follows."""
        store = self.context.store
        row = self.detail.row
        if store is None or row is None or row.segment.id != segment_id:
            return
        try:
            line = wf.choose(store, row, None if candidate_id < 0 else candidate_id, text=text)
        except TmtprimeError as error:
            self.context.message.emit(str(error))
            return
        self.model.replace_row(replace(line, band=""))  # until the bands are read again
        self.model.refresh_bands()
        self.detail.show_row(line)
        edited = text is not None and line.pick is not None and line.pick.candidate.origin == "edited"
        stored = self.tr("your text is stored; exports and the analysis use it") if edited else self.tr(
            "your pick is stored; exports and the analysis use it")
        self.context.message.emit(stored)
        self.context.overrides_changed.emit()

    def export_dialog(self) -> None:
        dialog = ExportDialog(self, self.context.directory)
        if dialog.exec() == QDialog.DialogCode.Accepted and dialog.path.text().strip():
            self.export(dialog.format.currentText(), dialog.path.text().strip())

    def export(self, fmt: str, path: str) -> bool:
        """Export what the list shows (its filters) on the worker thread; the library writes the file."""
        options = {"query": self.current_filter(), "scheme": self.scheme, "fmt": fmt, "path": path}
        return self.context.run_served(self.tr("Export {format}").format(format=fmt), served.export_shown, options,
                                       self.context.message.emit)  # fmt: skip


class ExportDialog(QDialog):
    """Format and file of an export."""

    def __init__(self, parent: QWidget | None = None, directory: str = "") -> None:
        super().__init__(parent)
        self.directory = directory
        self.setWindowTitle(self.tr("Export picks"))
        self.format = QComboBox()
        self.format.addItems(list(EXPORT_FORMATS))
        self.path = QLineEdit()
        browse = QPushButton(self.tr("Browse…"))
        browse.clicked.connect(self.browse_files)
        row = QHBoxLayout()
        row.addWidget(self.path, 1)
        row.addWidget(browse)
        form = QFormLayout(self)
        form.addRow(self.tr("Format"), self.format)
        form.addRow(self.tr("File"), row)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)

    def browse_files(self) -> None:
        suffix = {"xliff": "xlf", "xliff2": "xlf"}.get(self.format.currentText(), self.format.currentText())
        path = save_file_name(self, self.tr("Export to"), str(Path(self.directory) / f"picks.{suffix}"))
        if path:
            self.path.setText(path)


def _refill(combo: QComboBox, items: list[str]) -> None:
    current = combo.currentText()
    combo.blockSignals(True)
    combo.clear()
    combo.addItem(any_label())
    combo.addItems(items)
    combo.setCurrentText(current if current in items else any_label())
    combo.blockSignals(False)
