"""The QApplication: identity for QSettings, the Fusion style, palettes that follow the system's light/dark."""

from __future__ import annotations

import signal
import sys

from PySide6.QtCore import QCoreApplication, Qt, QTimer
from PySide6.QtGui import QColor, QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication, QWidget

from tmtprime.gui import collector, heartbeat
from tmtprime.gui.translation import install_translators

_FOLLOWING = False
"""True once the palette follows the system's colour scheme changes."""

ORGANIZATION = "TMTprime"
APPLICATION = "TMTprime"


def dark_palette() -> QPalette:
    """A dark palette for the Fusion style (Qt's own is light on every platform but macOS)."""
    p = QPalette()
    base, window, text, mid = QColor(30, 31, 34), QColor(43, 45, 48), QColor(223, 225, 229), QColor(80, 82, 86)
    for role, colour in (
        (QPalette.ColorRole.Window, window),
        (QPalette.ColorRole.WindowText, text),
        (QPalette.ColorRole.Base, base),
        (QPalette.ColorRole.AlternateBase, QColor(37, 38, 41)),
        (QPalette.ColorRole.ToolTipBase, window),
        (QPalette.ColorRole.ToolTipText, text),
        (QPalette.ColorRole.Text, text),
        (QPalette.ColorRole.Button, window),
        (QPalette.ColorRole.ButtonText, text),
        (QPalette.ColorRole.BrightText, QColor(255, 90, 90)),
        (QPalette.ColorRole.Link, QColor(100, 160, 255)),
        (QPalette.ColorRole.Highlight, QColor(53, 116, 240)),
        (QPalette.ColorRole.HighlightedText, QColor(255, 255, 255)),
        (QPalette.ColorRole.Mid, mid),
        (QPalette.ColorRole.PlaceholderText, QColor(140, 142, 146)),
    ):
        p.setColor(role, colour)
    for role in (QPalette.ColorRole.Text, QPalette.ColorRole.WindowText, QPalette.ColorRole.ButtonText):
        p.setColor(QPalette.ColorGroup.Disabled, role, QColor(120, 122, 126))
    return p


def is_dark() -> bool:
    """True when the system asks for a dark colour scheme."""
    return QGuiApplication.styleHints().colorScheme() == Qt.ColorScheme.Dark


def apply_palette(app: QApplication) -> None:
    """Set the palette matching the system's current colour scheme."""
    app.setPalette(dark_palette() if is_dark() else app.style().standardPalette())


def application() -> QApplication:
    """The running QApplication, made (with style, palette and settings identity) if there is none.

    From here on Python's garbage is collected on the UI thread only (:mod:`.collector`).
    """
    app = QApplication.instance()
    if app is None:
        app = QApplication(sys.argv[:1])
    assert isinstance(app, QApplication)
    QCoreApplication.setOrganizationName(ORGANIZATION)
    QCoreApplication.setApplicationName(APPLICATION)
    app.setApplicationDisplayName("")  # the window title carries the name itself
    app.setStyle("Fusion")
    apply_palette(app)
    install_translators(app)
    collector.install(app)  # Qt objects finalised on the UI thread, never by a worker's collection
    global _FOLLOWING
    if not _FOLLOWING:
        QGuiApplication.styleHints().colorSchemeChanged.connect(lambda _scheme: apply_palette(app))
        _FOLLOWING = True
    return app


def close_on_sigint(window: QWidget) -> None:
    """Ctrl-C in the terminal closes ``window`` as its Quit action does (settings saved, work cancelled).

    Python runs signal handlers only between bytecodes, and the Qt event loop
    runs no Python while idle: a timer gives the interpreter a moment every
    200 ms to notice the signal.
    """
    # The handler runs between any two bytecodes (inside a model's update, say): it only posts the close.
    signal.signal(signal.SIGINT, lambda _signum, _frame: QTimer.singleShot(0, window.close))
    ticker = QTimer(window, interval=200)
    ticker.timeout.connect(lambda: None)
    ticker.start()


def run(project: str | None = None) -> int:
    """Open the main window (on ``project`` if given) and run the event loop."""
    from tmtprime.gui.window import MainWindow

    app = application()
    window = MainWindow()
    close_on_sigint(window)
    heartbeat.install(window)  # only with TMTPRIME_HEARTBEAT set (benchmarks)
    window.show()
    if project:
        window.open_project(project)
    return app.exec()
