"""The analysis dashboard: which systems take part, the cost scheme, and what the job costs under each plan.

Everything it shows comes from ``tmtprime.workflows``: the estimate from an
:class:`~tmtprime.workflows.estimation.Estimates` (the job read once, priced
again on the worker thread whenever the systems or the scheme change), the
headline and tables from ``report_view`` (the report's own summary and
tables, so a cell on screen is the report's cell), the charts from the
report's figure functions (``tmtprime.report.figures``) on Qt canvases.
"""

from __future__ import annotations

import html
from pathlib import Path

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, Qt, QTimer, Slot
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QScrollArea,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from tmtprime.report import figures
from tmtprime.store import Store
from tmtprime.workflows.estimation import CostEstimate, Estimates
from tmtprime.workflows.status import project_status
from tmtprime.workflows.report_formats import suffix_format
from tmtprime.workflows.reporting import report_view
from tmtprime.gui import served, work
from tmtprime.gui.charts import ChartView
from tmtprime.gui.context import ProjectContext
from tmtprime.gui.costs import CostSchemeEditor
from tmtprime.gui.file_dialogs import save_file_name
from tmtprime.gui.staged import Steps

TABLES = ("plans", "confidence", "analysis", "documents", "bands-tmtprime")
"""The report's tables the dashboard shows (plans and confidence under their charts, the rest in tabs)."""
TABLE_TABS = {
    "analysis": QT_TRANSLATE_NOOP("AnalysisView", "Match analysis"),
    "documents": QT_TRANSLATE_NOOP("AnalysisView", "Per document"),
    "bands-tmtprime": QT_TRANSLATE_NOOP("AnalysisView", "Bands"),
}
def _escape(text: str) -> str:
    return html.escape(text, quote=False)


REPORT_FILTER = QT_TRANSLATE_NOOP("AnalysisView", "HTML report (*.html);;PDF report (*.pdf);;Text report (*.txt)")


def fill_table(widget: QTableWidget, table) -> None:  # noqa: ANN001 - tmtprime.report.tables.Table
    """Show a report table: its header, its cells formatted as the report formats them."""
    widget.clear()
    widget.setColumnCount(len(table.header))
    # two-word headers on two lines: the columns then fit a 1280-pixel window
    widget.setHorizontalHeaderLabels([h.replace(" ", "\n", 1) if " " in h else h for h in table.header])
    rows = table.text_rows()
    widget.setRowCount(len(rows))
    for r, cells in enumerate(rows):
        bold = cells[0] in ("TMTprime", "total")
        for c, text in enumerate(cells):
            item = QTableWidgetItem(text)
            if c:
                item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            if bold:
                font = item.font()
                font.setBold(True)
                item.setFont(font)
            widget.setItem(r, c, item)
    widget.setToolTip(table.note)
    widget.resizeColumnsToContents()
    if widget.property("fit_rows"):  # a short table under a chart: all its rows, the chart takes the rest
        height = widget.horizontalHeader().sizeHint().height() + sum(widget.rowHeight(r) for r in range(len(rows)))
        widget.setMinimumHeight(height + widget.horizontalScrollBar().sizeHint().height() + 2 * widget.frameWidth())


def _table_widget() -> QTableWidget:
    widget = QTableWidget(0, 0)
    widget.verticalHeader().setVisible(False)
    widget.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    widget.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    widget.verticalHeader().setDefaultSectionSize(24)
    widget.setWordWrap(False)
    return widget


