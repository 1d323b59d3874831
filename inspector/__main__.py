"""Allow ``python -m inspector`` as well as the ``inspector`` console script."""

from __future__ import annotations

from inspector.cli.entry import main

if __name__ == "__main__":
    main()
