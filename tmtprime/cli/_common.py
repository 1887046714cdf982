"""Options shared by several subcommands, so they read the same everywhere."""

from __future__ import annotations

import argparse

from tmtprime.errors import UsageError
from tmtprime.progress import ConsoleReporter, Reporter


def add_quiet(parser: argparse.ArgumentParser) -> None:
    """``-q/--quiet``: no progress bars, only results and errors (see :func:`progress_reporter`)."""
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress output")


def add_quiet_confirmation(parser: argparse.ArgumentParser) -> None:
    """``-q/--quiet`` for a command whose only output is a confirmation: silent on success (scripts)."""
    parser.add_argument("-q", "--quiet", action="store_true",
                        help="print nothing on success (the exit status says it); errors still go to stderr")


def progress_reporter(quiet: bool) -> Reporter:
    """The reporter a command gives its use case: progress on stderr, or with ``-q`` a silent one (cancel still works)."""
    return Reporter() if quiet else ConsoleReporter()


class _SystemList(argparse.Action):
    """Collects system names from ``--systems A,B`` (repeatable) and the old repeated ``--system NAME``."""

    def __call__(self, parser, namespace, values, option_string=None) -> None:  # noqa: ANN001
        names = [n.strip() for n in str(values).split(",") if n.strip()]
        setattr(namespace, self.dest, [*(getattr(namespace, self.dest) or []), *names])


def add_systems(parser: argparse.ArgumentParser, help_text: str) -> None:
    """``--systems A,B``: the one spelling of a list of systems (``ns.systems``: a list, or None for all).

    ``--system NAME`` (repeated), the old spelling of ``recommend``, stays as a deprecated alias.
    """
    parser.add_argument("--systems", metavar="A,B", action=_SystemList, dest="systems", help=f"{help_text} (comma-separated)")
    parser.add_argument("--system", metavar="NAME", action=_SystemList, dest="systems",
                        help="deprecated spelling of --systems NAME (repeatable)")  # fmt: skip


def add_system_name(parser: argparse.ArgumentParser, help_text: str, default: str | None = None) -> None:
    """``--name NAME``: the system name new candidates are stored under (``--system``: the old, deprecated spelling)."""
    parser.add_argument("--name", "--system", metavar="NAME", dest="system_name", default=default,
                        help=f"{help_text} (--system: deprecated spelling)")  # fmt: skip


def _jobs(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if value == 0 or value < -1:
        raise argparse.ArgumentTypeError(f"must be at least 1, or -1 for all cores, got {value}")
    return value


def add_jobs(parser: argparse.ArgumentParser) -> None:
    """``-j/--jobs`` and ``--scheduler``: where batch work runs (see tmtprime.parallel).

    The command's handler needs nothing for ``--scheduler``: the ``tmtprime``
    entry point opens the cluster around it (:func:`tmtprime.cli.run_handler`).
    """
    parser.add_argument(
        "-j", "--jobs", type=_jobs, default=1, metavar="N",
        help="worker processes (default 1; -1 = all cores, or all workers of the --scheduler cluster)",
    )
    parser.add_argument(
        "--scheduler", metavar="ADDRESS",
        help="run batch work on the Dask cluster whose scheduler listens at ADDRESS (e.g. tcp://host:8786; "
        "needs pip install 'tmtprime[dask]'); --jobs defaults to all its workers",
    )


def assignments(flag: str, items: list[str], shape: str, example: str) -> dict[str, str]:
    """``NAME=VALUE`` options (``--mt deepl=deepl.tsv``, ``--effort-col smt=effort``) as a dict; a malformed
    or repeated NAME is one clear usage error (``shape``: ``NAME=FILE``...; ``example``: a valid item)."""
    found: dict[str, str] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name.strip() or not value.strip():
            raise UsageError(f"{flag} {item!r}: expected {shape}, e.g. {flag} {example}")
        if name.strip() in found:
            raise UsageError(f"{flag}: system {name.strip()!r} given twice")
        found[name.strip()] = value.strip()
    return found
