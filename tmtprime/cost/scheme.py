"""Cost schemes: what a job's words cost, by TM fuzzy band, MT quality band and system.

A scheme is a TOML (or JSON) file a project manager edits, or a named copy
stored in the project (``store.cost_schemes``). It holds a currency, the full
rate per word (optionally per language pair), the payable share (percent of
the full rate) of each TM fuzzy band, of context matches, repetitions and new
words, the payable share of each MT quality band (an MT output's "equivalent
match" is 100 - TER), a base cost per system (per word or per character of
the source), the words a translator post-edits per day, and the classic
pre-translation rule (TM match from ``rule_threshold`` % fuzzy, else MT).

The quality bands price post-editing effort whoever made the candidate: an
MT output's expected and actual price, and a TM match's expected and actual
price, all come from them; the TM fuzzy bands give the CAT-convention price
of TM matches that clients know. Validation rejects unknown keys, negative
rates and bands that overlap or leave gaps, in one line naming the file and
the key.
"""

from __future__ import annotations

import json
import math
import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from tmtprime.errors import InputError

if TYPE_CHECKING:
    from tmtprime.store.project import Store

PRESET_DIR = ("cost",)
_KEY_PARTS = re.compile(
    r"^(?:(?P<kind>tm|mt)\.bands\[(?P<index>\d+)\](?:\.(?P<bfield>\w+))?|systems\.(?P<system>[^.]+)(?:\.(?P<sfield>\w+))?)$"
)
"""A key of a band (``mt.bands[2].payable``) or of a system's entry (``systems.deepl.base``)."""
CONTEXT_SCORE = 101.0
"""Fuzzy score of a context (101 %) match."""


class SchemeError(InputError):
    """A cost scheme is not valid: the message names the file and the key.

    The fields say where, so an editor marks the cell without reading the
    message: ``key`` the dotted key (``mt.bands[2].payable``), ``band`` the
    band as (``tm``/``mt``, its index in the file's list), ``field`` the
    band's or system's entry (``min``, ``max``, ``payable``, ``name``,
    ``base``, ``per``), ``system`` the system's name; ``reason`` what is wrong.
    """

    def __init__(
        self, message: str, *, key: str | None = None, band: tuple[str, int] | None = None,
        field: str | None = None, system: str | None = None, file: str | Path | None = None,
    ) -> None:  # fmt: skip
        self.key, self.band, self.field, self.system = key, band, field, system
        super().__init__(message, file=file, location=None if key is None else f"key {key!r}")


@dataclass(frozen=True)
class Band:
    """A range of match scores ``low``..``high`` (whole percent, inclusive) and its payable share."""

    low: int
    high: int
    payable: float
    name: str = ""

    @property
    def label(self) -> str:
        return self.name or (f"{self.low}" if self.low == self.high else f"{self.low}-{self.high}")

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"min": self.low, "max": self.high, "payable": self.payable}
        if self.name:
            out["name"] = self.name
        return out


@dataclass(frozen=True)
class SystemCost:
    """A system's own charge: ``base`` per source word or per source character (TM: 0)."""

    base: float = 0.0
    per: str = "word"

    def to_dict(self) -> dict[str, Any]:
        return {"base": self.base, "per": self.per}


