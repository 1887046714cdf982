"""``tmtprime import PATH FILE... --as tm|dev|document``: bring files into a project.

Each file is imported in its own transaction: a bad file changes nothing and
stops the command with one line naming the file, the line or unit, and the
problem; files imported before it stay imported. The format is detected from
the content (``--format`` overrides it). For CSV/TSV the ``--*-col`` options
name the columns; columns left unnamed are inferred from usual header names
and any other column is kept as a segment attribute.
"""

from __future__ import annotations

import argparse
import shlex
import sys

from tmtprime.cli._common import add_quiet, assignments, progress_reporter
from tmtprime.errors import UsageError

def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "import",
        help="import TMs, dev data or documents into a project",
        description=(__doc__ or "").split("\n\n", 1)[1],
    )
    parser.add_argument("path", metavar="PATH", help="project file or database URL")
    parser.add_argument("files", metavar="FILE", nargs="+", help="files to import (.gz accepted)")
    parser.add_argument(
        "--as",
        dest="role",
        choices=("tm", "dev", "document", "corpus"),
        help="tm: a translation memory; dev: segments with references and candidates (to train); "
        "document: work to translate; corpus: a language resource for features (plain text: target-language "
        "sentences, one per line; a TMX, table or --target-file pair: a parallel corpus). "
        "Default: tm for a TMX file, else document",
    )
    parser.add_argument(
        "--format",
        dest="fmt",
        metavar="FMT",
        help="skip format detection: tmx, xliff (xliff12), sdlxliff, mqxliff, mxliff, xliff2, po, csv, tsv, "
        "json, jsonl, text",
    )
    parser.add_argument("--name", help="document name in the project (default: the file name; one FILE only)")
    parser.add_argument(
        "--target-file",
        metavar="FILE",
        help="parallel plain text: the line-aligned translation of FILE (TM target, or reference of dev data)",
    )
    cols = parser.add_argument_group("CSV/TSV columns (names, or 1-based numbers with --no-header)")
    cols.add_argument("--source-col", metavar="COL", help="source text")
    cols.add_argument("--target-col", metavar="COL", help="target text (of a TM)")
    cols.add_argument("--reference-col", metavar="COL", help="reference translation (dev data)")
    cols.add_argument("--tm-col", metavar="COL", help="TM match (target side)")
    cols.add_argument("--tm-source-col", metavar="COL", help="source side of the TM match")
    cols.add_argument("--tm-score-col", metavar="COL", help="fuzzy score of the TM match (0-100)")
    cols.add_argument("--tm-system", metavar="NAME", default="tm", help="system name of TM matches (default tm)")
    cols.add_argument(
        "--mt-col",
        metavar="[NAME=]COL",
        action="append",
        default=[],
        help="an MT output: system NAME in column COL (repeat for each system); without NAME= the system is "
        "the column name less a leading 'mt_' (mt_apertium_eng-spa -> apertium_eng-spa, as tmtprime translate names it)",
    )
    cols.add_argument("--context-col", metavar="COL", help="context (default: a msgctxt/context column)")
    cols.add_argument(
        "--key-col", metavar="COL", action="append", help="segment id column(s) (default: doc_id+seg_id, id...)"
    )
    cols.add_argument("--no-header", action="store_true", help="the table has no header row")
    pe = parser.add_argument_group(
        "post-editing data (CSV/TSV/JSONL; SYSTEM is a system of --mt-col or --tm-system; an empty cell = not post-edited; "
        "rows repeating a segment are further editors of it)")
    for flag, what in _POST_EDIT_FLAGS.items():
        pe.add_argument(flag, metavar="SYSTEM=COL", action="append", default=[], help=what)
    pe.add_argument("--editor-col", metavar="COL", help="post-editor id of each row")
    pe.add_argument("--effort-scale", choices=("higher-is-less", "higher-is-more"), default="higher-is-less",
                    help="direction of the --effort-col scores (default higher-is-less, as WMT12's 1-5: 5 = no edit needed)")
    add_quiet(parser)
    parser.set_defaults(handler=_run)


