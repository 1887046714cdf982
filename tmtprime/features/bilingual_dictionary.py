"""Lexical adequacy from the bilingual dictionary of an installed rule-based MT pair.

A translation that leaves out or mistranslates content words needs more
post-editing. Apertium's pair data hold, besides the transfer rules, a tagger
and a bilingual dictionary: run up to its lexical transfer, the source becomes
lexical units with every dictionary translation of each lemma, and the
translation, analysed by the reverse pair's Spanish (target) analyser, becomes
lemmas. Unlike the pseudo-reference (:mod:`~tmtprime.features.pseudo_reference`),
this does not ask whether Apertium chose the same words, only whether the
dictionary's translations of the source's content words occur in the translation.
The data are read at run time from the installed Debian packages (GPL data;
nothing of them is shipped). Columns ``qe_dictionary_*``:

* ``src_covered``: share of the source's content words (nouns, verbs, adjectives,
  adverbs, proper nouns) one of whose dictionary translations is among the
  translation's lemmas or words;
* ``tgt_covered``: share of the translation's content lemmas that translate some
  source word;
* ``src_translations``: mean number of dictionary translations per source content word;
* ``src_unknown`` / ``tgt_unknown``: share of words each side's analyser does not know.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from tmtprime.errors import ExternalToolError
from tmtprime.mt.apertium import run_tool

DICTIONARY_NAMES = ("src_covered", "tgt_covered", "src_translations", "src_unknown", "tgt_unknown")
_CONTENT = frozenset({"n", "np", "vblex", "vbmod", "adj", "adv"})
_UNIT = re.compile(r"\^(.*?)\$")
_TAG = re.compile(r"<([^>]+)>")
_LINE_BREAK = "[\n]"
"""How ``apertium-destxt`` carries a line break through the pipeline: one input line per part."""


@dataclass(frozen=True)
class _Analyser:
    """The files of one direction of a pair: morphological analyser, tagger model, bilingual dictionary."""

    automorf: str
    prob: str
    autobil: str

    @classmethod
    def from_mode(cls, mode_file: Path) -> _Analyser | None:
        text = mode_file.read_text(encoding="utf-8")
        morf = re.search(r"lt-proc\s+'([^']+automorf\.bin)'", text)
        prob = re.search(r"apertium-tagger\s+-g\s+\S*\s*'([^']+\.prob)'", text)
        bil = re.search(r"lt-proc\s+-b\s+'([^']+autobil\.bin)'", text)
        if not (morf and prob and bil):
            return None
        return cls(morf.group(1), prob.group(1), bil.group(1))


def _run(steps: Sequence[Sequence[str]], text: str, timeout: float = 900.0) -> str:
    for command in steps:
        text = run_tool(command, text, timeout, f"{command[0]} (dictionary features)")
    return text


def _lemma(form: str) -> str:
    return form.split("<", 1)[0].lstrip("@*").replace("#", " ").replace("+", " ").strip().lower()


class ApertiumDictionary:
    """The forward pair's analyser and bilingual dictionary, the reverse pair's analyser of the target language."""

    def __init__(self, forward: _Analyser, reverse: _Analyser, name: str) -> None:
        self.forward, self.reverse, self.name = forward, reverse, name

    def describe(self) -> str:
        return f"apertium-dictionary {self.name} v1"

    def _units(self, texts: Sequence[str], analyser: _Analyser, bilingual: bool) -> list[list[str]]:
        steps = [["apertium-destxt"], ["lt-proc", analyser.automorf], ["apertium-tagger", "-g", analyser.prob],
                 ["apertium-pretransfer"]]
        if bilingual:
            steps.append(["lt-proc", "-b", analyser.autobil])
        lines = [" ".join(t.split()) for t in texts]
        filled = [line for line in lines if line]  # blank lines would merge into one line break
        parts = _run(steps, "\n".join(filled) + "\n").split(_LINE_BREAK) if filled else []
        if len(parts) < len(filled):
            raise ExternalToolError(f"Apertium's analyser returned {len(parts)} lines for {len(filled)}: cannot align them")
        units = iter(parts)
        return [_UNIT.findall(next(units)) if line else [] for line in lines]

    def transform(self, sources: Sequence[str], targets: Sequence[str]) -> np.ndarray:
        """One row of :data:`DICTIONARY_NAMES` per (source, translation) pair."""
        out = np.zeros((len(sources), len(DICTIONARY_NAMES)))
        if not sources:
            return out
        src_units = self._units(sources, self.forward, bilingual=True)
        tgt_units = self._units(targets, self.reverse, bilingual=False)
        for i, (su, tu, target) in enumerate(zip(src_units, tgt_units, targets)):
            src = [(u.split("/")[0], u.split("/")[1:]) for u in su]
            tgt = [u.split("/")[0] for u in tu]
            content = [(_lemma(a), {_lemma(t) for t in ts}) for a, ts in src if not a.startswith("*") and _tag(a) in _CONTENT]
            tgt_content = [_lemma(a) for a in tgt if not a.startswith("*") and _tag(a) in _CONTENT]
            present = {_lemma(a) for a in tgt} | {w.lower() for w in re.findall(r"\w+", target)}
            translations = set().union(*(ts for _, ts in content)) if content else set()
            out[i] = (
                sum(1 for _, ts in content if ts & present) / max(len(content), 1),
                sum(1 for lemma in tgt_content if lemma in translations) / max(len(tgt_content), 1),
                sum(len(ts) for _, ts in content) / max(len(content), 1),
                sum(1 for a, _ in src if a.startswith("*")) / max(len(src), 1),
                sum(1 for a in tgt if a.startswith("*")) / max(len(tgt), 1),
            )
        return out


def _tag(unit: str) -> str:
    tags = _TAG.findall(unit)
    return tags[0] if tags else ""


def _modes_dir() -> Path | None:
    apertium = shutil.which("apertium")
    if apertium is None or shutil.which("lt-proc") is None or shutil.which("apertium-tagger") is None:
        return None
    modes = Path(apertium).resolve().parent.parent / "share" / "apertium" / "modes"
    return modes if modes.is_dir() else None


@lru_cache(maxsize=4)
def installed_dictionary(forward_mode: str, reverse_mode: str) -> ApertiumDictionary | None:
    """The dictionary of an installed pair (``eng-spa``, read with ``spa-eng``), or None where either
    direction is missing or its mode is not a plain analyser → tagger → dictionary pipeline."""
    modes = _modes_dir()
    if modes is None:
        return None
    files = [modes / f"{m}.mode" for m in (forward_mode, reverse_mode)]
    if not all(f.is_file() for f in files):
        return None
    forward, reverse = (_Analyser.from_mode(f) for f in files)
    if forward is None or reverse is None:
        return None
    return ApertiumDictionary(forward, reverse, forward_mode)


def pair_dictionary(source_lang: str, target_lang: str) -> ApertiumDictionary | None:
    """The dictionary of the direct Apertium pair of two languages, read with the direct reverse pair
    (the engines of the pseudo-reference and the round trip); None where either is not installed."""
    from tmtprime.features.pseudo_reference import installed_pseudo_engine

    forward, back = installed_pseudo_engine(source_lang, target_lang), installed_pseudo_engine(target_lang, source_lang)
    if forward is None or back is None or len(forward.chain) != 1 or len(back.chain) != 1:
        return None
    return installed_dictionary(forward.chain[0].name, back.chain[0].name)
