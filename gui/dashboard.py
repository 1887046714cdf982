"""The analysis dashboard: which systems take part, the cost scheme, and what the job costs under each plan.

The estimate is the library's (``tmtprime.cost.estimate_costs`` with the
checked systems), computed on the worker thread whenever the systems, the
scheme, the picks or the project change; the charts are the report's
figure functions (``tmtprime.report.figures``) on Qt canvases.
"""

from __future__ import annotations

import html
from typing import Any

from PySide6.QtCore import Qt, QTimer, Slot
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QGridLayout,
    QGroupBox,
    QHeaderView,
    QLabel,
    QPushButton,
    QScrollArea,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from tmtprime.cost import CostEstimate, CostScheme
from tmtprime.progress import Reporter
from tmtprime.store import Store
from tmtprime.gui import work
from tmtprime.gui.charts import ChartView
from tmtprime.gui.context import ProjectContext
from tmtprime.gui.costs import CostSchemeEditor

PLAN_COLUMNS = ("Plan", "Segments", "Weighted words", "Estimate", "Actual", "Error %", "Days")
PLAN_NAMES = {"rule": "classic rule", "tmtprime": "TMTprime", "cost-aware": "cost-aware"}


def _money(value: float | None, currency: str) -> str:
    return "—" if value is None else f"{value:,.2f} {currency}"


class AnalysisView(QWidget):
    """Systems checkboxes, the cost scheme editor, totals, the plan table and the three charts."""

    def __init__(self, context: ProjectContext) -> None:
        super().__init__()
        self.context = context
        self.estimate: CostEstimate | None = None
        self.jobs = JobCache()
        self._pending = False
        self._timer = QTimer(self, singleShot=True, interval=150)
        self._timer.timeout.connect(self.recompute)

        # left: actions, systems, scheme
        actions = QGridLayout()
        self.lookup_button = QPushButton("TM lookup")
        self.translate_button = QPushButton("MT (Apertium)")
        self.recommend_button = QPushButton("Recommend")
        self.lookup_button.clicked.connect(self.run_lookup)
        self.translate_button.clicked.connect(self.run_translate)
        self.recommend_button.clicked.connect(self.run_recommend)
        for i, b in enumerate((self.lookup_button, self.translate_button, self.recommend_button)):
            actions.addWidget(b, 0, i)
        self.systems_box = QGroupBox("Systems taking part")
        self.systems_layout = QVBoxLayout(self.systems_box)
        self.system_checks: dict[str, QCheckBox] = {}
        self.editor = CostSchemeEditor(context)
        self.editor.scheme_changed.connect(self.schedule)
        scheme_box = QGroupBox("Cost scheme")
        QVBoxLayout(scheme_box).addWidget(self.editor)
        left = QWidget()
        lv = QVBoxLayout(left)
        lv.addLayout(actions)
        lv.addWidget(self.systems_box)
        lv.addWidget(scheme_box, 1)

        # right: totals, plan table, charts
        self.headline = QLabel()
        self.headline.setTextFormat(Qt.TextFormat.RichText)
        self.headline.setWordWrap(True)
        self.notes = QLabel()
        self.notes.setWordWrap(True)
        self.notes.setStyleSheet("color: gray")
        self.plans = QTableWidget(0, len(PLAN_COLUMNS))
        self.plans.setHorizontalHeaderLabels(PLAN_COLUMNS)
        self.plans.verticalHeader().setVisible(False)
        self.plans.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.plans.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.plans.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        self.plans.verticalHeader().setDefaultSectionSize(24)
        self.pie = ChartView("Recommended systems")
        self.bars = ChartView("Cost per plan")
        self.confidence = ChartView("Confidence")
        charts = QGridLayout()
        charts.addWidget(self.pie, 0, 0)
        charts.addWidget(self.bars, 0, 1)
        charts.addWidget(self.plans, 1, 0)
        charts.addWidget(self.confidence, 1, 1)
        charts.setColumnStretch(0, 1)
        charts.setColumnStretch(1, 1)
        right = QWidget()
        rv = QVBoxLayout(right)
        rv.addWidget(self.headline)
        rv.addLayout(charts, 1)
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
        context.overrides_changed.connect(self._overrides_changed)
        context.runner.ended.connect(self._runner_free)
        self._project_changed()

    # -- systems ----------------------------------------------------------------------

    def checked_systems(self) -> list[str]:
        return [name for name, box in self.system_checks.items() if box.isChecked()]

    def set_system_checked(self, name: str, checked: bool) -> None:
        """Tick or untick a system as a user would."""
        self.system_checks[name].setChecked(checked)

    def _fill_systems(self) -> None:
        store = self.context.store
        systems = store.systems.list() if store is not None else []
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
            self.headline.setText("Import files to see the analysis.")
        self.editor.add_systems([s.name for s in systems])

    @Slot()
    def _project_changed(self) -> None:
        self.estimate = None
        self.jobs = JobCache()
        self._fill_systems()
        self.editor.fill_presets()
        self.schedule()

    @Slot()
    def _data_changed(self) -> None:
        self.jobs = JobCache()
        self._fill_systems()
        self.schedule()

    @Slot()
    def _overrides_changed(self) -> None:
        self.jobs = JobCache()
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
        store = self.context.store
        scheme = self.editor.scheme
        if store is None or scheme is None:
            self._show_empty("Open a project to see its analysis.")
            return
        if not store.recommendations.exist():
            self._show_empty("No recommendations yet: import a document with candidates, then Recommend (Ctrl+R).")
            return
        systems = self.checked_systems()
        if not systems:
            self._show_empty("Tick at least one system.")
            return
        if self.context.runner.busy:  # once the queue is empty (an import may change what to estimate)
            self._pending = True
            return
        jobs = self.jobs
        self.context.run("Estimate", lambda st, rep: jobs.estimate(st, scheme, systems, rep), self.show_estimate, changes_data=False)

    def _show_empty(self, message: str) -> None:
        self.estimate = None
        self.headline.setText(html.escape(message))
        self.plans.setRowCount(0)
        for chart in (self.pie, self.bars, self.confidence):
            chart.clear(message)
        self.notes.setText("")

    def show_estimate(self, est: CostEstimate) -> None:
        from tmtprime.report import figures

        self.estimate = est
        in_job = self.jobs.systems or set()
        for name, box in self.system_checks.items():
            box.setEnabled(name in in_job)
            if name not in in_job:
                box.setToolTip("no candidates of this system in the documents")
        tmt = est.plan("tmtprime")
        best = est.best_single
        cur = est.currency
        saving = tmt.savings_vs_best_single
        saving_text = "" if saving is None else (
            f" — <b>{_money(saving, cur)}</b> {'saved' if saving >= 0 else 'more'} against the best single system "
            f"({html.escape(best.plan)}, {_money(best.cost, cur)})"
        )
        self.headline.setText(
            f"<span style='font-size:14pt'><b>{est.segments:,}</b> segments · <b>{est.words:,}</b> words · "
            f"TMTprime <b>{_money(tmt.cost, cur)}</b></span>{saving_text}<br>"
            f"<span style='color:gray'>{est.repeated_segments:,} repetitions · {est.reference_segments:,} segments with a "
            f"reference · model {html.escape(est.model)} · scheme {html.escape(est.scheme.name)}</span>"
        )
        self.plans.setRowCount(len(est.plans))
        for r, p in enumerate(est.plans):
            cells = (
                PLAN_NAMES.get(p.plan, p.plan),
                f"{p.segments:,}",
                f"{p.weighted_words:,.0f}",
                _money(p.cost, cur),
                _money(p.actual_cost, cur),
                "—" if p.error_pct is None else f"{p.error_pct:+.1f}",
                f"{p.days:.1f}",
            )
            for c, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if c:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                if p.plan == "tmtprime":
                    font = item.font()
                    font.setBold(True)
                    item.setFont(font)
                self.plans.setItem(r, c, item)
        self.pie.draw(figures.systems_pie, est)
        self.bars.draw(figures.cost_bars, est)
        self.confidence.draw(figures.confidence_histogram, est)
        self.notes.setText(" · ".join(est.notes))
        self.context.analysis_changed.emit(est)

    # -- project work (through the library, on the worker thread) -----------------------------

    def run_lookup(self) -> bool:
        return self.context.run_process("TM lookup", work.lookup, {}, self.context.message.emit)

    def run_translate(self) -> bool:
        return self.context.run_process("Machine translation", work.translate, {}, self.context.message.emit)

    def run_recommend(self) -> bool:
        systems = self.checked_systems() or None
        return self.context.run_process("Recommend", work.recommend, {"systems": systems}, self.context.message.emit)


