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
    from tmtprime.cost import load_scheme, preset_names

    for name in preset_names():
        scheme = load_scheme(name)
        print(f"{name}\tpreset\t{scheme.currency} {scheme.word_rate:g}/word\t{scheme.source}")
    if ns.path:
        from tmtprime.store import Store

        with Store.open(ns.path) as store:
            for name in store.cost_schemes.names():
                scheme = load_scheme(name, store=store)
                print(f"{name}\tstored\t{scheme.currency} {scheme.word_rate:g}/word\t{store.location}")
    return 0


def _show(ns: argparse.Namespace) -> int:
    from tmtprime.cost import load_scheme

    if ns.project:
        from tmtprime.store import Store

        with Store.open(ns.project) as store:
            scheme = load_scheme(ns.scheme, store=store)
    else:
        scheme = load_scheme(ns.scheme)
    print(json.dumps(scheme.to_dict(), indent=2, ensure_ascii=False))
    return 0


def _check(ns: argparse.Namespace) -> int:
    from tmtprime.cost import read_scheme_file

    scheme = read_scheme_file(ns.file)
    if not ns.quiet:
        print(f"{ns.file}: valid cost scheme {scheme.name!r} ({scheme.currency} {scheme.word_rate:g}/word, "
              f"{len(scheme.tm_bands)} TM bands, {len(scheme.mt_bands)} quality bands, MT priced by {scheme.mt_pricing})")
    return 0


def _save(ns: argparse.Namespace) -> int:
    from tmtprime.cost import load_scheme
    from tmtprime.store import Store

    scheme = load_scheme(ns.scheme)
    name = ns.name or scheme.name
    with Store.open(ns.path) as store:
        store.cost_schemes.save(name, scheme.to_dict())
    if not ns.quiet:
        print(f"stored cost scheme {name!r} in {ns.path}")
    return 0
