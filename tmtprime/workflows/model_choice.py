"""Which recommender model a use case uses: a named one, the project's newest, or the shipped default."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tmtprime.errors import ModelError
from tmtprime.features.extractor import FEATURE_SET_VERSION
from tmtprime.features.qe import QE_FEATURE_SET_VERSION
from tmtprime.features.repair import REPAIR_FEATURE_SET_VERSION, REPAIR_NAMES
from tmtprime.recommend import persist
from tmtprime.recommend.svm import TMTprimeRecommender
from tmtprime.store import Store
from tmtprime.workflows.project_data import uses_qe

DEFAULT_MODEL_FILE = "tmtprime-default-en-es.skops"
"""The shipped model (trained on the shared ``update`` dev data) in ``models/``."""
SHIPPED_MODEL_NAME = "shipped-default"


@dataclass
class ChosenModel:
    """A model ready to use; ``unsaved`` when it is not in the project yet (the use case stores it with its results)."""

    name: str
    model: TMTprimeRecommender
    card: dict[str, Any]
    unsaved: bool = False

    def save(self, store: Store) -> None:
        if self.unsaved:
            store.models.save(self.name, persist.dumps(self.model), self.card, replace=True)
            self.unsaved = False


def shipped_model() -> tuple[TMTprimeRecommender, dict[str, Any]]:
    """The default model shipped in ``models/`` (for projects without their own references)."""
    from tmtprime.paths import models_dir

    return persist.load_file(models_dir() / DEFAULT_MODEL_FILE)


def model_from_file(path: str | Path) -> ChosenModel:
    """A model file (``.skops`` with its card, as ``tmtprime train -o`` writes), named after the file."""
    model, card = persist.load_file(path)
    _check_features(Path(path).stem, card, file=True)
    return ChosenModel(Path(path).stem, model, card, unsaved=True)


def model_for(store: Store, name: str | None) -> ChosenModel:
    """The named model, else the project's newest, else the shipped default (copied into the project).

    A model only reads features of the set it was trained on. After an upgrade
    that changed the feature set, the project's copy of the shipped default is
    replaced by the new one, and a model trained on the project is refused with
    what to do, before any features are computed for it.
    """
    if name is not None or store.models.list():
        record = store.models.get(name)
        card = dict(record.card)
        if card.get("features", {}).get("version") == FEATURE_SET_VERSION and _qe_current(card) and _repair_current(card):
            return ChosenModel(record.name, persist.loads(record.blob), card)
        if record.name != SHIPPED_MODEL_NAME:
            _check_features(record.name, card, file=False)
    model, card = shipped_model()
    return ChosenModel(SHIPPED_MODEL_NAME, model, card, unsaved=True)


def _qe_current(card: dict[str, Any]) -> bool:
    """A model without QE columns, or one whose QE columns are defined as this version computes them."""
    return not uses_qe(card) or card["features"].get("qe_version") == QE_FEATURE_SET_VERSION


def _repair_current(card: dict[str, Any]) -> bool:
    """A model without the repair columns, or one whose repair columns are defined as this version computes them."""
    used = card.get("features", {}).get("used") or card.get("features", {}).get("names") or ()
    return not set(used) & set(REPAIR_NAMES) or card["features"].get("repair_version") == REPAIR_FEATURE_SET_VERSION


def _check_features(name: str, card: dict[str, Any], *, file: bool) -> None:
    version = card.get("features", {}).get("version")
    what = "train a new one (tmtprime train -o FILE)" if file else "train it again on the project (tmtprime train), which replaces it as the newest model"
    if version == FEATURE_SET_VERSION and not _qe_current(card):
        raise ModelError(
            f"model {name!r} was trained on QE feature set {card['features'].get('qe_version')}, this version of "
            f"TMTprime computes QE feature set {QE_FEATURE_SET_VERSION}: {what}"
        )
    if version == FEATURE_SET_VERSION and not _repair_current(card):
        raise ModelError(
            f"model {name!r} was trained on repair feature set {card['features'].get('repair_version')}, this version "
            f"of TMTprime computes repair feature set {REPAIR_FEATURE_SET_VERSION}: {what}"
        )
    if version != FEATURE_SET_VERSION:
        raise ModelError(
            f"model {name!r} was trained on feature set {version}, this version of TMTprime computes "
            f"feature set {FEATURE_SET_VERSION}: {what}"
        )
