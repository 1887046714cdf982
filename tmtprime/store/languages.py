"""Language tags of a project and of imported files (BCP 47 / TMX / XLIFF).

A file matches the project when its language agrees on the primary
subtag, and on the script and region when both sides state them: ``es``
matches ``es-ES`` and ``es-MX`` (region variants of the same language),
``es-ES`` does not match ``es-MX``, and ``en`` never matches ``es``. Underscores (``es_ES``,
common in gettext) count as hyphens.
"""

from __future__ import annotations

import re

from tmtprime.errors import UsageError

_TAG = re.compile(r"^[A-Za-z]{2,8}([-_][A-Za-z0-9]{1,8})*$")


def check_language_tag(tag: str, what: str) -> str:
    """``tag`` tidied (``es_ES`` -> ``es-ES``), or a UsageError naming ``what``."""
    tag = tag.strip()
    if not _TAG.match(tag):
        raise UsageError(f"{what} {tag!r} is not a language tag (expected e.g. 'en', 'es', 'pt-BR')")
    return tag.replace("_", "-")


def _parts(tag: str) -> tuple[str, str | None, str | None]:
    """(language, script, region) of a tag, lower-cased; variants and extensions are ignored."""
    subtags = [part.lower() for part in re.split(r"[-_]", tag.strip()) if part]
    language = subtags[0] if subtags else ""
    script = next((p for p in subtags[1:] if len(p) == 4 and p.isalpha()), None)
    region = next((p for p in subtags[1:] if (len(p) == 2 and p.isalpha()) or (len(p) == 3 and p.isdigit())), None)
    return language, script, region


def languages_match(file_tag: str, project_tag: str) -> bool:
    """True when a file's language is compatible with the project's (see the module doc)."""
    a, b = _parts(file_tag), _parts(project_tag)
    if not a[0] or a[0] != b[0]:
        return False
    return all(x is None or y is None or x == y for x, y in zip(a[1:], b[1:], strict=True))


def stated_language(tag: str | None) -> str | None:
    """``tag`` when a file really states a language; None for none or a wildcard (TMX ``*all*``)."""
    if tag is None or tag.strip().lower() in {"", "*all*", "*", "x-unknown", "und"}:
        return None
    return tag.strip()
