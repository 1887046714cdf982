"""File dialogs that never open the files they list (so they cannot break the project's SQLite locks).

POSIX record locks belong to a process and an inode: when *any* descriptor of
the process on a file is closed, every lock the process holds on that file is
dropped. Qt's file dialog asks its icon provider for each entry's type, and
the default provider sniffs the content (``QMimeDatabase`` opens and closes
the ``.db``, ``-wal`` and ``-shm`` files); a native (GTK) dialog in the process
does the same. Another process then believes it is alone and checkpoints and
deletes the WAL under the application. These dialogs are Qt's own widgets
(never the platform's) with an icon provider that only looks at the name.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QFileInfo
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QFileDialog, QFileIconProvider, QWidget

IconType = QFileIconProvider.IconType


class NameOnlyIconProvider(QFileIconProvider):
    """Icons and type names from the file name and kind alone (no content sniffing)."""

    def icon(self, what: QFileInfo | IconType) -> QIcon:  # type: ignore[override]
        if isinstance(what, QFileInfo):
            what = IconType.Folder if what.isDir() else IconType.File
        return super().icon(what)

    def type(self, info: QFileInfo) -> str:  # noqa: A003 - Qt's name
        if info.isDir():
            return QCoreApplication.translate("NameOnlyIconProvider", "Folder")
        suffix = info.suffix()
        if not suffix:
            return QCoreApplication.translate("NameOnlyIconProvider", "File")
        return QCoreApplication.translate("NameOnlyIconProvider", "{suffix} file").format(suffix=suffix.upper())


_PROVIDER: NameOnlyIconProvider | None = None


def safe_dialog(parent: QWidget | None, caption: str, directory: str = "", filters: str = "") -> QFileDialog:
    """A non-native file dialog with the name-only icon provider (one provider shared by all)."""
    global _PROVIDER
    if _PROVIDER is None:
        _PROVIDER = NameOnlyIconProvider()
    dialog = QFileDialog(parent, caption, directory, filters)
    dialog.setOption(QFileDialog.Option.DontUseNativeDialog, True)
    dialog.setIconProvider(_PROVIDER)
    return dialog


def _run(dialog: QFileDialog) -> list[str]:
    return dialog.selectedFiles() if dialog.exec() == QFileDialog.DialogCode.Accepted else []


def open_file_name(parent: QWidget | None, caption: str, directory: str = "", filters: str = "") -> str:
    """One existing file, or "" when cancelled."""
    dialog = safe_dialog(parent, caption, directory, filters)
    dialog.setFileMode(QFileDialog.FileMode.ExistingFile)
    return next(iter(_run(dialog)), "")


def open_file_names(parent: QWidget | None, caption: str, directory: str = "", filters: str = "") -> list[str]:
    """Existing files (none when cancelled)."""
    dialog = safe_dialog(parent, caption, directory, filters)
    dialog.setFileMode(QFileDialog.FileMode.ExistingFiles)
    return _run(dialog)


def save_file_name(parent: QWidget | None, caption: str, directory: str = "", filters: str = "") -> str:
    """A file to write (the dialog asks before replacing one), or "" when cancelled."""
    dialog = safe_dialog(parent, caption, directory, filters)
    dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
    dialog.setFileMode(QFileDialog.FileMode.AnyFile)
    return next(iter(_run(dialog)), "")
