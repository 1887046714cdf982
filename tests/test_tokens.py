"""Tokenizer and inline-code classes of software strings."""

from hypothesis import given, settings
from hypothesis import strategies as st

from tmtprime.tokens import code_mismatches, inline_codes, lower_tokens, tokenize


def test_codes_are_single_tokens():
    assert tokenize("%s: cannot open {0} <b>now</b> &amp; %1$d") == ["%s", ":", "cannot", "open", "{0}", "<b>", "now", "</b>", "&amp;", "%1$d"]


def test_model_tokens_drop_accelerators_and_case():
    assert lower_tokens("_File") == lower_tokens("&File") == lower_tokens("~File") == ["file"]


def test_inline_codes_by_class():
    codes = inline_codes("Save %s to {0} &amp; _Quit in 3 s\\n <i>x</i>")
    assert codes[("printf", "%s")] == 1
    assert codes[("brace", "{0}")] == 1
    assert codes[("entity", "&amp;")] == 1  # an entity is not an accelerator
    assert codes[("accelerator", "_")] == 1
    assert codes[("number", "3")] == 1
    assert codes[("escape", "\\n")] == 1
    assert codes[("tag", "<i>")] == codes[("tag", "</i>")] == 1


def test_mismatch_counts_missing_and_extra_codes_per_class():
    src = inline_codes("Copy %s to %d files in {0}")
    same = inline_codes("Copiar %s a %d archivos en {0}")
    assert code_mismatches(src, same) == [0.0] * 7
    broken = inline_codes("Copiar %d a %d archivos")  # %s -> %d, {0} lost
    mismatch = dict(zip(("printf", "brace", "entity", "tag", "escape", "accelerator", "number"), code_mismatches(src, broken)))
    assert mismatch["printf"] == 2.0  # one %s missing, one %d extra
    assert mismatch["brace"] == 1.0


# The fast paths (a quick character scan before the full pattern) must give exactly
# what the plain regular expressions give.
_TRICKY = st.text(alphabet=st.sampled_from(list("aZé1٣ _&~%{}<>/\\;#x.…:?¿!¡()[]\"“”«»sdn'’")), max_size=40)


@settings(max_examples=400, deadline=None)
@given(_TRICKY)
def test_fast_paths_equal_the_plain_patterns(text):
    from collections import Counter

    from tmtprime.tokens import _ANY_CODE, TOKEN_RE, CODE_PATTERNS

    assert inline_codes(text) == dict(Counter((m.lastgroup, m.group()) for m in _ANY_CODE.finditer(text)))
    assert lower_tokens(text) == [t.lower() for t in TOKEN_RE.findall(CODE_PATTERNS["accelerator"].sub("", text))]


def test_no_codes_in_plain_words():
    assert inline_codes("plain words only") == {}
