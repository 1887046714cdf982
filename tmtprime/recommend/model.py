"""Where model files saved before issue 28 find the recommender's classes; not for new code.

skops names each class by its module path. The SVM recommender moved to
:mod:`tmtprime.recommend.svm` (``model.py`` also named the domain model in
``formats``), but the shipped model and every file saved before the move
name ``tmtprime.recommend.model.TMTprimeRecommender`` (older ones
``tmtprime.recommend.model.PlattSigmoid`` too), so this module re-exports
them for :mod:`tmtprime.recommend.persist`. Import from ``svm`` / ``platt``.
"""

from tmtprime.recommend.platt import PlattSigmoid
from tmtprime.recommend.svm import TMTprimeRecommender

__all__ = ["PlattSigmoid", "TMTprimeRecommender"]
