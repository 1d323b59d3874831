"""``inspector migrate SOURCE --to TARGET``: copy a store exactly, to another file or a PostgreSQL server.

The copy itself is inspector/services/migrating.py; this prints its progress on stderr
(a live line on a terminal, a line per table elsewhere once a copy has run for a while)
and its result: counts per table, both ledger heads, and whether the target verified.
"""

from __future__ import annotations

import sys
import time

import click

from inspector.cli.output import EXIT_OK, EXIT_REFUSED, emit, json_option, run_command
from inspector.services.migrating import SEARCH_STEP, MigrateReport, location, migrate


class MigrateProgress:
    """Where a long copy has got to, on stderr; quiet for copies that finish in a moment."""

    QUIET_FOR = 2.0  # seconds before a non-terminal stderr gets progress lines

    def __init__(self) -> None:
        self.live = sys.stderr.isatty()
        self.started = time.monotonic()
        self.shown_at = 0.0
        self.table = ""

    def __call__(self, table: str, done: int, total: int) -> None:
        now = time.monotonic()
        step = "indexing" if table == SEARCH_STEP else "copying"
        finished = done >= total
        if self.live:
            if finished or now - self.shown_at >= 0.2:
                self.shown_at = now
                click.echo(f"\r{step} {table}: {done:,}/{total:,}\x1b[K", err=True, nl=finished)
            return
        if now - self.started >= self.QUIET_FOR and (finished or now - self.shown_at >= 5.0):
            if finished and table == self.table:
                return
            self.shown_at = now
            self.table = table if finished else ""
            click.echo(f"{step} {table}: {done:,}/{total:,}", err=True)


def _human(report: MigrateReport) -> list[str]:
    copied = ", ".join(f"{c.copied:,} {name}" for name, c in report.tables.items() if c.copied) or "nothing new"
    already = sum(c.already for c in report.tables.values())
    lines = [f"migrated {report.source} → {report.target} in {report.seconds:.1f} s: {copied}"
             + (f" ({already:,} rows already there)" if already else "")]
    if report.finished_unfinished:
        lines.append(f"  finished the copy started {report.finished_unfinished}, which had stopped part-way")
    if report.chunks_copied:
        lines.append(f"  material chunks: {report.chunks_copied:,} ({report.bytes_copied:,} bytes)")
    v = report.verify
    if v is not None and v.ok:
        entries = f"{v.entries} ledger entr{'y' if v.entries == 1 else 'ies'}"
        lines.append(f"  target verified: {entries}, chain, projections and {v.integrity}")
    elif v is not None:
        lines.append(f"  target does NOT verify: {v.first_break['message'] if v.first_break else ''}")
    src, dst = report.source_head, report.target_head
    if report.heads_match:
        lines.append(f"  ledger heads match: {src['seq']}:{src['hash']}")
    else:
        lines.append(f"  ledger heads DIFFER: source {src.get('seq')}:{src.get('hash')}, "
                     f"target {dst.get('seq')}:{dst.get('hash')}")
    return lines


@click.command("migrate")
@click.argument("source", metavar="SOURCE")
@click.option("--to", "target", required=True, metavar="TARGET",
              help="The store to copy into: a file path or a postgresql:// URL (created when missing; may hold "
                   "part of this same store from an earlier run).")
@json_option
@run_command()
async def migrate_cmd(source: str, target: str, as_json: bool) -> int:
    """Copy the store SOURCE (a path or a postgresql:// URL) into TARGET exactly — records, materials,
    the ledger as it is — then verify TARGET and compare ledger heads. Re-running it is safe."""
    report = await migrate(location(source), location(target), progress=MigrateProgress())
    emit(report.as_dict(), as_json, lambda: _human(report))
    return EXIT_OK if report.ok else EXIT_REFUSED
