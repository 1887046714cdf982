"""Saving and loading recommender models with skops (never pickle) and their model cards.

A model is a :class:`~tmtprime.recommend.svm.TMTprimeRecommender` (scikit-learn
pipelines plus our Platt sigmoid) or an :class:`~tmtprime.recommend.regressor.EffortRegressor` and a model card: a JSON-able dict with the
training data, the feature names and version, the chosen hyper-parameters and
the cross-validated metrics. In the store both go into the ``models`` table; as
files, ``NAME.skops`` with ``NAME.card.json`` next to it.

Loading trusts exactly the types listed in :data:`TRUSTED_TYPES` (ours) on top
of skops' defaults (scikit-learn's public estimators, numpy); a file asking for
anything else is refused, so a model file from elsewhere cannot run code.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from tmtprime.errors import ModelError

TRUSTED_TYPES = [
    "tmtprime.recommend.platt.PlattSigmoid",
    "tmtprime.recommend.svm.TMTprimeRecommender",
    # where files saved before the SVM left recommend/model.py name them (that module re-exports them)
    "tmtprime.recommend.model.TMTprimeRecommender",
    "tmtprime.recommend.model.PlattSigmoid",
    "tmtprime.recommend.regressor.EffortRegressor",
    "sklearn.tree._tree.Tree",  # the trees of the effort regressor's forest (scikit-learn's own type)
]
CARD_SUFFIX = ".card.json"


def dumps(model: Any) -> bytes:
    import skops.io as sio

    return sio.dumps(model)


def loads(blob: bytes) -> Any:
    """The model in ``blob``; a :class:`ModelError` if it needs types we do not trust or is damaged."""
    import skops.io as sio

    from tmtprime.recommend.svm import TMTprimeRecommender
    from tmtprime.recommend.regressor import EffortRegressor

    try:
        untrusted = [t for t in sio.get_untrusted_types(data=blob) if t not in TRUSTED_TYPES]
        if untrusted:
            raise ModelError(f"refusing to load a model that needs untrusted types: {', '.join(untrusted)}")
        model = sio.loads(blob, trusted=TRUSTED_TYPES)
    except ModelError:
        raise
    except Exception as error:  # skops raises many kinds of errors for damaged blobs
        raise ModelError(f"the model cannot be read ({type(error).__name__}: {error}); retrain it") from None
    if not isinstance(model, TMTprimeRecommender | EffortRegressor):
        raise ModelError(f"the model file holds a {type(model).__name__}, not a TMTprime recommender")
    return model


def save_file(path: str | Path, model: Any, card: Mapping[str, Any]) -> Path:
    """Write ``path`` (.skops) and its card next to it; returns the card's path."""
    path = Path(path)
    path.write_bytes(dumps(model))
    card_path = card_path_of(path)
    card_path.write_text(json.dumps(card, indent=2, ensure_ascii=False, sort_keys=True) + "\n", encoding="utf-8")
    return card_path


def card_path_of(path: str | Path) -> Path:
    path = Path(path)
    return path.with_name(path.name.removesuffix(".skops") + CARD_SUFFIX)


def load_file(path: str | Path) -> tuple[Any, dict[str, Any]]:
    """The model in ``path`` and its card (an empty card if the card file is missing)."""
    path = Path(path)
    if not path.is_file():
        raise ModelError(f"{path}: model file not found")
    card_path = card_path_of(path)
    card: dict[str, Any] = {}
    if card_path.is_file():
        try:
            card = json.loads(card_path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            raise ModelError(f"{card_path}: the model card is not valid JSON ({error})") from None
    return loads(path.read_bytes()), card
