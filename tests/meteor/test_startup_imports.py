"""What ``tmtprime meteor`` loads for one pair: only what scoring that pair needs (start-up target, issue 30).

Timings live in ``bench/meteor_speed.py --part startup``; these tests pin the behaviour behind them: one
Snowball language instead of the package's 36, no paraphrase module unless the paraphrase matcher runs, no
``-norm`` rules without ``-norm``.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tmtprime.meteor import Meteor

_RUN = """
import sys
from tmtprime.cli import main
status = main(sys.argv[1:])
print(status, " ".join(sorted(m for m in sys.modules if m.startswith(("snowballstemmer", "_tmtprime_snowball",
                                                                       "tmtprime.meteor.")))), file=sys.stderr)
"""


def _loaded(tmp_path: Path, *options: str) -> tuple[str, set[str]]:
    hyp, ref = tmp_path / "hyp.txt", tmp_path / "ref.txt"
    hyp.write_text("the cats were sitting on the mat\n", encoding="utf-8")
    ref.write_text("a cat sat on the mats\n", encoding="utf-8")
    script = tmp_path / "run.py"  # a file, not -c: the current directory must not shadow the tree
    script.write_text(_RUN, encoding="utf-8")
    env = dict(os.environ, TMTPRIME_CACHE_DIR=str(tmp_path / "cache"))
    out = subprocess.run([sys.executable, str(script), "meteor", str(hyp), str(ref), "-q", *options], env=env,
                         capture_output=True, text=True, check=True)  # fmt: skip
    status, *modules = out.stderr.splitlines()[-1].split()
    assert status == "0"
    return out.stdout.strip(), set(modules)


@pytest.mark.parametrize("lang", ["tr", "es", "de"])
def test_one_pair_loads_one_snowball_language_and_no_paraphrase_or_norm_rules(tmp_path: Path, lang: str) -> None:
    from tmtprime.meteor.languages import language_name

    score, loaded = _loaded(tmp_path, "-l", lang, "-m", "exact stem")
    assert float(score) == Meteor(lang, modules=("exact", "stem"), normalize=False).sentence_score(
        "the cats were sitting on the mat", "a cat sat on the mats").score
    snowball = {m for m in loaded if "snowball" in m and m != "tmtprime.meteor.snowball_search"}  # ours: its lookups
    assert snowball == {"_tmtprime_snowball", "_tmtprime_snowball.among", "_tmtprime_snowball.basestemmer"}, snowball
    assert not any(m.startswith(("tmtprime.meteor.paraphrase", "tmtprime.meteor.moses_norm")) for m in loaded)
    assert "tmtprime.meteor.english_stemmer" not in loaded, language_name(lang)


def test_norm_loads_its_rules_and_english_its_own_stemmer(tmp_path: Path) -> None:
    score, loaded = _loaded(tmp_path, "-l", "en", "-norm", "-m", "exact stem")
    assert 0 < float(score) < 1
    assert {"tmtprime.meteor.moses_norm", "tmtprime.meteor.english_stemmer"} <= loaded
    assert not any("snowball" in m for m in loaded)
