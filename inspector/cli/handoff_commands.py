"""``handoff`` and ``accept-handoff``: check a new-session transfer, then accept it by hand."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Any

import click

from inspector.cli.output import EXIT_OK, EXIT_REFUSED, emit, json_option, run_command
from inspector.cli.store_commands import reviewer_option, store_argument
from inspector.domain.handoff import HandoffCheck
from inspector.services import handoffs
from inspector.store.connection import open_store

session_option = click.option("--session", help="The handoff's session (needed only when the id is used in several).")


def checklist(result: HandoffCheck, status: str = "pending") -> list[str]:
    head = "acceptable" if result.acceptable else "REFUSED" if status == "pending" else f"already {status}"
    lines = [f"{result.handoff}: {head}"]
    lines += [f"  {'✓' if c.ok else '✗'} {c.name}: {c.message}" + ("" if c.ok else f" [{c.code}]")
              for c in result.checks]
    return lines


def _open_line(store: Path, new_session: str) -> str:
    return f"open it: `inspector {shlex.quote(str(store))} --session {shlex.quote(new_session)}`"


def way_on(store: Path, result: HandoffCheck, where: dict[str, Any], session: str | None) -> list[str]:
    """The line after the checks: who may accept and the command, or what a decided handoff started."""
    if where["status"] == "accepted":
        return [f"{result.handoff} was accepted and started session {where['new_session']}: "
                + _open_line(store, where["new_session"])]
    if where["status"] != "pending" or not result.acceptable:
        return []
    who = where["may_accept"]
    scope = f" --session {shlex.quote(session)}" if session else ""
    command = (f"`inspector accept-handoff {shlex.quote(str(store))} {shlex.quote(result.handoff)}{scope}"
               f" --reviewer {shlex.quote(who[0]) if len(who) == 1 else 'NAME'}`")
    names = " or ".join(who) if who else "nobody (the session records no owner)"
    return [f"accept it: {command} (only {names} may; it starts session {where['new_session']})"]


@click.command("handoff")
@store_argument
@click.argument("handoff")
@session_option
@json_option
@run_command()
async def handoff_cmd(store: Path, handoff: str, session: str | None, as_json: bool) -> int:
    """Check HANDOFF: every condition for accepting it, with its result; exit 1 when refused."""
    async with await open_store(store) as opened:
        result = await handoffs.check(opened, handoff, session)
        where = await handoffs.standing(opened, handoff, session)
    emit({**result.as_dict(), **where}, as_json,
         lambda: checklist(result, where["status"]) + way_on(store, result, where, session))
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
         lambda: [f"accepted {handoff}: new session {decision.new_session}; " + _open_line(store, decision.new_session)]
         if decision.new_session
         else checklist(decision.check))
    return EXIT_OK if decision.new_session else EXIT_REFUSED
