"""Options shared by several subcommands, so they read the same everywhere."""

from __future__ import annotations

import argparse


def add_quiet(parser: argparse.ArgumentParser) -> None:
    """``-q/--quiet``: no progress bars, only results and errors."""
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress output")


def add_jobs(parser: argparse.ArgumentParser) -> None:
    """``-j/--jobs``: worker processes for batch work (see tmtprime.parallel)."""
    parser.add_argument(
        "-j", "--jobs", type=int, default=1, metavar="N", help="worker processes (default 1; -1 = all cores)"
    )
