"""The cost scheme editor: rates per band and per system in editable tables, presets, validation, files.

The editor only edits the scheme's file structure (``CostScheme.to_dict``);
every check, load and save is the library's (``tmtprime.workflows.estimation``:
``check_scheme``, ``open_scheme``, ``write_scheme``), and its error is
shown under the tables with the offending cell marked.
"""

from __future__ import annotations

import json
from typing import Any

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, Qt, Signal, Slot
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QGridLayout,
    QHeaderView,
    QInputDialog,
    QLabel,
    QLineEdit,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from tmtprime.workflows.estimation import CostEstimate, CostScheme, SchemeError
from tmtprime.errors import TmtprimeError
from tmtprime.workflows.estimation import (
    DEFAULT_SCHEME,
    check_scheme,
    open_scheme,
    project_scheme,
    save_project_scheme,
    scheme_names,
    write_scheme,
)
from tmtprime.gui.context import ProjectContext
from tmtprime.gui.file_dialogs import open_file_name, save_file_name

TM_ROW_TIP = QT_TRANSLATE_NOOP(
    "CostSchemeEditor",
    "prices TM matches by their fuzzy band in the CAT-convention cost (Costs tab) and the match analysis; "
    "the expected estimate prices every candidate by the MT quality bands",
)
MT_ROW_TIP = QT_TRANSLATE_NOOP("CostSchemeEditor", "prices every candidate's expected post-editing (equivalent match: 100 − predicted TER)")
BAND_COLUMNS = (
    QT_TRANSLATE_NOOP("CostSchemeEditor", "Kind"),
    QT_TRANSLATE_NOOP("CostSchemeEditor", "From %"),
    QT_TRANSLATE_NOOP("CostSchemeEditor", "To %"),
    QT_TRANSLATE_NOOP("CostSchemeEditor", "Payable %"),
    QT_TRANSLATE_NOOP("CostSchemeEditor", "Name"),
)
SYSTEM_COLUMNS = (
    QT_TRANSLATE_NOOP("CostSchemeEditor", "System"),
    QT_TRANSLATE_NOOP("CostSchemeEditor", "Base cost"),
    QT_TRANSLATE_NOOP("CostSchemeEditor", "Per"),
)
ERROR_BRUSH = QBrush(QColor(230, 80, 80, 110))


def _number(text: str) -> Any:
    """A cell's number, or the text itself (the library's validation then names it)."""
    try:
        value = float(text.replace(",", "."))
    except ValueError:
        return text
    return int(value) if value.is_integer() and "." not in text and "," not in text else value


