"""``tmtprime resources``: fetch and inspect the Meteor language resources."""

from __future__ import annotations

import argparse
import sys

from tmtprime.cli._common import add_quiet, progress_reporter
from tmtprime.meteor.fetch import fetch_paraphrase_table, inventory


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("resources", help="fetch or list Meteor language resources (paraphrase table...)")
    sub = parser.add_subparsers(title="resources commands", metavar="ACTION")
    fetch = sub.add_parser(
        "fetch-paraphrase",
        help="download Meteor's English paraphrase table (pycocoevalcap wheel, via pip) and compile its index",
    )
    fetch.add_argument("--version", default="1.2", help="pycocoevalcap version to take it from (default 1.2)")
    fetch.add_argument("--force", action="store_true", help="download again even if the table is in the cache")
    add_quiet(fetch)
    fetch.set_defaults(handler=_fetch)
    info = sub.add_parser("info", help="list which resources are present and which paraphrase indexes are compiled")
    add_quiet(info)
    info.set_defaults(handler=_info)
    parser.set_defaults(handler=lambda ns: parser.print_help(sys.stderr) or 2)


def _fetch(ns: argparse.Namespace) -> int:
    path = fetch_paraphrase_table(version=ns.version, force=ns.force, reporter=progress_reporter(ns.quiet))
    print(f"paraphrase table ready: {path}")
    return 0


def _info(ns: argparse.Namespace) -> int:
    rows = inventory()
    width = max(len(r.resource) for r in rows)
    for row in rows:
        print(f"{row.resource:<{width}}  {row.status:<9}  {row.detail}")
    return 0
