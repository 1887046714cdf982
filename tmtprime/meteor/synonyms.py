"""English synonyms (WordNet 3.0) exactly as the Meteor 1.5 synonym matcher sees them.

The data is the jar's ``synonym/english.synsets`` (word -> WordNet synset
offsets, 147,306 words) and ``english.exceptions`` (irregular forms, e.g.
``went`` -> ``go``), compiled by :mod:`tmtprime.meteor.build_resources` into
``resources/meteor/synonym/english-synonyms.npz`` (loads in a few ms).

How the jar decides that two tokens are synonyms, established by running its
``Matcher`` on ~100,000 word pairs chosen to separate the hypotheses (every
rule below was needed to reproduce all of them, and nothing more was):

* ``synsets(w)`` = the synsets listed for ``w`` itself **plus** those of *one*
  morphological base form of ``w``;
* the base form comes from the exception list if ``w`` is listed there (all
  bases listed for it; ``retailer`` is listed as its own base, so no rule is
  tried for it); otherwise the **first** detachment rule, in WordNet's order
  (noun rules, verb rules, adjective rules), whose result is a word of the
  dictionary: ``s>`` ``ses>s`` ``xes>x`` ``zes>z`` ``ches>ch`` ``shes>sh``
  ``men>man`` ``ies>y`` | ``s>`` ``ies>y`` ``es>e`` ``es>`` ``ed>e`` ``ed>``
  ``ing>e`` ``ing>`` | ``er>`` ``est>`` ``er>e`` ``est>e``. The ``s>`` rule is
  never applied to a word ending in ``ss`` or of at most two characters
  (``5s`` is not ``5``). So ``mater`` -> ``mat`` (not ``mate``), ``griming``
  -> ``grime`` (not ``grim``), ``talker`` -> ``talk``, ``grower`` -> ``grow``;
* two tokens are synonyms iff they are **different strings** and their synset
  sets intersect (``car``/``car`` is never a synonym match, even with
  ``-m synonym`` alone);
* lookups are case-sensitive (``Dog``/``hound`` do not match; with ``-norm``
  or ``-lower`` tokens are lower-case anyway);
* synset ids are bare offsets without part of speech, so a noun and a verb
  synset with the same offset count as the same synset (we keep the jar's
  numbers, which is why the data comes from the jar and not from the Debian
  WordNet files, whose offsets differ for ~20,000 words);
* ``english.relations`` (hypernyms/hyponyms) is **not** used: ``dog``/``canine``
  do not match, and no related-but-not-synonymous pair matched.
"""

from __future__ import annotations

from bisect import bisect_left
from functools import lru_cache
from pathlib import Path
from typing import BinaryIO

import numpy as np

from tmtprime.errors import ResourceError

# (suffix, replacement) in the order the jar tries them; see the module docstring.
DETACHMENT_RULES: tuple[tuple[str, str], ...] = (
    ("s", ""), ("ses", "s"), ("xes", "x"), ("zes", "z"), ("ches", "ch"), ("shes", "sh"), ("men", "man"),
    ("ies", "y"),
    ("s", ""), ("ies", "y"), ("es", "e"), ("es", ""), ("ed", "e"), ("ed", ""), ("ing", "e"), ("ing", ""),
    ("er", ""), ("est", ""), ("er", "e"), ("est", "e"),
)  # fmt: skip


class SynonymDictionary:
    """Word -> WordNet synset ids, with the jar's morphology. Immutable; lookups are cached."""

    def __init__(
        self, words: list[str], offsets: np.ndarray, ids: np.ndarray, exceptions: dict[str, tuple[str, ...]]
    ) -> None:
        self._words = words  # sorted: looked up by bisection, a dict would cost 0.1 s to build
        self._offsets = offsets
        self._ids = ids
        self._exceptions = exceptions
        self.synsets = lru_cache(maxsize=1 << 16)(self._synsets)  # type: ignore[method-assign]

    @classmethod
    def load(cls, path: str | Path | BinaryIO) -> SynonymDictionary:
        """Open a compiled ``english-synonyms.npz``; :class:`ResourceError` if missing or unreadable."""
        try:
            with np.load(path, allow_pickle=False) as data:
                words = data["words"].tobytes().decode("utf-8").split("\n")
                offsets = data["offsets"]
                ids = data["synsets"]
                exc_text = data["exceptions"].tobytes().decode("utf-8")
        except (OSError, KeyError, ValueError, UnicodeDecodeError) as error:
            raise ResourceError(f"Synonym dictionary could not be loaded: {path} ({error})") from None
        if len(offsets) != len(words) + 1:
            raise ResourceError(f"Synonym dictionary could not be loaded: {path} (inconsistent arrays)")
        exceptions = {}
        for line in exc_text.split("\n"):
            if line:
                form, _, bases = line.partition("\t")
                exceptions[form] = tuple(bases.split(" "))
        return cls(words, offsets, ids, exceptions)

    @classmethod
    def from_directory(cls, directory: str | Path) -> SynonymDictionary:
        """Read the jar's text format (``english.synsets`` + ``english.exceptions``), as for ``-d DIR``."""
        import io

        from tmtprime.meteor.build_resources import compile_synonyms

        folder = Path(directory)
        try:
            synsets = (folder / "english.synsets").read_text(encoding="utf-8")
            exceptions = (folder / "english.exceptions").read_text(encoding="utf-8")
            arrays = compile_synonyms(synsets, exceptions)
        except (OSError, UnicodeDecodeError, ValueError, ResourceError) as error:
            raise ResourceError(f"Synonym dictionary could not be loaded: {folder} ({error})") from None
        buffer = io.BytesIO()
        np.savez(buffer, **arrays)
        buffer.seek(0)
        return cls.load(buffer)

    def _find(self, word: str) -> int:
        i = bisect_left(self._words, word)
        return i if i < len(self._words) and self._words[i] == word else -1

    def __contains__(self, word: str) -> bool:
        return self._find(word) >= 0

    def __len__(self) -> int:
        return len(self._words)

    def own_synsets(self, word: str) -> frozenset[int]:
        """Synsets listed for ``word`` itself (no morphology)."""
        i = self._find(word)
        if i < 0:
            return frozenset()
        return frozenset(self._ids[self._offsets[i] : self._offsets[i + 1]].tolist())

    def base_forms(self, word: str) -> tuple[str, ...]:
        """The morphological base form(s) the jar adds for ``word`` (exceptions, else the first rule that hits)."""
        listed = self._exceptions.get(word)
        if listed is not None:
            return listed
        for suffix, replacement in DETACHMENT_RULES:
            if len(word) > len(suffix) and word.endswith(suffix):
                if suffix == "s" and (len(word) <= 2 or word.endswith("ss")):
                    continue
                base = word[: len(word) - len(suffix)] + replacement
                if base in self:
                    return (base,)
        return ()

    def _synsets(self, word: str) -> frozenset[int]:
        """Synset ids of ``word`` and of its base form(s); two tokens are synonyms iff these intersect."""
        result = self.own_synsets(word)
        for base in self.base_forms(word):
            result |= self.own_synsets(base)
        return result

    def are_synonyms(self, a: str, b: str) -> bool:
        """The jar's synonym test: different strings whose synsets intersect."""
        return a != b and not self.synsets(a).isdisjoint(self.synsets(b))
