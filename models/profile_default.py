"""Add the training-data profile (applicability, label) to the shipped default model's card, without retraining.

The default model was trained before model cards kept what the training data
looked like; this rebuilds its training project as ``train_default.sh`` does,
computes the same feature rows and writes the profile into the card, so that
``tmtprime recommend`` can warn when a job is unlike that data.
Usage: python3 models/profile_default.py [SHARED_DATA_DIR] [WORK_DIR]
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

from tmtprime.recommend.applicability import profile
from tmtprime.store import Store
from tmtprime.workflows.project_data import fit_extractor, load_segments, project_rows
from tmtprime.workflows.training import label_card

HERE = Path(__file__).resolve().parent


def main() -> None:
    data = Path(sys.argv[1] if len(sys.argv) > 1 else HERE.parent.parent / "shared" / "data") / "tm_l10n_en-es" / "update"
    work = Path(sys.argv[2] if len(sys.argv) > 2 else tempfile.mkdtemp())
    db = str(work / "default.db")
    Path(db).unlink(missing_ok=True)
    run = [sys.executable, "-m", "tmtprime"]
    subprocess.run([*run, "project", "create", db, "--source-lang", "en", "--target-lang", "es"], check=True)
    subprocess.run([*run, "import", db, str(data / "tm.tsv.gz"), "--as", "tm", "--source-col", "source",
                    "--target-col", "target", "-q"], check=True)
    subprocess.run([*run, "import", db, str(data / "dev.tsv.gz"), "--as", "dev", "--source-col", "source",
                    "--reference-col", "reference", "--tm-col", "tm_target", "--tm-source-col", "tm_source",
                    "--tm-score-col", "tm_fuzzy_word", "--mt-col", "mt_apertium_eng-spa", "--mt-col",
                    "mt_apertium_eng-cat-spa", "--mt-col", "mt_apertium_en-gl-es", "-q"], check=True)
    with Store.open(db) as store:
        segments = load_segments(store, role="dev")
        rows, _ = project_rows(store, segments, fit_extractor(store, n_jobs=2), with_ter=False)
    card_path = HERE / "tmtprime-default-en-es.card.json"
    card = json.loads(card_path.read_text(encoding="utf-8"))
    card["label"] = label_card("ter", 1.0)
    card["applicability"] = profile(rows.X, rows.feature_names, source_lang="en", target_lang="es", has_tm=True, label="ter")
    card_path.write_text(json.dumps(card, indent=2, ensure_ascii=False, sort_keys=True) + "\n", encoding="utf-8")
    print(f"profile of {len(rows.X)} candidate rows written to {card_path}")


if __name__ == "__main__":
    main()
