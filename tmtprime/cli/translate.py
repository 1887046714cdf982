"""tmtprime translate PATH --engine apertium: MT candidates for every segment.

Every segment of the project's dev/work documents without a candidate from
the system gets one; re-running only fills what is missing. apertium
picks the installed pair for the project's languages, or --pair (an
installed mode such as eng-spa, or a pivot chain such as eng-cat-spa);
file reads translations from --file (matched by source text).
"""

from __future__ import annotations

import argparse

from tmtprime.cli._common import add_jobs, add_quiet, add_system_name, progress_reporter
from tmtprime.errors import UsageError


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "translate", help="add MT candidates (Apertium, or translations from a file)",
        description=(__doc__ or "").split("\n\n", 1)[1],
    )
    parser.add_argument("path", metavar="PATH", help="project file or database URL")
    parser.add_argument("--engine", default="apertium", metavar="NAME",
                        help="MT engine: apertium (default), file, or a registered plug-in")
    parser.add_argument("--pair", metavar="PAIR", help="Apertium mode or pivot chain (default: from the project languages)")
    parser.add_argument("--mark-unknown", action="store_true", help="keep Apertium's unknown-word marks (*, #, @)")
    parser.add_argument("--batch-size", type=int, default=100, metavar="N",
                        help="segments per Apertium process (default 100: larger is faster, but Apertium's "
                        "state carried across a batch changes a few more outputs)")
    parser.add_argument("--file", metavar="FILE", help="file engine: the file holding the translations")
    parser.add_argument("--output", metavar="NAME", help="file engine: which MT system of the file to use")
    add_system_name(parser, "system name of the candidates (default: the engine's, e.g. apertium_eng-spa)")
    parser.add_argument("--document", action="append", metavar="NAME",
                        help="only this document (repeatable; default: every dev/work document)")
    add_jobs(parser)
    add_quiet(parser)
    parser.set_defaults(handler=_run)


def _options(ns: argparse.Namespace) -> dict[str, object]:
    """Engine options from the command line: only those the chosen engine takes (languages come from the project)."""

    if ns.engine == "apertium":
        if ns.file or ns.output:
            raise UsageError("--file/--output are for --engine file")
        return {"pair": ns.pair, "mark_unknown": ns.mark_unknown, "n_jobs": ns.jobs, "batch_size": ns.batch_size}
    if ns.engine == "file":
        if not ns.file:
            raise UsageError("--engine file needs --file FILE (the translations)")
        return {"path": ns.file, "output": ns.output, "missing": "skip"}
    return {}


def _run(ns: argparse.Namespace) -> int:
    from tmtprime.store import Store
    from tmtprime.workflows.translation import translate

    with Store.open(ns.path) as store:
        report = translate(
            store, ns.engine, engine_options=_options(ns), system=ns.system_name, documents=ns.document,
            reporter=progress_reporter(ns.quiet),
        )
    print(report.render(), end="")
    return 0
