"""``candidates``, ``validate``, ``accept``, ``reject``: reviewing compression candidates."""

from __future__ import annotations

import shlex
from pathlib import Path

import click

from inspector.cli.output import EXIT_OK, EXIT_REFUSED, emit, json_option, run_command
from inspector.cli.store_commands import reviewer_option, sole_store_argument, store_argument
from inspector.domain.candidates import Validation
from inspector.services import candidates
from inspector.services.sessions import get_session
from inspector.store.connection import open_store

session_option = click.option("--session", help="The candidate's session (needed only when the id is used in several).")


STALE = frozenset({"stale_base", "stale_goal"})  # what `rebase` replays onto the current base


def describe(v: Validation, store: object = "STORE") -> list[str]:
    # A decided candidate has no verdict to give (as the app's review and the report say): "[accepted]:
    # REFUSED" read as a contradiction — its checks run against the context as it is now.
    decided = v.status != "pending"
    verdict = ("decided; checked again against the context as it is now" if decided
               else "structure verified" if v.structure_verified else "REFUSED")
    lines = [f"{v.candidate} [{v.status}]: {verdict} · semantic_lossless: unknown"]
    if decided and v.refusals:
        lines.append(f"  would not pass now (already {v.status}; nothing to decide):")
    lines += [f"  ✗ {r.code}: {r.message}" for r in v.refusals]
    lines += [f"  ! {w.code}: {w.message}" for w in v.warnings]
    if v.status == "pending" and any(r.code in STALE for r in v.refusals):  # the way on, as the app's dialog offers
        lines.append(f"  → `inspector rebase {shlex.quote(str(store))} {shlex.quote(v.candidate)}` replays it on the "
                     "current base as a new candidate to review")
    return lines



# A reviewer who imported a transcript finds none and cannot tell why: say where one comes from.
NONE_YET = ("(no candidates: a compression candidate is proposed by a `candidate` record of a sif/1 file and "
            "imported; a transcript's own compactions are summary generations, read by `drift` and `survival`)")


@click.command("candidates")
@sole_store_argument
@click.option("--session", required=True, help="The session whose candidates to list.")
@json_option
@run_command()
async def candidates_cmd(store: Path, session: str, as_json: bool) -> int:
    """List a session's compression candidates with their validation now."""
    async with await open_store(store) as opened:
        await get_session(opened, session)  # a mistyped id is bad input (exit 3), not "(no candidates)"
        found = await candidates.list_candidates(opened, session)
    emit([v.as_dict() for _, v in found], as_json,
         lambda: [line for _, v in found for line in describe(v, store)] or [NONE_YET])
    return EXIT_OK


@click.command("validate")
@store_argument
@click.argument("candidate")
@session_option
@json_option
@run_command()
async def validate_cmd(store: Path, candidate: str, session: str | None, as_json: bool) -> int:
    """Validate CANDIDATE exactly (bytes, not meaning); exit 1 when refused."""
    async with await open_store(store) as opened:
        result = await candidates.validate(opened, candidate, session)
    emit(result.as_dict(), as_json, lambda: describe(result, store))
    return EXIT_OK if result.structure_verified else EXIT_REFUSED


@click.command("accept")
@store_argument
@click.argument("candidate")
@session_option
@reviewer_option(required=True)
@json_option
@run_command()
async def accept_cmd(store: Path, candidate: str, session: str | None, reviewer: str, as_json: bool) -> int:
    """Accept CANDIDATE: re-validated and committed only if its base is still current."""
    async with await open_store(store) as opened:
        decision = await candidates.accept(opened, candidate, actor=reviewer, session=session)
    v = decision.validation

    def human() -> list[str]:
        if v.refusals:
            return describe(v, store)
        return [f"accepted {v.candidate}: context version is now {decision.context_version}"]

    emit(decision.as_dict(), as_json, human)
    return EXIT_REFUSED if v.refusals else EXIT_OK


@click.command("reject")
@store_argument
@click.argument("candidate")
@session_option
@click.option("--reason", required=True, help="Why (recorded in the ledger).")
@reviewer_option(required=True)
@json_option
@run_command()
async def reject_cmd(store: Path, candidate: str, session: str | None, reason: str, reviewer: str,
                     as_json: bool) -> int:
    """Reject CANDIDATE with a reason; the current context stays as it is."""
    async with await open_store(store) as opened:
        decision = await candidates.reject(opened, candidate, actor=reviewer, reason=reason, session=session)
    v = decision.validation
    emit(decision.as_dict(), as_json,
         lambda: describe(v) if v.refusals else [f"rejected {v.candidate}: {reason}"])
    return EXIT_REFUSED if v.refusals else EXIT_OK
