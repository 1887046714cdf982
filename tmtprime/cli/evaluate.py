"""``tmtprime evaluate PATH``: how good are the recommendations, measured against references."""

from __future__ import annotations

import argparse

from tmtprime.cli._common import add_jobs, add_quiet, progress_reporter
from tmtprime.errors import ModelError, UsageError


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "evaluate",
        help="evaluate the recommender against references (cross-validated on the dev data)",
        description=(
            "Without --document: the whole training procedure cross-validated by document on the "
            "development data. With --document NAME (a document imported with a reference column): the "
            "stored model on that document. Prints mean TER of the picks, of each system, of the oracle "
            "and of the fuzzy rule; the share of the gap closed; precision/recall of MT-over-TM decisions; "
            "Pearson r of the confidence with TER and Meteor of the pick; calibration (ECE). Where the project "
            "holds post-editing data: Pearson and Spearman of the confidence with time per word, HTER, "
            "keystrokes per word and effort scores, and for a model of effort scores MAE, RMSE and DeltaAvg "
            "(the WMT12 quality-estimation measures)."
        ),
    )
    parser.add_argument("path", metavar="PATH", help="project file or database URL")
    parser.add_argument("--document", metavar="NAME", help="evaluate the stored model on this document instead")
    parser.add_argument("--model", metavar="NAME", help="model for --document (default: the newest)")
    parser.add_argument("--folds", type=int, default=5, help="cross-validation folds (default 5)")
    parser.add_argument("--plots", metavar="DIR", help="write the precision-recall curve and reliability diagram (PNG)")
    parser.add_argument("--no-meteor", action="store_true", help="skip Meteor scoring of the picks")
    parser.add_argument(
        "--label", choices=("ter", "hter", "time", "effort"),
        help="label the cross-validated models learn (as tmtprime train --label; default as train chooses)",
    )
    add_jobs(parser)
    add_quiet(parser)
    parser.set_defaults(handler=_run)


def _run(ns: argparse.Namespace) -> int:
    from tmtprime.store import Store
    from tmtprime.workflows.effort_evaluation import evaluate_effort
    from tmtprime.workflows.evaluation import evaluate

    if ns.folds < 2:
        raise UsageError("--folds must be at least 2")
    with Store.open(ns.path) as store:
        effort = None
        if store.post_edits.count():
            try:
                effort = evaluate_effort(store, document=ns.document, model=ns.model, label=ns.label, n_splits=ns.folds,
                                         n_jobs=ns.jobs, reporter=progress_reporter(ns.quiet))
            except ModelError:
                if ns.label not in (None, "ter"):
                    raise  # an effort label asked for: its data must be there
                # this scope holds no post-editing data: the evaluation against references below
        if effort is not None and ns.label not in (None, "ter"):
            print(effort.render(), end="")
            return 0
        try:
            rep = evaluate(
                store, document=ns.document, model=ns.model, n_splits=ns.folds, n_jobs=ns.jobs, meteor=not ns.no_meteor,
                reporter=progress_reporter(ns.quiet),
            )
        except ModelError as error:
            if effort is None:
                raise
            print(effort.render(), end="")
            print(f"(no evaluation against references: {error})")
            return 0
    if effort is not None:
        print(effort.render(), end="")
    if ns.document:
        print(f"held-out evaluation of the stored model on document {ns.document!r} (best single system and rule "
              "chosen on the dev data)")
    else:
        print(f"held-out evaluation: the whole training procedure cross-validated in {ns.folds} folds grouped by "
              "document, the best single system chosen on each fold's training part (differs from the in-training "
              "estimate `tmtprime train` prints, whose best single system is chosen on all the dev data)")
    print(rep.render())
    if ns.plots:
        from tmtprime.workflows.evaluation import write_evaluation_plots

        for path in write_evaluation_plots(rep, ns.plots):
            print(f"wrote {path}")
    return 0
