"""What every view shares: the open project, the task runner, and signals when either changes."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, QThreadPool, Signal

from tmtprime.errors import TmtprimeError
from tmtprime.progress import Reporter
from tmtprime.store import Store
from tmtprime.gui.session import Session
from tmtprime.gui.tasks import TaskRunner
from tmtprime.gui.worker import Task, run_in_process


class ProjectContext(QObject):
    """The open project (a :class:`~tmtprime.store.Store`, or None) and the runner of its long work.

    ``project_changed`` fires when another project is opened (or closed);
    ``data_changed`` after work that changed the project's contents (import,
    lookup, training, recommendation, an override), so views reload.
    """

    project_changed = Signal()
    data_changed = Signal()
    overrides_changed = Signal()
    """The user changed a pick (the analysis recomputes; the table updated itself)."""
    analysis_changed = Signal(object)
    """A new cost estimate (``tmtprime.cost.CostEstimate``) is on screen."""
    message = Signal(str)
    """A short note for the status bar."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.store: Store | None = None
        self.session: Session | None = None
        """The open project's long-lived child (:mod:`.session`): the estimate, bands and segment pages."""
        self.runner = TaskRunner(self)

    @property
    def name(self) -> str | None:
        return None if self.store is None else self.store.project().name

    @property
    def directory(self) -> str:
        """The folder of the project file (where file dialogs start), or "" for a database URL."""
        if self.store is None or not self.store.is_sqlite:
            return ""
        return str(Path(self.store.location).parent)

    def set_store(self, store: Store | None) -> None:
        """Switch to ``store`` (closing the previous one)."""
        if self.store is not None and self.store is not store:
            self.store.close()
        if self.session is not None and self.store is not store:
            self.session.close()
            self.session = None
        self.store = store
        if store is not None and self.session is None:
            self.session = Session(store.url.render_as_string(hide_password=False))
            self.session.start()
        self.project_changed.emit()

    def run(
        self,
        title: str,
        work: Callable[[Store, Reporter], Any],
        on_done: Callable[[Any], None] | None = None,
        *,
        changes_data: bool = True,
    ) -> bool:
        """Run ``work(store, reporter)`` on the worker thread; ``data_changed`` follows if it changes data."""
        store = self.store
        if store is None:
            self.message.emit(self.tr("open or create a project first"))
            return False

        def done(result: Any) -> None:
            if on_done is not None:
                on_done(result)
            if changes_data:
                self.data_changed.emit()

        return self.runner.start(title, lambda reporter: work(store, reporter), done)

    def run_served(
        self,
        title: str,
        task: Task,
        options: dict[str, Any],
        on_done: Callable[[Any], None] | None = None,
    ) -> bool:
        """Run ``task(store, reporter, **options)`` (one of :mod:`.served`) in the project's long-lived child,
        through the runner (progress, cancel); it changes no data."""
        session = self.session
        if session is None:
            self.message.emit(self.tr("open or create a project first"))
            return False
        work = lambda _store, reporter: session.call(task, options, reporter, channel="analysis")  # noqa: E731
        return self.run(title, work, on_done, changes_data=False)

    def prepare(self, task: Task) -> None:
        """Start ``task(store, reporter)`` (one of :mod:`.served`) in the project's child, in the background and
        without a result: what it reads is kept there for the calls that follow (they wait for it)."""
        session = self.session
        if session is None:
            return

        def work() -> None:
            try:
                session.call(task, {}, Reporter(), channel="analysis")
            except TmtprimeError:
                pass  # the call that needs it will say what is wrong

        QThreadPool.globalInstance().start(work)

    def run_process(
        self,
        title: str,
        task: Task,
        options: dict[str, Any] | None = None,
        on_done: Callable[[Any], None] | None = None,
    ) -> bool:
        """Run ``task(store, reporter, **options)`` (one of :mod:`.work`) on the project in a child process (see ``worker``)."""
        store = self.store
        if store is None:
            self.message.emit(self.tr("open or create a project first"))
            return False
        url = store.url.render_as_string(hide_password=False)
        return self.run(title, lambda _store, reporter: run_in_process(task, url, options or {}, reporter), on_done)