@dataclass(frozen=True)
class CostScheme:
    """A validated cost scheme; build it with :meth:`from_dict` or :func:`load_scheme`."""

    name: str
    currency: str
    word_rate: float
    tm_bands: tuple[Band, ...]
    mt_bands: tuple[Band, ...]
    context: float = 0.0
    repetitions: float = 30.0
    new: float = 100.0
    mt_pricing: str = "bands"
    mt_flat: float = 100.0
    words_per_day: float = 2500.0
    hourly_rate: float | None = None
    """Post-editor's rate per hour: with post-editing times, the actual cost from time (``PlanCost.actual_time_cost``)."""
    rule_threshold: float = 75.0
    rule_mt: str | None = None
    word_rate_by_pair: Mapping[str, float] = field(default_factory=dict)
    systems: Mapping[str, SystemCost] = field(default_factory=dict)
    source: str = ""
    """Where the scheme came from (a file, a preset, a stored name); used in messages and reports."""

    # -- reading -------------------------------------------------------------

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, source: str = "") -> CostScheme:
        """Validate ``data`` (the file's structure); a :class:`SchemeError` naming ``source`` and the key."""
        return _Parser(source).scheme(data)

    def to_dict(self) -> dict[str, Any]:
        """The file structure (round-trips through :meth:`from_dict`)."""
        out: dict[str, Any] = {
            "name": self.name,
            "currency": self.currency,
            "word_rate": self.word_rate,
            "words_per_day": self.words_per_day,
            "rule_threshold": self.rule_threshold,
            "tm": {
                "context": self.context,
                "repetitions": self.repetitions,
                "new": self.new,
                "bands": [b.to_dict() for b in self.tm_bands],
            },
            "mt": {"pricing": self.mt_pricing, "flat": self.mt_flat, "bands": [b.to_dict() for b in self.mt_bands]},
        }
        if self.rule_mt:
            out["rule_mt"] = self.rule_mt
        if self.hourly_rate is not None:
            out["hourly_rate"] = self.hourly_rate
        if self.word_rate_by_pair:
            out["word_rate_by_pair"] = dict(self.word_rate_by_pair)
        if self.systems:
            out["systems"] = {k: v.to_dict() for k, v in self.systems.items()}
        return out

    # -- pricing -------------------------------------------------------------

    def rate_for(self, source_lang: str, target_lang: str) -> float:
        """Full rate per word for a language pair (``en-es``; the scheme's default otherwise)."""
        key = self.rate_pair(source_lang, target_lang)
        return self.word_rate if key is None else float(self.word_rate_by_pair[key])

    def rate_pair(self, source_lang: str, target_lang: str) -> str | None:
        """The ``word_rate_by_pair`` key that prices this language pair, or None (the full rate applies)."""
        for key in (f"{source_lang}-{target_lang}", f"{source_lang.split('-')[0]}-{target_lang.split('-')[0]}"):
            if key in self.word_rate_by_pair:
                return key
        return None

    def system_cost(self, system: str, kind: str) -> SystemCost:
        """The base cost of ``system``: its own entry, else ``default`` for MT; a TM is free unless named."""
        if system in self.systems:
            return self.systems[system]
        if kind == "mt" and "default" in self.systems:
            return self.systems["default"]
        return SystemCost()

    def quality_payable(self) -> np.ndarray:
        """Payable % of each whole equivalent match 0..100 under the quality (MT) bands."""
        table = np.empty(101)
        for band in self.mt_bands:
            table[band.low : band.high + 1] = band.payable
        return table

    def quality_band_index(self, match: np.ndarray) -> np.ndarray:
        """Index into :attr:`mt_bands` of each equivalent match (0-100, floored)."""
        lookup = np.empty(101, dtype=np.int64)
        for i, band in enumerate(self.mt_bands):
            lookup[band.low : band.high + 1] = i
        return lookup[whole_match(match)]

    def tm_band(self, fuzzy: float | None, match_type: str | None = None) -> tuple[str, float]:
        """CAT-convention band label and payable % of a TM match with this fuzzy score."""
        if match_type == "context" or (fuzzy is not None and fuzzy >= CONTEXT_SCORE):
            return "context", self.context
        if fuzzy is not None:
            score = int(math.floor(min(fuzzy, 100.0)))
            for band in self.tm_bands:
                if band.low <= score <= band.high:
                    return band.label, band.payable
        return "new", self.new


def whole_match(match: np.ndarray | float) -> np.ndarray:
    """Equivalent match scores floored to whole percent in 0..100 (as CAT analyses round them)."""
    return np.clip(np.floor(np.nan_to_num(np.asarray(match, dtype=np.float64), nan=0.0)), 0, 100).astype(np.int64)


