"""The import wizard: files by drag and drop or a dialog, a column mapping with a preview for CSV/TSV,
then TM lookup and local MT on request. The import itself is the library's, on the worker thread."""

from __future__ import annotations

import csv
import gzip
import io
from pathlib import Path

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, Qt
from PySide6.QtGui import QDragEnterEvent, QDropEvent, QPainter, QPalette
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QListWidget,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
    QWizard,
    QWizardPage,
)

from tmtprime import workflows as wf
from tmtprime.errors import TmtprimeError
from tmtprime.formats import ColumnMapping
from tmtprime.gui import work
from tmtprime.gui.context import ProjectContext
from tmtprime.gui.file_dialogs import open_file_names

FILE_FILTER = QT_TRANSLATE_NOOP(
    "FilesPage",
    "Translation files (*.tmx *.xlf *.xliff *.sdlxliff *.mqxliff *.mxliff *.txlf *.po *.csv *.tsv *.txt *.json *.jsonl *.gz);;"
    "All files (*)",
)
ROLES = (
    (QT_TRANSLATE_NOOP("FilesPage", "Document to translate"), "document"),
    (QT_TRANSLATE_NOOP("FilesPage", "Dev data (with references)"), "dev"),
    (QT_TRANSLATE_NOOP("FilesPage", "Translation memory"), "tm"),
)
FIELDS = {
    "source": QT_TRANSLATE_NOOP("MappingPage", "source"),
    "target": QT_TRANSLATE_NOOP("MappingPage", "target"),
    "reference": QT_TRANSLATE_NOOP("MappingPage", "reference"),
    "tm": QT_TRANSLATE_NOOP("MappingPage", "tm"),
    "tm_source": QT_TRANSLATE_NOOP("MappingPage", "tm source"),
    "tm_score": QT_TRANSLATE_NOOP("MappingPage", "tm score"),
    "context": QT_TRANSLATE_NOOP("MappingPage", "context"),
    "key": QT_TRANSLATE_NOOP("MappingPage", "key"),
}
"""The mapping's fields and their labels (translated on screen)."""
PREVIEW_ROWS = 8


def table_preview(path: str, fmt: str, rows: int = PREVIEW_ROWS) -> tuple[list[str], list[list[str]]]:
    """Header and first rows of a CSV/TSV file (``.gz`` looked through), for the mapping preview."""
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8-sig", errors="replace", newline="") as f:  # type: ignore[operator]
        head = "".join(f.readline() for _ in range(rows + 1))
    reader = csv.reader(io.StringIO(head), delimiter="\t" if fmt == "tsv" else ",")
    lines = list(reader)
    return (lines[0], lines[1:]) if lines else ([], [])


class DropList(QListWidget):
    """The files to import; accepts files dropped on it."""

    def __init__(self) -> None:
        super().__init__()
        self.setAcceptDrops(True)
        self.setDragDropMode(QAbstractItemView.DragDropMode.DropOnly)
        self.setMinimumHeight(160)

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:  # noqa: N802
        if event.mimeData().hasUrls():
            event.acceptProposedAction()

    def paintEvent(self, event) -> None:  # noqa: ANN001,N802
        super().paintEvent(event)
        if self.count() == 0:
            painter = QPainter(self.viewport())
            painter.setPen(self.palette().color(QPalette.ColorRole.PlaceholderText))
            painter.drawText(
                self.viewport().rect(), Qt.AlignmentFlag.AlignCenter,
                self.tr("Drop TMX, XLIFF (Trados, memoQ, Phrase…), PO, CSV/TSV, JSON or text files here\nor use Add files…"),
            )  # fmt: skip
            painter.end()

    def dragMoveEvent(self, event) -> None:  # noqa: ANN001,N802
        if event.mimeData().hasUrls():
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:  # noqa: N802
        paths = [u.toLocalFile() for u in event.mimeData().urls() if u.isLocalFile()]
        self.wizard_page.add_files(paths)  # type: ignore[attr-defined]
        event.acceptProposedAction()


