"""``tmtprime project create|info``: make a project store and see what it holds."""

from __future__ import annotations

import argparse
import sys

from tmtprime.cli._common import add_quiet, add_quiet_confirmation


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("project", help="create a project or show what it holds")
    sub = parser.add_subparsers(title="project commands", metavar="ACTION", required=True)

    create = sub.add_parser("create", help="create a new project (an SQLite file or a database URL)")
    create.add_argument("path", metavar="PATH", help="project file (e.g. job.db) or SQLAlchemy URL")
    create.add_argument("--source-lang", "-s", required=True, metavar="LANG", help="source language, e.g. en")
    create.add_argument("--target-lang", "-t", required=True, metavar="LANG", help="target language, e.g. es")
    create.add_argument("--name", help="project name (default: the file name)")
    add_quiet_confirmation(create)
    create.set_defaults(handler=_create)

    info = sub.add_parser("info", help="languages, documents, systems, TM size, models, recommendations, and which documents are behind which step")
    info.add_argument("path", metavar="PATH", help="project file or database URL")
    add_quiet(info)
    info.set_defaults(handler=_info)


def _create(ns: argparse.Namespace) -> int:
    from tmtprime.workflows.project_info import create_project

    project = create_project(ns.path, source_lang=ns.source_lang, target_lang=ns.target_lang, name=ns.name)
    if not ns.quiet:
        print(f"created project {project.name!r} ({project.source_lang}->{project.target_lang}) at {ns.path}")
    return 0


def _info(ns: argparse.Namespace) -> int:
    from tmtprime.store import Store
    from tmtprime.workflows.project_info import project_info
    from tmtprime.workflows.status import project_status

    with Store.open(ns.path) as store:
        summary, status = project_info(store), project_status(store)
    sys.stdout.write(summary.render())
    sys.stdout.write(status.render())
    return 0
