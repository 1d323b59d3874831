"""What ``import`` (and ``follow``) refuse before an import and say after it, apart from the store commands.

They lived in cli/store_commands.py, whose ``export``, ``verify`` and ``check`` load the verify,
drift, candidate and fact services: ``inspector import`` loaded all of them for these few lines,
about 0.5 s of CPU before a 4 MB transcript's 0.15 s import began (docs/benchmarks.md, "Session
19: import-twelve"). store_commands re-exports them for the commands that take them from there.
"""

from __future__ import annotations

import os
import shlex
from pathlib import Path
from typing import Any

import click

from inspector.domain.errors import BadInput
from inspector.domain.plurals import counted


def reviewer_option(required: bool) -> Any:
    return click.option(
        "--reviewer", envvar="INSPECTOR_REVIEWER", required=required, metavar="NAME",
        help="Who does this (recorded in the ledger). Defaults to $INSPECTOR_REVIEWER.",
    )


SHOWN_PROBLEMS = 10  # problem lines an import prints before counting the rest


def next_steps(store: str, sessions: list[str]) -> list[str]:
    """Each imported session's whole id and the command that opens it: every other command takes
    ``--session`` with the whole id, which the counts line alone never showed."""
    if len(sessions) > 3:
        return [f"  {len(sessions)} sessions: `inspector sessions {shlex.quote(store)}` lists them"]
    return [f"  session {sid}: open it with `inspector {shlex.quote(store)} --session {shlex.quote(sid)}`"
            for sid in sessions]


TRANSCRIPT_SUFFIXES = (".jsonl", ".json", ".eval", ".yaml", ".yml")


def refuse_transcript_name(into: object) -> None:
    """A new store is not made under a transcript's name: `import run.jsonl --into out.jsonl` (export's
    habit) made an SQLite file named .jsonl, which `follow`, `import` and `sessions --discover` then
    took for a transcript. An existing store of any name still opens."""
    if isinstance(into, Path) and into.suffix.lower() in TRANSCRIPT_SUFFIXES and not os.path.lexists(into):
        raise BadInput(f"{into} names a transcript ({into.suffix}), not a store: give the new store a name of its "
                       f"own, e.g. {into.with_suffix('.db')}", code="bad_output")


def pending_steps(store: str, pending: dict[str, int]) -> list[str]:
    """The records an import proposed and left pending (a transcript's goals, constraints, files
    and failures, read by the extractor): the counts line called them "state records", and nothing
    said they bind nothing — budget's protected block stayed empty — until the owner confirms them."""
    if not pending:
        return []
    # never "confirm them all": a pending rule can be an instruction injected in a tool's output
    if len(pending) > 3:
        return [f"  {sum(pending.values())} protected records in {len(pending)} sessions are pending proposals: they "
                "bind nothing until the session's owner confirms each that holds (`inspector facts STORE --session S` "
                "lists them with their sources; `inspector confirm STORE --session S --key K`)"]
    return [f"  {counted(n, 'protected record')} of {sid} "
            f"{'is a pending proposal: it binds' if n == 1 else 'are pending proposals: they bind'} nothing until the "
            "owner confirms each "
            f"that holds (`inspector facts {shlex.quote(store)} --session {shlex.quote(sid)}` lists them with their "
            "sources; `inspector confirm … --key K`)" for sid, n in pending.items()]