class FilesPage(QWizardPage):
    def __init__(self, directory: str = "") -> None:
        super().__init__()
        self.directory = directory
        self.setTitle(self.tr("Files"))
        self.setSubTitle(self.tr("Drop files here or add them; the format is detected from the content."))
        self.files: list[tuple[str, str]] = []
        self.list = DropList()
        self.list.wizard_page = self  # type: ignore[attr-defined]
        add = QPushButton(self.tr("Add files…"))
        add.clicked.connect(self.browse_files)
        clear = QPushButton(self.tr("Clear"))
        clear.clicked.connect(self._clear)
        self.role = QComboBox()
        for label, role in ROLES:
            self.role.addItem(QCoreApplication.translate("FilesPage", label), role)
        self.error = QLabel()
        self.error.setStyleSheet("color:#d03030")
        self.error.setWordWrap(True)
        buttons = QHBoxLayout()
        buttons.addWidget(add)
        buttons.addWidget(clear)
        buttons.addStretch(1)
        buttons.addWidget(QLabel(self.tr("Import as")))
        buttons.addWidget(self.role)
        layout = QVBoxLayout(self)
        layout.addWidget(self.list, 1)
        layout.addLayout(buttons)
        layout.addWidget(self.error)

    def add_files(self, paths: list[str]) -> None:
        for path in paths:
            if any(p == path for p, _ in self.files):
                continue
            try:
                fmt = wf.file_format(path)
            except TmtprimeError as error:
                self.error.setText(str(error))
                continue
            self.files.append((path, fmt))
            if fmt == "tmx" and len(self.files) == 1:  # a TMX is a translation memory unless the user says otherwise
                self.role.setCurrentIndex(self.role.findData("tm"))
            self.list.addItem(f"{Path(path).name}   [{fmt}]   {Path(path).parent}")
        self.completeChanged.emit()

    def browse_files(self) -> None:
        paths = open_file_names(self, self.tr("Import files"), self.directory, QCoreApplication.translate("FilesPage", FILE_FILTER))
        self.add_files(paths)

    def _clear(self) -> None:
        self.files = []
        self.list.clear()
        self.error.setText("")
        self.completeChanged.emit()

    def isComplete(self) -> bool:  # noqa: N802
        return bool(self.files)

    def tables(self) -> list[tuple[str, str]]:
        return [(p, f) for p, f in self.files if f in ("csv", "tsv")]


