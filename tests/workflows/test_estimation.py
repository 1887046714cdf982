"""The estimate use case: the project's scheme, and estimates kept in the project across sessions."""

from __future__ import annotations

import pytest

from tmtprime.cost import CostEstimate, load_scheme
from tmtprime.store import Store
from tmtprime.workflows import estimation
from tmtprime.workflows.estimation import Estimates, project_scheme, save_project_scheme


@pytest.fixture(scope="module")
def demo(tmp_path_factory) -> Store:
    from tmtprime.workflows import run_demo

    out = tmp_path_factory.mktemp("demo")
    run_demo(out)
    return out / "demo.db"


def test_a_kept_estimate_comes_back_without_reading_the_job_until_the_data_changes(demo, monkeypatch):
    with Store.open(demo) as store:
        first = Estimates(store).estimate("matecat", ["tm-lookup", "apertium_eng-spa"])
    assert CostEstimate.from_dict(first.to_dict()).to_dict() == first.to_dict()

    def no_reading(*_args, **_kwargs):
        raise AssertionError("the job was read")

    with Store.open(demo) as store:  # another session
        monkeypatch.setattr(estimation, "load_job", no_reading)
        again = Estimates(store)
        assert again.kept(load_scheme("matecat"), ["tm-lookup", "apertium_eng-spa"]).to_dict() == first.to_dict()
        assert again.estimate("matecat", ["tm-lookup", "apertium_eng-spa"]).to_dict() == first.to_dict()
        assert again.kept(load_scheme("memoq"), ["tm-lookup", "apertium_eng-spa"]) is None  # another scheme
        monkeypatch.undo()
        taking_part = {"tm-lookup", "apertium_eng-spa"}
        segments = list(store.segments.iter(role="document", with_candidates=True))
        store.recommendations.fill(segments)
        chosen = {s.id: s.pick.candidate.system for s in segments}
        seg, other = next(
            (s, c) for s in segments for c in s.candidates  # the first candidate of another system taking part
            if chosen[s.id] in taking_part and c.system in taking_part - {chosen[s.id]}
            and c is next(x for x in s.candidates if x.system == c.system)
        )  # fmt: skip
        store.recommendations.set_override(seg.id, other.id)
        fresh = Estimates(store)
        assert fresh.kept(load_scheme("matecat"), ["tm-lookup", "apertium_eng-spa"]) is None
        changed = fresh.estimate("matecat", ["tm-lookup", "apertium_eng-spa"])
        assert changed.plan("tmtprime").by_system[other.system]["segments"] == first.plan("tmtprime").by_system[other.system]["segments"] + 1


def test_the_projects_scheme_is_the_one_saved_last(demo):
    with Store.open(demo) as store:
        assert project_scheme(store).name == "matecat"  # nothing saved: the default preset
        scheme = load_scheme("memoq")
        saved = save_project_scheme(store, "agency", scheme)
        assert saved.name == "agency" and project_scheme(store).name == "agency"
        save_project_scheme(store, "other", load_scheme("matecat"))
        assert project_scheme(store).name == "other"
        save_project_scheme(store, "agency", saved)  # saving again makes it the project's again
        assert project_scheme(store).name == "agency"
        assert estimation.estimate(store).scheme.name == "agency"