class AnalysisView(QWidget):
    """Systems checkboxes, the cost scheme editor, the headline, the charts and the report's tables."""

    def __init__(self, context: ProjectContext) -> None:
        super().__init__()
        self.context = context
        self.estimate: CostEstimate | None = None
        self.estimates: Estimates | None = None
        self.last_report: Path | None = None
        self._pending = False
        self._timer = QTimer(self, singleShot=True, interval=150)
        self._timer.timeout.connect(self.recompute)
        self._showing = Steps(self)
        """The tables and charts of the estimate just shown, filled one per turn of the event loop."""

        # left: actions, systems, scheme
        actions = QGridLayout()
        self.lookup_button = QPushButton(self.tr("TM lookup"))
        self.translate_button = QPushButton(self.tr("MT (Apertium)"))
        self.recommend_button = QPushButton(self.tr("Recommend"))
        self.lookup_button.clicked.connect(self.run_lookup)
        self.translate_button.clicked.connect(self.run_translate)
        self.recommend_button.clicked.connect(self.run_recommend)
        for i, b in enumerate((self.lookup_button, self.translate_button, self.recommend_button)):
            actions.addWidget(b, 0, i)
        self.repair_check = QCheckBox(self.tr("and repair fuzzy matches with MT"))
        self.repair_check.setToolTip(self.tr("after the lookup, the words where a segment differs from its TM match "
                                             "(50 % or more) are translated with Apertium and put into the match: "
                                             "a candidate of its own, tm-repair"))
        actions.addWidget(self.repair_check, 1, 0, 1, 3)
        self.systems_box = QGroupBox(self.tr("Systems taking part"))
        self.systems_layout = QVBoxLayout(self.systems_box)
        self.system_checks: dict[str, QCheckBox] = {}
        self.editor = CostSchemeEditor(context)
        self.editor.scheme_changed.connect(self.schedule)
        scheme_box = QGroupBox(self.tr("Cost scheme"))
        QVBoxLayout(scheme_box).addWidget(self.editor)
        left = QWidget()
        lv = QVBoxLayout(left)
        lv.addLayout(actions)
        lv.addWidget(self.systems_box)
        lv.addWidget(scheme_box, 1)

        # right: headline, charts and tables in tabs, report export, notes
        self.headline = QLabel()
        self.headline.setTextFormat(Qt.TextFormat.RichText)
        self.headline.setWordWrap(True)
        self.notes = QLabel()
        self.notes.setWordWrap(True)
        self.notes.setStyleSheet("color: gray")
        self.status_note = QLabel()  # what the project is behind on (a document not recommended yet, stale picks)
        self.status_note.setWordWrap(True)
        self.status_note.setStyleSheet("color: #b35c00")
        session = lambda: context.session  # noqa: E731 - the charts are drawn in the project's child
        self.bars = ChartView(self.tr("Cost per plan"), session=session)
        self.pie = ChartView(self.tr("Recommended systems"), session=session)
        self.confidence = ChartView(self.tr("Confidence"), session=session)
        self.tables = {key: _table_widget() for key in TABLES}
        self.plans = self.tables["plans"]
        self.views = QTabWidget()
        self.plans.setProperty("fit_rows", True)
        for chart, key, label in ((self.bars, "plans", self.tr("Costs")), (self.pie, None, self.tr("Systems")),
                                  (self.confidence, "confidence", self.tr("Confidence"))):  # fmt: skip
            page = QSplitter(Qt.Orientation.Vertical, childrenCollapsible=False)
            page.addWidget(chart)
            if key is not None:
                page.addWidget(self.tables[key])
                page.setStretchFactor(0, 3)
                page.setStretchFactor(1, 2)
            self.views.addTab(page, label)
        for key, label in TABLE_TABS.items():
            self.views.addTab(self.tables[key], QCoreApplication.translate("AnalysisView", label))
        self.export_button = QPushButton(self.tr("Export report…"))
        self.export_button.setToolTip(self.tr("the report (HTML, PDF or text) of what the dashboard shows"))
        self.export_button.clicked.connect(self.export_dialog)
        self.export_note = QLabel()
        self.export_note.setWordWrap(True)
        self.export_note.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        bottom = QHBoxLayout()
        bottom.addWidget(self.export_button)
        bottom.addWidget(self.export_note, 1)
        right = QWidget()
        rv = QVBoxLayout(right)
        rv.addWidget(self.headline)
        rv.addWidget(self.status_note)
        rv.addWidget(self.views, 1)
        rv.addLayout(bottom)
        rv.addWidget(self.notes)

        scroll_left = QScrollArea(widgetResizable=True)
        scroll_left.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        scroll_left.setWidget(left)
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(scroll_left)
        split.addWidget(right)
        split.setStretchFactor(1, 1)
        split.setSizes([470, 1000])
        left.setMinimumWidth(440)
        QVBoxLayout(self).addWidget(split)

        context.project_changed.connect(self._project_changed)
        context.data_changed.connect(self._data_changed)
        context.overrides_changed.connect(self._data_changed)
        context.runner.ended.connect(self._runner_free)
        self._project_changed()

    # -- systems ----------------------------------------------------------------------

    @property
    def busy(self) -> bool:
        """An estimate is awaited (edits being debounced, work queued) or still being put on screen."""
        return self._timer.isActive() or self._pending or self._showing.busy or any(
            c.pending for c in (self.bars, self.pie, self.confidence))

    def checked_systems(self) -> list[str]:
        return [name for name, box in self.system_checks.items() if box.isChecked()]

    def set_system_checked(self, name: str, checked: bool) -> None:
        """Tick or untick a system as a user would."""
        self.system_checks[name].setChecked(checked)

    def _fill_systems(self, *, scheme: bool = True) -> None:
        """One checkbox per system of the project (ticks kept); ``scheme``: offer their base-cost rows."""
        store = self.context.store
        systems = store.systems.list() if store is not None else []
        if [s.name for s in systems] == list(self.system_checks):
            return
        previous = {n: b.isChecked() for n, b in self.system_checks.items()}
        for box in self.system_checks.values():
            box.deleteLater()
        self.system_checks = {}
        for s in systems:
            box = QCheckBox(f"{s.name}  ({s.kind.upper()})")
            if s.engine:
                box.setToolTip(s.engine)
            box.setChecked(previous.get(s.name, True))
            box.toggled.connect(self.schedule)
            self.systems_layout.addWidget(box)
            self.system_checks[s.name] = box
        if not systems:
            self.headline.setText(self.tr("Import files to see the analysis."))
        if scheme:
            self.editor.add_systems([s.name for s in systems])

    @Slot()
    def _project_changed(self) -> None:
        self.estimate = None
        self.estimates = None if self.context.store is None else Estimates(self.context.store)
        self.export_note.setText("")
        self._fill_systems(scheme=False)
        self.editor.load_project_scheme(list(self.system_checks))
        self._timer.stop()
        self.recompute()  # at once: the debounce is for edits

    @Slot()
    def _data_changed(self) -> None:
        """The project's data changed (an import, a recommendation, an override): read the job again."""
        self.estimates = None if self.context.store is None else Estimates(self.context.store)
        self._fill_systems()
        self.schedule()

    # -- the estimate ---------------------------------------------------------------------

    @Slot()
    def schedule(self, *_args: object) -> None:
        """Recompute soon (several edits in a row give one estimate)."""
        self._timer.start()

    @Slot(str, str)
    def _runner_free(self, _outcome: str, _message: str) -> None:
        if self._pending:
            self._pending = False
            self.schedule()

    @Slot()
    def recompute(self) -> None:
        store, estimates = self.context.store, self.estimates
        scheme = self.editor.scheme
        if store is None or estimates is None or scheme is None:
            self._show_empty(self.tr("Open a project to see its analysis."))
            return
        if self.context.runner.busy:  # once the queue is empty (an import may change what to estimate)
            self._pending = True
            return
        checked = self.checked_systems()

        def look(store: Store, _reporter: object) -> CostEstimate | str:
            """On the worker thread (it reads the project): what to show, or why there is nothing to estimate."""
            if not store.recommendations.exist():
                return self.tr("No recommendations yet: import a document with candidates, then Recommend (Ctrl+R).")
            if not checked:
                return self.tr("Tick at least one system.")
            return estimates.kept(scheme, checked, skip_absent=True) or ""

        def found(kept: CostEstimate | str) -> None:
            if kept == "":  # to be estimated: the job is read (or re-priced) in the project's child
                self.context.run_served(self.tr("Estimate"), served.estimate, {"scheme": scheme, "systems": checked}, done)
            elif isinstance(kept, str):
                self._show_empty(kept)
            else:  # already estimated (in this session or kept in the project): shown at once
                self.show_estimate(kept)
                self.context.prepare(served.read_job)  # so that the first change only re-prices it
                self.context.run(self.tr("Project status"), lambda s, _reporter: project_status(s).notices(commands=False),
                                 self.show_status, changes_data=False)  # fmt: skip

        def done(result: tuple[CostEstimate, list[str]]) -> None:
            self.show_estimate(result[0])
            self.show_status(result[1])

        self.context.run(self.tr("Estimate"), look, found, changes_data=False)

    def show_status(self, notices: list[str]) -> None:
        """What the figures leave out or may be wrong about: documents behind a step, stale picks."""
        self.status_note.setText(" · ".join(notices))
        self.status_note.setVisible(bool(notices))

    def _show_empty(self, message: str) -> None:
        self.estimate = None
        self._showing.start([])  # nothing left of an earlier estimate to show
        self.headline.setText(_escape(message))
        for table in self.tables.values():
            table.setRowCount(0)
        for chart in (self.pie, self.bars, self.confidence):
            chart.clear(message)
        self.notes.setText("")
        self.show_status([])

    def show_estimate(self, est: CostEstimate) -> None:
        """Headline, tables and charts of ``est`` (the same estimate again only refreshes the headline)."""
        same, self.estimate = est is self.estimate, est
        in_job = set(est.job_systems)
        for name, box in self.system_checks.items():
            box.setEnabled(name in in_job)
            if name not in in_job:
                box.setToolTip(self.tr("no candidates of this system in the documents"))
        lines, tables = report_view(est)
        summary = dict(lines)
        self.headline.setText(
            f"<span style='font-size:13pt'><b>TMTprime</b> {_escape(summary['TMTprime'])}</span><br>"
            + self.tr("Segments: {segments}<br><span style='color:gray'>scheme <b>{scheme}</b> ({state}) · "
                      "full rate {rate} · model {model}</span>").format(
                segments=_escape(summary["segments"]), scheme=_escape(est.scheme.name), state=_escape(self.editor.state_text()),
                rate=_escape(summary["full rate"]), model=_escape(summary["model"]))
        )  # fmt: skip
        if same:
            return
        self._showing.start([  # one piece per turn of the event loop: painting and input go in between
            *(lambda w=widget, t=tables[key]: fill_table(w, t) for key, widget in self.tables.items() if key in tables),
            lambda: self.bars.draw(figures.cost_bars, est),
            lambda: self.pie.draw(figures.systems_pie, est),
            lambda: self.confidence.draw(figures.confidence_histogram, est),
            lambda: (self.notes.setText(" · ".join(est.notes)), self.editor.show_rate_source(est)),
            lambda: self.context.analysis_changed.emit(est),
        ])

    # -- the report ------------------------------------------------------------------------

    def export_dialog(self) -> None:
        if self.estimate is None:
            self.context.message.emit(self.tr("no analysis to export yet"))
            return
        path = save_file_name(self, self.tr("Export report"), "tmtprime-report.html", self.tr(REPORT_FILTER))
        if path:
            self.export_report(path)

    def export_report(self, path: str) -> bool:
        """Write the report of what the dashboard shows (format from the suffix: .html, .pdf, .txt...; another
        suffix gets .html added)."""
        fmt = suffix_format(Path(path))
        if fmt is None:
            path, fmt = f"{path}.html", "html"
        options = {"fmt": fmt, "path": path, "scheme": self.editor.scheme, "systems": self.estimate.systems if self.estimate else None}

        def done(out: object) -> None:
            self.last_report = Path(str(out))
            text = self.tr("report written to {path}").format(path=self.last_report)
            self.export_note.setText(text)
            self.context.message.emit(text)

        return self.context.run_served(self.tr("Report"), served.report, options, done)

    # -- project work (through the library, in a child process) -----------------------------

    def run_lookup(self) -> bool:
        repair = self.repair_check.isChecked()
        return self.context.run_process(self.tr("TM lookup"), work.lookup, {"repair": repair}, self.context.message.emit)

    def run_translate(self) -> bool:
        return self.context.run_process(self.tr("Machine translation"), work.translate, {}, self.context.message.emit)

    def run_recommend(self) -> bool:
        systems = self.checked_systems() or None
        return self.context.run_process(self.tr("Recommend"), work.recommend, {"systems": systems}, self.context.message.emit)
