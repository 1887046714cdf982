"""The main window: project bar, menus with shortcuts, the views as tabs, a status bar with the task's progress."""

from __future__ import annotations

import sys
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QSettings, Qt, Slot
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QLineEdit,
    QMainWindow,
    QMenu,
    QMessageBox,
    QProgressBar,
    QPushButton,
    QTabWidget,
    QToolBar,
    QToolButton,
    QWidget,
)

from tmtprime.errors import TmtprimeError
from tmtprime.store import Store
from tmtprime.gui.context import ProjectContext
from tmtprime.gui.credentials import SessionPasswords, is_url, password_of, wants_password, without_password
from tmtprime.gui.file_dialogs import open_file_name, save_file_name

APP_TITLE = "TMTprime"
MAX_RECENT = 8

LANGUAGES = ["en", "es", "ca", "gl", "fr", "de", "it", "pt", "nl", "cs", "ar", "ro", "tr", "da", "fi", "hu", "no", "ru", "sv"]


def project_filter() -> str:
    """The file-dialog filter of project files, in the user's language."""
    return QCoreApplication.translate("MainWindow", "TMTprime projects (*.db *.sqlite);;All files (*)")


def window_title(project_name: str | None) -> str:
    """``TMTprime — <project name>``, or plain ``TMTprime`` with no project open."""
    return f"{APP_TITLE} — {project_name}" if project_name else APP_TITLE


class NewProjectDialog(QDialog):
    """File name and language pair of a new project."""

    def __init__(self, parent: QWidget | None = None, directory: str = "") -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("New project"))
        self.path = QLineEdit(str(Path(directory or Path.home()) / "project.db"))
        browse = QPushButton(self.tr("Browse…"))
        browse.clicked.connect(self._browse)
        self.source = QComboBox(editable=True)
        self.target = QComboBox(editable=True)
        self.source.addItems(LANGUAGES)
        self.target.addItems(LANGUAGES)
        self.target.setCurrentText("es")
        form = QFormLayout(self)
        row = QWidget()
        h = QHBoxLayout(row)
        h.setContentsMargins(0, 0, 0, 0)
        h.addWidget(self.path, 1)
        h.addWidget(browse)
        form.addRow(self.tr("Project file"), row)
        form.addRow(self.tr("Source language"), self.source)
        form.addRow(self.tr("Target language"), self.target)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)

    def _browse(self) -> None:
        path = save_file_name(self, self.tr("New project"), self.path.text(), project_filter())
        if path:
            self.path.setText(path)


class OpenProjectDialog(QDialog):
    """A project file (typed, recent or browsed) or a database URL (``postgresql+psycopg://user@host/db``)."""

    def __init__(self, parent: QWidget | None, recent: list[str], directory: str = "") -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Open project"))
        self.directory = directory
        self.where = QComboBox(editable=True)
        self.where.addItems(recent)
        self.where.setCurrentText("")
        self.where.lineEdit().setPlaceholderText(
            self.tr("project file, or database URL such as postgresql+psycopg://user@host/db"))
        self.where.setMinimumWidth(520)
        browse = QPushButton(self.tr("Browse…"))
        browse.clicked.connect(self.browse_files)
        row = QWidget()
        h = QHBoxLayout(row)
        h.setContentsMargins(0, 0, 0, 0)
        h.addWidget(self.where, 1)
        h.addWidget(browse)
        form = QFormLayout(self)
        form.addRow(self.tr("Project"), row)
        note = QLabel(self.tr("A password in a URL is used for this session only; it is never saved. "
                              "Without one, PGPASSWORD or ~/.pgpass is used, or you are asked."))  # fmt: skip
        note.setWordWrap(True)
        note.setStyleSheet("color: gray")
        form.addRow(note)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Open | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)

    def browse_files(self) -> None:
        path = open_file_name(self, self.tr("Open project"), self.directory, project_filter())
        if path:
            self.where.setCurrentText(path)
            self.accept()

    def location(self) -> str:
        return self.where.currentText().strip()


