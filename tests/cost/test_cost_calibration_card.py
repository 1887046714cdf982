"""Training stores the band calibration in the model card, and estimates then use it."""

from __future__ import annotations

from tests.recommend.synthetic import build
from tests.test_product_workflow import _mapping
from tmtprime.cli import main
from tmtprime.cost import CARD_KEY, BandCalibration, estimate_costs, load_scheme
from tmtprime.recommend.svm import TMTprimeRecommender
from tmtprime.workflows.recommendation import recommend
from tmtprime.workflows.training import train
from tmtprime.store import Store


def test_trained_model_card_carries_the_calibration_and_estimates_use_it(tmp_path):
    paths, _ = build(tmp_path, n_dev=80, n_new=30)
    db = str(tmp_path / "P.db")
    assert main(["project", "create", db, "--source-lang", "en", "--target-lang", "es"]) == 0
    assert main(["import", db, str(paths["tm"]), "--as", "tm", "--source-col", "source", "--target-col", "target", "-q"]) == 0
    assert main(["import", db, str(paths["dev"]), "--as", "dev", "--reference-col", "reference", *_mapping(), "-q"]) == 0
    assert main(["import", db, str(paths["new"]), "--as", "document", *_mapping(), "-q"]) == 0
    small = lambda: TMTprimeRecommender(C_grid=(1.0,), gamma_grid=(0.5,), ter_C_grid=(10.0,), cv=2)  # noqa: E731
    with Store.open(db) as store:
        trained = train(store, name="m", make_model=small)
        card, model = trained.card, trained.model
        calibration = BandCalibration.from_card(card)
        assert calibration is not None and set(calibration.counts) == {"tm", "mt"}
        # every out-of-fold prediction of the training run is counted once
        assert sum(int(c.sum()) for c in calibration.counts.values()) == len(model.oof_predicted_ter_) == 80 * 4
        assert BandCalibration.from_card(dict(store.models.get("m").card)) is not None
        assert CARD_KEY in store.models.get("m").card
        recommend(store, model="m")
        est = estimate_costs(store, load_scheme("matecat"))
    assert est.calibrated and est.model == "m"
    assert not any("calibration" in n for n in est.notes)
    assert est.reference_segments == 0 and est.plan("tmtprime").actual_cost is None