class CostSchemeEditor(QWidget):
    """Edit a cost scheme; ``scheme_changed(CostScheme)`` fires for every valid state."""

    scheme_changed = Signal(object)

    def __init__(self, context: ProjectContext) -> None:
        super().__init__()
        self.context = context
        self.scheme: CostScheme | None = None
        self._base: dict[str, Any] = {}
        self._filling = False

        self.preset = QComboBox()
        self.preset.activated.connect(self._preset_chosen)
        load = QPushButton(self.tr("Open…"))
        load.clicked.connect(self.load_dialog)
        save = QPushButton(self.tr("Save as…"))
        save.clicked.connect(self.save_dialog)
        keep = QPushButton(self.tr("Keep in project"))
        keep.setToolTip(self.tr("store this scheme in the project under a name"))
        keep.clicked.connect(self.keep_in_project)
        top = QGridLayout()
        top.addWidget(QLabel(self.tr("Scheme")), 0, 0)
        top.addWidget(self.preset, 0, 1, 1, 3)
        for i, b in enumerate((load, save, keep)):
            top.addWidget(b, 1, i + 1)

        self.currency = QLineEdit(maximumWidth=60)
        self.word_rate = QDoubleSpinBox(decimals=4, maximum=1000.0, singleStep=0.01)
        self.pair_check = QCheckBox(self.tr("Own rate for this pair"))
        self.pair_check.setToolTip(self.tr("a per-language-pair rate (word_rate_by_pair) replaces the full rate for this project"))
        self.pair_rate = QDoubleSpinBox(decimals=4, maximum=1000.0, singleStep=0.01)
        self.rate_note = QLabel()
        self.rate_note.setWordWrap(True)
        self.words_per_day = QDoubleSpinBox(decimals=0, maximum=100000.0, singleStep=100.0)
        self.rule_threshold = QDoubleSpinBox(decimals=0, maximum=101.0)
        self.repetitions = QDoubleSpinBox(decimals=0, maximum=1000.0)
        self.new = QDoubleSpinBox(decimals=0, maximum=1000.0)
        self.context_rate = QDoubleSpinBox(decimals=0, maximum=1000.0)
        self.mt_pricing = QComboBox()
        self.mt_pricing.addItem(self.tr("bands"), "bands")
        self.mt_pricing.addItem(self.tr("flat"), "flat")
        self.mt_flat = QDoubleSpinBox(decimals=0, maximum=1000.0)
        general = QGridLayout()
        rows = (
            (self.tr("Full rate"), self.word_rate, self.tr("Currency"), self.currency),
            ("", None, self.tr("Pair rate"), self.pair_rate),
            (self.tr("Words per day"), self.words_per_day, self.tr("Rule: TM from %"), self.rule_threshold),
            (self.tr("Context %"), self.context_rate, self.tr("Repetitions %"), self.repetitions),
            (self.tr("New words %"), self.new, self.tr("MT pricing"), self.mt_pricing),
            ("", None, self.tr("MT flat %"), self.mt_flat),
        )
        for r, (label_a, a, label_b, b) in enumerate(rows):
            if a is not None:
                general.addWidget(QLabel(label_a), r, 0)
                general.addWidget(a, r, 1)
            general.addWidget(QLabel(label_b), r, 2)
            general.addWidget(b, r, 3)
        general.addWidget(self.pair_check, 1, 0, 1, 2)
        general.addWidget(self.rate_note, len(rows), 0, 1, 4)
        self.currency.setMaximumWidth(16777215)
        for w in (self.word_rate, self.pair_rate, self.words_per_day, self.rule_threshold, self.repetitions, self.new,
                  self.context_rate, self.mt_flat):  # fmt: skip
            w.valueChanged.connect(self._edited)
        self.pair_check.toggled.connect(self._edited)
        self.currency.textEdited.connect(self._edited)
        self.mt_pricing.currentIndexChanged.connect(self._edited)

        self.bands = QTableWidget(0, len(BAND_COLUMNS))
        self.bands.setHorizontalHeaderLabels([QCoreApplication.translate("CostSchemeEditor", c) for c in BAND_COLUMNS])
        self.bands.setMinimumHeight(240)
        self.systems = QTableWidget(0, len(SYSTEM_COLUMNS))
        self.systems.setHorizontalHeaderLabels([QCoreApplication.translate("CostSchemeEditor", c) for c in SYSTEM_COLUMNS])
        for table in (self.bands, self.systems):
            table.verticalHeader().setVisible(False)
            table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
            table.setEditTriggers(QAbstractItemView.EditTrigger.AllEditTriggers)
            table.itemChanged.connect(self._edited)
        self.error = QLabel()
        self.error.setWordWrap(True)
        self.error.setStyleSheet("color: #d03030")

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(top)
        layout.addLayout(general)
        bands_label = QLabel(self.tr("Rates per band — TM fuzzy bands: CAT-convention cost and match analysis; "
                                     "MT quality bands (100 − predicted TER): the expected estimate of every candidate"))
        bands_label.setWordWrap(True)
        layout.addWidget(bands_label)
        layout.addWidget(self.bands, 2)
        layout.addWidget(QLabel(self.tr("Per system (base cost of the system's own output)")))
        layout.addWidget(self.systems, 1)
        layout.addWidget(self.error)
        self._origin = ""
        """Where the shown scheme was loaded from: a preset, a file, or the project."""
        self._loaded: dict[str, Any] = {}
        self.load_project_scheme()

    # -- loading ----------------------------------------------------------------------

    def _pair(self) -> tuple[str, str]:
        store = self.context.store
        if store is None:
            return "", ""
        project = store.project()
        return project.source_lang, project.target_lang

    def load_project_scheme(self, systems: list[str] | None = None) -> None:
        """Show the open project's scheme (the one saved in it last, else the default preset), with a
        base-cost row for each of ``systems``."""
        self.fill_presets()
        store = self.context.store
        try:
            scheme = project_scheme(store) if store is not None else open_scheme(DEFAULT_SCHEME)
        except TmtprimeError as error:  # a stored scheme this version cannot read: say so, start from the preset
            self.error.setText(str(error))
            scheme = open_scheme(DEFAULT_SCHEME)
        stored = store is not None and scheme.name in scheme_names(store)[1]
        self._origin = self.tr("the project's scheme") if stored else self.tr("preset, not saved in the project")
        self.set_scheme(scheme, systems)

    def state_text(self) -> str:
        """Where the scheme on screen comes from, and whether it was edited since."""
        edited = self.scheme is not None and self.scheme.to_dict() != self._loaded
        return self.tr("{origin}, edited — Keep in project to save").format(origin=self._origin) if edited else self._origin

    @Slot()
    def fill_presets(self) -> None:
        presets, stored = scheme_names(self.context.store)
        current = self.preset.currentText()
        self.preset.clear()
        self.preset.addItems(presets)
        for name in stored:
            self.preset.addItem(name, "stored")
        if current:
            self.preset.setCurrentText(current)

    @Slot(int)
    def _preset_chosen(self, _index: int) -> None:
        stored = self.preset.currentData() == "stored"
        try:
            self.set_scheme(open_scheme(self.preset.currentText(), self.context.store if stored else None))
        except TmtprimeError as error:
            self.error.setText(str(error))
            return
        if stored:
            self._origin = self.tr("stored in the project (Keep in project makes it the project's scheme)")
        else:
            self._origin = self.tr("preset, not saved in the project")

    def set_scheme(self, scheme: CostScheme, systems: list[str] | None = None) -> None:
        """Show ``scheme`` (and a row for each of ``systems`` it does not name)."""
        self._filling = True
        data = scheme.to_dict()
        self._base = data
        self.preset.setCurrentText(scheme.name)
        self.currency.setText(scheme.currency)
        self.word_rate.setValue(scheme.word_rate)
        self.words_per_day.setValue(scheme.words_per_day)
        self.rule_threshold.setValue(scheme.rule_threshold)
        self.repetitions.setValue(scheme.repetitions)
        self.new.setValue(scheme.new)
        self.context_rate.setValue(scheme.context)
        self.mt_pricing.setCurrentIndex(max(0, self.mt_pricing.findData(scheme.mt_pricing)))
        self.mt_flat.setValue(scheme.mt_flat)
        source, target = self._pair()
        pair = scheme.rate_pair(source, target) if source else None
        self._pair_key = pair or (f"{source.split('-')[0]}-{target.split('-')[0]}" if source else "")
        own = self.tr("Own rate for {pair}").format(pair=self._pair_key) if self._pair_key else self.tr("Own rate for this pair")
        self.pair_check.setText(own)
        self.pair_check.setEnabled(bool(self._pair_key))
        self.pair_check.setChecked(pair is not None)
        self.pair_rate.setValue(scheme.rate_for(source, target) if pair else scheme.word_rate)
        self.pair_rate.setEnabled(pair is not None)
        rows = [("TM", b) for b in data["tm"]["bands"]] + [("MT", b) for b in data["mt"]["bands"]]
        self.bands.setRowCount(len(rows))
        for i, (kind, band) in enumerate(rows):
            kind_item = QTableWidgetItem(kind)
            kind_item.setFlags(kind_item.flags() & ~Qt.ItemFlag.ItemIsEditable)
            kind_item.setToolTip(QCoreApplication.translate("CostSchemeEditor", TM_ROW_TIP if kind == "TM" else MT_ROW_TIP))
            self.bands.setItem(i, 0, kind_item)
            for col, key in enumerate(("min", "max", "payable", "name"), start=1):
                value = band.get(key, "")
                self.bands.setItem(i, col, QTableWidgetItem(f"{value:g}" if isinstance(value, float) else str(value)))
        names = dict(data.get("systems", {}))
        for name in systems or []:
            names.setdefault(name, {"base": 0.0, "per": "word"})
        self.systems.setRowCount(len(names))
        for i, (name, entry) in enumerate(names.items()):
            name_item = QTableWidgetItem(name)
            name_item.setFlags(name_item.flags() & ~Qt.ItemFlag.ItemIsEditable)
            self.systems.setItem(i, 0, name_item)
            self.systems.setItem(i, 1, QTableWidgetItem(f"{entry.get('base', 0.0):g}"))
            self.systems.setItem(i, 2, QTableWidgetItem(str(entry.get("per", "word"))))
        self._filling = False
        self._loaded = check_scheme(self.as_dict(), source=scheme.source).to_dict()
        self._edited()

    def add_systems(self, systems: list[str]) -> None:
        """Offer a base-cost row for each of the project's systems."""
        if self.scheme is not None:
            loaded, edited = self._loaded, self.scheme.to_dict() != self._loaded
            self.set_scheme(check_scheme(self.as_dict(), source=self.scheme.source), systems)
            if edited:  # still edited against what was loaded; base-cost rows of 0 alone are no edit
                self._loaded = loaded

    # -- editing ----------------------------------------------------------------------

    def as_dict(self) -> dict[str, Any]:
        """The scheme's file structure as the tables show it (not yet validated)."""
        data = json.loads(json.dumps(self._base))
        data.update(
            currency=self.currency.text(),
            word_rate=self.word_rate.value(),
            words_per_day=self.words_per_day.value(),
            rule_threshold=self.rule_threshold.value(),
        )
        pairs = dict(data.get("word_rate_by_pair", {}))
        pairs.pop(self._pair_key, None)
        if self.pair_check.isChecked() and self._pair_key:
            pairs[self._pair_key] = self.pair_rate.value()
        data.pop("word_rate_by_pair", None)
        if pairs:
            data["word_rate_by_pair"] = pairs
        data["tm"].update(context=self.context_rate.value(), repetitions=self.repetitions.value(), new=self.new.value())
        data["mt"].update(pricing=self.mt_pricing.currentData(), flat=self.mt_flat.value())
        tm, mt = [], []
        for i in range(self.bands.rowCount()):
            band: dict[str, Any] = {}
            for col, key in enumerate(("min", "max", "payable", "name"), start=1):
                item = self.bands.item(i, col)
                text = item.text().strip() if item is not None else ""
                if text or key != "name":
                    band[key] = text if key == "name" else _number(text)
            (tm if self.bands.item(i, 0).text() == "TM" else mt).append(band)
        data["tm"]["bands"], data["mt"]["bands"] = tm, mt
        systems = {}
        for i in range(self.systems.rowCount()):
            name = self.systems.item(i, 0).text()
            systems[name] = {"base": _number(self.systems.item(i, 1).text().strip()), "per": self.systems.item(i, 2).text().strip()}
        if systems:
            data["systems"] = systems
        return data

    @Slot()
    def _edited(self, *_args: object) -> None:
        if self._filling:
            return
        self._clear_marks()
        self.pair_rate.setEnabled(self.pair_check.isChecked())
        try:
            scheme = check_scheme(self.as_dict(), source=self.preset.currentText())
        except SchemeError as error:
            self.error.setText(str(error))
            self._mark(error)
            return
        self.error.setText("")
        self.scheme = scheme
        self.scheme_changed.emit(scheme)

    def show_rate_source(self, est: CostEstimate) -> None:
        """Say which rate priced the estimate on screen: the pair's own, or the full rate."""
        if est.word_rate_pair:
            self.rate_note.setText(
                self.tr("This project ({pair}) is priced at its own rate, {rate} {currency} a word; "
                        "the full rate applies to other language pairs.").format(
                    pair=est.word_rate_pair, rate=f"{est.word_rate:g}", currency=est.currency)
            )  # fmt: skip
        else:
            self.rate_note.setText(self.tr("This project is priced at the full rate, {rate} {currency} a word.").format(
                rate=f"{est.word_rate:g}", currency=est.currency))  # fmt: skip

    def _clear_marks(self) -> None:
        for table in (self.bands, self.systems):
            table.blockSignals(True)
            for r in range(table.rowCount()):
                for c in range(table.columnCount()):
                    item = table.item(r, c)
                    if item is not None:
                        item.setBackground(QBrush())
                        item.setToolTip("")
            table.blockSignals(False)

    def _mark(self, error: SchemeError) -> None:
        """Colour the cell the library's error names (its ``band``/``system`` and ``field``)."""
        cell: tuple[QTableWidget, int, int] | None = None
        if error.band is not None:
            kind, index = error.band
            rows = [r for r in range(self.bands.rowCount()) if self.bands.item(r, 0).text().lower() == kind]
            if index < len(rows):
                cell = (self.bands, rows[index], {"min": 1, "max": 2, "payable": 3, "name": 4}.get(error.field or "", 0))
        elif error.system is not None:
            for r in range(self.systems.rowCount()):
                if self.systems.item(r, 0).text() == error.system:
                    cell = (self.systems, r, 2 if error.field == "per" else 1)
        if cell is not None:
            table, r, c = cell
            item = table.item(r, c)
            if item is not None:
                table.blockSignals(True)
                item.setBackground(ERROR_BRUSH)
                item.setToolTip(str(error))
                table.blockSignals(False)

    def set_cell(self, table: QTableWidget, row: int, col: int, text: str) -> None:
        """Type ``text`` into a cell as a user would (tests)."""
        table.item(row, col).setText(text)

    # -- files --------------------------------------------------------------------------

    def load_dialog(self) -> None:
        path = open_file_name(self, self.tr("Open cost scheme"), "", self.tr("Cost schemes (*.toml *.json)"))
        if path:
            try:
                self.set_scheme(open_scheme(path))
            except TmtprimeError as error:
                self.error.setText(str(error))

    def save_dialog(self) -> None:
        if self.scheme is None:
            return
        path = save_file_name(self, self.tr("Save cost scheme"), f"{self.scheme.name}.json", self.tr("JSON (*.json)"))
        if path:
            self.save(path)

    def save(self, path: str) -> None:
        """Write the scheme as JSON (read back by Open… and every ``tmtprime`` command)."""
        if self.scheme is None:
            return
        try:
            written = write_scheme(self.scheme, path)
        except TmtprimeError as error:
            self.error.setText(str(error))
            return
        self.context.message.emit(self.tr("cost scheme written to {path}").format(path=written))

    def keep_in_project(self, name: str | None = None) -> None:
        """Store the scheme on screen in the project under a name; it becomes the project's scheme."""
        store = self.context.store
        if store is None or self.scheme is None:
            return
        if not name:
            name, ok = QInputDialog.getText(self, self.tr("Keep in project"), self.tr("Name of the scheme"), text=self.scheme.name)
            if not ok or not name.strip():
                return
        try:
            scheme = save_project_scheme(store, name, self.scheme)
        except TmtprimeError as error:
            self.error.setText(str(error))
            return
        self.fill_presets()
        self._origin = self.tr("the project's scheme")
        self.set_scheme(scheme)
        self.context.message.emit(
            self.tr("cost scheme {name} saved in the project; it is the project's scheme now").format(name=repr(scheme.name)))
