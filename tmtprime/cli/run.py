"""``tmtprime run --tm TM DOC... -o OUTDIR``: the unattended job, and ``tmtprime demo`` on the bundled sample."""

from __future__ import annotations

import argparse
import sys

from tmtprime.cli._common import add_jobs, add_quiet, assignments, progress_reporter


def register(subparsers: argparse._SubParsersAction) -> None:
    run = subparsers.add_parser(
        "run",
        help="the whole job in one go: import, TM lookup, MT, recommend, each document back (own format, "
             "XLIFF, CSV), report",
        description=(
            "Creates a project (temporary, or --project P.db, kept), imports the TMs and documents, looks the "
            "TM up, adds MT (--mt outputs delivered as files, --engine apertium), recommends with the project's "
            "newest model or --model FILE or the shipped default, and writes into OUTDIR each document in its own "
            "format with the picks filled in (STEM.pretranslated.po, .sdlxliff...; not for CSV/JSON/text inputs), "
            "as XLIFF 1.2 (STEM.xlf: the pick as target, every candidate as an alternative with its confidence) "
            "and as CSV (STEM.csv), as --format chooses, plus report.html, report.json and report.txt. A document that cannot be read is reported and skipped; "
            "the exit status is then 1."
        ),
    )
    run.add_argument("documents", metavar="DOC", nargs="+", help="files to translate (XLIFF, PO, CSV/TSV...)")
    run.add_argument("-o", "--out", required=True, metavar="OUTDIR", help="directory for the results (created)")
    run.add_argument("--tm", action="append", required=True, metavar="TM", help="translation memory (repeatable)")
    run.add_argument("--mt", action="append", default=[], metavar="NAME=FILE",
                     help="MT output of system NAME delivered as FILE, matched by source text (repeatable)")
    run.add_argument("--engine", action="append", default=[], metavar="NAME",
                     help="run a local MT engine (apertium; repeatable)")
    run.add_argument("--repair", nargs="?", const="apertium", metavar="ENGINE",
                     help="also repair fuzzy TM matches with MT of the differing words (default engine: apertium)")
    run.add_argument("--scheme", default="matecat", metavar="FILE|NAME",
                     help="cost scheme: a preset (matecat, memoq) or a TOML/JSON file (default matecat)")
    run.add_argument("--model", metavar="FILE", help="recommender model file (.skops, as 'tmtprime train -o' writes)")
    run.add_argument("--project", metavar="P.db", help="keep the project here (created if missing); default: temporary")
    run.add_argument("--source-lang", "-s", metavar="LANG", help="source language of a new project (default: the TM's)")
    run.add_argument("--target-lang", "-t", metavar="LANG", help="target language of a new project (default: the TM's)")
    run.add_argument("--format", default="original,xliff,csv", metavar="LIST",
                     help="what to write per document, comma-separated: original (its own format), xliff, csv "
                          "(default: all three)")
    add_jobs(run)
    add_quiet(run)
    run.set_defaults(handler=_run)

    demo = subparsers.add_parser(
        "demo",
        help="run the job on a small English->Spanish sample project shipped with TMTprime",
        description=(
            "Runs 'tmtprime run' on the sample in resources/demo (a TMX TM, XLIFF and PO files, two MT systems' "
            "outputs, reviewed translations for part of it) and prints where the report is. The project is kept "
            "as OUT/demo.db (an earlier one is replaced). Needs no network, no Apertium and no Java."
        ),
    )
    demo.add_argument("--out", default="tmtprime-demo", metavar="DIR", help="output directory (default ./tmtprime-demo)")
    add_quiet(demo)
    demo.set_defaults(handler=_demo)


def _mt_files(items: list[str]) -> dict[str, str]:
    return assignments("--mt", items, "NAME=FILE", "deepl=deepl.tsv")


def _run(ns: argparse.Namespace) -> int:
    from tmtprime.workflows.run import JobOptions, run_job

    options = JobOptions(
        documents=ns.documents, out_dir=ns.out, tms=ns.tm, mt=_mt_files(ns.mt), engines=ns.engine, repair=ns.repair, scheme=ns.scheme,
        model=ns.model, project=ns.project, source_lang=ns.source_lang, target_lang=ns.target_lang, n_jobs=ns.jobs,
        formats=[f.strip() for f in ns.format.split(",") if f.strip()],
    )
    result = run_job(options, progress_reporter(ns.quiet))
    print(result.render(), end="")
    for failed in result.failed:
        print(f"tmtprime: error: {failed.error}", file=sys.stderr)
    return 1 if result.failed else 0


def _demo(ns: argparse.Namespace) -> int:
    from tmtprime.workflows.demo import run_demo

    result = run_demo(ns.out, progress_reporter(ns.quiet))
    print(result.render(), end="")
    return 1 if result.failed else 0
