"""Task parameter sets, default modules and the reproducibility configuration.

Every value here was read off the Meteor 1.5 jar's own header (``Task:``,
``Modules:``, ``Weights:``, ``Parameters:``) for each language and task; the
jar's table is irregular and we keep its irregularities, because a score is
only comparable to the jar's if the parameters are:

* English has its own set for every task (Meteor 1.3 paper, Table 7, plus
  ``li`` and ``util``); ``util`` does *not* switch on character mode although
  the jar's usage text says so.
* French, German, Spanish and Czech have a tuned ``rank`` set; ``li`` and
  ``tune`` are the language-independent sets; ``adq``, ``hter`` and ``util``
  silently give all-zero parameters and weights (every score is 0.0).
* Russian: ``rank`` *is* the language-independent set.
* Danish ... Turkish and Arabic: the default task is ``li``; an explicit
  ``-t rank`` (and ``adq``, ``hter``, ``util``) gives all zeros.
* ``other``: every task gives the language-independent set with one module.

Module weights are positional: ``-m "stem exact"`` gives stem the first task
weight. Modules beyond the task's weight list get 0.0.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tmtprime.errors import UsageError
from tmtprime.meteor.languages import language_name

MODULES: tuple[str, ...] = ("exact", "stem", "synonym", "paraphrase")
MODULE_ABBREVIATIONS = {"exact": "ex", "stem": "st", "synonym": "sy", "paraphrase": "pa"}

TASK_NAMES: dict[str, str] = {
    "rank": "Ranking",
    "adq": "Adequacy",
    "hter": "HTER",
    "li": "Language-Independent",
    "tune": "Tune",
    "util": "Translator-Utility",
}
"""Task codes (``-t``) and the name the jar prints on its ``Task:`` line."""

Params = tuple[float, float, float, float]
"""(alpha, beta, gamma, delta)."""

_LI: Params = (0.75, 1.4, 0.7, 0.5)
_TUNE: Params = (0.5, 1.0, 0.5, 0.5)
_ZERO: Params = (0.0, 0.0, 0.0, 0.0)

# language name -> (default modules, default task, {task: (params, weights)}); missing task -> zeros
_EN = ("exact", "stem", "synonym", "paraphrase")
_TABLE: dict[str, tuple[tuple[str, ...], str, dict[str, tuple[Params, tuple[float, ...]]]]] = {
    "english": (_EN, "rank", {
        "rank": ((0.85, 0.2, 0.6, 0.75), (1.0, 0.6, 0.8, 0.6)),
        "adq": ((0.75, 1.4, 0.45, 0.7), (1.0, 1.0, 0.6, 0.8)),
        "hter": ((0.4, 1.5, 0.35, 0.55), (1.0, 0.2, 0.6, 0.8)),
        "li": (_LI, (1.0, 0.5, 0.5, 0.5)),
        "tune": (_TUNE, (1.0, 0.5, 0.5, 0.5)),
        "util": ((0.65, 0.1, 0.55, 0.65), (1.0, 0.0, 0.0, 0.8)),
    }),
    "french": (("exact", "stem", "paraphrase"), "rank", {
        "rank": ((0.9, 1.4, 0.6, 0.65), (1.0, 0.2, 0.4)),
        "li": (_LI, (1.0, 0.5, 0.5)),
        "tune": (_TUNE, (1.0, 0.5, 0.5)),
    }),
    "german": (("exact", "stem", "paraphrase"), "rank", {
        "rank": ((0.95, 1.0, 0.55, 0.55), (1.0, 0.8, 0.2)),
        "li": (_LI, (1.0, 0.5, 0.5)),
        "tune": (_TUNE, (1.0, 0.5, 0.5)),
    }),
    "spanish": (("exact", "stem", "paraphrase"), "rank", {
        "rank": ((0.65, 1.3, 0.5, 0.8), (1.0, 0.8, 0.6)),
        "li": (_LI, (1.0, 0.5, 0.5)),
        "tune": (_TUNE, (1.0, 0.5, 0.5)),
    }),
    "czech": (("exact", "paraphrase"), "rank", {
        "rank": ((0.95, 0.2, 0.6, 0.8), (1.0, 0.4)),
        "li": (_LI, (1.0, 0.5)),
        "tune": (_TUNE, (1.0, 0.5)),
    }),
    "russian": (("exact", "stem", "paraphrase"), "rank", {
        "rank": (_LI, (1.0, 0.5, 0.5)),
        "li": (_LI, (1.0, 0.5, 0.5)),
        "tune": (_TUNE, (1.0, 0.5, 0.5)),
    }),
}  # fmt: skip
_STEM_ONLY = {"li": (_LI, (1.0, 0.5)), "tune": (_TUNE, (1.0, 0.5))}
for _name in ("danish", "finnish", "hungarian", "italian", "dutch", "norwegian", "portuguese", "romanian",
              "swedish", "turkish", "arabic-buckwalter-reduced"):  # fmt: skip
    _TABLE[_name] = (("exact", "stem"), "li", _STEM_ONLY)
_OTHER_TASKS = {task: (_LI, (1.0,)) for task in TASK_NAMES}
_TABLE["other"] = (("exact",), "li", _OTHER_TASKS)

SHORT_CODES: dict[str, str] = {
    "english": "en", "czech": "cz", "german": "de", "spanish": "es", "french": "fr", "danish": "da",
    "finnish": "fi", "hungarian": "hu", "italian": "it", "dutch": "nl", "norwegian": "no",
    "portuguese": "pt", "romanian": "ro", "russian": "ru", "swedish": "se", "turkish": "tr",
    "arabic-buckwalter-reduced": "ar-bw-red", "other": "other",
}  # fmt: skip
"""The short code the jar writes into its Eval ID."""


@dataclass(frozen=True)
class MeteorConfig:
    """Everything that decides a Meteor score, as the jar resolves it from its options."""

    language: str
    """Canonical language name (``english``)."""
    task: str
    """Task code (``rank``) or ``custom`` when modules, parameters or weights were given."""
    modules: tuple[str, ...]
    weights: tuple[float, ...]
    alpha: float
    beta: float
    gamma: float
    delta: float

    @property
    def params(self) -> Params:
        return (self.alpha, self.beta, self.gamma, self.delta)

    @property
    def task_name(self) -> str:
        """What the jar prints on its ``Task:`` line."""
        return TASK_NAMES.get(self.task, "Custom")

    @property
    def language_display(self) -> str:
        """What the jar prints on its ``Language:`` line (``English``, ``Arabic-buckwalter-reduced``)."""
        return self.language[:1].upper() + self.language[1:]

    @property
    def short_code(self) -> str:
        return SHORT_CODES[self.language]


def resolve_config(
    lang: str = "en",
    task: str | None = None,
    modules: Sequence[str] | None = None,
    params: Sequence[float] | None = None,
    weights: Sequence[float] | None = None,
) -> MeteorConfig:
    """Resolve language, task and overrides into the configuration the jar would use.

    Raises :class:`UsageError` for an unknown language, task or module, or for
    parameter/weight lists of the wrong length (the jar crashes on those).
    """
    name = language_name(lang)
    default_modules, default_task_code, table = _TABLE[name]
    task_code = default_task_code if task is None else task.lower()
    if task_code not in TASK_NAMES:
        raise UsageError(f"Unknown task ({task})")
    task_params, task_weights = table.get(task_code, (_ZERO, (0.0,) * len(default_modules)))
    custom = modules is not None or params is not None or weights is not None
    if modules is None:
        chosen = default_modules
    else:
        chosen = tuple(m.lower() for m in modules)
        for m in chosen:
            if m not in MODULES:
                raise UsageError(f"Unknown module ({m})")
        if not chosen:
            raise UsageError("no modules given (-m needs at least one of: exact stem synonym paraphrase)")
    if params is not None:
        if len(params) != 4:
            raise UsageError(f"-p needs 4 numbers (alpha beta gamma delta), got {len(params)}")
        task_params = (float(params[0]), float(params[1]), float(params[2]), float(params[3]))
    base_weights = tuple(float(w) for w in weights) if weights is not None else task_weights
    if modules is None and weights is not None and len(base_weights) != len(chosen):
        raise UsageError(f"-w needs one weight per module ({len(chosen)}: {' '.join(chosen)}), got {len(base_weights)}")
    effective = tuple(base_weights[i] if i < len(base_weights) else 0.0 for i in range(len(chosen)))
    return MeteorConfig(
        language=name,
        task="custom" if custom else task_code,
        modules=chosen,
        weights=effective,
        alpha=task_params[0],
        beta=task_params[1],
        gamma=task_params[2],
        delta=task_params[3],
    )
