"""Language tags of files against the project's: region variants of the same language fit."""

from __future__ import annotations

import pytest

from tmtprime.errors import UsageError
from tmtprime.store.languages import check_language_tag, languages_match, stated_language


@pytest.mark.parametrize(
    ("file_tag", "project_tag", "fits"),
    [
        ("es", "es", True),
        ("es-ES", "es", True),
        ("es", "es-ES", True),
        ("ES_es", "es-ES", True),
        ("es-419", "es", True),
        ("es-ES", "es-MX", False),
        ("es-419", "es-ES", False),
        ("zh-Hans-CN", "zh-CN", True),
        ("zh-Hant", "zh-Hans", False),
        ("en", "es", False),
        ("eng", "en", False),
    ],
)
def test_languages_match(file_tag, project_tag, fits):
    assert languages_match(file_tag, project_tag) is fits


def test_wildcards_state_no_language_and_bad_tags_are_refused():
    assert stated_language("*all*") is None and stated_language("") is None and stated_language(None) is None
    assert stated_language(" es-ES ") == "es-ES"
    assert check_language_tag("pt_BR", "target language") == "pt-BR"
    with pytest.raises(UsageError, match="target language 'Spanish!'"):
        check_language_tag("Spanish!", "target language")