class MappingPage(QWizardPage):
    """Which column holds what, with the first rows of the file as a preview."""

    def __init__(self, files: FilesPage) -> None:
        super().__init__()
        self.files_page = files
        self.setTitle(self.tr("Columns"))
        self.setSubTitle(self.tr("Say which column holds what; '(auto)' lets TMTprime recognise the usual names."))
        self.preview = QTableWidget()
        self.preview.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.preview.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.combos = {f: QComboBox() for f in FIELDS}
        self.mt_list = QListWidget()
        self.mt_list.setMaximumHeight(110)
        self.tm_system = QLineEdit("tm")
        form = QFormLayout()
        grid = QHBoxLayout()
        left, right = QFormLayout(), QFormLayout()
        for i, (name, combo) in enumerate(self.combos.items()):
            (left if i < 4 else right).addRow(QCoreApplication.translate("MappingPage", FIELDS[name]), combo)
        grid.addLayout(left)
        grid.addLayout(right)
        form.addRow(grid)
        form.addRow(self.tr("TM system name"), self.tm_system)
        form.addRow(self.tr("MT columns (ticked: system = column)"), self.mt_list)
        layout = QVBoxLayout(self)
        self.which = QLabel()
        layout.addWidget(self.which)
        layout.addWidget(self.preview, 1)
        layout.addLayout(form)

    def initializePage(self) -> None:  # noqa: N802
        tables = self.files_page.tables()
        if not tables:
            return
        path, fmt = tables[0]
        header, rows = table_preview(path, fmt)
        which = self.tr("{file} (first %n row(s))", "", len(rows)).format(file=Path(path).name)
        if len(tables) > 1:
            which += self.tr(" — the same mapping is used for %n more", "", len(tables) - 1)
        self.which.setText(which)
        self.preview.setColumnCount(len(header))
        self.preview.setHorizontalHeaderLabels(header)
        self.preview.setRowCount(len(rows))
        for r, row in enumerate(rows):
            for c, value in enumerate(row[: len(header)]):
                self.preview.setItem(r, c, QTableWidgetItem(value))
        for combo in self.combos.values():
            combo.clear()
            combo.addItem(self.tr("(auto)"))
            combo.addItems(header)
        self.mt_list.clear()
        for name in header:
            item = self.mt_list.addItem(name) or self.mt_list.item(self.mt_list.count() - 1)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Checked if name.lower().startswith("mt") else Qt.CheckState.Unchecked)

    def set_field(self, field: str, column: str) -> None:
        """Choose ``column`` for ``field`` as a user would."""
        self.combos[field].setCurrentText(column)

    def mapping(self) -> ColumnMapping:
        values: dict[str, str | None] = {}
        for name, combo in self.combos.items():
            text = combo.currentText()
            values[name] = None if combo.currentIndex() <= 0 or not text else text
        mt = {}
        for i in range(self.mt_list.count()):
            item = self.mt_list.item(i)
            if item.checkState() == Qt.CheckState.Checked:
                mt[item.text()] = item.text()
        return ColumnMapping(
            source=values["source"], target=values["target"], reference=values["reference"], tm=values["tm"],
            tm_source=values["tm_source"], tm_score=values["tm_score"], context=values["context"], key=values["key"],
            tm_system=self.tm_system.text().strip() or "tm", mt=mt,
        )  # fmt: skip


class AfterPage(QWizardPage):
    def __init__(self) -> None:
        super().__init__()
        self.setTitle(self.tr("After the import"))
        self.lookup = QCheckBox(self.tr("Look every segment up in the project's TM"))
        self.translate = QCheckBox(self.tr("Translate with Apertium (local MT) where a segment has no MT yet"))
        layout = QVBoxLayout(self)
        layout.addWidget(self.lookup)
        layout.addWidget(self.translate)
        layout.addStretch(1)


class ImportDialog(QWizard):
    """Files → columns (CSV/TSV only) → lookup/MT; Finish starts the import on the worker thread."""

    def __init__(self, context: ProjectContext, parent: QWidget | None = None, files: list[str] | None = None) -> None:
        super().__init__(parent)
        self.context = context
        self.setWindowTitle(self.tr("Import files"))
        self.setWizardStyle(QWizard.WizardStyle.ClassicStyle)
        self.resize(820, 600)
        self.files = FilesPage(context.directory)
        self.columns = MappingPage(self.files)
        self.after = AfterPage()
        self.files_id = self.addPage(self.files)
        self.columns_id = self.addPage(self.columns)
        self.after_id = self.addPage(self.after)
        if files:
            self.files.add_files(files)

    def browse_files(self) -> None:
        """The "Add files…" dialog."""
        self.files.browse_files()

    def nextId(self) -> int:  # noqa: N802
        current = self.currentId()
        if current == self.files_id:
            return self.columns_id if self.files.tables() else self.after_id
        return super().nextId()

    def accept(self) -> None:
        self.start()
        super().accept()

    def start(self) -> bool:
        """Import the files (and look up / translate if asked) on the worker thread."""
        options = {
            "files": [p for p, _ in self.files.files],
            "role": self.files.role.currentData(),
            "mapping": self.columns.mapping() if self.files.tables() else None,
            "then_lookup": self.after.lookup.isChecked(),
            "then_translate": self.after.translate.isChecked(),
        }
        return self.context.run_process(self.tr("Import"), work.import_files, options, self.context.message.emit)
