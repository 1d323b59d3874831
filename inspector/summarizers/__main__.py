"""``python -m inspector.summarizers keep-all | naive-truncate [--chars K]``."""

from __future__ import annotations

import sys

from inspector.summarizers.reference import main

if __name__ == "__main__":
    sys.exit(main())
