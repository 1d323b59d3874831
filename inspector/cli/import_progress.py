"""The progress line of a long import on stderr (its own module: ``inspector FILE`` needs it
before the app starts, without loading the other store commands)."""

from __future__ import annotations

import sys

import click


class ImportProgress:
    """A progress line on stderr for long imports (only when stderr is a terminal)."""

    def __init__(self) -> None:
        self.enabled = sys.stderr.isatty()
        self.last = -1

    def __call__(self, stage: str, done: int, total: int) -> None:
        if not self.enabled or total <= 0:
            return
        pct = int(100 * done / total)
        if pct != self.last:
            self.last = pct
            click.echo(f"\r{stage}: {done}/{total} records ({pct}%)", err=True, nl=False)
            if done >= total:
                click.echo("", err=True)
