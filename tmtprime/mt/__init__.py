"""Machine-translation engines behind one small interface (imported outputs, Apertium, plug-ins).

* :mod:`tmtprime.mt.engine` — ``MTEngine`` and the registry (``create_engine``, ``register_engine``);
* :mod:`tmtprime.mt.apertium` — Apertium as a batched subprocess, pivot chains;
* :mod:`tmtprime.mt.imported` — the ``file`` engine: translations someone already made.

MT candidates for a project's segments are a use case: :func:`tmtprime.workflows.translate`.
"""
