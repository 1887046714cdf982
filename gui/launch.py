"""Start the application: check that Qt is there, make the QApplication, open the window."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from tmtprime.errors import TmtprimeError
from tmtprime.gui import QT_EXTRA


def require_qt() -> None:
    """Raise a one-line error naming the extra to install when PySide6 is missing."""
    try:
        import PySide6.QtWidgets  # noqa: F401
    except ImportError:
        raise TmtprimeError(f"the desktop application needs PySide6, which is not installed: {QT_EXTRA}") from None


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