class JobCache:
    """The project's job as the cost estimate reads it, kept between estimates.

    Reading the job (every segment, candidate and prediction) is most of an
    estimate's time on a large project; ticking a system or editing a rate
    only re-prices it. This is ``tmtprime.cost.estimate_costs`` split at that
    seam (``job_from_store`` once, ``estimate_job`` per change), with the same
    arguments; the cache is dropped whenever the project's data changes.
    """

    def __init__(self) -> None:
        self._loaded: tuple[Any, ...] | None = None

    @property
    def systems(self) -> set[str] | None:
        """Systems with candidates in the job (None before it is read)."""
        return None if self._loaded is None else {str(s) for s in self._loaded[0].systems}

    def estimate(self, store: Store, scheme: CostScheme, systems: list[str], reporter: Reporter) -> CostEstimate:
        from tmtprime.cost import BandCalibration, estimate_job, job_from_store

        if self._loaded is None:
            job, model, skipped = job_from_store(store, reporter=reporter)
            calibration = BandCalibration.from_card(dict(store.models.get(model).card))
            project = store.project()
            self._loaded = (job, model, skipped, calibration, project.source_lang, project.target_lang)
        job, model, skipped, calibration, source_lang, target_lang = self._loaded
        in_job = set(job.systems)
        systems = [s for s in systems if s in in_job]  # dev-only systems have nothing to price here
        reporter.check()
        reporter.status("estimating costs")
        est = estimate_job(
            job, scheme, calibration=calibration, word_rate=scheme.rate_for(source_lang, target_lang),
            systems=systems, model=model, job_name="all documents",
        )  # fmt: skip
        if skipped:
            est.notes.append(f"{skipped} segments without a recommendation from model {model!r} are left out; run Recommend again")
        return est
