#!/usr/bin/env bash
# Rebuild the shipped default model from the team's shared data (../shared/data/tm_l10n_en-es/update):
# the exact CLI sequence a user runs — project, TM, dev data with its TM match and the three Apertium
# columns (imported as the systems `tmtprime translate` creates), train — then the file and its JSON card.
# Usage: bash models/train_default.sh [SHARED_DATA_DIR] [WORK_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
data=${1:-../shared/data}/tm_l10n_en-es/update
work=${2:-$(mktemp -d)}
db=$work/default.db
rm -f "$db"
python3 -m tmtprime project create "$db" --source-lang en --target-lang es --name tmtprime-default-en-es
python3 -m tmtprime import "$db" "$data/tm.tsv.gz" --as tm --source-col source --target-col target -q
python3 -m tmtprime import "$db" "$data/dev.tsv.gz" --as dev --source-col source --reference-col reference \
  --tm-col tm_target --tm-source-col tm_source --tm-score-col tm_fuzzy_word \
  --mt-col mt_apertium_eng-spa --mt-col mt_apertium_eng-cat-spa --mt-col mt_apertium_en-gl-es -q
python3 -m tmtprime train "$db" --name tmtprime-default-en-es -o models/tmtprime-default-en-es.skops -j 2
