"""Against the shared real data (``update``: its TM, its dev strings' TM matches, Apertium):
a repaired match never changes a number, placeholder or inline code that the new source shares
with the TM source. Codes are found here with the fuzzy matcher's tokenizer, not the one the repair uses."""

from __future__ import annotations

import gzip
from collections import Counter

import pytest

from tmtprime.mt.apertium import ApertiumEngine
from tmtprime.tm.repair import REPAIRED, Repairer
from tmtprime.tm.tokenize import tokenize

pytestmark = pytest.mark.shared_data


def _rows(path):
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        header = fh.readline().rstrip("\n").split("\t")
        return [dict(zip(header, line.rstrip("\n").split("\t"))) for line in fh]


def _codes(text: str) -> Counter[str]:
    return Counter(t.text for t in tokenize(text) if t.kind in ("number", "placeholder"))


def test_repairs_keep_shared_numbers_placeholders_and_codes(shared_data):
    engine = ApertiumEngine("eng-spa", n_jobs=2)
    if not engine.available():
        pytest.skip("Apertium eng-spa is not installed")
    scenario = shared_data / "tm_l10n_en-es" / "update"
    tm = [(r["source"], r["target"]) for r in _rows(scenario / "tm.tsv.gz")]
    rows = [r for r in _rows(scenario / "dev.tsv.gz") if float(r["tm_fuzzy_word"] or 0) >= 50]
    repairs = Repairer.from_tm(tm, engine).repair([(r["source"], r["tm_source"], r["tm_target"]) for r in rows])
    checked = 0
    for row, rep in zip(rows, repairs):
        if rep.reason != REPAIRED:
            continue
        shared = _codes(row["source"]) & _codes(row["tm_source"])
        before, after = _codes(row["tm_target"]), _codes(rep.text or "")
        assert all(before[c] == after[c] for c in shared), (row["source"], row["tm_target"], rep.text)
        checked += bool(shared)
    assert sum(r.reason == REPAIRED for r in repairs) > 200
    assert checked >= 20  # the property was exercised on repaired strings that carry shared codes
