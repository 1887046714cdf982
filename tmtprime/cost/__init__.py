"""Cost schemes and cost estimates: what a job costs with the TM, each MT system, or TMTprime's choice.

No Qt, no printing, no SQL: the store is read through its API, and
:mod:`tmtprime.report` turns an estimate into tables, charts and files::

    from tmtprime.cost import load_scheme, estimate_costs
    scheme = load_scheme("matecat")                 # a preset, a .toml/.json file, or a scheme stored in the project
    est = estimate_costs(store, scheme, systems=["tm", "eng-spa"])
    est.plan("tmtprime").cost, est.best_single.plan, est.to_dict()
"""

from tmtprime.cost.calibration import CARD_KEY, BandCalibration, fit_band_calibration
from tmtprime.cost.estimate import estimate_costs, estimate_job
from tmtprime.cost.plans import CostEstimate, PlanCost
from tmtprime.cost.job import Job, job_from_store
from tmtprime.cost.scheme import Band, CostScheme, SchemeError, SystemCost, load_scheme, preset_names, read_scheme_file

__all__ = [
    "CARD_KEY",
    "Band",
    "BandCalibration",
    "CostEstimate",
    "CostScheme",
    "Job",
    "PlanCost",
    "SchemeError",
    "SystemCost",
    "estimate_costs",
    "estimate_job",
    "fit_band_calibration",
    "job_from_store",
    "load_scheme",
    "preset_names",
    "read_scheme_file",
]
