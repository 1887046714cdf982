"""``tmtprime export PATH --format csv|json|xliff|xliff2|tmx|po|original -o OUT``: write picks, documents or the TM."""

from __future__ import annotations

import argparse
import sys

from tmtprime.cli._common import add_quiet, progress_reporter
from tmtprime.cli.recommend import _probability

FORMATS = ("csv", "json", "xliff", "xliff2", "tmx", "po", "original")


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "export",
        help="export the picks (csv/json, a picks TMX), each file pretranslated in its own format (original), "
        "documents for translators (xliff/xliff2/po) or the TM (tmx)",
        description=(
            "csv: one row per segment (document, index, key, doc_id, seg_id, context, source, "
            "system, kind, confidence, fuzzy, text); the pick columns are empty for a segment without a "
            "recommendation. json: every candidate with its predictions. xliff/xliff2: the pick as target, "
            "every candidate as an alternative with its confidence (one file per document; OUT is a "
            "directory when several documents are exported). tmx: the TM plus confirmed reference translations "
            "(with --picks: one unit per segment, source -> pick, for a CAT tool's TM). po: a gettext catalogue "
            "per document. original: each document in its own format (PO, XLIFF 1.2, sdlxliff, mqxliff, mxliff, "
            "XLIFF 2, TMX) with the picks in the targets and everything else kept."
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
    parser.add_argument("--picks", action="store_true", help="tmx: a TMX of the picks instead of the TM")
    parser.add_argument(
        "--fuzzy-below",
        type=_probability,
        metavar="X",
        help="po/original: mark a PO pick '#, fuzzy' when its confidence is below X (0-1 or %%; default: every pick)",
    )
    add_quiet(parser)
    parser.set_defaults(handler=_run)


def _run(ns: argparse.Namespace) -> int:
    from tmtprime.store import Store
    from tmtprime.workflows.exporting import export

    with Store.open(ns.path) as store:
        result = export(
            store, ns.fmt, ns.out, document=ns.document, role=ns.role, model=ns.model, picks=ns.picks,
            fuzzy_below=ns.fuzzy_below, reporter=progress_reporter(ns.quiet),
        )
    print(result.render(), file=sys.stderr if ns.out == "-" else sys.stdout)
    return 0
