"""``reconcile`` and ``actions``: settle an action whose outcome is unknown, with evidence and a reason."""

from __future__ import annotations

import shlex
from pathlib import Path

import click

from inspector.cli.output import EXIT_OK, EXIT_REFUSED, emit, json_option, run_command
from inspector.cli.store_commands import reviewer_option, sole_store_argument, store_argument
from inspector.domain.cell_width import column_cells, fitted, padded
from inspector.domain.reconcile import RECONCILED_STATUSES
from inspector.services.action_rules import rule_acts
from inspector.services.reconciling import list_actions, reconcile
from inspector.services.sessions import get_session
from inspector.store.connection import open_store


@click.command("reconcile")
@store_argument
@click.argument("action")
@click.option("--status", required=True, type=click.Choice(RECONCILED_STATUSES),
              help="What checking the effect showed.")
@click.option("--evidence", required=True, metavar="REF",
              help="An evt:N or a material id of the session that shows the effect.")
@click.option("--reason", required=True, help="Why (recorded in the ledger).")
@click.option("--session", help="The action's session (needed only when the id is used in several).")
@reviewer_option(required=True)
@json_option
@run_command()
async def reconcile_cmd(store: Path, action: str, status: str, evidence: str, reason: str, session: str | None,
                        reviewer: str, as_json: bool) -> int:
    """Settle ACTION (unknown or in flight) after checking its effect; exit 1 when refused."""
    async with await open_store(store) as opened:
        result = await reconcile(opened, action, status=status, evidence=evidence, reason=reason, actor=reviewer,
                                 session=session)

    def human() -> list[str]:
        if result.refusals:
            return [f"refused {r.code}: {r.message}" for r in result.refusals]
        return [f"{result.action}: {result.old_status} → {result.status} by {result.actor} ({result.role}), "
                f"evidence {result.evidence} · ledger L{result.ledger_seq}"]

    emit(result.as_dict(), as_json, human)
    return EXIT_REFUSED if result.refusals else EXIT_OK


# A Claude Code session that ran `git push` printed "(no actions)": read as "it did nothing with effects".
NO_ACTIONS = ("(no actions recorded: the action ledger holds what a sif/1 file or a handoff records; a transcript's "
              "tool calls, whatever they changed, are events on the timeline, not actions here)")


@click.command("actions")
@sole_store_argument
@click.option("--session", required=True)
@json_option
@run_command()
async def actions_cmd(store: Path, session: str, as_json: bool) -> int:
    """The session's action ledger (unknown first), with who reconciled what."""
    async with await open_store(store) as opened:
        await get_session(opened, session)  # a mistyped id is bad input (exit 3), not "(no actions)"
        rows = await list_actions(opened, session)
        acts = await rule_acts(opened, session)
    # The ledger's actions are not the tool calls: a session whose `check` lists calls against a rule said
    # only "(no actions recorded …)" here (review-19 #5) — the calls are pointed at, never counted as actions.
    against = sum(h.mark == "✗" for h in acts.hits)
    unread = sum(1 for n in acts.not_read if n.get("calls_after"))
    rules_line = (f"tool calls against a rule: {against} ✗, {len(acts.hits) - against} ? or dry run"
                  + (f", {unread} rule{'s' if unread != 1 else ''} no call can show" if unread else "")
                  + f" — `inspector check {shlex.quote(str(store))} --session {shlex.quote(session)} --only rules` lists them"
                  if acts.hits or unread else None)

    def human() -> list[str]:
        lines = []
        wide = column_cells([a.id for a in rows], 10, 24)  # a tool call id (toolu_…) is 30
        for a in rows:
            line = f"{fitted(a.id, wide)} {padded(a.status, 10)} {a.intent or ''}"
            if a.settled_by:
                s = a.settled_by
                line += f"  (reconciled L{s['ledger']} by {s['actor']}: {s['evidence']} — {s['reason']})"
            lines.append(line)
        return (lines or [NO_ACTIONS]) + ([rules_line] if rules_line else [])

    emit([a.as_dict() for a in rows], as_json, human)
    return EXIT_OK
