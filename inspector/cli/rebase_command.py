"""``rebase``: replay a stale candidate on the session's current base, as a new candidate."""

from __future__ import annotations

from pathlib import Path

import click

from inspector.cli.candidate_commands import describe
from inspector.cli.output import EXIT_OK, EXIT_REFUSED, emit, json_option, run_command
from inspector.cli.store_commands import reviewer_option, store_argument
from inspector.services.rebasing import Rebase, describe_changes, rebase
from inspector.store.connection import open_store


def describe_rebase(r: Rebase) -> list[str]:
    if r.refusals:
        return [f"refused {x.code}: {x.message}" for x in r.refusals]
    assert r.validation is not None
    lines = [f"rebased {r.stale} (context v{r.from_version[0]}, goal r{r.from_version[1]}) as {r.candidate} "
             f"(context v{r.to_version[0]}, goal r{r.to_version[1]}); {r.stale} stays as it was", "changed in between:"]
    lines += describe_changes(r.changes) + describe(r.validation)
    return lines


@click.command("rebase")
@store_argument
@click.argument("candidate")
@click.option("--session", help="The candidate's session (needed only when the id is used in several).")
@reviewer_option(required=True)
@json_option
@run_command()
async def rebase_cmd(store: Path, candidate: str, session: str | None, reviewer: str, as_json: bool) -> int:
    """Copy stale CANDIDATE onto the current base as a new candidate, validated afresh (exit 1 if refused)."""
    async with await open_store(store) as opened:
        result = await rebase(opened, candidate, actor=reviewer, session=session)
    emit(result.as_dict(), as_json, lambda: describe_rebase(result))
    return EXIT_REFUSED if result.refusals else EXIT_OK
