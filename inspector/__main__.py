"""Allow ``python -m inspector`` as well as the ``inspector`` console script."""

from __future__ import annotations

if __name__ == "__main__":
    try:
        from inspector.cli.entry import main
    except KeyboardInterrupt:  # Ctrl+C while the entry itself loads: the same line and code as later
        from inspector.cli.interrupts import finish

        def _interrupted() -> None:
            raise KeyboardInterrupt

        finish(_interrupted)
    main()
