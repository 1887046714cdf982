"""Training and evaluation: train on the project's references, see the figures, choose a precision for MT.

Training runs on the worker thread through the library; the figures come from
the stored model card (cross-validated by document). The precision slider
walks the card's MT-over-TM decision points: each shows at once how many
segments go to MT at that precision and what the job then costs (the
estimate of the analysis, recomputed with that MT threshold applied to the
picks when "Apply" stores them).
"""

from __future__ import annotations

import html
from typing import Any

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QObject, Qt, Signal, Slot
from PySide6.QtWidgets import (
    QComboBox,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSlider,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
    QAbstractItemView,
    QHeaderView,
)

from tmtprime.gui import served, work
from tmtprime.gui.charts import ChartView
from tmtprime.gui.curves import precision_recall_figure
from tmtprime.gui.context import ProjectContext
from tmtprime.gui.tasks import ask_child


NO_MODEL = QT_TRANSLATE_NOOP("TrainingView", "No model in this project yet.")


def _tr(text: str) -> str:
    """``text`` in the user's language (the training view's strings outside its class)."""
    return QCoreApplication.translate("TrainingView", text)


def worse_than_best_single(cv: dict[str, Any]) -> str | None:
    """A warning in words when the model's picks are worse than always taking the best single system."""
    gap = cv.get("gap_closed")
    if gap is None or gap >= 0:
        return None
    best = cv.get("best_single")
    if best:
        system = QCoreApplication.translate("TrainingView", "always taking <b>{system}</b>").format(system=html.escape(best))
    else:
        system = QCoreApplication.translate("TrainingView", "always taking the best single system")
    return QCoreApplication.translate(
        "TrainingView",
        "<b>This model is worse than {system}</b>: its picks need more post-editing on the dev data "
        "(it closes {percent} % of the gap to the best possible picks). Do not recommend with it; "
        "train on more or more varied development data, or use another model.",
    ).format(system=system, percent=f"{100 * gap:.1f}")


def decision_points(card: dict[str, Any]) -> list[dict[str, float]]:
    """The card's MT-over-TM decision points, by rising threshold."""
    points = card.get("cross_validated", {}).get("mt_over_tm", []) or []
    return sorted(points, key=lambda p: p["threshold"])


class _Answers(QObject):
    problem = Signal(int, object)  # check, what training lacks (str) | None | TmtprimeError


