"""tmtprime tm lookup PATH: fuzzy-match every segment against the project's TM.

The best matches at or above the threshold become TM candidates (fuzzy score,
TM source, match type: context/exact/100/fuzzy) of one system, tm-lookup
unless --name says otherwise. Re-running replaces that system's
candidates of the documents looked up, so the command is idempotent.
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
        description=(__doc__ or "").split("\n\n", 1)[1],
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
