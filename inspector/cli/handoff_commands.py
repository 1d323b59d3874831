"""``handoff`` and ``accept-handoff``: check a new-session transfer, then accept it by hand."""

from __future__ import annotations

from pathlib import Path

import click

from inspector.cli.output import EXIT_OK, EXIT_REFUSED, emit, json_option, run_command
from inspector.cli.store_commands import reviewer_option, store_argument
from inspector.domain.handoff import HandoffCheck
from inspector.services import handoffs
from inspector.store.connection import open_store

session_option = click.option("--session", help="The handoff's session (needed only when the id is used in several).")


def checklist(result: HandoffCheck) -> list[str]:
    lines = [f"{result.handoff}: " + ("acceptable" if result.acceptable else "REFUSED")]
    lines += [f"  {'✓' if c.ok else '✗'} {c.name}: {c.message}" + ("" if c.ok else f" [{c.code}]")
              for c in result.checks]
    return lines


@click.command("handoff")
@store_argument
@click.argument("handoff")
@session_option
@json_option
@run_command()
async def handoff_cmd(store: Path, handoff: str, session: str | None, as_json: bool) -> int:
    """Check HANDOFF: every condition for accepting it, with its result."""
    async with await open_store(store) as opened:
        result = await handoffs.check(opened, handoff, session)
    emit(result.as_dict(), as_json, lambda: checklist(result))
    return EXIT_OK if result.acceptable else EXIT_REFUSED


@click.command("accept-handoff")
@store_argument
@click.argument("handoff")
@session_option
@reviewer_option(required=True)
@json_option
@run_command()
async def accept_handoff_cmd(store: Path, handoff: str, session: str | None, reviewer: str, as_json: bool) -> int:
    """Accept HANDOFF and start the new session from its material (refused unless every check passes)."""
    async with await open_store(store) as opened:
        decision = await handoffs.accept(opened, handoff, actor=reviewer, session=session)
    emit(decision.as_dict(), as_json,
         lambda: [f"accepted {handoff}: new session {decision.new_session}"] if decision.new_session
         else checklist(decision.check))
    return EXIT_OK if decision.new_session else EXIT_REFUSED
