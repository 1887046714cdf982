"""Models saved with skops, loaded trusting only TMTprime's types."""

import numpy as np
import pytest
import skops.io as sio

from tests.recommend.test_model import toy
from tmtprime.errors import ModelError
from tmtprime.recommend import persist
from tmtprime.recommend.model import TMTprimeRecommender


def test_round_trip_through_bytes_and_files(tmp_path):
    X, y, ter, seg, groups = toy(60)
    model = TMTprimeRecommender(C_grid=(1.0,), gamma_grid=(1.0,), ter_C_grid=(10.0,), cv=2).fit(X, y, ter=ter, segments=seg, groups=groups)
    blob = persist.dumps(model)
    assert sorted(sio.get_untrusted_types(data=blob)) == sorted(persist.TRUSTED_TYPES)
    again = persist.loads(blob)
    np.testing.assert_allclose(again.predict_proba(X, segments=seg), model.predict_proba(X, segments=seg))
    card_path = persist.save_file(tmp_path / "m.skops", model, {"data": {"segments": 60}})
    assert card_path.name == "m.card.json"
    loaded, card = persist.load_file(tmp_path / "m.skops")
    assert card == {"data": {"segments": 60}}
    np.testing.assert_allclose(loaded.predict_ter(X), model.predict_ter(X))


class Foreign:
    """A type no model needs: loading it could run its code."""

    def __init__(self) -> None:
        self.value = 1


def test_foreign_or_broken_files_are_refused(tmp_path):
    with pytest.raises(ModelError, match="untrusted types: .*Foreign"):
        persist.loads(sio.dumps({"x": Foreign()}))
    with pytest.raises(ModelError, match="cannot be read"):
        persist.loads(b"not a model")
    with pytest.raises(ModelError, match="not a TMTprime recommender"):
        persist.loads(sio.dumps([1, 2]))
    with pytest.raises(ModelError, match="not found"):
        persist.load_file(tmp_path / "missing.skops")
