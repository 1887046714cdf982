"""``tmtprime gui [PROJECT]``: open the desktop application (needs the ``gui`` extra).

Qt is imported only when the command runs, so the rest of the CLI starts
without it and a machine without PySide6 gets one line naming the extra.
"""

from __future__ import annotations

import argparse


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "gui",
        help="open the desktop application (pip install 'tmtprime[gui]')",
        description="Opens the TMTprime desktop application, on PROJECT if given (a project file or database URL).",
    )
    parser.add_argument("project", nargs="?", metavar="PROJECT", help="project file or database URL to open")
    parser.set_defaults(handler=_run)


def _run(ns: argparse.Namespace) -> int:
    from tmtprime.gui.launch import require_qt

    require_qt()
    from tmtprime.gui.app import run

    return run(ns.project)