class TrainingView(QWidget):
    """Train, the evaluation figures of a model, and the precision slider."""

    def __init__(self, context: ProjectContext) -> None:
        super().__init__()
        self.context = context
        self.card: dict[str, Any] | None = None
        self._cards: dict[str, dict[str, Any]] = {}
        """The project's model cards by name, as listed (without the models themselves)."""
        self.points: list[dict[str, float]] = []
        self.model_name: str | None = None
        self.problem: str | None = None
        """What the project lacks for training, in words (None: it can train)."""

        self.models = QComboBox()
        self.models.currentTextChanged.connect(self.show_model)
        self.train_button = QPushButton(self.tr("Train on the dev data"))
        self.train_button.clicked.connect(self.train)
        top = QHBoxLayout()
        top.addWidget(QLabel(self.tr("Model")))
        top.addWidget(self.models, 1)
        top.addWidget(self.train_button)

        self.summary = QLabel(_tr(NO_MODEL))
        self.summary.setWordWrap(True)
        self.summary.setTextFormat(Qt.TextFormat.RichText)
        self.needs = QLabel()
        self.needs.setObjectName("training-needs")
        self.needs.setWordWrap(True)
        self.needs.setVisible(False)
        self.warning = QLabel()
        self.warning.setObjectName("model-warning")
        self.warning.setWordWrap(True)
        self.warning.setTextFormat(Qt.TextFormat.RichText)
        self.warning.setStyleSheet("color: #d03030")
        self.warning.setVisible(False)
        self.ter_table = QTableWidget(0, 2)
        self.ter_table.setHorizontalHeaderLabels([self.tr("Mean sentence TER of"), self.tr("TER")])
        self.ter_table.verticalHeader().setVisible(False)
        self.ter_table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.ter_table.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)

        self.curve = ChartView(self.tr("Precision-recall"), session=lambda: context.session)  # drawn in the child
        self.slider = QSlider(Qt.Orientation.Horizontal)
        self.slider.setEnabled(False)
        self.slider.valueChanged.connect(self._slider_moved)
        self.slider_text = QLabel()
        self.slider_text.setTextFormat(Qt.TextFormat.RichText)
        self.slider_text.setWordWrap(True)
        self.apply_button = QPushButton(self.tr("Apply to the documents"))
        self.apply_button.setEnabled(False)
        self.apply_button.clicked.connect(self.apply_threshold)
        precision = QGroupBox(self.tr("Precision of MT over the TM match"))
        pv = QVBoxLayout(precision)
        pv.addWidget(self.slider)
        pv.addWidget(self.slider_text)
        pv.addWidget(self.apply_button, 0, Qt.AlignmentFlag.AlignRight)

        left = QWidget()
        lv = QVBoxLayout(left)
        lv.addWidget(self.summary)
        lv.addWidget(self.warning)
        lv.addWidget(self.needs)
        lv.addWidget(self.ter_table, 1)
        right = QWidget()
        rv = QVBoxLayout(right)
        rv.addWidget(self.curve, 1)
        rv.addWidget(precision)
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(left)
        split.addWidget(right)
        split.setStretchFactor(1, 1)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(split, 1)
        self._check = 0
        self.checking = False
        """True while the project's child checks the dev data (Train is off until it answers)."""
        self._answers = _Answers(self)
        self._answers.problem.connect(self._training_data_checked)
        context.project_changed.connect(self._project_changed)
        context.data_changed.connect(self.reload)
        context.analysis_changed.connect(self._analysis_changed)
        self._cost_text = ""

    def _check_training_data(self) -> None:
        """Ask the project's child what training lacks (it reads up to 20,000 dev segments); Train waits for it."""
        self._check += 1
        session = self.context.session
        self.train_button.setEnabled(False)
        self.checking = session is not None
        if session is None:
            self._training_data_checked(self._check, None)
            return
        ask_child(session, served.training_problem, {}, self._answers.problem, self._check, channel="list")

    @Slot(int, object)
    def _training_data_checked(self, check: int, problem: object) -> None:
        if check != self._check:
            return  # asked again meanwhile
        self.checking = False
        self.problem = str(problem) if problem is not None else None
        self.needs.setText(self.problem or "")
        self.needs.setVisible(self.problem is not None)
        self.train_button.setEnabled(self.context.store is not None and self.problem is None)
        self.train_button.setToolTip(self.problem or self.tr("train a model on the project's development data"))

    @Slot()
    def _project_changed(self) -> None:
        self._cost_text = ""  # the previous project's figures
        self.models.clear()
        self.reload()

    @Slot()
    def reload(self, select: str | None = None) -> None:
        """The project's models (``select``, else the one shown, else the newest) and what training needs."""
        store = self.context.store
        self._cards = {m.name: dict(m.card) for m in store.models.list()} if store is not None else {}
        names = list(self._cards)
        current = select or self.models.currentText()
        self._check_training_data()
        self.models.blockSignals(True)
        self.models.clear()
        self.models.addItems(names)
        self.models.blockSignals(False)
        if names:
            self.models.setCurrentText(current if current in names else names[-1])
        self.show_model(self.models.currentText())

    @Slot(str)
    def show_model(self, name: str) -> None:
        store = self.context.store
        if store is None or name not in self._cards:
            self.card, self.points, self.model_name = None, [], None
            self.summary.setText(_tr(NO_MODEL))
            self.warning.setVisible(False)
            self.ter_table.setRowCount(0)
            self._cost_text = ""
            self.curve.clear(self.tr("Train a model to see its precision-recall curve."))
            self.slider_text.setText("")
            self.slider.setEnabled(False)
            self.apply_button.setEnabled(False)
            return
        self.model_name = name
        self.card = self._cards[name]
        cv = self.card.get("cross_validated", {})
        data = self.card.get("data", {})
        facts = [f"<b>{html.escape(name)}</b>"]
        if data:
            facts.append(self.tr("trained on {segments} segments, {documents} documents; systems {systems}").format(
                segments=data.get("segments", "?"), documents=data.get("documents", "?"),
                systems=html.escape(", ".join(data.get("systems", [])))))  # fmt: skip
        if "gap_closed" in cv:
            facts.append(self.tr("gap to the oracle closed <b>{percent} %</b> · ECE {ece} · r(confidence, TER) {r}").format(
                percent=f"{100 * cv['gap_closed']:.1f}", ece=f"{cv.get('ece', float('nan')):.3f}",
                r=f"{cv.get('pearson_confidence_ter', float('nan')):+.3f}"))  # fmt: skip
        self.summary.setText("<br>".join(facts))
        self.warning.setText(worse_than_best_single(cv) or "")
        self.warning.setVisible(bool(self.warning.text()))
        mean_ter = cv.get("mean_ter", {})
        self.ter_table.setRowCount(len(mean_ter))
        for r, (what, value) in enumerate(mean_ter.items()):
            self.ter_table.setItem(r, 0, QTableWidgetItem(what))
            item = QTableWidgetItem(f"{value:.2f}")
            item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            self.ter_table.setItem(r, 1, item)
        self.points = decision_points(self.card)
        self.slider.setEnabled(bool(self.points))
        self.apply_button.setEnabled(bool(self.points))
        if self.points:
            self.slider.blockSignals(True)
            self.slider.setRange(0, len(self.points) - 1)
            self.slider.setValue(0)
            self.slider.blockSignals(False)
        self._slider_moved(self.slider.value())

    def set_precision_index(self, index: int) -> None:
        """Move the slider as a user would."""
        self.slider.setValue(index)

    @Slot(int)
    def _slider_moved(self, index: int) -> None:
        if not self.points:
            self.curve.clear(self.tr("The model card has no MT-over-TM decisions (no TM matches of fuzzy ≥ 50 in the dev data)."))
            self.slider_text.setText("")
            return
        p = self.points[index]
        words = {"xlabel": self.tr("recall (MT outputs that beat the TM match)"), "ylabel": self.tr("precision"),
                 "title": self.tr("MT over TM match (cross-validated)")}  # fmt: skip
        self.curve.draw(precision_recall_figure, (self.points, index, words))
        self.slider_text.setText(
            self.tr("MT over the TM match when at least <b>{threshold}</b> sure: precision <b>{precision}</b>, "
                    "recall {recall} — <b>{to_mt}</b> of the dev segments go to MT ({better} would be better with MT).").format(
                threshold=f"{p['threshold']:.2f}", precision=f"{p['precision']:.2f}", recall=f"{p['recall']:.2f}",
                to_mt=int(p["decided_mt"]), better=int(p["positives"]))
            + self._cost_text
        )  # fmt: skip

    @Slot(object)
    def _analysis_changed(self, est) -> None:  # noqa: ANN001 - CostEstimate
        tmt = est.plan("tmtprime")
        mt = sum(v["segments"] for s, v in tmt.by_system.items() if s in _mt_systems(est))
        self._cost_text = self.tr(
            "<br>Documents now: <b>{mt}</b> of {segments} segments picked from MT, TMTprime estimate <b>{cost} {currency}</b>."
        ).format(mt=mt, segments=est.segments, cost=f"{tmt.cost:,.2f}", currency=est.currency)
        self._slider_moved(self.slider.value())

    # -- work ------------------------------------------------------------------------------

    @Slot()
    def train(self) -> bool:
        """Train on the worker; the new model is then the one shown. False (and why, on screen) without dev data."""
        if self.problem is not None:
            self.context.message.emit(self.problem)
            return False

        def done(name: str) -> None:
            self.context.message.emit(self.tr("trained model {name}").format(name=repr(name)))
            self.reload(select=name)

        return self.context.run_process(self.tr("Training"), work.train, {}, done)

    @Slot()
    def apply_threshold(self) -> bool:
        """Recommend again with the chosen MT threshold; the analysis then shows the cost."""
        if not self.points or self.model_name is None:
            return False
        threshold = float(self.points[self.slider.value()]["threshold"])
        options = {"model": self.model_name, "mt_threshold": threshold}
        return self.context.run_process(self.tr("Recommend"), work.recommend, options, self.context.message.emit)


def _mt_systems(est) -> set[str]:  # noqa: ANN001
    return {p.plan for p in est.single_plans if p.kind == "mt"}
