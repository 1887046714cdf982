"""Allow ``python -m tmtprime`` as an alias of the ``tmtprime`` command."""

from tmtprime.cli import main

raise SystemExit(main())
