"""printf-style format directives (``%s``, ``%1$d``, ``%%``) as gettext's ``c-format`` check sees them.

``msgfmt --check`` rejects a translation whose directives differ from the
source's: a missing or extra argument, or another type for the same argument
(``%d`` vs ``%s``; ``%1$s`` and ``%2$d`` may change places). A pick that does
that would crash or garble the program at run time, so exports mark it for
review and ``bench/po_format_check.py`` counts such candidates per system.
Types follow gettext: the conversion's class (signed/unsigned integer,
floating point, char, string, pointer, count) with its length modifier; a
``*`` width or precision takes an ``int`` argument of its own. As in
``xgettext``'s heuristic, a string whose only "directives" use the space flag
(``99% of``, ``30% de``) is prose, not a format string: it has nothing to break.
"""

from __future__ import annotations

import re

_DIRECTIVE = re.compile(
    r"%(?:(\d+)\$)?"  # argument number
    r"[-+ #0'I]*"  # flags
    r"(\*(?:\d+\$)?|\d+)?"  # width
    r"(?:\.(\*(?:\d+\$)?|\d*))?"  # precision
    r"(hh|h|ll|l|L|q|j|z|Z|t)?"  # length
    r"(.)?",  # conversion
    re.S,
)
_CLASSES = {**dict.fromkeys("di", "int"), **dict.fromkeys("ouxX", "unsigned"),
            **dict.fromkeys("eEfFgGaA", "double"), "c": "char", "s": "string", "p": "pointer", "n": "count",
            "C": "lchar", "S": "lstring"}


def _star(spec: str | None, numbered: list[tuple[int, str]], unnumbered: list[str]) -> None:
    if spec and spec.startswith("*"):
        if len(spec) > 1:
            numbered.append((int(spec[1:-1]), "int"))
        else:
            unnumbered.append("int")


def _parse(text: str) -> tuple[dict[int, str] | None, bool]:
    """(:func:`directives`, does a directive use the space flag, i.e. is it likely prose)."""
    if "%" not in text:
        return {}, False
    numbered: list[tuple[int, str]] = []
    unnumbered: list[str] = []
    spaced = False
    for m in _DIRECTIVE.finditer(text):
        number, width, precision, length, conv = m.groups()
        if conv == "%" and not (number or width or precision or length) and " " not in m.group(0):
            continue
        if conv is None or conv not in _CLASSES:
            return None, spaced
        spaced = spaced or " " in m.group(0)
        _star(width, numbered, unnumbered)
        _star(precision, numbered, unnumbered)
        if length == "l" and _CLASSES[conv] == "double":
            length = None  # %lf is %f (C99)
        kind = (length or "") + _CLASSES[conv]
        if number:
            if int(number) == 0:
                return None, spaced
            numbered.append((int(number), kind))
        else:
            unnumbered.append(kind)
    if numbered and unnumbered:
        return None, spaced
    if unnumbered:
        return {i: k for i, k in enumerate(unnumbered, 1)}, spaced
    types: dict[int, str] = {}
    for n, k in numbered:
        if types.setdefault(n, k) != k:
            return None, spaced
    if types and sorted(types) != list(range(1, max(types) + 1)):
        return None, spaced  # gettext: a numbered argument may not be skipped
    return types, spaced


def directives(text: str) -> dict[int, str] | None:
    """Argument number (1-based) -> type of each directive of ``text``; ``None`` if it is no valid format string.

    ``{}`` means no directives (``%%`` is a literal percent sign). Mixing numbered
    (``%1$s``) and unnumbered (``%s``) directives, an unknown conversion, or one
    argument used with two types make the string invalid, as for gettext.
    """
    return _parse(text)[0]


def has_directives(text: str) -> bool:
    """Is ``text`` a printf format string: valid, with at least one directive, none of them prose-like?"""
    found, spaced = _parse(text)
    return bool(found) and not spaced


def breaks_format(source: str, translation: str) -> bool:
    """Does ``translation`` break the printf format of ``source`` (what ``msgfmt --check`` rejects)?

    False when the source is no format string (nothing to break; see :func:`has_directives`).
    """
    if not has_directives(source):
        return False
    return directives(translation) != directives(source)
