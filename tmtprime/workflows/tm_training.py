"""Use case "train from the TM": a model of the team's own domain from its TM and MT engines alone.

``n`` TM units are held out (a seeded random choice); each is looked up
against the rest of the TM (its own unit cannot match itself), translated by
the given MT engines, and every candidate labelled by TER against the unit's
own target. Features come from models trained on the rest of the TM only, so
the held-out targets teach nothing they are then tested on. The model is
stored as ``train`` stores one; nothing else is written.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from tmtprime.errors import UsageError
from tmtprime.features.extractor import CandidateFeatureExtractor
from tmtprime.features.tm_models import TMModels
from tmtprime.formats.model import Candidate, Segment
from tmtprime.progress import CancelOnly, Reporter
from tmtprime.recommend import persist
from tmtprime.recommend.dataset import build_rows
from tmtprime.store import Store
from tmtprime.tm.index import TMIndex
from tmtprime.tm.lookup import lookup_segments
from tmtprime.workflows.training import TrainResult, fit_model, model_name
from tmtprime.workflows.translation import make_engine

MIN_REST = 20
"""TM units that must stay in the TM for lookups and features."""


def held_out_segments(store: Store, n: int, engines: Sequence[str], *, seed: int = 0, n_jobs: int = 1,
                      reporter: Reporter | None = None) -> tuple[list[Segment], list[tuple[str, str]]]:
    """``n`` held-out TM units as dev segments (reference = their target; candidates: the best match in the
    rest of the TM and each engine's output), and the rest of the TM as (source, target) pairs."""
    reporter = reporter or Reporter()
    pairs = list(store.tm.iter_pairs())
    if n < 10 or n > len(pairs) - MIN_REST:
        raise UsageError(f"--from-tm needs between 10 and {max(len(pairs) - MIN_REST, 10)} units to hold out "
                         f"(the TM has {len(pairs)}; {MIN_REST} must stay)")
    held = set(np.random.default_rng(seed).choice(len(pairs), size=n, replace=False).tolist())
    rest = [p for i, p in enumerate(pairs) if i not in held]
    units = [pairs[i] for i in sorted(held)]
    sources = [s for s, _ in units]
    index = TMIndex([s for s, _ in rest], [t for _, t in rest], reporter=reporter)
    matches = lookup_segments(index, sources, k=1, n_jobs=n_jobs, reporter=reporter)
    segments = [
        Segment(key=f"tm#{i}", source=s, reference=t, attributes={"doc_id": "tm"},
                candidates=[Candidate("tm", "tm", m.target, fuzzy=m.score, tm_source=m.source) for m in found[:1]])
        for i, ((s, t), found) in enumerate(zip(units, matches))
    ]
    for name in engines:
        engine = make_engine(store, name)
        engine.check()
        reporter.status(f"translating {n} held-out units with {engine.describe()}")
        for seg, text in zip(segments, engine.translate(sources, reporter=CancelOnly(reporter))):
            if text.strip():
                seg.candidates.append(Candidate(engine.name, "mt", text))
    return [s for s in segments if s.candidates], rest


def train_from_tm(store: Store, n: int, *, engines: Sequence[str] = ("apertium",), name: str | None = None,
                  seed: int = 0, n_jobs: int = 1, reporter: Reporter | None = None) -> TrainResult:
    """Train on ``n`` TM units held out, looked up, translated and labelled by TER against their own target."""
    reporter = reporter or Reporter()
    if not engines:
        raise UsageError("--from-tm needs at least one MT engine (--engine apertium, or a plug-in)")
    segments, rest = held_out_segments(store, n, engines, seed=seed, n_jobs=n_jobs, reporter=reporter)
    extractor = CandidateFeatureExtractor(n_jobs=n_jobs).fit(tm=TMModels().fit(rest, reporter=reporter))
    reporter.status("features and labels (TER against the held-out targets)")
    rows = build_rows(segments, extractor, with_ter=True, n_jobs=n_jobs)
    rows.groups = rows.segments * 5 // max(rows.n_segments, 1)  # five "documents" of whole segments for the CV
    model, card = fit_model(store, rows, "ter", 1.0, None, n_jobs, reporter, has_tm=True)
    card["data"]["from_tm"] = {"held_out": n, "engines": list(engines), "seed": seed,
                               "note": "held-out TM units looked up against the rest of the TM"}
    name = name or model_name(model)
    reporter.check()
    store.models.save(name, persist.dumps(model), card, replace=True)
    return TrainResult(name, card, model)
