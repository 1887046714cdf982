"""``tmtprime export PATH --format csv|json|xliff|xliff2|tmx -o OUT``: write picks, documents or the TM."""

from __future__ import annotations

import argparse
import sys

from tmtprime.cli._common import add_quiet

FORMATS = ("csv", "json", "xliff", "xliff2", "tmx")


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "export",
        help="export recommendations (csv/json), documents for translators (xliff/xliff2) or the TM (tmx)",
        description=(
            "csv: one row per segment (document, index, key, doc_id, seg_id, context, source, "
            "system, kind, confidence, fuzzy, text); the pick columns are empty for a segment without a "
            "recommendation. json: every candidate with its predictions. xliff/xliff2: the pick as target, "
            "every candidate as an alternative with its confidence (one file per document; OUT is a "
            "directory when several documents are exported). tmx: the TM plus confirmed reference translations."
        ),
    )
    parser.add_argument("path", metavar="PATH", help="project file or database URL")
    parser.add_argument("--format", "-f", dest="fmt", choices=FORMATS, required=True, help="output format")
    parser.add_argument(
        "-o", "--output", dest="out", required=True, metavar="OUT", help="output file ('-' = stdout for csv/json)"
    )
    parser.add_argument("--document", metavar="NAME", help="export only this document (see 'project info')")
    parser.add_argument(
        "--role",
        choices=("document", "dev", "all"),
        help="which files to export (default: document; for tmx: everything)",
    )
    parser.add_argument(
        "--model", metavar="NAME", help="whose recommendations (default: the newest model that has some)"
    )
    add_quiet(parser)
    parser.set_defaults(handler=_run)


def _run(ns: argparse.Namespace) -> int:
    from tmtprime.progress import ConsoleReporter
    from tmtprime.store import Store
    from tmtprime.workflows.exporting import export

    with Store.open(ns.path) as store:
        result = export(
            store, ns.fmt, ns.out, document=ns.document, role=ns.role, model=ns.model, reporter=ConsoleReporter(quiet=ns.quiet)
        )
    print(result.summary(), file=sys.stderr if ns.out == "-" else sys.stdout)
    return 0
