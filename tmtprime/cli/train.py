"""``tmtprime train PATH``: train the recommender on the project's development data."""

from __future__ import annotations

import argparse

from tmtprime.cli._common import add_jobs, add_quiet, progress_reporter
from tmtprime.errors import UsageError


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "train",
        help="train the recommender (SVM + Platt-scaled confidence + TER regressor) on the dev data",
        description=(
            "Labels every candidate of the development segments (--label: TER against the reference, HTER "
            "against its own post-edit, time per word or effort score), computes features from the project's TM "
            "(none: MT-only, the TM features absent), chooses the hyper-parameters by grid search cross-validated "
            "by document, and stores the model (skops) with its model card in the project. Candidates competing "
            "on TER/HTER train the 'is the best' classifier; one candidate per segment, time or effort train the "
            "effort regressor (RBF SVR). The newest model is the one 'tmtprime recommend' uses."
        ),
    )
    parser.add_argument("path", metavar="PATH", help="project file or database URL")
    parser.add_argument("--name", help="model name (default: svm-DATE-TIME); an existing model of that name is replaced")
    parser.add_argument(
        "--label", choices=("ter", "hter", "time", "effort"),
        help="what the model learns: ter (against the reference), hter (against each candidate's own post-edit), "
        "time (post-editing ms per source word), effort (the imported effort score); default: hter where "
        "post-edits were imported, else ter",
    )
    parser.add_argument(
        "--from-tm", type=int, metavar="N",
        help="train without dev data: hold out N TM units, look them up against the rest of the TM, translate them "
        "with --engine, and label every candidate by TER against the unit's own target",
    )
    parser.add_argument("--engine", action="append", metavar="NAME",
                        help="MT engine for --from-tm (repeat for several; default apertium)")
    parser.add_argument("-o", "--output", metavar="FILE.skops", help="also write the model and its card to a file")
    add_jobs(parser)
    add_quiet(parser)
    parser.set_defaults(handler=_run)


def _run(ns: argparse.Namespace) -> int:
    from tmtprime.store import Store
    from tmtprime.workflows.training import train

    if ns.engine and ns.from_tm is None:
        raise UsageError("--engine goes with --from-tm (dev data brings its own candidates)")
    with Store.open(ns.path) as store:
        if ns.from_tm is not None:
            from tmtprime.workflows.tm_training import train_from_tm

            if ns.label not in (None, "ter"):
                raise UsageError("--from-tm labels by TER against the TM targets: --label ter only")
            outcome = train_from_tm(store, ns.from_tm, engines=ns.engine or ["apertium"], name=ns.name, n_jobs=ns.jobs,
                                    reporter=progress_reporter(ns.quiet))
        else:
            outcome = train(store, name=ns.name, label=ns.label, n_jobs=ns.jobs, reporter=progress_reporter(ns.quiet))
    print(outcome.render(), end="")
    print(f"  the held-out figure to report (the whole procedure cross-validated): tmtprime evaluate {ns.path}")
    if ns.output:
        card_path = outcome.save_file(ns.output)
        print(f"wrote {ns.output} and {card_path}")
    return 0