_POST_EDIT_FLAGS = {
    "--post-edit-col": "the post-edited text of SYSTEM's candidate",
    "--pe-time-col": "post-editing time of SYSTEM's candidate, in milliseconds",
    "--keystrokes-col": "keystrokes spent post-editing SYSTEM's candidate",
    "--effort-col": "effort score of SYSTEM's candidate (any numeric scale; see --effort-scale)",
}


def column_mapping(ns: argparse.Namespace):  # noqa: ANN201 - tmtprime.formats.ColumnMapping, imported lazily
    """The ColumnMapping the options describe, or None when none was given (readers infer it)."""
    mt: dict[str, str] = {}
    for item in ns.mt_col:
        name, sep, col = item.partition("=")
        if not sep:
            col = name
            name = col.strip().removeprefix("mt_")
        if not name.strip() or not col.strip():
            raise UsageError(
                f"--mt-col {item!r}: expected [NAME=]COLUMN, e.g. --mt-col mt_apertium_eng-spa "
                "or --mt-col apertium_eng-spa=mt_apertium_eng-spa"
            )
        if name.strip() in mt:
            raise UsageError(f"--mt-col: system {name.strip()!r} given twice")
        mt[name.strip()] = col.strip()
    given = {
        "source": ns.source_col,
        "target": ns.target_col,
        "reference": ns.reference_col,
        "tm": ns.tm_col,
        "tm_source": ns.tm_source_col,
        "tm_score": ns.tm_score_col,
        "context": ns.context_col,
    }
    keys = ns.key_col or []
    post = {flag.removeprefix("--").removesuffix("-col").replace("-", "_"): assignments(flag, getattr(ns, flag[2:].replace("-", "_")), "SYSTEM=COLUMN", "smt=post_edit")
            for flag in _POST_EDIT_FLAGS}
    post_given = any(post.values()) or ns.editor_col is not None
    if (not mt and not keys and all(v is None for v in given.values()) and not ns.no_header and ns.tm_system == "tm"
            and not post_given):
        return None
    from tmtprime.formats import ColumnMapping

    return ColumnMapping(
        **given,
        mt=mt,
        tm_system=ns.tm_system,
        key=keys if len(keys) > 1 else (keys[0] if keys else None),
        header=not ns.no_header,
        **post,
        editor=ns.editor_col,
        effort_more=ns.effort_scale == "higher-is-more",
    )


def _run(ns: argparse.Namespace) -> int:
    from tmtprime.store import Store
    from tmtprime.workflows.importing import import_files

    if ns.name and len(ns.files) > 1:
        raise UsageError("--name names one document: give one FILE with it")
    if ns.target_file and len(ns.files) > 1:
        raise UsageError("--target-file is the translation of one FILE: give one FILE with it")
    mapping = column_mapping(ns)
    if ns.role == "corpus":
        from tmtprime.workflows.importing import import_corpora

        with Store.open(ns.path) as store:
            for file in ns.files:
                (corpus,) = import_corpora(store, [file], fmt=ns.fmt, mapping=mapping, target_file=ns.target_file,
                                           reporter=progress_reporter(ns.quiet))
                print(corpus.render())
        return 0
    with Store.open(ns.path) as store:
        for file in ns.files:
            (result,) = import_files(
                store, [file], role=ns.role, fmt=ns.fmt, mapping=mapping, name=ns.name,
                target_file=ns.target_file, reporter=progress_reporter(ns.quiet),
            )
            print(result.render() + ("" if result.already else _undo(ns.path, result.document.name, result.role_reason)))
            for warning in result.warnings:
                print(f"tmtprime: warning: {file}: {warning}", file=sys.stderr)
    return 0


def _undo(path: str, name: str, why: str | None) -> str:
    """How the role was chosen (when it was not given) and the command that takes the import back."""
    inferred = f" (no --as: {why}; give --as to choose)" if why else ""
    return f"{inferred}; undo: tmtprime document remove {shlex.quote(path)} {shlex.quote(name)}"
