"""``tmtprime cost schemes|show|check|save``: the cost schemes a report can use."""

from __future__ import annotations

import argparse
import json

from tmtprime.cli._common import add_quiet, add_quiet_confirmation


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("cost", help="list, show, check and store cost schemes (rates per band and system)")
    sub = parser.add_subparsers(title="cost commands", metavar="ACTION", required=True)

    schemes = sub.add_parser("schemes", help="the shipped presets (and a project's stored schemes)")
    schemes.add_argument("path", nargs="?", metavar="PATH", help="also list the schemes stored in this project")
    add_quiet(schemes)
    schemes.set_defaults(handler=_schemes)

    show = sub.add_parser("show", help="print a scheme (a preset, a file, or with --project a stored one) as JSON")
    show.add_argument("scheme", nargs="?", default="matecat", metavar="NAME|FILE", help="default: matecat")
    show.add_argument("--project", metavar="PATH", help="look the name up among this project's stored schemes first")
    add_quiet(show)
    show.set_defaults(handler=_show)

    check = sub.add_parser("check", help="validate a scheme file (.toml or .json)")
    check.add_argument("file", metavar="FILE")
    add_quiet_confirmation(check)
    check.set_defaults(handler=_check)

    save = sub.add_parser("save", help="store a scheme file (or preset) in a project under a name")
    save.add_argument("path", metavar="PATH", help="project file or database URL")
    save.add_argument("scheme", metavar="FILE|PRESET")
    save.add_argument("--name", metavar="NAME", help="name in the project (default: the scheme's own name)")
    add_quiet_confirmation(save)
    save.set_defaults(handler=_save)


def _schemes(ns: argparse.Namespace) -> int:
    from tmtprime.store import Store
    from tmtprime.workflows.schemes import list_schemes

    if ns.path:
        with Store.open(ns.path) as store:
            entries = list_schemes(store)
    else:
        entries = list_schemes()
    for e in entries:
        print(f"{e.name}\t{e.origin}\t{e.scheme.currency} {e.scheme.word_rate:g}/word\t{e.where}")
    return 0


def _show(ns: argparse.Namespace) -> int:
    from tmtprime.store import Store
    from tmtprime.workflows.schemes import get_scheme

    if ns.project:
        with Store.open(ns.project) as store:
            scheme = get_scheme(ns.scheme, store)
    else:
        scheme = get_scheme(ns.scheme)
    print(json.dumps(scheme.to_dict(), indent=2, ensure_ascii=False))
    return 0


def _check(ns: argparse.Namespace) -> int:
    from tmtprime.workflows.schemes import check_scheme_file

    scheme = check_scheme_file(ns.file)
    if not ns.quiet:
        print(f"{ns.file}: valid cost scheme {scheme.name!r} ({scheme.currency} {scheme.word_rate:g}/word, "
              f"{len(scheme.tm_bands)} TM bands, {len(scheme.mt_bands)} quality bands, MT priced by {scheme.mt_pricing})")
    return 0


def _save(ns: argparse.Namespace) -> int:
    from tmtprime.store import Store
    from tmtprime.workflows.schemes import save_scheme

    with Store.open(ns.path) as store:
        name = save_scheme(store, ns.scheme, ns.name)
    if not ns.quiet:
        print(f"stored cost scheme {name!r} in {ns.path}")
    return 0
