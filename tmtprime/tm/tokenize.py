"""Tokenization for CAT-style fuzzy matching.

A translator's fuzzy match counts *words*, so the score is an edit distance
over tokens, not characters. What counts as one token decides the score, so
it is defined here once, precisely:

* **placeholders** — one token each, whatever their length: printf
  conversions (``%s``, ``%1$d``, ``%(name)s``, ``%%``), Qt ``%1``, brace
  fields (``{0}``, ``{name}``, ``{0,number}``, ``{{x}}``, and the inline-code
  placeholders ``{1}``, ``{/1}``, ``{2/}`` of :mod:`tmtprime.formats.inline`),
  shell/template variables (``${HOME}``, ``$(VAR)``), inline tags (``<b>``,
  ``</a>``, ``<br/>``) and character entities (``&amp;``, ``&#169;``);
* **URLs and e-mail addresses** — one word token each;
* **numbers** — one token each (``1,000.5`` is one number);
* **words** — letters/digits, keeping inner apostrophes (``don't``) and inner
  underscores (``bgp_delete``); a leading ``_`` (GTK accelerator) or ``&``
  (Qt/KDE accelerator) is punctuation;
* **punctuation** — every other non-space character; a run of the same
  character (``...``, ``--``) is one token;
* whitespace separates tokens and is never a token.

Text is NFKC-normalised first (``…`` becomes ``...``, no-break spaces become
spaces, full-width letters become ASCII) and typographic quotes become ASCII
ones, so such differences do not change the token sequence at all.

Each token has a *surface* form (as written, after that normalisation) and a
*content key*: words case-folded, every placeholder the same class symbol,
every number another class symbol, punctuation no key at all. The fuzzy score
(:mod:`tmtprime.tm.fuzzy`) is an edit distance over content keys, with a small
penalty per extra edit over surface forms.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal

TokenKind = Literal["word", "number", "placeholder", "punct"]

PLACEHOLDER_KEY = "\x00PH"
"""Content key shared by every placeholder: ``%s`` vs ``%d`` is a light difference."""
NUMBER_KEY = "\x00NUM"
"""Content key shared by every number: CAT tools treat numbers as placeables."""

_PLACEHOLDER = (
    r"%%"
    r"|%\([A-Za-z_][\w.]*\)[-+ 0#]*\d*(?:\.\d+)?[a-zA-Z]"  # %(name)s
    r"|%(?:\d+\$)?[-+0#]*(?:\d+|\*)?(?:\.(?:\d+|\*))?(?:hh|h|ll|l|L|q|j|z|t|I64|I32)?[diouxXeEfFgGaAcspnSC@]"
    r"|%\d+"  # Qt %1
    r"|\{\{[^{}\s]{1,40}\}\}"
    r"|\{/?[\w.$-]{0,40}/?(?:,[^{}]{0,40})?\}"  # {0} {name} {0,number}; TMTprime inline codes {1} {/1} {2/}
    r"|\$\{[^{}\s]{1,40}\}|\$\([^()\s]{1,40}\)"
    r"|</?[A-Za-z][\w:.-]*(?:\s+[\w:.-]+(?:\s*=\s*(?:\"[^\"]*\"|'[^']*'|[^\s>]+))?)*\s*/?>"
    r"|&(?:[A-Za-z][A-Za-z0-9]{1,10}|#\d{1,7}|#x[0-9A-Fa-f]{1,6});"
)
_URL = r"(?:https?|ftp)://[^\s<>\"']+[^\s<>\"'.,;:!?)\]]|www\.[\w-]+(?:\.[\w-]+)+(?:/[^\s<>\"']*[^\s<>\"'.,;:!?)\]])?"
_EMAIL = r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+"
_NUMBER = r"\d+(?:[.,]\d+)*(?![^\W\d_])"
_WORD = r"[^\W_](?:[\w]*[^\W_])?(?:'[^\W_](?:[\w]*[^\W_])?)*"
_PUNCT = r"(?P<pchar>[^\w\s])(?P=pchar)*|_+"

_TOKEN_RE = re.compile(
    rf"(?P<placeholder>{_PLACEHOLDER})|(?P<url>{_URL}|{_EMAIL})|(?P<number>{_NUMBER})"
    rf"|(?P<word>{_WORD})|(?P<punct>{_PUNCT})"
)

_QUOTES = str.maketrans({"‘": "'", "’": "'", "‚": "'", "‛": "'", "′": "'", "“": '"', "”": '"', "„": '"', "‟": '"', "″": '"'})


@dataclass(frozen=True, slots=True)
class Token:
    """One token: its kind, its surface form and its content key (None for punctuation)."""

    kind: TokenKind
    text: str
    key: str | None


def normalize_text(text: str) -> str:
    """NFKC + ASCII quotes: the differences a fuzzy match should not see at all."""
    if text.isascii():
        return text
    return unicodedata.normalize("NFKC", text).translate(_QUOTES)


def _kind_and_key(group: str | None, text: str) -> tuple[TokenKind, str | None]:
    if group == "word" or group == "url":
        return "word", text.casefold()
    if group == "placeholder":
        return "placeholder", PLACEHOLDER_KEY
    if group == "number":
        return "number", NUMBER_KEY
    return "punct", None


def token_matches(text: str) -> Iterator[re.Match[str]]:
    """The raw token matches of ``text`` (for the TM index's own fast encoding loop)."""
    return _TOKEN_RE.finditer(normalize_text(text))


def match_key(match: re.Match[str]) -> str | None:
    """Content key of one token match (None for punctuation)."""
    return _kind_and_key(match.lastgroup, match.group())[1]


def tokenize(text: str) -> list[Token]:
    """Split ``text`` into fuzzy-matching tokens (see the module docstring)."""
    tokens = []
    for match in token_matches(text):
        surface = match.group()
        kind, key = _kind_and_key(match.lastgroup, surface)
        tokens.append(Token(kind, surface, key))
    return tokens


def token_keys(text: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """``(content keys, surface forms)`` of ``text``: the two sequences the score compares."""
    tokens = tokenize(text)
    return tuple(t.key for t in tokens if t.key is not None), tuple(t.text for t in tokens)


_COUNTED = frozenset(("word", "url", "number"))
"""Match groups a CAT analysis counts as words (a URL is a word token)."""


def word_count(text: str) -> int:
    """Words as a CAT analysis counts them: words, numbers, URLs (not placeholders/punctuation)."""
    return surfaces_and_words(text)[1]


_MAY_SPAN_SPACE = re.compile(r"[%<{]")
"""Only tokens that begin with one of these can hold whitespace (``%(name) s``, ``<a href="x">``, ``{0, number}``)."""


def surfaces_and_words_cached(text: str, cache: dict[str, tuple[tuple[str, ...], int]]) -> tuple[tuple[str, ...], int]:
    """:func:`surfaces_and_words`, tokenising each whitespace-separated chunk once across calls sharing ``cache``.

    Exact for ASCII text without ``%``, ``<`` or ``{``: no normalisation applies
    and no token holds whitespace, so the tokens of a text are those of its
    chunks in order. Other texts are tokenised whole.
    """
    if not text.isascii() or _MAY_SPAN_SPACE.search(text):
        return surfaces_and_words(text)
    surfaces: list[str] = []
    words = 0
    for chunk in text.split():
        found = cache.get(chunk)
        if found is None:
            found = cache[chunk] = surfaces_and_words(chunk)
        surfaces.extend(found[0])
        words += found[1]
    return tuple(surfaces), words


def surfaces_and_words(text: str) -> tuple[tuple[str, ...], int]:
    """The surface forms of ``text``'s tokens and its :func:`word_count`, from one tokenisation."""
    surfaces = []
    words = 0
    for match in token_matches(text):
        surfaces.append(match.group())
        words += match.lastgroup in _COUNTED
    return tuple(surfaces), words
