"""``tmtprime recommend PATH``: pick a candidate for every segment of the project's documents."""

from __future__ import annotations

import argparse

from tmtprime.cli._common import add_jobs, add_quiet, add_systems, progress_reporter


def _probability(text: str) -> float:
    value = float(text)
    if value > 1.0:
        value /= 100.0  # "90" means 90 %
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"expected a probability (0-1 or 0-100 %), got {text}")
    return value


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "recommend",
        help="recommend the TM match or an MT output for every segment, with a confidence",
        description=(
            "Uses the project's newest model (or --model NAME); a project without one gets the model "
            "shipped with TMTprime. Features that need the TM (language models, lexical tables) come "
            "from the project's own TM. --mt-threshold X recommends MT over the TM match only when the "
            "model is at least X sure that an MT output beats the TM match; --precision P takes the "
            "threshold that reached precision P in the model's cross-validation."
        ),
    )
    parser.add_argument("path", metavar="PATH", help="project file or database URL")
    parser.add_argument("--model", metavar="NAME", help="model to use (default: the newest)")
    parser.add_argument("--document", metavar="NAME", action="append",
                        help="only this document (repeatable; default: every document of role 'document')")
    add_systems(parser, "only candidates of these systems take part (default: every system)")
    knob = parser.add_mutually_exclusive_group()
    knob.add_argument("--mt-threshold", type=_probability, metavar="X", help="MT over TM only when at least X sure (0-1 or %%)")
    knob.add_argument("--precision", type=_probability, metavar="P", help="MT over TM at the threshold that reached precision P")
    add_jobs(parser)
    add_quiet(parser)
    parser.set_defaults(handler=_run)


def _run(ns: argparse.Namespace) -> int:
    from tmtprime.store import Store
    from tmtprime.workflows.recommendation import recommend

    with Store.open(ns.path) as store:
        outcome = recommend(
            store,
            model=ns.model,
            documents=ns.document,
            systems=ns.systems,
            mt_threshold=ns.mt_threshold,
            target_precision=ns.precision,
            n_jobs=ns.jobs,
            reporter=progress_reporter(ns.quiet),
        )
    print(outcome.render(), end="")
    return 0
