"""printf-style format directives (``%s``, ``%1$d``, ``%%``) as gettext's ``c-format`` check sees them.

``msgfmt --check`` rejects a translation whose directives differ from the
source's: a missing or extra argument, or another type for the same argument
(``%d`` vs ``%s``; ``%1$s`` and ``%2$d`` may change places). A pick that does
that would crash or garble the program at run time, so exports mark it for
review and ``bench/po_format_check.py`` counts such candidates per system.
Types follow gettext: the conversion's class (signed/unsigned integer,
floating point, char, string, pointer, count) with its length modifier; a
``*`` width or precision takes an ``int`` argument of its own.
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


class _Invalid(ValueError):
    pass


def _star(spec: str | None, numbered: list[tuple[int, str]], unnumbered: list[str]) -> None:
    if spec and spec.startswith("*"):
        if len(spec) > 1:
            numbered.append((int(spec[1:-1]), "int"))
        else:
            unnumbered.append("int")


def directives(text: str) -> dict[int, str] | None:
    """Argument number (1-based) -> type of each directive of ``text``; ``None`` if it is no valid format string.

    ``{}`` means no directives (``%%`` is a literal percent sign). Mixing numbered
    (``%1$s``) and unnumbered (``%s``) directives, an unknown conversion, or one
    argument used with two types make the string invalid, as for gettext.
    """
    if "%" not in text:
        return {}
    numbered: list[tuple[int, str]] = []
    unnumbered: list[str] = []
    for m in _DIRECTIVE.finditer(text):
        number, width, precision, length, conv = m.groups()
        if conv == "%" and not (number or width or precision or length):
            continue
        if conv is None or conv not in _CLASSES:
            return None
        _star(width, numbered, unnumbered)
        _star(precision, numbered, unnumbered)
        kind = (length or "") + _CLASSES[conv]
        if number:
            if int(number) == 0:
                return None
            numbered.append((int(number), kind))
        else:
            unnumbered.append(kind)
    if numbered and unnumbered:
        return None
    if unnumbered:
        return {i: k for i, k in enumerate(unnumbered, 1)}
    types: dict[int, str] = {}
    for n, k in numbered:
        if types.setdefault(n, k) != k:
            return None
    if types and sorted(types) != list(range(1, max(types) + 1)):
        return None  # gettext: a numbered argument may not be skipped
    return types


def has_directives(text: str) -> bool:
    """Does ``text`` hold at least one printf directive (a valid format string)?"""
    found = directives(text)
    return bool(found)


def breaks_format(source: str, translation: str) -> bool:
    """Does ``translation`` break the printf format of ``source`` (what ``msgfmt --check`` rejects)?

    False when the source is no format string (nothing to break).
    """
    wanted = directives(source)
    if not wanted:
        return False
    return directives(translation) != wanted
