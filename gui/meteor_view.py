"""The Meteor tab: score a sentence pair or two files with the full scorer, and see the alignment.

Scoring runs on the worker thread through the use cases of
:mod:`tmtprime.workflows.meteor_scoring` (the ones ``tmtprime meteor`` calls;
the first score of a session loads the language's resources and the compiled
matchers). The language follows the project's target language; a matcher the
language cannot use on this machine (no paraphrase table) starts unticked, with
a file picker for the table. The alignment is drawn as
a matrix, hypothesis words down, reference words across, each aligned pair
coloured by the module that matched it, in the spirit of Meteor's X-Ray.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QCoreApplication, QRectF, QSize, QSortFilterProxyModel, Qt, Slot
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter, QPaintEvent, QPalette, QStandardItem, QStandardItemModel
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QSplitter,
    QTableView,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from tmtprime.errors import TmtprimeError
from tmtprime.meteor import Meteor
from tmtprime.meteor.params import MODULES, TASK_NAMES, resolve_config
from tmtprime.progress import Reporter
from tmtprime.workflows.meteor_scoring import MeteorFilesResult, module_choice, score_files, score_pair
from tmtprime.gui.context import ProjectContext
from tmtprime.gui.file_dialogs import open_file_name

MODULE_COLOURS = {"exact": "#2f6fdb", "stem": "#2fa84f", "synonym": "#e39a1a", "paraphrase": "#a04fd1"}
LANGUAGES = ("en", "cs", "de", "es", "fr", "da", "fi", "hu", "it", "nl", "no", "pt", "ro", "ru", "sv", "tr", "other")


@dataclass(frozen=True)
class MeteorOptions:
    """What the options panel asks for; ``params`` None means the task's own."""

    lang: str = "en"
    task: str | None = None
    modules: tuple[str, ...] | None = None
    params: tuple[float, float, float, float] | None = None
    normalize: bool = True
    paraphrase_table: str | None = None

    def scorer(self) -> Meteor:
        return Meteor(
            lang=self.lang, task=self.task, modules=self.modules, params=self.params, normalize=self.normalize,
            paraphrase_table=self.paraphrase_table,
        )


class AlignmentMatrix(QWidget):
    """Hypothesis words down the left, reference words across the top, aligned cells coloured by module."""

    CELL = 26

    def __init__(self) -> None:
        super().__init__()
        self.hyp: list[str] = []
        self.ref: list[str] = []
        self.cells: dict[tuple[int, int], str] = {}
        self.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
        self._font = QFont(self.font())

    def set_alignment(self, hyp: list[str], ref: list[str], pairs: list[tuple[int, int, str]]) -> None:
        self.hyp, self.ref = list(hyp), list(ref)
        self.cells = {(h, r): module for h, r, module in pairs}
        self.updateGeometry()
        self.resize(self.sizeHint())
        self.update()

    def pairs(self) -> list[tuple[str, str, str]]:
        """(hypothesis word, reference word, module) of every aligned pair, in hypothesis order."""
        return [(self.hyp[h], self.ref[r], m) for (h, r), m in sorted(self.cells.items())]

    def _margins(self) -> tuple[int, int]:
        fm = QFontMetrics(self._font)
        left = max((fm.horizontalAdvance(w) for w in self.hyp), default=0) + 12
        top = max((fm.horizontalAdvance(w) for w in self.ref), default=0) + 12
        return left, top

    def sizeHint(self) -> QSize:  # noqa: N802
        left, top = self._margins()
        return QSize(left + self.CELL * len(self.ref) + 8, top + self.CELL * len(self.hyp) + 8)

    def paintEvent(self, _event: QPaintEvent) -> None:  # noqa: N802
        if not self.hyp or not self.ref:
            return
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.setFont(self._font)
        pal = self.palette()
        text = pal.color(QPalette.ColorRole.Text)
        grid = pal.color(QPalette.ColorRole.Mid)
        left, top = self._margins()
        c = self.CELL
        for i, word in enumerate(self.hyp):
            aligned = any((i, j) in self.cells for j in range(len(self.ref)))
            p.setPen(text if aligned else grid)
            p.drawText(QRectF(0, top + i * c, left - 8, c), Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter, word)
        for j, word in enumerate(self.ref):
            aligned = any((i, j) in self.cells for i in range(len(self.hyp)))
            p.save()
            p.translate(left + j * c + c / 2 + 4, top - 6)
            p.rotate(-90)
            p.setPen(text if aligned else grid)
            p.drawText(0, 0, word)
            p.restore()
        p.setPen(grid)
        for i in range(len(self.hyp) + 1):
            p.drawLine(left, top + i * c, left + len(self.ref) * c, top + i * c)
        for j in range(len(self.ref) + 1):
            p.drawLine(left + j * c, top, left + j * c, top + len(self.hyp) * c)
        p.setPen(Qt.PenStyle.NoPen)
        for (i, j), module in self.cells.items():
            p.setBrush(QColor(MODULE_COLOURS.get(module, "#888888")))
            p.drawRoundedRect(QRectF(left + j * c + 3, top + i * c + 3, c - 6, c - 6), 3, 3)
        p.end()


