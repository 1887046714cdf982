"""Subcommands of ``tmtprime meteor`` beyond the jar's scoring syntax (resources, tuning, meta-evaluation).

``tmtprime meteor HYP REF -l en ...`` keeps the jar's own options
(:mod:`tmtprime.cli.meteor`); a first argument naming one of
:data:`SUBCOMMANDS` runs that tool instead (``tmtprime meteor paraphrase
build ...``). Each entry is ``name: (help, "module:function")``; the module is
imported only when its tool runs (start-up time of ``tmtprime meteor``), and
the function takes the arguments after the name and returns an exit status.
"""

from __future__ import annotations

import importlib
import sys
from tmtprime.errors import TmtprimeError

SUBCOMMANDS: dict[str, tuple[str, str]] = {
    "paraphrase": ("build (pivot), merge or compile paraphrase tables", "tmtprime.cli._meteor_resources:paraphrase"),
    "funcwords": ("learn a function-word list from a monolingual corpus", "tmtprime.cli._meteor_resources:funcwords"),
    "bitext-paraphrases": (
        "extra references from the evaluation bitext's own alignments", "tmtprime.cli._meteor_resources:bitext_paraphrases",
    ),
    "correlate": ("segment-level Pearson r and Kendall tau with human judgments", "tmtprime.cli.meteor_eval:correlate"),
    "tune": ("grid-search Meteor's parameters against human judgments", "tmtprime.cli.meteor_eval:tune"),
    "copy-words": ("copy words (Meteor++) from a TM or judged pairs", "tmtprime.cli.meteor_eval:copy_words"),
    "syntax-table": ("skip-gram paraphrases (Meteor++ 2.0) from judged pairs", "tmtprime.cli.meteor_eval:syntax_table"),
}


def usage_lines() -> list[str]:
    """The subcommand lines of ``tmtprime meteor --help``."""
    return [f"  tmtprime meteor {name:<20} {help_text}" for name, (help_text, _) in SUBCOMMANDS.items()]


def run_tool(argv: list[str]) -> int:
    """Run the subcommand ``argv[0]``: a user error is one line on stderr and its exit status, never a traceback."""

    module_name, _, function = SUBCOMMANDS[argv[0]][1].partition(":")
    handler = getattr(importlib.import_module(module_name), function)
    try:
        return handler(argv[1:]) or 0
    except TmtprimeError as error:
        print(f"tmtprime: error: {error}", file=sys.stderr)
        return error.exit_code
    except SystemExit as stop:  # argparse: --help (0) or a usage error (2)
        return stop.code if isinstance(stop.code, int) else 2
