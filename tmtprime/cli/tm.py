"""tmtprime tm lookup|repair PATH: TM matches, and TM matches repaired with MT.

lookup: the best matches at or above the threshold become TM candidates (fuzzy
score, TM source, match type: context/exact/100/fuzzy) of one system,
tm-lookup unless --name says otherwise. Re-running merges into that system's
candidates of the documents looked up: unchanged matches keep the picks and
overrides made from them, changed ones make their picks stale (and say so).

repair: each segment's best TM match at or above --min-fuzzy, with the words
the new source changed machine-translated into it (the TM's own word alignment
finds them), becomes a candidate of kind repair (system tm-repair); matches
whose alignment is not trustworthy are left alone and counted by reason.
Re-running merges like lookup: unchanged repairs keep their picks.
"""

from __future__ import annotations

import argparse

from tmtprime.cli._common import add_jobs, add_quiet, add_system_name, progress_reporter
from tmtprime.errors import UsageError


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("tm", help="translation-memory lookup")
    sub = parser.add_subparsers(title="tm commands", metavar="ACTION", required=True)
    lookup = sub.add_parser(
        "lookup", help="store the best TM matches of every segment as candidates",
        description=(__doc__ or "").split("\n\n")[1],
    )
    lookup.add_argument("path", metavar="PATH", help="project file or database URL")
    lookup.add_argument("--threshold", type=float, default=50.0, metavar="SCORE",
                        help="lowest fuzzy score kept, 0-100 (default 50; CAT tools often show from 70)")
    lookup.add_argument("--max-matches", type=int, default=3, metavar="K", help="matches kept per segment (default 3)")
    lookup.add_argument("--document", action="append", metavar="NAME",
                        help="only this document (repeatable; default: every dev/work document)")
    add_system_name(lookup, "system name of the stored matches (default tm-lookup)", "tm-lookup")
    add_jobs(lookup)
    add_quiet(lookup)
    lookup.set_defaults(handler=_lookup)
    repair = sub.add_parser(
        "repair", help="repair fuzzy TM matches with MT of the words that differ",
        description=(__doc__ or "").split("\n\n")[2],
    )
    repair.add_argument("path", metavar="PATH", help="project file or database URL")
    repair.add_argument("--engine", default="apertium", metavar="NAME",
                        help="MT engine for the differing spans: apertium (default) or a registered plug-in")
    repair.add_argument("--pair", metavar="PAIR", help="Apertium mode or pivot chain (default: from the project languages)")
    repair.add_argument("--min-fuzzy", type=float, default=50.0, metavar="SCORE",
                        help="lowest fuzzy score of a match to repair, 0-100 (default 50)")
    repair.add_argument("--document", action="append", metavar="NAME",
                        help="only this document (repeatable; default: every dev/work document)")
    add_system_name(repair, "system name of the repaired candidates (default tm-repair)", "tm-repair")
    add_jobs(repair)
    add_quiet(repair)
    repair.set_defaults(handler=_repair)


def _lookup(ns: argparse.Namespace) -> int:
    if not 0.0 <= ns.threshold <= 100.0:
        raise UsageError(f"--threshold must be between 0 and 100, got {ns.threshold:g}")
    if ns.max_matches < 1:
        raise UsageError(f"--max-matches must be at least 1, got {ns.max_matches}")
    from tmtprime.store import Store
    from tmtprime.workflows.lookup import lookup_tm

    with Store.open(ns.path) as store:
        report = lookup_tm(
            store, threshold=ns.threshold, k=ns.max_matches, documents=ns.document, system=ns.system_name,
            n_jobs=ns.jobs, reporter=progress_reporter(ns.quiet),
        )
    print(report.render(), end="")
    return 0


def _repair(ns: argparse.Namespace) -> int:
    if not 0.0 <= ns.min_fuzzy <= 100.0:
        raise UsageError(f"--min-fuzzy must be between 0 and 100, got {ns.min_fuzzy:g}")
    from tmtprime.store import Store
    from tmtprime.workflows.repair import repair_tm

    options = {"pair": ns.pair, "n_jobs": ns.jobs} if ns.engine == "apertium" else {}
    with Store.open(ns.path) as store:
        report = repair_tm(
            store, ns.engine, engine_options=options, min_fuzzy=ns.min_fuzzy, documents=ns.document,
            system=ns.system_name, reporter=progress_reporter(ns.quiet),
        )
    print(report.render(), end="")
    return 0
