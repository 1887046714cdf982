"""``tmtprime train PATH``: train the recommender on the project's development data."""

from __future__ import annotations

import argparse

from tmtprime.cli._common import add_jobs, add_quiet, progress_reporter


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "train",
        help="train the recommender (SVM + Platt-scaled confidence + TER regressor) on the dev data",
        description=(
            "Labels every candidate of the development segments by TER against the reference, computes "
            "features from the project's TM, chooses C and gamma by grid search cross-validated by "
            "document, and stores the model (skops) with its model card in the project. The newest "
            "model is the one 'tmtprime recommend' uses."
        ),
    )
    parser.add_argument("path", metavar="PATH", help="project file or database URL")
    parser.add_argument("--name", help="model name (default: svm-DATE-TIME); an existing model of that name is replaced")
    parser.add_argument("-o", "--output", metavar="FILE.skops", help="also write the model and its card to a file")
    add_jobs(parser)
    add_quiet(parser)
    parser.set_defaults(handler=_run)


def _run(ns: argparse.Namespace) -> int:
    from tmtprime.store import Store
    from tmtprime.workflows.training import train

    with Store.open(ns.path) as store:
        outcome = train(store, name=ns.name, n_jobs=ns.jobs, reporter=progress_reporter(ns.quiet))
    print(outcome.render(), end="")
    print(f"  the held-out figure to report (the whole procedure cross-validated): tmtprime evaluate {ns.path}")
    if ns.output:
        card_path = outcome.save_file(ns.output)
        print(f"wrote {ns.output} and {card_path}")
    return 0
