"""Start the application: check that Qt is there, make the QApplication, open the window."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from tmtprime.errors import TmtprimeError
from tmtprime.gui import QT_EXTRA


BROKEN_PYSIDE = {"6.12.0"}
"""PySide6 releases that over-release None at each signal on CPython < 3.12 (the app would abort)."""


def require_qt() -> None:
    """Raise a one-line error naming the extra to install when PySide6 is missing or a broken release."""
    try:
        import PySide6
        import PySide6.QtWidgets  # noqa: F401
    except ImportError:
        raise TmtprimeError(f"the desktop application needs PySide6, which is not installed: {QT_EXTRA}") from None
    if PySide6.__version__ in BROKEN_PYSIDE and sys.version_info < (3, 12):
        raise TmtprimeError(
            f"PySide6 {PySide6.__version__} crashes on Python {sys.version_info.major}.{sys.version_info.minor} "
            f"(a reference-count bug in its signals); install another release: {QT_EXTRA.replace('pip install', 'pip install -U')}"
        )


def launch(argv: Sequence[str]) -> int:
    """Run the application on ``argv`` (``[PROJECT]``) until its window closes; returns the exit status."""
    args = list(argv)
    if any(a in ("-h", "--help") for a in args):
        print("usage: tmtprime-gui [PROJECT]\n\nThe TMTprime desktop application; PROJECT is a project file or database URL.")
        return 0
    if len(args) > 1:
        print("tmtprime-gui: error: expected at most one PROJECT", file=sys.stderr)
        return 2
    try:
        require_qt()
    except TmtprimeError as error:
        print(f"tmtprime: error: {error}", file=sys.stderr)
        return error.exit_code
    from tmtprime.gui.app import run

    return run(args[0] if args else None)
