"""The TMTprime desktop application (PySide6), installed as ``tmtprime.gui``.

Views only: every piece of work runs through the library (the use-case
functions of ``tmtprime.workflows``, the store, the cost and chart
functions) on a worker thread with a Qt-signalling progress reporter.
Qt is imported when the application starts, not when this package is
imported, so ``tmtprime gui`` can say which extra to install when PySide6
is missing.
"""

from __future__ import annotations

from collections.abc import Sequence

QT_EXTRA = "pip install 'tmtprime[gui]'"
"""What to install when PySide6 is missing."""


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``tmtprime-gui [PROJECT]`` (and ``python -m tmtprime.gui``)."""
    import sys

    from tmtprime.gui.launch import launch

    return launch(list(sys.argv[1:] if argv is None else argv))
