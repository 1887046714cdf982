"""printf format strings as gettext's c-format check sees them (agreement with msgfmt itself is in
``bench/po_format_check.py`` and the export tests)."""

from __future__ import annotations

import pytest

from tmtprime.formats.printf import breaks_format, directives, has_directives


@pytest.mark.parametrize(("text", "expected"), [
    ("no format", {}),
    ("100%% done", {}),
    ("%s: %d files", {1: "string", 2: "int"}),
    ("%2$s before %1$d", {1: "int", 2: "string"}),
    ("%-10.3lf and %*d", {1: "double", 2: "int", 3: "int"}),
    ("%1$s and %s", None),  # numbered and unnumbered mixed
    ("%2$s alone", None),  # argument 1 skipped
    ("50%", None),  # a lone % at the end
])
def test_directives(text, expected):
    assert directives(text) == expected


def test_breaks_format():
    assert not breaks_format("%s: %d files", "%s: %d ficheros")
    assert not breaks_format("%1$s of %2$d", "%2$d de %1$s")  # reordered with positions
    assert breaks_format("%s: %d files", "%s: ficheros")  # an argument lost
    assert breaks_format("%s: %d files", "%d: %s ficheros")  # types swapped
    assert breaks_format("%d files", "%u ficheros")  # signed vs unsigned, as msgfmt says
    assert breaks_format("%s", "%s %s")  # an extra argument
    assert breaks_format("Open %s", "Abrir %")  # the translation is no format string
    # prose: "99% of" parses as "% o" but xgettext would not call it a format string
    assert not has_directives("99% of all plotters") and not breaks_format("99% of them", "el 99 % de ellos")
    assert not breaks_format("plain text", "texto %d")  # nothing to break