class MainWindow(QMainWindow):
    """The application window; ``context`` holds the open project and runs its long work."""

    def __init__(self, context: ProjectContext | None = None) -> None:
        super().__init__()
        self.context = context or ProjectContext(self)
        self.settings = QSettings(self)  # owned by the window, so never deleted by a late collection elsewhere
        self.passwords = SessionPasswords()
        self.setWindowTitle(window_title(None))
        self.resize(1280, 820)
        self.setAcceptDrops(True)

        from tmtprime.gui.dashboard import AnalysisView
        from tmtprime.gui.meteor_view import MeteorView
        from tmtprime.gui.segments import SegmentsView
        from tmtprime.gui.training import TrainingView

        self.analysis = AnalysisView(self.context)
        self.segments = SegmentsView(self.context)
        self.training = TrainingView(self.context)
        self.meteor = MeteorView(self.context)
        self.tabs = QTabWidget(documentMode=True)
        for view, label in (
            (self.analysis, self.tr("Analysis")),
            (self.segments, self.tr("Segments")),
            (self.training, self.tr("Training")),
            (self.meteor, self.tr("Meteor")),
        ):
            self.tabs.addTab(view, label)
        self.setCentralWidget(self.tabs)

        self._build_actions()
        self._build_project_bar()
        self._build_menus()
        self._build_status_bar()

        self.analysis.editor.scheme_changed.connect(self._scheme_changed)
        if self.analysis.editor.scheme is not None:
            self._scheme_changed(self.analysis.editor.scheme)
        self.context.project_changed.connect(self._project_changed)
        self.context.message.connect(lambda text: self.statusBar().showMessage(text, 8000))
        runner = self.context.runner
        runner.started.connect(self._task_started)
        runner.status.connect(self._task_status)
        runner.progress.connect(self._task_progress)
        runner.ended.connect(self._task_ended)
        self._restore()
        self._project_changed()
        self._previous_hook = sys.excepthook
        sys.excepthook = self._unhandled

    # -- building -------------------------------------------------------------------

    def _action(self, text: str, slot, shortcut: QKeySequence | str | None = None, tip: str = "") -> QAction:  # noqa: ANN001
        action = QAction(text, self)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        if tip:
            action.setStatusTip(tip)
        action.triggered.connect(slot)
        return action

    def _build_actions(self) -> None:
        K = QKeySequence.StandardKey
        self.act_new = self._action(self.tr("&New project…"), self.new_project, K.New, self.tr("create a project file"))
        self.act_open = self._action(self.tr("&Open project…"), self.open_project_dialog, K.Open,
                                     self.tr("open a project file or database URL"))  # fmt: skip
        self.act_import = self._action(self.tr("&Import files…"), self.import_dialog, "Ctrl+I", self.tr("import documents, dev data or a TM"))
        self.act_export = self._action(self.tr("&Export…"), self.export_dialog, "Ctrl+E",
                                       self.tr("write the picks as CSV, JSON, XLIFF or TMX"))  # fmt: skip
        self.act_close = self._action(self.tr("&Close project"), lambda: self.context.set_store(None), "Ctrl+W")
        self.act_quit = self._action(self.tr("&Quit"), self.close, K.Quit)
        self.act_lookup = self._action(self.tr("TM &lookup"), self.analysis.run_lookup, "Ctrl+L", self.tr("find TM matches for every segment"))
        self.act_translate = self._action(self.tr("Machine &translation (Apertium)"), self.analysis.run_translate, "Ctrl+M")
        self.act_recommend = self._action(self.tr("&Recommend"), self.analysis.run_recommend, "Ctrl+R", self.tr("pick a candidate per segment"))
        self.act_train = self._action(self.tr("&Train model"), self.training.train, "Ctrl+T", self.tr("train on the dev data"))
        self.act_cancel = self._action(self.tr("&Cancel task"), self.context.runner.cancel, "Esc")
        self.act_refresh = self._action(self.tr("Re&fresh"), self.refresh, QKeySequence.StandardKey.Refresh,
                                        self.tr("show what other processes changed in the project"))  # fmt: skip
        self.act_cancel.setEnabled(False)
        self.project_actions = [self.act_import, self.act_export, self.act_close, self.act_lookup,
                                self.act_translate, self.act_recommend, self.act_train, self.act_refresh]  # fmt: skip

    def _build_project_bar(self) -> None:
        bar = QToolBar(self.tr("Project"), objectName="project-bar", movable=False)
        bar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        bar.addAction(self.act_new)
        bar.addAction(self.act_open)
        self.recent_menu = QMenu(self.tr("Open &recent"), self)
        recent = QToolButton(text=self.tr("Recent"), popupMode=QToolButton.ToolButtonPopupMode.InstantPopup)
        recent.setMenu(self.recent_menu)
        bar.addWidget(recent)
        bar.addSeparator()
        bar.addAction(self.act_import)
        bar.addAction(self.act_export)
        bar.addSeparator()
        self.project_label = QLabel()
        self.project_label.setTextFormat(Qt.TextFormat.RichText)
        self.languages_label = QLabel()
        self.languages_label.setObjectName("languages")
        bar.addWidget(self.project_label)
        bar.addWidget(QLabel("   "))
        bar.addWidget(self.languages_label)
        self.addToolBar(bar)
        self.project_bar = bar

    def _build_menus(self) -> None:
        menu = self.menuBar()
        file = menu.addMenu(self.tr("&File"))
        for a in (self.act_new, self.act_open):
            file.addAction(a)
        file.addMenu(self.recent_menu)
        file.addSeparator()
        for a in (self.act_import, self.act_export):
            file.addAction(a)
        file.addSeparator()
        file.addAction(self.act_close)
        file.addAction(self.act_quit)
        project = menu.addMenu(self.tr("&Project"))
        for a in (self.act_lookup, self.act_translate, self.act_recommend, self.act_train):
            project.addAction(a)
        project.addSeparator()
        project.addAction(self.act_cancel)
        view = menu.addMenu(self.tr("&View"))
        view.addAction(self.act_refresh)
        view.addSeparator()
        for i in range(self.tabs.count()):
            view.addAction(self._action(self.tabs.tabText(i), lambda _=False, i=i: self.tabs.setCurrentIndex(i), f"Ctrl+{i + 1}"))
        help_menu = menu.addMenu(self.tr("&Help"))
        help_menu.addAction(self._action(self.tr("&About TMTprime"), self._about))
        self._fill_recent()

    def _build_status_bar(self) -> None:
        status = self.statusBar()
        self.task_label = QLabel()
        self.progress = QProgressBar(maximumWidth=260, textVisible=True)
        self.cancel_button = QPushButton(self.tr("Cancel"))
        self.cancel_button.clicked.connect(self.context.runner.cancel)
        status.addPermanentWidget(self.task_label)
        status.addPermanentWidget(self.progress)
        status.addPermanentWidget(self.cancel_button)
        self._show_task_widgets(False)

    # -- projects -------------------------------------------------------------------

    def new_project(self) -> None:
        dialog = NewProjectDialog(self, self.settings.value("last_dir", "", str))
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return
        path = dialog.path.text().strip()
        try:
            Store.create(path, source_lang=dialog.source.currentText(), target_lang=dialog.target.currentText()).close()
        except TmtprimeError as error:
            self.show_error(self.tr("Cannot create the project"), str(error))
            return
        self.open_project(path)

    def open_project_dialog(self) -> None:
        dialog = OpenProjectDialog(self, self._recent(), self.settings.value("last_dir", "", str))
        if dialog.exec() == QDialog.DialogCode.Accepted and dialog.location():
            self.open_project(dialog.location())

    def open_project(self, location: str) -> bool:
        """Open a project file or database URL; an error goes to a dialog. True when it opened.

        A password in the URL is kept for the session only; without one the
        driver looks in ``PGPASSWORD`` and ``~/.pgpass``, and when the server
        still wants one the user is asked (once per session).
        """
        location = location.strip()
        bare = without_password(location)
        if (given := password_of(location)) is not None:
            self.passwords.remember(bare, given)
        while True:
            try:
                store = Store.open(self.passwords.connect_url(bare), hold_files=False)
                break
            except TmtprimeError as error:
                if not (is_url(bare) and wants_password(str(error))):
                    self.show_error(self.tr("Cannot open the project"), str(error))
                    return False
                self.passwords.forget(bare)
                password = self.ask_password(bare, retry=given is not None)
                if password is None:
                    return False
                self.passwords.remember(bare, password)
                given = password
        self._opened(store, bare)
        return True

    def ask_password(self, location: str, *, retry: bool = False) -> str | None:
        """The database password, asked in a dialog (None when the user cancels)."""
        note = self.tr("The password was not accepted. ") if retry else ""
        text, ok = QInputDialog.getText(
            self, self.tr("Database password"),
            note + self.tr("Password for {location}\n(kept for this session only, never saved)").format(location=location),
            QLineEdit.EchoMode.Password,
        )  # fmt: skip
        return text if ok else None

    def _opened(self, store: Store, location: str) -> None:
        if not is_url(location):
            location = str(Path(location).resolve())
            self.settings.setValue("last_dir", str(Path(location).parent))
        recent = [location] + [r for r in self._recent() if r != location]
        self.settings.setValue("recent", recent[:MAX_RECENT])
        self._fill_recent()
        self.context.set_store(store)

    def _recent(self) -> list[str]:
        value = self.settings.value("recent", [])
        listed = [value] if isinstance(value, str) else list(value or [])
        return list(dict.fromkeys(without_password(r) for r in listed))  # an older release stored passwords

    def _fill_recent(self) -> None:
        self.recent_menu.clear()
        for location in self._recent():
            self.recent_menu.addAction(location, lambda loc=location: self.open_project(loc))
        if self.recent_menu.isEmpty():
            self.recent_menu.addAction(self.tr("(no recent projects)")).setEnabled(False)

    @Slot()
    def _project_changed(self) -> None:
        store = self.context.store
        project = store.project() if store is not None else None
        self.setWindowTitle(window_title(project.name if project else None))
        if project is None:
            self.project_label.setText(self.tr("<i>no project open — New or Open one</i>"))
            self.languages_label.setText("")
        else:
            self.project_label.setText(f"<b>{project.name}</b>  <span style='color:gray'>{store.location}</span>")
            self.languages_label.setText(f"{project.source_lang} → {project.target_lang}")
        for a in self.project_actions:
            a.setEnabled(project is not None)

    @Slot(object)
    def _scheme_changed(self, scheme) -> None:  # noqa: ANN001 - CostScheme
        self.segments.set_scheme(scheme)

    # -- dialogs --------------------------------------------------------------------

    def import_dialog(self, files: list[str] | None = None) -> None:
        from tmtprime.gui.importing import ImportDialog

        if self.context.store is None:
            return
        dialog = ImportDialog(self.context, self, files=files or [])
        dialog.exec()

    def export_dialog(self) -> None:
        self.segments.export_dialog()

    def show_error(self, title: str, message: str) -> None:
        QMessageBox.critical(self, title, message)

    @property
    def busy(self) -> bool:
        """Work runs or is awaited, or its result is still being put on screen (what tests and benchmarks wait for)."""
        return (self.context.runner.busy or self.analysis.busy or self.segments.model.reading
                or self.segments.loading_bands or self.training.checking)  # fmt: skip

    def refresh(self) -> None:
        """Reload every view from the project (another process may have changed it)."""
        if self.context.store is not None:
            self.context.data_changed.emit()
            self.statusBar().showMessage(self.tr("reloaded from the project"), 4000)

    def _unhandled(self, kind: type[BaseException], error: BaseException, tb) -> None:  # noqa: ANN001
        """A library error escaping a slot (a storage error: locked, I/O, malformed) is a message, not a traceback."""
        if isinstance(error, TmtprimeError):
            self.show_error(self.tr("The project cannot be read or written"), str(error))
        else:
            self._previous_hook(kind, error, tb)

    def _about(self) -> None:
        from tmtprime import __version__

        QMessageBox.about(
            self,
            self.tr("About TMTprime"),
            self.tr("<b>TMTprime {version}</b><p>Recommends, segment by segment, the TM match or an MT output "
                    "to post-edit, with a calibrated confidence and cost estimates; includes a Meteor 1.5 scorer.</p>"
                    ).format(version=__version__),
        )

    # -- tasks ----------------------------------------------------------------------

    def _show_task_widgets(self, visible: bool) -> None:
        for w in (self.task_label, self.progress, self.cancel_button):
            w.setVisible(visible)
        self.act_cancel.setEnabled(visible)

    @Slot(str)
    def _task_started(self, title: str) -> None:
        self.task_label.setText(title)
        self.progress.setRange(0, 0)
        self._show_task_widgets(True)

    @Slot(str)
    def _task_status(self, text: str) -> None:
        self.task_label.setText(f"{self.context.runner.title}: {text}")

    @Slot(int, int)
    def _task_progress(self, done: int, total: int) -> None:
        if total <= 0:
            self.progress.setRange(0, 0)
        else:
            self.progress.setRange(0, total)
            self.progress.setValue(min(done, total))

    @Slot(str, str)
    def _task_ended(self, outcome: str, message: str) -> None:
        self._show_task_widgets(False)
        self.statusBar().showMessage(message, 10000)
        if outcome == "failed":
            self.show_error(self.tr("{task} failed").format(task=self.context.runner.title), message)

    # -- drag and drop: files dropped on the window go to the import wizard ---------------

    def dragEnterEvent(self, event) -> None:  # noqa: ANN001,N802
        if event.mimeData().hasUrls() and self.context.store is not None:
            event.acceptProposedAction()

    def dropEvent(self, event) -> None:  # noqa: ANN001,N802
        files = [u.toLocalFile() for u in event.mimeData().urls() if u.isLocalFile()]
        if files:
            event.acceptProposedAction()
            self.import_dialog(files)

    # -- settings -------------------------------------------------------------------

    def _restore(self) -> None:
        geometry = self.settings.value("geometry")
        if geometry is not None:
            self.restoreGeometry(geometry)
        self.tabs.setCurrentIndex(int(self.settings.value("tab", 0)))

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 - Qt's name
        if self.context.runner.busy:
            self.context.runner.cancel()
            self.context.runner.wait(10000)
        self.settings.setValue("geometry", self.saveGeometry())
        self.settings.setValue("tab", self.tabs.currentIndex())
        self.context.set_store(None)
        if sys.excepthook == self._unhandled:
            sys.excepthook = self._previous_hook
        super().closeEvent(event)
