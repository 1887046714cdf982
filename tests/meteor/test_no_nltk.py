"""Scoring with the stem module imports no NLTK, in any stemmed language (issue 30: NLTK's import pulls in
scipy and scikit-learn, most of a second of start-up).

Checked in a fresh interpreter: one sentence pair per language whose words differ but share the jar's stem
(from ``fixtures/stems.tsv``), so the stemmer really runs and its match is asserted too.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

_SCORE_EVERY_LANGUAGE = r"""
import json, sys
from tmtprime.meteor import Meteor
from tmtprime.meteor.stemmers import stemmer

rows = [line.rstrip("\n").split("\t") for line in open(sys.argv[1], encoding="utf-8") if not line.startswith("#")]
matched = {}
for lang in sorted({row[0] for row in rows}):
    stem = stemmer(lang)
    # a word and its jar stem, where the stem is its own stem: different words, one stem
    word, root = next((w, s) for lg, w, s, known in rows
                      if lg == lang and known == "0" and w.islower() and w != s and stem(s) == s)
    score = Meteor(lang=lang, modules=("exact", "stem"), normalize=False).sentence_score(word, [root])
    matched[lang] = [m[-1] for m in score.alignment]
print(json.dumps({"matched": matched, "nltk": sorted(m for m in sys.modules if m.split(".")[0] == "nltk")}))
"""


def test_scoring_every_stemmed_language_imports_no_nltk() -> None:
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    out = subprocess.run(
        [sys.executable, "-c", _SCORE_EVERY_LANGUAGE, str(ROOT / "tests/meteor/fixtures/stems.tsv")],
        capture_output=True, text=True, env=env, check=True,
    )
    result = json.loads(out.stdout)
    languages = {"da", "de", "en", "es", "fi", "fr", "hu", "it", "nl", "no", "pt", "ro", "ru", "se", "tr"}
    assert set(result["matched"]) == languages
    # each pair is aligned by the stem module (index 1), so each language's stemmer ran
    assert {lang: mods for lang, mods in result["matched"].items() if mods != [1]} == {}
    assert result["nltk"] == []
