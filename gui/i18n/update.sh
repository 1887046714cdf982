#!/bin/sh
# Regenerate the translation sources from the window's code, then compile them (run from anywhere).
#   tmtprime_es.ts: every string of gui/*.py (translate the new "unfinished" entries, e.g. in Qt Linguist);
#   tmtprime_en.ts: only the plural forms ("%n segment(s)" -> "1 segment" / "2 segments").
# No line numbers are kept (-locations none), so code edits elsewhere in gui/ leave the .ts unchanged.
set -e
cd "$(dirname "$0")/.."
pyside6-lupdate -no-obsolete -locations none -target-language es ./*.py -ts i18n/tmtprime_es.ts
pyside6-lupdate -no-obsolete -locations none -target-language en -pluralonly ./*.py -ts i18n/tmtprime_en.ts
pyside6-lrelease i18n/tmtprime_es.ts i18n/tmtprime_en.ts
