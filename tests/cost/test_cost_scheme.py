"""Cost schemes: presets, round trips, and one-line errors naming the file and the key."""

from __future__ import annotations

import json

import numpy as np
import pytest

from tmtprime.cost import CostScheme, SchemeError, load_scheme, preset_names
from tmtprime.errors import InputError


def test_presets_load_name_their_source_and_round_trip():
    assert {"matecat", "memoq"} <= set(preset_names())
    for name in ("matecat", "memoq"):
        scheme = load_scheme(name)
        text = open(scheme.source, encoding="utf-8").read()
        assert "Source" in text.split("\n[")[0]  # the comment naming where the weights come from
        again = CostScheme.from_dict(json.loads(json.dumps(scheme.to_dict())), source=scheme.source)
        assert again == scheme


def test_matecat_preset_has_matecats_public_weights():
    s = load_scheme("matecat")
    assert {b.label: b.payable for b in s.tm_bands} == {"100": 30, "95-99": 60, "85-94": 60, "75-84": 60, "50-74": 100}
    assert (s.repetitions, s.new, s.mt_flat) == (30, 100, 67)
    assert s.tm_band(49.9) == ("new", 100)
    assert s.tm_band(84.99) == ("75-84", 60)
    assert s.tm_band(100) == ("100", 30)
    assert s.tm_band(100, "context")[0] == s.tm_band(101)[0] == "context"
    quality = s.quality_payable()
    assert quality[100] == 30 and quality[99] == 60 and quality[75] == 60 and quality[74] == 100 and quality[0] == 100


def _base() -> dict:
    return load_scheme("matecat").to_dict()


@pytest.mark.parametrize(
    ("change", "needle"),
    [
        (lambda d: d.update(word_rate=-0.1), "key 'word_rate': must be zero or more"),
        (lambda d: d["tm"]["bands"][1].update(payable=-5), "key 'tm.bands[1].payable'"),
        (lambda d: d.update(colour="red"), "key 'colour': unknown key"),
        (lambda d: d["tm"].update(fuzzy=3), "key 'tm.fuzzy': unknown key"),
        (lambda d: d["tm"]["bands"][1].update(min=80), "overlap"),
        (lambda d: d["tm"]["bands"][1].update(min=97), "gap between bands"),
        (lambda d: d["mt"]["bands"].pop(), "quality bands must start at 0"),
        (lambda d: d["mt"].update(pricing="per-hour"), "key 'mt.pricing'"),
        (lambda d: d["systems"].update(deepl={"base": 1, "per": "page"}), "key 'systems.deepl.per'"),
    ],
)
def test_invalid_schemes_say_which_key_in_which_file(change, needle):
    data = _base()
    change(data)
    with pytest.raises(SchemeError) as info:
        CostScheme.from_dict(data, source="my.toml")
    message = str(info.value)
    assert message.startswith("my.toml:") and needle in message and "\n" not in message
    assert isinstance(info.value, InputError)


def test_files_toml_and_json_and_a_stored_copy(tmp_path):
    path = tmp_path / "ours.json"
    data = _base()
    data["name"] = "ours"
    data["word_rate_by_pair"] = {"en-es": 0.07}
    data["systems"] = {"deepl": {"base": 0.00002, "per": "character"}}
    path.write_text(json.dumps(data), encoding="utf-8")
    scheme = load_scheme(path)
    assert scheme.name == "ours" and scheme.rate_for("en", "es") == 0.07 and scheme.rate_for("en", "fr") == 0.10
    assert scheme.system_cost("deepl", "mt").per == "character"
    bad = tmp_path / "bad.toml"
    bad.write_text("currency = \n", encoding="utf-8")
    with pytest.raises(SchemeError, match=r"bad\.toml: not valid TOML"):
        load_scheme(bad)
    with pytest.raises(SchemeError, match="no cost scheme 'nope'"):
        load_scheme("nope")


def test_quality_band_index_floors_scores():
    s = load_scheme("matecat")
    idx = s.quality_band_index(np.array([100.0, 99.99, 50.0, 49.5, -20.0]))
    assert [s.mt_bands[i].label for i in idx] == ["100", "95-99", "50-74", "0-49", "0-49"]


@pytest.mark.parametrize(
    ("change", "key", "band", "field", "system"),
    [
        (lambda d: d["mt"]["bands"][1].update(payable=-5), "mt.bands[1].payable", ("mt", 1), "payable", None),
        (lambda d: d["tm"]["bands"][0].update(min="x"), "tm.bands[0].min", ("tm", 0), "min", None),
        (lambda d: d["systems"].update(deepl={"base": 1, "per": "page"}), "systems.deepl.per", None, "per", "deepl"),
        (lambda d: d.update(word_rate=-1), "word_rate", None, None, None),
    ],
)
def test_a_scheme_error_says_where_in_fields_not_only_in_words(change, key, band, field, system):
    data = _base()
    change(data)
    with pytest.raises(SchemeError) as info:
        CostScheme.from_dict(data, source="my.toml")
    error = info.value
    assert (error.key, error.band, error.field, error.system) == (key, band, field, system)
    assert error.reason and error.reason in str(error) and error.file == "my.toml"


def test_overlapping_bands_name_the_band_as_written_in_the_file():
    data = _base()
    bands = data["mt"]["bands"]
    low = min(range(len(bands)), key=lambda i: bands[i]["min"])
    nxt = min((i for i in range(len(bands)) if i != low), key=lambda i: bands[i]["min"])
    bands[nxt]["min"] = bands[low]["max"]  # overlaps the lowest band by one point
    with pytest.raises(SchemeError, match="overlap") as info:
        CostScheme.from_dict(data)
    assert info.value.key == "mt.bands" and info.value.band == ("mt", nxt)


def test_the_rate_pair_names_the_entry_that_prices_a_language_pair():
    data = _base()
    data["word_rate_by_pair"] = {"en-es": 0.07}
    scheme = CostScheme.from_dict(data)
    assert scheme.rate_pair("en-US", "es-ES") == "en-es" and scheme.rate_for("en-US", "es-ES") == 0.07
    assert scheme.rate_pair("en", "fr") is None and scheme.rate_for("en", "fr") == scheme.word_rate