class _Parser:
    """Validation of one scheme's structure; every error names the source and the key."""

    TOP = {"name", "currency", "word_rate", "word_rate_by_pair", "words_per_day", "hourly_rate", "rule_threshold", "rule_mt", "tm",
           "mt", "systems"}
    TM = {"context", "repetitions", "new", "bands"}
    MT = {"pricing", "flat", "bands"}
    BAND = {"min", "max", "payable", "name"}
    SYSTEM = {"base", "per"}

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, key: str, what: str, band: tuple[str, int] | None = None) -> SchemeError:
        found = _KEY_PARTS.match(key)
        field = system = None
        if found and found.group("kind"):
            band = band or (found.group("kind"), int(found.group("index")))
            field = found.group("bfield")
        elif found and found.group("system"):
            system, field = found.group("system"), found.group("sfield")
        return SchemeError(
            f"{what}; fix the scheme", key=key, band=band, field=field, system=system, file=self.source or None
        )

    def table(self, value: Any, key: str, allowed: set[str]) -> Mapping[str, Any]:
        if not isinstance(value, Mapping):
            raise self.fail(key, f"expected a table, got {type(value).__name__}")
        unknown = sorted(set(value) - allowed)
        if unknown:
            where = f"{key}.{unknown[0]}" if key else unknown[0]
            raise self.fail(where, f"unknown key (known here: {', '.join(sorted(allowed))})")
        return value

    def number(self, value: Any, key: str, *, percent: bool = False, positive: bool = False) -> float:
        if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
            raise self.fail(key, f"expected a number, got {value!r}")
        if value < 0 or (positive and value == 0):
            raise self.fail(key, f"must be {'positive' if positive else 'zero or more'}, got {value}")
        if percent and value > 1000:
            raise self.fail(key, f"a payable share is a percent of the full rate, got {value}")
        return float(value)

    def text(self, value: Any, key: str) -> str:
        if not isinstance(value, str) or not value.strip():
            raise self.fail(key, f"expected a non-empty text, got {value!r}")
        return value.strip()

    def bands(self, value: Any, key: str, *, cover_all: bool) -> tuple[Band, ...]:
        if not isinstance(value, Sequence) or isinstance(value, str) or not value:
            raise self.fail(key, "expected a non-empty list of bands ({min = .., max = .., payable = ..})")
        bands = []
        for i, item in enumerate(value):
            where = f"{key}[{i}]"
            item = self.table(item, where, self.BAND)
            for k in ("min", "max", "payable"):
                if k not in item:
                    raise self.fail(where, f"a band needs min, max and payable; {k} is missing")
            low, high = self.number(item["min"], f"{where}.min"), self.number(item["max"], f"{where}.max")
            if low != int(low) or high != int(high) or not low <= high <= 100:
                raise self.fail(where, f"min and max are whole percents with min <= max <= 100, got {item['min']}..{item['max']}")
            name = self.text(item["name"], f"{where}.name") if "name" in item else ""
            bands.append(Band(int(low), int(high), self.number(item["payable"], f"{where}.payable", percent=True), name))
        kind = key.split(".")[0]
        order = sorted(range(len(bands)), key=lambda i: bands[i].low)
        for i, j in zip(order, order[1:]):
            a, b = bands[i], bands[j]
            if b.low <= a.high:
                raise self.fail(key, f"bands {a.label} and {b.label} overlap", (kind, j))
            if b.low > a.high + 1:
                raise self.fail(key, f"gap between bands {a.label} and {b.label} (scores {a.high + 1}-{b.low - 1} have no band)", (kind, j))
        if bands[order[-1]].high != 100:
            raise self.fail(key, f"the highest band must end at 100, not {bands[order[-1]].high}", (kind, order[-1]))
        if cover_all and bands[order[0]].low != 0:
            raise self.fail(key, f"quality bands must start at 0 (scores 0-{bands[order[0]].low - 1} have no band)", (kind, order[0]))
        return tuple(sorted(bands, key=lambda b: -b.low))

    def scheme(self, data: Mapping[str, Any]) -> CostScheme:
        data = self.table(data, "", self.TOP)
        for k in ("currency", "word_rate", "tm", "mt"):
            if k not in data:
                raise self.fail(k, "missing")
        tm = self.table(data["tm"], "tm", self.TM)
        mt = self.table(data["mt"], "mt", self.MT)
        if "bands" not in tm:
            raise self.fail("tm.bands", "missing")
        pricing = mt.get("pricing", "bands")
        if pricing not in ("bands", "flat"):
            raise self.fail("mt.pricing", f"expected 'bands' or 'flat', got {pricing!r}")
        if "bands" not in mt:
            raise self.fail("mt.bands", "missing (the quality bands also price post-editing effort with flat MT pricing)")
        if pricing == "flat" and "flat" not in mt:
            raise self.fail("mt.flat", "missing (needed with pricing = 'flat')")
        pairs = self.table(data.get("word_rate_by_pair", {}), "word_rate_by_pair", set(data.get("word_rate_by_pair", {}) or {}))
        systems = {}
        for name, entry in self.table(data.get("systems", {}), "systems", set(data.get("systems", {}) or {})).items():
            entry = self.table(entry, f"systems.{name}", self.SYSTEM)
            per = entry.get("per", "word")
            if per not in ("word", "character"):
                raise self.fail(f"systems.{name}.per", f"expected 'word' or 'character', got {per!r}")
            systems[str(name)] = SystemCost(self.number(entry.get("base", 0.0), f"systems.{name}.base"), per)
        rule_mt = data.get("rule_mt")
        return CostScheme(
            name=self.text(data.get("name", Path(self.source).stem or "scheme"), "name"),
            currency=self.text(data["currency"], "currency"),
            word_rate=self.number(data["word_rate"], "word_rate"),
            word_rate_by_pair={str(k): self.number(v, f"word_rate_by_pair.{k}") for k, v in pairs.items()},
            words_per_day=self.number(data.get("words_per_day", 2500), "words_per_day", positive=True),
            hourly_rate=None if data.get("hourly_rate") is None else self.number(data["hourly_rate"], "hourly_rate", positive=True),
            rule_threshold=self.number(data.get("rule_threshold", 75), "rule_threshold"),
            rule_mt=None if rule_mt in (None, "") else self.text(rule_mt, "rule_mt"),
            tm_bands=self.bands(tm["bands"], "tm.bands", cover_all=False),
            context=self.number(tm.get("context", 0.0), "tm.context", percent=True),
            repetitions=self.number(tm.get("repetitions", 30.0), "tm.repetitions", percent=True),
            new=self.number(tm.get("new", 100.0), "tm.new", percent=True),
            mt_pricing=pricing,
            mt_flat=self.number(mt.get("flat", 100.0), "mt.flat", percent=True),
            mt_bands=self.bands(mt["bands"], "mt.bands", cover_all=True),
            systems=systems,
            source=self.source,
        )


