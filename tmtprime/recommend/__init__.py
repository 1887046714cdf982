"""Labels (TER vs reference), the SVM recommender with Platt-scaled confidence, evaluation, persistence.

* :mod:`~tmtprime.recommend.labels` — TER of every candidate, "best" labels with the tie rule;
* :mod:`~tmtprime.recommend.dataset` — :class:`CandidateRows` (feature matrix + row metadata);
* :mod:`~tmtprime.recommend.grouping` — X's layout: segment number, TM flag, features;
* :mod:`~tmtprime.recommend.svm` — :class:`TMTprimeRecommender` (SVR TER + stacked SVC, Platt);
* :mod:`~tmtprime.recommend.platt` — Platt scaling; :mod:`~tmtprime.recommend.kernel` — fast RBF decision values;
* :mod:`~tmtprime.recommend.picks` — :class:`Picks`, the model's outcome over row arrays (a segment's pick is the domain's ``Pick``);
* :mod:`~tmtprime.recommend.confidence` — the confidence shown with a pick;
* :mod:`~tmtprime.recommend.evaluation` — cross-validation by document and the full report;
* :mod:`~tmtprime.recommend.persist` — skops files and model cards;
* :mod:`~tmtprime.recommend.plots` — precision-recall curve and reliability diagram.

Training, recommending and evaluating on a project store are use cases in
:mod:`tmtprime.workflows` (``train``, ``recommend``, ``evaluate``).

Nothing is imported here, so ``tmtprime`` CLI start-up stays light.
"""
