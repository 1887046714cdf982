"""``tmtprime report PATH``: what the job costs with each system, the classic rule and TMTprime's picks."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tmtprime.cli._common import add_quiet, add_systems, progress_reporter
from tmtprime.workflows.report_formats import REPORT_FORMATS, report_format


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "report",
        help="cost report: CAT-style analysis, each system alone vs the classic rule vs TMTprime",
        description=(
            "Estimates the cost of the project's documents under each plan from the stored recommendations "
            "(run 'tmtprime recommend' first) and a cost scheme; where segments have references, the actual cost "
            "stands beside the estimate. Text goes to stdout unless -o is given; pdf needs -o. Segments without a "
            "pick (a document imported after 'recommend') stop the report unless --partial is given; documents "
            "that are behind a step are named on stderr."
        ),
    )
    parser.add_argument("path", metavar="PATH", help="project file or database URL")
    parser.add_argument("--scheme", default=None, metavar="FILE|NAME", help="a .toml/.json file, a scheme stored in the project, or a preset (default: the scheme saved in the project last, else matecat)")
    parser.add_argument("--document", metavar="NAME", help="only this document (default: every document)")
    add_systems(parser, "only these systems take part")
    parser.add_argument("--model", metavar="NAME", help="the model whose recommendations to use (default: the newest)")
    parser.add_argument("--format", "-f", choices=REPORT_FORMATS, default=None, help="default: from -o's suffix, else text")
    parser.add_argument("-o", "--output", type=Path, metavar="OUT", help="output file (default: stdout)")
    parser.add_argument(
        "--partial", action="store_true",
        help="report on the segments that have a pick even when others have none yet (the report says what it leaves out)",
    )
    add_quiet(parser)
    parser.set_defaults(handler=_run)


def _run(ns: argparse.Namespace) -> int:
    from tmtprime.store import Store
    from tmtprime.workflows.reporting import report, report_scope

    fmt = report_format(ns.format, ns.output)
    systems = ns.systems
    with Store.open(ns.path) as store:
        result = report(
            store, fmt, ns.output, scheme=ns.scheme, document=ns.document, systems=systems, model=ns.model,
            partial=ns.partial, reporter=progress_reporter(ns.quiet),
        )
        notices = report_scope(store, document=ns.document, model=ns.model).notices()
    for line in notices:
        print(f"note: {line}", file=sys.stderr)
    if ns.output is None:
        sys.stdout.write(str(result))
    elif not ns.quiet:
        print(f"wrote {fmt} report to {result}", file=sys.stderr)
    return 0
