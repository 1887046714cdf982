"""The open project's long-lived child: it answers the served tasks, keeps the job between estimates, and forgets
it when the data changes; the segment list is read, filtered and sorted there and sent a page at a time."""

from __future__ import annotations

import time

import pytest

from tmtprime.errors import TmtprimeError
from tmtprime.gui import served
from tmtprime.gui.session import Session
from tmtprime.progress import Reporter
from tmtprime.store import Store
from tmtprime.workflows.estimation import project_scheme
from tmtprime.workflows.segment_page import SegmentQuery


def test_the_child_sends_a_sorted_list_a_page_at_a_time(project_path):
    session = Session(str(project_path))
    try:
        with Store.open(project_path) as store:
            scheme = project_scheme(store)
        options = {"key": 1, "query": SegmentQuery(), "scheme": scheme, "sort": ("Confidence", True), "size": 100}
        first, done = session.call(served.segment_page, options | {"offset": 0}, Reporter(), channel="list")
        assert len(first) == 100 and not done
        rest, done = session.call(served.segment_page, options | {"offset": 100}, Reporter(), channel="list")
        assert len(rest) == 88 and done
        confidences = [line.confidence for line in first + rest]
        assert confidences == sorted(confidences, key=lambda c: (c is None, c or 0.0), reverse=True)
        assert len({line.segment.id for line in first + rest}) == 188
        names, bands = session.call(served.bands_of, {"scheme": scheme, "segment_ids": [first[0].segment.id]},
                                    Reporter(), channel="analysis")  # fmt: skip
        assert bands[first[0].segment.id] in names
    finally:
        session.close()
    with pytest.raises(TmtprimeError, match="closed"):
        session.call(served.training_problem, {}, Reporter())


def test_the_job_is_read_once_per_state_of_the_data(project_path):
    with Store.open(project_path) as store:
        scheme = project_scheme(store)
        est, _notices = served.estimate(store, Reporter(), scheme=scheme, systems=["tm-lookup", "apertium_eng-spa"])
        loaded = served._kept(store).estimates._loaded
        again, _notices = served.estimate(store, Reporter(), scheme=scheme, systems=["tm-lookup"])
        assert loaded is not None and served._kept(store).estimates._loaded is loaded  # re-priced, not read again
        assert again.plan("tmtprime").cost != est.plan("tmtprime").cost
        segment = next(store.segments.iter(role="document"))
        other = next(c for c in segment.candidates if c.system == "apertium_eng-spa")
        store.recommendations.set_override(segment.id, other.id)  # a write: what was read is stale
        served.estimate(store, Reporter(), scheme=scheme, systems=["tm-lookup", "apertium_eng-spa"])
        assert served._kept(store).estimates._loaded is not loaded


def test_a_closed_session_leaves_no_pipe_of_its_child_open(project_path):
    session = Session(str(project_path))
    session.call(served.training_problem, {}, Reporter())
    child = session._child
    session.close()
    child.wait(10)
    for _ in range(100):  # the reading thread closes it on the child's end of file
        if child.stdout.closed:
            break
        time.sleep(0.05)
    assert child.stdout.closed
