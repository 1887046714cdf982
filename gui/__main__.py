"""``python -m tmtprime.gui [PROJECT]``."""

from tmtprime.gui import main

raise SystemExit(main())