def preset_names() -> list[str]:
    """Names of the schemes shipped in ``resources/cost`` (``matecat``, ``memoq``)."""
    from tmtprime.paths import resources_dir

    return sorted(p.stem for p in resources_dir().joinpath(*PRESET_DIR).glob("*.toml"))


def preset_path(name: str) -> Path:
    from tmtprime.paths import resources_dir

    return resources_dir().joinpath(*PRESET_DIR, f"{name}.toml")


def read_scheme_file(path: str | Path) -> CostScheme:
    """A scheme from a ``.toml`` or ``.json`` file."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise SchemeError(f"cannot read the cost scheme ({error.strerror})", file=path) from None
    try:
        data = json.loads(text) if path.suffix.lower() == ".json" else tomllib.loads(text)
    except (ValueError, tomllib.TOMLDecodeError) as error:
        raise SchemeError(f"not valid {'JSON' if path.suffix.lower() == '.json' else 'TOML'}: {error}", file=path) from None
    return CostScheme.from_dict(data, source=str(path))


def load_scheme(spec: str | Path = "matecat", *, store: Store | None = None) -> CostScheme:
    """A scheme by preset name, file path, or (with ``store``) the name of a scheme stored in the project.

    A file path wins over a name; a stored scheme over a preset of the same name.
    """
    path = Path(spec)
    if path.suffix.lower() in (".toml", ".json") or path.is_file():
        if not path.is_file():
            raise SchemeError("cost scheme file not found", file=path)
        return read_scheme_file(path)
    name = str(spec)
    if store is not None and name in store.cost_schemes.names():
        return CostScheme.from_dict(store.cost_schemes.get(name), source=f"{store.location}: scheme {name!r}")
    if name in preset_names():
        return read_scheme_file(preset_path(name))
    stored = f", stored: {', '.join(store.cost_schemes.names()) or '(none)'}" if store is not None else ""
    raise SchemeError(
        f"no cost scheme {name!r}: give a .toml/.json file or a preset ({', '.join(preset_names())}{stored})"
    )
