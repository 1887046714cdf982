"""The ``tmtprime`` command.

Each public module of this package contributes subcommands, so that features
land without editing a central list:

* ``register(subparsers)`` adds argparse subparsers and sets ``handler`` via
  ``set_defaults(handler=...)``; the handler takes the parsed namespace and
  returns an exit status (``None`` means 0).
* ``RAW_COMMANDS = {"name": ("help", run)}`` for commands that parse their own
  argument syntax (``tmtprime meteor`` speaks the Meteor jar's ``-norm -vOut``
  style); ``run(argv)`` receives the arguments after the command name.

Modules must keep their top-level imports light: they are all imported to
build the parser, and ``tmtprime meteor`` start-up time is a product target.
So a handler imports the store, the use cases and the scorer itself, and
everything light (errors, progress, the options) is imported at the top.
Measured (``python3 -X importtime``, after the CLI's own modules, at load 22;
``docs/experiments/cli-startup.md``): ``tmtprime.store`` 0.9 s,
``tmtprime.workflows.*`` 1.8-2.9 s, ``tmtprime.meteor.scorer`` 2.5 s,
``tmtprime.formats`` 0.4 s, numpy 0.3 s, against 0-16 ms for what is at the
top; ``tests/test_cli.py`` checks that building the parser loads neither the
store, the use cases nor numpy, and ``bench/cli_startup.py`` compares
``--help`` and ``tmtprime meteor`` with another tree.
Errors derived from :class:`~tmtprime.errors.TmtprimeError` become one line on
stderr and the error's exit status; nothing shows a traceback for bad input.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Callable, Sequence
from types import ModuleType

from tmtprime import __version__
from tmtprime.cli._warnings import third_party_warnings
from tmtprime.errors import TmtprimeError
from tmtprime.parallel import dask_cluster

RawRunner = Callable[[list[str]], int]


def _command_modules() -> list[ModuleType]:
    names = sorted(m.name for m in pkgutil.iter_modules(__path__) if not m.name.startswith("_"))
    return [importlib.import_module(f"{__name__}.{name}") for name in names]


def build_parser(modules: Sequence[ModuleType]) -> argparse.ArgumentParser:
    """The top-level parser with every module's subcommands."""
    parser = argparse.ArgumentParser(
        prog="tmtprime",
        description="TM/MT recommendation, cost estimates and Meteor scoring for localisation projects.",
        allow_abbrev=False,
    )
    parser.add_argument("--version", action="version", version=f"tmtprime {__version__}")
    sub = parser.add_subparsers(title="commands", metavar="COMMAND")
    for module in modules:
        for name, (help_text, _run) in getattr(module, "RAW_COMMANDS", {}).items():
            sub.add_parser(name, help=help_text, add_help=False)
        register = getattr(module, "register", None)
        if register is not None:
            register(sub)
    return parser


def report_error(error: TmtprimeError) -> int:
    """Print a user-facing error as one line and return its exit status."""
    print(f"tmtprime: error: {error}", file=sys.stderr)
    return error.exit_code


def run_handler(handler: Callable[[argparse.Namespace], int | None], ns: argparse.Namespace) -> int:
    """Run a subcommand's handler, inside the Dask cluster named by ``--scheduler`` if any.

    Opening the cluster here keeps every batch command's handler unaware of
    where its work runs; with a cluster and ``--jobs`` left at 1 the work
    would stay in this process, so it then means all the cluster's workers.
    Third-party warnings are dropped under ``-q``, else shown once in words
    (:mod:`tmtprime.cli._warnings`).
    """
    address = getattr(ns, "scheduler", None)
    with third_party_warnings(quiet=bool(getattr(ns, "quiet", False))):
        if not address:
            return handler(ns) or 0
        return _in_cluster(handler, ns, address)


def _in_cluster(handler: Callable[[argparse.Namespace], int | None], ns: argparse.Namespace, address: str) -> int:
    with dask_cluster(address):
        if ns.jobs == 1:
            ns.jobs = -1
        return handler(ns) or 0


def _raw_runner(command: str) -> RawRunner | None:
    """The raw command ``command`` from the module of the same name alone, if it defines one.

    ``tmtprime meteor`` must start as fast as the Meteor jar: importing every
    command module to build the parser costs seconds when one of them imports
    a use case at its top (measured: ``cli.report`` pulls matplotlib and the
    store, 2.0 s of ``-X importtime``), so a raw command skips the parser.
    """
    if not command.isidentifier() or command not in {m.name for m in pkgutil.iter_modules(__path__)}:
        return None
    entry = getattr(importlib.import_module(f"{__name__}.{command}"), "RAW_COMMANDS", {}).get(command)
    return entry[1] if entry else None


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``tmtprime`` console script."""
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        fast = _raw_runner(args[0]) if args else None
        if fast is not None:
            return fast(args[1:])
        modules = _command_modules()
        raw: dict[str, RawRunner] = {
            name: run for m in modules for name, (_h, run) in getattr(m, "RAW_COMMANDS", {}).items()
        }
        if args and args[0] in raw:
            return raw[args[0]](args[1:])
        parser = build_parser(modules)
        ns = parser.parse_args(args)
        handler = getattr(ns, "handler", None)
        if handler is None:
            parser.print_help(sys.stderr)
            return 2
        return run_handler(handler, ns)
    except TmtprimeError as error:
        return report_error(error)
    except KeyboardInterrupt:
        print("tmtprime: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # Output piped into `head` and the like: not an error worth a traceback.
        return 0
