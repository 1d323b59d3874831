"""``request-deletion`` (file a request), ``deletion`` (what it must cover) and ``delete`` (carry it out)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from inspector.cli import STARTED
from inspector.cli.import_progress import ProgressLine
from inspector.cli.output import EXIT_OK, EXIT_REFUSED, emit, json_option, run_command
from inspector.cli.store_commands import reviewer_option, store_argument
from inspector.domain.cell_width import cells, fitted, padded
from inspector.domain.deletion import NOT_CHECKED, REASON_CODES
from inspector.services import deletion_requests, deletions
from inspector.services.deletion_gone import removed_sentence
from inspector.services.deletion_names import one_remedy
from inspector.services.deletions import Coverage
from inspector.store.connection import open_store

session_option = click.option("--session", help="The request's session (needed only when the id is used in several).")


def copy_count(n: int) -> str:
    """"1 copy", "7 copies": never "cop(ies)" (flow-eight)."""
    return f"{n:,} {'copy' if n == 1 else 'copies'}"


def _gone(cov: Coverage, target: str) -> str:
    """Where a target the request names went: the deletion's ledger entry when one removed it
    (review-15 item 6: "not found … already deleted, or never stored" while the timeline knew)."""
    by = cov.gone_by.get(target)
    if by is None:
        return (f"  (gone: {target} — deleted by this request or an earlier one)" if cov.status == "done" else
                f"  (not found: {target} — never stored, or deleted before the ledger said what it removed)")
    whose = "this request" if by["request"] == cov.request else f"request {by['request']}"
    return f"  (gone: {target} — deleted by ledger entry L{by['ledger']}, {whose})"


def coverage_text(cov: Coverage) -> list[str]:
    if cov.status == "done":  # as the app's Deletions tab says it; what it found since is a new request's
        lines = [f"{cov.request} (done) in {cov.session}: carried out, only the ledger's tombstone remains"
                 + (f"; {copy_count(len(cov.copies))} hold its values now (a new request removes them)"
                    if cov.copies else "")]
        said = removed_sentence(cov.removed)  # not only the targets: everything that went with them (review-18)
        lines += [f"  {said}"] if said else []
    elif cov.missing and all(c.where == "deletion_requests" for c in cov.copies):
        lines = [f"{cov.request} ({cov.status}) in {cov.session}: nothing left to remove, its targets are gone "
                 f"already; carrying it out keeps its reason only as a keyed digest ({copy_count(len(cov.copies))})"]
    else:
        lines = [f"{cov.request} ({cov.status}) in {cov.session}: {copy_count(len(cov.copies))} to remove"]
    width = max([12, *(cells(c.where) + 1 for c in cov.copies)])  # 'deletion_requests' is 17 cells
    lines += [f"  {padded(c.where, width)} {fitted(c.id, 24)} {c.why}" for c in cov.copies]  # --json: whole ids
    lines += [_gone(cov, m) for m in cov.missing]
    lines += [f"  ! {w}" for w in cov.warnings]
    if cov.kept:
        lines.append(f"  ✕ {copy_count(len(cov.kept))} cannot be removed, so `delete` refuses (copy_kept):")
        lines += [f"    - {k['why']}" for k in cov.kept]
        lines.append(f"    to remove them: {one_remedy(cov.session, cov.kept)}" if len(cov.kept) > 1
                     else f"    to remove it: {one_remedy(cov.session, cov.kept)}")
    return lines + _not_checked()


def _not_checked() -> list[str]:
    return ["  not checked (copies there may remain):", *(f"    - {n}" for n in NOT_CHECKED)]


@click.command("request-deletion")
@store_argument
@click.argument("targets", nargs=-1, required=True)
@click.option("--session", required=True, help="The session whose events or materials are to be deleted.")
@click.option("--reason", required=True, help="Why (who asked); the ledger keeps only a keyed digest of it.")
@click.option("--reason-code", type=click.Choice(REASON_CODES), default="other", show_default=True,
              help="The reason as a stable code (recorded in the ledger as it is).")
@reviewer_option(required=True)
@json_option
@run_command()
async def request_deletion_cmd(store: Path, targets: tuple[str, ...], session: str, reason: str, reason_code: str,
                               reviewer: str, as_json: bool) -> int:
    """File a deletion request for TARGETS (evt:N, a material id, or mat:ID) of a session: nothing is
    deleted yet — `deletion STORE DEL` then lists every copy it covers, `delete STORE DEL` carries it out."""
    async with await open_store(store) as opened:
        filed = await deletion_requests.file_request(opened, session, list(targets), reason, actor=reviewer,
                                                     reason_code=reason_code)
    emit(filed.as_dict(), as_json, lambda: [
        f"filed deletion request {filed.request} in {filed.session}: {', '.join(filed.targets)} (pending, ledger "
        f"L{filed.ledger_seq})",
        *(f"  ! {target} is also in pending request {', '.join(others)}: carrying out either removes it, and the "
          "other then deletes nothing of it" for target, others in filed.also_pending.items()),
        f"  next: inspector deletion {store} {filed.request} --session {filed.session}   (every copy it covers)",
        f"        inspector delete {store} {filed.request} --session {filed.session}     (carry it out)"])
    return EXIT_OK


@click.command("deletion")
@store_argument
@click.argument("request")
@session_option
@json_option
@run_command()
async def deletion_cmd(store: Path, request: str, session: str | None, as_json: bool) -> int:
    """Show every copy deletion request REQUEST must remove."""
    async with await open_store(store) as opened:
        cov = await deletions.check(opened, request, session)
    emit(cov.as_dict(), as_json, lambda: coverage_text(cov))
    return EXIT_OK


@click.command("delete")
@store_argument
@click.argument("request")
@session_option
@reviewer_option(required=True)
@json_option
@run_command()
async def delete_cmd(store: Path, request: str, session: str | None, reviewer: str, as_json: bool) -> int:
    """Carry out deletion request REQUEST: remove every copy, keep a tombstone in the ledger."""
    # a terminal sees the time go by (a 1 MB pasted log's deletion looked for its values 18 s, silently)
    with ProgressLine(f"delete {request}", enabled=not as_json, since=STARTED, stage="finding and removing every copy"):
        async with await open_store(store) as opened:
            result = await deletions.delete(opened, request, actor=reviewer, session=session)
    emit(result.as_dict(), as_json,
         lambda: [f"refused {r.code}: {r.message}" for r in result.refusals] if result.refusals
         else [_deleted_line(request, result.removed, result.coverage.copies, result.coverage.gone_by),
               *(f"  rewrote {c.id} ({c.why})" for c in result.coverage.copies if c.where == "sessions"),
               *(f"  ! {w}" for w in result.coverage.warnings),
               *([] if result.wal_truncated else ["  ! " + _not_yet_erased(opened)]),
               *_not_checked()])
    return EXIT_REFUSED if result.refusals else EXIT_OK


def _deleted_line(request: str, removed: dict[str, int], copies: list[Any],
                  gone_by: dict[str, dict[str, Any]] | None = None) -> str:
    """"deleted all 9 copies `deletion` lists for del-1: 1 event, 1 summary, 7 candidates; with
    them …" (was "7 candidate", and "deleted 0 cop(ies) for del-2: " with nothing after the
    colon when its targets were gone)."""
    if not removed:
        by = sorted({f"L{b['ledger']}, request {b['request']}" for b in (gone_by or {}).values()})
        return (f"deleted nothing for {request}: its targets were gone already (deleted by "
                + (f"ledger entry {', '.join(by)}" if by else "an earlier request")
                + "); its reason is now kept only as a keyed digest")
    names = {"summary": ("summary", "summaries"), "state": ("state record", "state records"),
             "material_bytes": ("material's bytes", "materials' bytes")}
    said = ", ".join(f"{n} {names.get(k, (k, k + 's'))[n != 1]}" for k, n in removed.items())
    return (f"deleted all {len(copies)} cop{'y' if len(copies) == 1 else 'ies'} `deletion` lists for {request}: "
            f"{said}" + _with_them(copies))


def _with_them(copies: list[Any]) -> str:
    """What went with the rows counted: index entries and texts kept only as a digest, so the
    count matches the listing's (a script saw "7 copies to remove" and then "deleted 4")."""
    index = sum(1 for c in copies if c.where.endswith("_fts") or c.where in {"reasoning_grams", "search_grams"})
    digested = sum(1 for c in copies if c.where == "deletion_requests")
    parts = [f"{index} search-index entr{'y' if index == 1 else 'ies'}" if index else "",
             f"{digested} reason text{'s' if digested > 1 else ''} now kept only as a keyed digest" if digested else ""]
    said = " and ".join(p for p in parts if p)
    return f"; with them {said}" if said else ""


def _not_yet_erased(store: object) -> str:
    """Where the deleted bytes still are when the physical erasure had to wait, per backend."""
    if getattr(store, "dialect", "sqlite") == "postgresql":
        return ("the tables could not be rewritten without the deleted rows yet (a transaction open elsewhere on "
                "the server still sees them); the next deletion rewrites them")
    return "the WAL could not be truncated yet (a reader holds an old snapshot), so the deleted text may still be " \
           "in the store's file or its -wal until the log is truncated: the next command that opens the store " \
           "writable does it once the reader is gone, or the last program using the store when it closes it " \
           "(`inspector verify` names the deletion until then)"

