"""The window's language: Qt translators for the system locale, or the one a user or a test asks for.

Every string of the window goes through Qt's ``tr``/``translate``; the
``.ts`` sources in ``i18n/`` are made by ``pyside6-lupdate`` and compiled
to the shipped ``.qm`` files by ``pyside6-lrelease`` (``update.sh`` does
both). ``tmtprime_en`` holds only the English plural forms (``%n segment(s)``
reads "1 segment", "2 segments"), so it is always installed; a language's
own catalogue and Qt's (standard buttons, wizard, file dialog) go on top.
The language is ``TMTPRIME_LANG`` (e.g. ``es``; ``en`` forces English),
else the ``language`` setting, else the system's. The CLI and the library's
messages stay English.
"""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QSettings, QTranslator

DIRECTORY = Path(__file__).resolve().parent / "i18n"
"""The .ts sources and .qm catalogues (a folder of data, not a package: importing it must not need Qt)."""
CATALOGUE = "tmtprime"
LANGUAGE_ENV = "TMTPRIME_LANG"
LANGUAGE_SETTING = "language"

_installed: list[QTranslator] = []
"""The translators this module installed (replaced when the language changes)."""


def chosen_locale() -> QLocale:
    """The locale asked for: ``TMTPRIME_LANG``, else the ``language`` setting, else the system's."""
    asked = os.environ.get(LANGUAGE_ENV, "").strip() or str(QSettings().value(LANGUAGE_SETTING, "") or "").strip()
    return QLocale(asked) if asked else QLocale.system()


def install_translators(app: QCoreApplication, locale: QLocale | None = None) -> str:
    """Install the English plural forms, then ``locale``'s (default :func:`chosen_locale`) catalogues.

    Returns the language whose catalogue was loaded ("en" when the locale has none).
    """
    for translator in _installed:
        app.removeTranslator(translator)
    _installed.clear()
    locale = locale or chosen_locale()
    english = QTranslator(app)
    if english.load(f"{CATALOGUE}_en", str(DIRECTORY)):
        _installed.append(english)
    own = QTranslator(app)
    language = "en"
    if locale.language() != QLocale.Language.English and own.load(locale, CATALOGUE, "_", str(DIRECTORY)):
        _installed.append(own)
        language = Path(own.filePath()).stem.removeprefix(f"{CATALOGUE}_")
        qt = QTranslator(app)
        if qt.load(locale, "qtbase", "_", QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)):
            _installed.append(qt)
    for translator in _installed:
        app.installTranslator(translator)
    return language