def legend() -> QLabel:
    items = " ".join(
        f"<span style='background:{colour};color:white'>&nbsp;{module}&nbsp;</span>" for module, colour in MODULE_COLOURS.items()
    )
    return QLabel(QCoreApplication.translate("MeteorView", "Modules: {items}").format(items=items))


class MeteorView(QWidget):
    """Options, a sentence pair with its score and alignment, and batch scoring of two files."""

    def __init__(self, context: ProjectContext) -> None:
        super().__init__()
        self.context = context
        self._scorer = None
        self._scorer_options: MeteorOptions | None = None
        self.last_score = None

        # options
        self.lang = QComboBox()
        self.lang.addItems(LANGUAGES)
        self.task = QComboBox()
        self.task.addItem(self.tr("(language default)"), None)
        for code, name in TASK_NAMES.items():
            self.task.addItem(f"{code} — {name}", code)
        self._default_modules: tuple[str, ...] = MODULES
        self.module_boxes = {m: QCheckBox(m) for m in MODULES}
        for box in self.module_boxes.values():
            box.setChecked(True)
        self.custom_params = QCheckBox(self.tr("custom α β γ δ"))
        self.params = [QDoubleSpinBox(minimum=0.0, maximum=10.0, singleStep=0.05, decimals=2) for _ in range(4)]
        for spin, value in zip(self.params, (0.85, 0.2, 0.6, 0.75)):
            spin.setValue(value)
            spin.setEnabled(False)
        self.custom_params.toggled.connect(lambda on: [s.setEnabled(on) for s in self.params])
        self.normalize = QCheckBox(self.tr("normalize (-norm)"))
        self.normalize.setChecked(True)
        self.paraphrase_file = QLineEdit(placeholderText=self.tr("the language's table, if installed"))
        self.paraphrase_file.setReadOnly(True)
        self.paraphrase_browse = QPushButton(self.tr("Choose…"))
        self.paraphrase_browse.clicked.connect(self._choose_paraphrase_table)
        self.lang.currentTextChanged.connect(self._language_defaults)
        self.task.currentIndexChanged.connect(self._language_defaults)
        options = QGroupBox(self.tr("Options"))
        options_box = QVBoxLayout(options)
        form = QFormLayout()
        options_box.addLayout(form)
        form.addRow(self.tr("Language"), self.lang)
        form.addRow(self.tr("Task"), self.task)
        mods = QHBoxLayout()
        for box in self.module_boxes.values():
            mods.addWidget(box)
        form.addRow(self.tr("Modules"), mods)
        params = QHBoxLayout()
        params.addWidget(self.custom_params)
        for spin in self.params:
            params.addWidget(spin)
        form.addRow(self.tr("Parameters"), params)
        table = QHBoxLayout()
        table.addWidget(self.paraphrase_file, 1)
        table.addWidget(self.paraphrase_browse)
        form.addRow(self.tr("Paraphrase table"), table)
        form.addRow("", self.normalize)
        self.config_text = QLabel()
        self.config_text.setWordWrap(True)
        self.config_text.setStyleSheet("color: gray")
        form.addRow(self.config_text)
        options_box.addStretch(1)

        # sentence pair
        self.hypothesis = QLineEdit(placeholderText=self.tr("Hypothesis (the translation to score)"))
        self.references = QPlainTextEdit(placeholderText=self.tr("Reference(s), one per line — the best one wins"))
        self.references.setMaximumHeight(80)
        self.score_button = QPushButton(self.tr("Score"))
        self.score_button.setDefault(True)
        self.score_button.clicked.connect(self.score_pair)
        self.hypothesis.returnPressed.connect(self.score_pair)
        self.result = QLabel("—")
        self.result.setTextFormat(Qt.TextFormat.RichText)
        big = QFont(self.result.font())
        big.setPointSizeF(big.pointSizeF() * 1.3)
        self.result.setFont(big)
        self.parts = QLabel(wordWrap=True)
        self.matches = QTableWidget(0, 4)
        headers = [self.tr("hyp content"), self.tr("hyp function"), self.tr("ref content"), self.tr("ref function")]
        self.matches.setHorizontalHeaderLabels([h.replace(" ", "\n", 1) for h in headers])  # two lines: whole at 1280 px
        self.matches.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.matches.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.matches.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)  # its four rows fit: no bar
        self.matches.setMaximumHeight(180)
        self.alignment = AlignmentMatrix()
        scroll = QScrollArea()
        scroll.setWidget(self.alignment)
        scroll.setAlignment(Qt.AlignmentFlag.AlignCenter)
        pair_tab = QWidget()
        pv = QVBoxLayout(pair_tab)
        pair_form = QGridLayout()
        pair_form.addWidget(QLabel(self.tr("Hypothesis")), 0, 0)
        pair_form.addWidget(self.hypothesis, 0, 1)
        pair_form.addWidget(QLabel(self.tr("References")), 1, 0, Qt.AlignmentFlag.AlignTop)
        pair_form.addWidget(self.references, 1, 1)
        pair_form.addWidget(self.score_button, 1, 2, Qt.AlignmentFlag.AlignBottom)
        pv.addLayout(pair_form)
        scores = QHBoxLayout()
        left = QVBoxLayout()
        left.addWidget(self.result)
        left.addWidget(self.parts)
        left.addWidget(QLabel(self.tr("Matches per module")))
        left.addWidget(self.matches)
        left.addStretch(1)
        scores.addLayout(left, 1)  # half each: the matches table's headers whole at 1280 px
        right = QVBoxLayout()
        right.addWidget(legend())
        right.addWidget(scroll, 1)
        scores.addLayout(right, 1)
        pv.addLayout(scores, 1)

        # batch
        self.hyp_file = QLineEdit(placeholderText=self.tr("hypotheses, one segment per line"))
        self.ref_file = QLineEdit(placeholderText=self.tr("references, one segment per line"))
        self.refs_per_hyp = QComboBox()
        self.refs_per_hyp.addItems([str(n) for n in range(1, 6)])
        batch_tab = QWidget()
        bv = QVBoxLayout(batch_tab)
        files = QGridLayout()
        for row, (label, edit) in enumerate(((self.tr("Hypotheses"), self.hyp_file), (self.tr("References"), self.ref_file))):
            files.addWidget(QLabel(label), row, 0)
            files.addWidget(edit, row, 1)
            browse = QPushButton(self.tr("Browse…"))
            browse.clicked.connect(lambda _=False, e=edit: self._browse(e))
            files.addWidget(browse, row, 2)
        files.addWidget(QLabel(self.tr("References per segment (-r)")), 2, 0)
        files.addWidget(self.refs_per_hyp, 2, 1, Qt.AlignmentFlag.AlignLeft)
        self.batch_button = QPushButton(self.tr("Score files"))
        self.batch_button.clicked.connect(self.score_files)
        files.addWidget(self.batch_button, 2, 2)
        bv.addLayout(files)
        self.corpus = QLabel()
        bv.addWidget(self.corpus)
        self.batch_model = QStandardItemModel(0, 6, self)  # owned by the view: deleted with it, on the UI thread
        self.batch_model.setHorizontalHeaderLabels(["#", self.tr("Score"), "P", "R", self.tr("Penalty"), self.tr("Hypothesis")])
        self.batch_proxy = QSortFilterProxyModel(self)
        self.batch_proxy.setSourceModel(self.batch_model)
        self.batch_proxy.setSortRole(Qt.ItemDataRole.UserRole)
        self.batch_table = QTableView()
        self.batch_table.setModel(self.batch_proxy)
        self.batch_table.setSortingEnabled(True)
        self.batch_table.sortByColumn(0, Qt.SortOrder.AscendingOrder)  # Qt's default indicator is descending
        self.batch_table.verticalHeader().setVisible(False)
        self.batch_table.horizontalHeader().setSectionResizeMode(5, QHeaderView.ResizeMode.Stretch)
        self.batch_table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        bv.addWidget(self.batch_table, 1)

        self.modes = QTabWidget()
        self.modes.addTab(pair_tab, self.tr("Sentence pair"))
        self.modes.addTab(batch_tab, self.tr("Score two files"))
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(options)
        split.addWidget(self.modes)
        split.setStretchFactor(1, 1)
        layout = QVBoxLayout(self)
        layout.addWidget(split)
        split.setSizes([380, 900])
        self._language_defaults()
        context.project_changed.connect(self._follow_project_language)

    # -- options --------------------------------------------------------------------

    @Slot()
    def _language_defaults(self, *_args: object) -> None:
        """Tick the modules this language and task use and this machine has, and show the jar's parameters."""
        try:
            config = resolve_config(self.lang.currentText(), self.task.currentData())
            choice = module_choice(self.lang.currentText(), self.task.currentData(), self.paraphrase_file.text() or None)
        except TmtprimeError as error:
            self.config_text.setText(str(error))
            return
        self._default_modules = choice.modules
        for module, box in self.module_boxes.items():
            box.setChecked(module in choice.available)
            box.setEnabled(module in choice.available)
            box.setToolTip(choice.missing.get(module, ""))
        self.paraphrase_browse.setEnabled("paraphrase" in choice.modules)
        for spin, value in zip(self.params, (config.alpha, config.beta, config.gamma, config.delta)):
            spin.setValue(value)
        weights = " ".join(f"{w:g}" for w in config.weights)
        self.config_text.setText(
            self.tr("{language}, task {task}: α {alpha} β {beta} γ {gamma} δ {delta}, weights {weights}").format(
                language=config.language, task=config.task, alpha=f"{config.alpha:g}", beta=f"{config.beta:g}",
                gamma=f"{config.gamma:g}", delta=f"{config.delta:g}", weights=weights)
            + "".join(f"<br>{reason}" for reason in choice.missing.values())
        )  # fmt: skip

    def _choose_paraphrase_table(self) -> None:
        path = open_file_name(self, self.tr("Paraphrase table (Meteor's format)"), self.paraphrase_file.text())
        if path:
            self.paraphrase_file.setText(path)
            self._language_defaults()

    def options(self) -> MeteorOptions:
        modules = tuple(m for m, box in self.module_boxes.items() if box.isChecked())
        params = tuple(s.value() for s in self.params) if self.custom_params.isChecked() else None
        return MeteorOptions(
            lang=self.lang.currentText(),
            task=self.task.currentData(),
            modules=None if modules == self._default_modules else (modules or None),
            params=params,  # type: ignore[arg-type]
            normalize=self.normalize.isChecked(),
            paraphrase_table=self.paraphrase_file.text() or None,
        )

    def _scorer_for(self, options: MeteorOptions) -> Meteor:
        """The scorer for ``options``, kept while they stay the same (it caches its resources)."""
        if self._scorer is None or self._scorer_options != options:
            self._scorer, self._scorer_options = options.scorer(), options
        return self._scorer

    @Slot()
    def _follow_project_language(self) -> None:
        store = self.context.store
        if store is not None:
            lang = store.project().target_lang.split("-")[0].lower()
            if lang in LANGUAGES:
                self.lang.setCurrentText(lang)

    def _browse(self, edit: QLineEdit) -> None:
        path = open_file_name(self, self.tr("Segments file"), edit.text())
        if path:
            edit.setText(path)

    # -- sentence pair --------------------------------------------------------------------

    @Slot()
    def score_pair(self) -> bool:
        hyp = self.hypothesis.text()
        refs = self.references.toPlainText().splitlines()
        if not any(r.strip() for r in refs):
            self.context.message.emit(self.tr("type at least one reference"))
            return False
        scorer = self._scorer_for(self.options())
        return self.context.runner.start("Meteor", lambda reporter: score_pair(scorer, hyp, refs, reporter), self.show_score)

    def show_score(self, score) -> None:  # noqa: ANN001 - MeteorScore
        self.last_score = score
        self.result.setText(f"<b>Meteor {score.score:.4f}</b>")
        self.parts.setText(
            self.tr("P {p} · R {r} · Fmean {f} · penalty {penalty} · chunks {chunks} · fragmentation {frag}").format(
                p=f"{score.precision:.4f}", r=f"{score.recall:.4f}", f=f"{score.fmean:.4f}", penalty=f"{score.penalty:.4f}",
                chunks=f"{score.chunks:g}", frag=f"{score.fragmentation:.4f}")
            + (self.tr(" · best reference #{n}").format(n=score.ref_index + 1) if score.ref_index else "")
        )  # fmt: skip
        matches = score.matches()
        self.matches.setRowCount(len(matches))
        self.matches.setVerticalHeaderLabels(list(matches))
        for row, counts in enumerate(matches.values()):
            for col, key in enumerate(("test_content", "test_function", "ref_content", "ref_function")):
                item = QTableWidgetItem(str(counts[key]))
                item.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
                self.matches.setItem(row, col, item)
        self.alignment.set_alignment(score.hyp_tokens, score.ref_tokens, score.word_alignment())

    # -- batch ------------------------------------------------------------------------

    @Slot()
    def score_files(self) -> bool:
        hyp_path, ref_path = self.hyp_file.text().strip(), self.ref_file.text().strip()
        n_refs = int(self.refs_per_hyp.currentText())
        scorer = self._scorer_for(self.options())

        def work(reporter: Reporter) -> MeteorFilesResult:
            return score_files(scorer, hyp_path, ref_path, refs_per_segment=n_refs, reporter=reporter)

        return self.context.runner.start(self.tr("Meteor batch"), work, self._show_batch)

    def _show_batch(self, result: MeteorFilesResult) -> None:
        hyps, scores, corpus = result.hyps, result.segments, result.total
        self.corpus.setText(
            self.tr("<b>Final score {score}</b> over %n segment(s) · P {p} · R {r} · penalty {penalty}", "", len(scores)).format(
                score=f"{corpus.score:.4f}", p=f"{corpus.precision:.4f}", r=f"{corpus.recall:.4f}", penalty=f"{corpus.penalty:.4f}")
        )  # fmt: skip
        model = self.batch_model
        model.removeRows(0, model.rowCount())
        for i, (hyp, s) in enumerate(zip(hyps, scores)):
            items = []
            for value, text in ((i + 1, str(i + 1)), (s.score, f"{s.score:.4f}"), (s.precision, f"{s.precision:.4f}"),
                                (s.recall, f"{s.recall:.4f}"), (s.penalty, f"{s.penalty:.4f}"), (hyp, hyp)):  # fmt: skip
                item = QStandardItem(text)
                item.setData(value, Qt.ItemDataRole.UserRole)
                item.setEditable(False)
                items.append(item)
            model.appendRow(items)
        self.batch_table.resizeColumnsToContents()
        self.batch_table.horizontalHeader().setSectionResizeMode(5, QHeaderView.ResizeMode.Stretch)
