"""``tmtprime document remove PATH NAME``: take an import back.

Removes the imported file and everything derived from it (segments,
candidates, TM units, features, recommendations) in one transaction. The
names are those ``tmtprime project info`` lists and every import prints.
"""

from __future__ import annotations

import argparse

from tmtprime.cli._common import add_quiet_confirmation


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("document", help="remove an imported file (undo an import)")
    sub = parser.add_subparsers(title="document commands", metavar="ACTION", required=True)
    remove = sub.add_parser(
        "remove", help="remove an imported file and everything derived from it",
        description=(__doc__ or "").split("\n\n", 1)[1],
    )
    remove.add_argument("path", metavar="PATH", help="project file or database URL")
    remove.add_argument("name", metavar="NAME", help="document name (as `tmtprime project info` lists it)")
    add_quiet_confirmation(remove)
    remove.set_defaults(handler=_remove)


def _remove(ns: argparse.Namespace) -> int:
    from tmtprime.store import Store
    from tmtprime.workflows.project_info import remove_document

    with Store.open(ns.path) as store:
        doc = remove_document(store, ns.name)
    if not ns.quiet:
        print(f"removed {doc.role} {doc.name!r} ({doc.unit_count} units) and everything derived from it")
    return 0
