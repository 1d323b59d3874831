"""Commands over a whole store: sessions, import, export, verify, ledger."""

from __future__ import annotations

import shlex
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from inspector.cli import STARTED
from inspector.cli.counts import counted, counts_text
from inspector.cli.import_progress import ProgressLine
from inspector.cli.import_words import (  # noqa: F401  (re-exported: the commands that take them from here)
    SHOWN_PROBLEMS,
    TRANSCRIPT_SUFFIXES,
    next_steps,
    pending_steps,
    refuse_transcript_name,
    reviewer_option,
)
from inspector.cli.output import EXIT_OK, EXIT_REFUSED, emit, json_option, run_command
from inspector.cli.sessions_command import sessions_cmd  # noqa: F401  (its own module, so listing loads light)
from inspector.cli.store_param import make_store_argument
from inspector.cli.strict_gate import gate, strict_option
from inspector.domain.cell_width import SESSION_CELLS, column_cells, fitted
from inspector.domain.errors import InspectorError
from inspector.domain.plurals import counted as _n
from inspector.services import exporting, sessions, verifying
from inspector.services.checking import CHECKS, SessionCheck, check_store
from inspector.services.output_file import stale_said
from inspector.store.connection import open_store

store_argument = make_store_argument()
# Commands whose STORE is their only positional argument: INSPECTOR_STORE when it is left out.
# (Before, left out with INSPECTOR_STORE unset, `check`, `verify`, `ledger` … crashed with a TypeError.)
sole_store_argument = make_store_argument(from_env=True)


@click.command("export")
@sole_store_argument
@click.option("--session", help="Only this session (default: all).")
@click.option("-o", "--output", "output", required=True, type=click.Path(path_type=Path),  # a folder: bad_output, exit 3
              help="The file to write.")
@click.option("--original", is_flag=True, help="Write the transcript the session was imported from, byte for byte "
              "(needs --session).")
@json_option
@run_command()
async def export_cmd(store: Path, session: str | None, output: Path, original: bool, as_json: bool) -> int:
    """Write STORE (or one session) as sif/1; re-importing it gives the same records."""
    if original and session is None:
        from inspector.cli.session_hint import missing_session_hint  # a synchronous read-only read

        raise click.UsageError(" ".join(filter(None, ["--original needs --session (the transcript one session was "
                                                      "imported from).", missing_session_hint(store)])))
    async with await open_store(store) as opened:
        if original:
            result = await exporting.export_original(opened, session or "", output)
            emit(result, as_json, lambda: [f"wrote {output}: {result['bytes']:,} bytes, {result['sha256']}",
                                           *stale_said(result["stale_partials_removed"])])
            return EXIT_OK
        if session is not None:  # checked before the file is opened: bad input leaves nothing on disk
            await sessions.get_session(opened, session)
        with ProgressLine(f"export {output.name}", enabled=not as_json, since=STARTED, stage="writing"):
            result = await exporting.export_sif(opened, output, session)
    emit(result, as_json, lambda: [f"wrote {output}: " + counts_text(result["records"].items()),
                                   *stale_said(result["stale_partials_removed"]),
                                   *(f"! {w}" for w in result["warnings"])])
    return EXIT_OK


@click.command("verify")
@sole_store_argument
@click.option("--head", "head", metavar="SEQ:HASH", help="The ledger head printed by an earlier verify: report a "
              "truncated or rewritten tail.")
@click.option("--full", is_flag=True, help="PRAGMA integrity_check (not quick_check) and rehash every material's "
              "bytes, however large the store.")
@click.option("--forget-head", "forget", is_flag=True, help="Forget the head the last good verify of this store on "
              "this machine saw (after replacing the file on purpose, e.g. from a backup).")
@json_option
@run_command()
async def verify_cmd(store: Path, head: str | None, full: bool, forget: bool, as_json: bool) -> int:
    """Recompute the ledger's hash chain, replay the projections, check SQLite's pages; exit 1 at a break."""
    try:
        pinned = verifying.parse_head(head) if head else None
    except InspectorError as exc:
        raise click.BadParameter(exc.message, param_hint="--head") from None
    report = verifying.cut_report(store)  # a file cut short: judged before anything opens (or writes) it
    try:
        if report is None:
            # a check writes nothing: an older format is refused (format_upgrade_needed), not upgraded
            async with await open_store(store, upgrade=False) as opened:
                report = await verifying.verify_store(opened, head=pinned, full=True if full else None,
                                                      forget=forget)
    except InspectorError as exc:
        # an unfinished copy, or an SQLite store that can no longer be opened: a break
        report = verifying.unfinished_report(exc) or verifying.damaged_report(store, exc)
        if report is None:
            raise

    # the command to copy, with this store's path (a URL may hold a password: not repeated)
    where = shlex.quote(str(store)) if isinstance(store, Path) else "STORE"

    def human() -> list[str]:
        tip = f"head {report.head['seq']}:{report.head['hash']}"
        residue = [f"! {note}" for note in report.notes()]  # not breaks: a deletion's text, the clock
        if report.ok:
            extra = f"; {report.not_covered()}" if report.not_covered() else ""
            entries = f"{report.entries} ledger entr{'y' if report.entries == 1 else 'ies'}"
            return [f"ok: {entries}; {report.checked()} verified{extra}", *residue,
                    f"{tip}  (pin it: inspector verify {where} --head {report.head['seq']}:{report.head['hash']})",
                    *(f"relies on: {line}" for line in report.relies_on())]

        def said(problem: dict[str, Any]) -> str:  # one line: what broke, its stable code
            return f"{problem.get('message', '')} [{problem.get('code', 'broken')}]".replace("\n", " ")
        lines = [f"BROKEN: {said(report.first_break) if report.first_break else ''}", *residue]
        lines += [f"  - {said(p)}" for p in report.problems[1:10]]
        if len(report.problems) > 10:
            lines.append(f"  … and {len(report.problems) - 10} more (verify --json lists up to 50)")
        if any(p.get("code") == "remembered_head_differs" for p in report.problems):
            lines.append(f"  to forget the remembered head (only if you replaced the file on purpose): "
                         f"inspector verify {store} --forget-head")
        unread = report.first_break is not None and report.first_break.get("code") in (
            "migration_unfinished", "damaged_store", "format_number_differs")
        return lines if unread else [*lines, tip]  # a store never read has no head to print

    emit(report.as_dict(), as_json, human)
    return EXIT_OK if report.ok else EXIT_REFUSED


# A `ledger` line of an imported sif file is chained as written, not made here: "state.confirm maria",
# stamped with the import's time when the line had none, read as maria's act of today (newuser-19).
_FROM_FILE = "  from a sif file: a claim, not an act made here"


@click.command("ledger")
@sole_store_argument
@click.option("--session", help="Only this session's entries.")
@click.option("--limit", type=click.IntRange(min=1), help="At most this many entries.")
@json_option
@run_command()
async def ledger_cmd(store: Path, session: str | None, limit: int | None, as_json: bool) -> int:
    """Show ledger entries, oldest first."""
    async with await open_store(store) as opened:
        entries = await sessions.session_ledger(opened, session, limit=limit)

    def human() -> list[str]:
        # every column cut to its width (cell_width.fitted): a reviewer's long name or a sif session id of
        # any length pushed the hash of its row right; a UUID (36) fits whole, --json holds every value whole
        wide = column_cells([e["session"] or "-" for e in entries], 1, SESSION_CELLS)
        return [f"L{e['seq']:<5} {e['at'][:19]}  {fitted(e['kind'], 18)} {fitted(e['actor'], 14)} "
                f"{fitted(e['session'] or '-', wide)} "
                f"{e['hash'][:12]}{_FROM_FILE if e.get('source') == 'sif' else ''}" for e in entries] or ["(no entries)"]

    emit(entries, as_json, human)
    return EXIT_OK


SHOWN_PER_CODE = 5  # lines of one code `check` prints for a session; the rest are counted


def _capped(kind: str, items: list[dict[str, Any]], line: Callable[[dict[str, Any]], str]) -> list[str]:
    """Each item's line, then past :data:`SHOWN_PER_CODE` of one code a count of the rest: an
    inspect-ai log of eleven tool results without calls printed eleven near-identical lines."""
    out: list[str] = []
    seen: Counter[str] = Counter()
    for item in items:
        seen[item["code"]] += 1
        if seen[item["code"]] <= SHOWN_PER_CODE:
            out.append(line(item))
    out += [f"    … {n - SHOWN_PER_CODE} more {kind} {code} (`--json` lists every one)"
            for code, n in seen.items() if n > SHOWN_PER_CODE]
    return out


def _clip(title: str, most: int = 60) -> str:
    return title if len(title) <= most else title[:most - 1] + "…"


def checking_stage(sessions: tuple[str, ...]) -> str:
    """The progress line's words: "checking every session" was said of `check --session S` too."""
    return f"checking {'every session' if not sessions else _n(len(set(sessions)), 'session')}"


@click.command("check")
@sole_store_argument
@click.option("--session", "sessions", multiple=True, help="Check only this session (repeatable).")
@click.option("--only", multiple=True, type=click.Choice(CHECKS), help="Run only this check (repeatable); the "
              "others are left out of the result, not reported as passed.")
# a CI gate that wants every line read and every sentence judged: "?" exited 0 (review-16)
@strict_option
@json_option
@run_command()
async def check_cmd(store: Path, sessions: tuple[str, ...], only: tuple[str, ...], strict: bool, as_json: bool) -> int:
    """Run every check over every session; exit 1 on any refusal, drift or survival finding or protocol problem
    (with --strict, on a session not judged in full too)."""
    with ProgressLine(f"check {store.name}", enabled=not as_json, since=STARTED, stage=checking_stage(sessions)):
        # a check writes nothing, as verify: an older format is refused (format_upgrade_needed), not upgraded —
        # a CI gate that upgraded a kept store file locked out the versions that read only its format (review-18)
        async with await open_store(store, upgrade=False) as opened:
            results = await check_store(opened, sessions=list(sessions) or None, only=list(only) or None)

    def deletions(r: SessionCheck) -> list[str]:  # listed under any verdict: what is about to be removed
        return [f"    ◷ deletion request {d['request']} pending ({d['reason_code']}, filed by {d['requested_by'] or '?'}): "
                f"{', '.join(d['targets'])} — `inspector deletion {shlex.quote(str(store))} {d['request']} --session "
                f"{shlex.quote(r.session)}` lists every copy it removes" for d in r.deletion_requests]

    def counted_survival(r: SessionCheck) -> list[str]:
        """Survival's count when it is not all kept, as the header's ∴ says it: its "lost" is the
        ``survival fact_…`` lines below, its other parts the ``!`` lines (survival-words)."""
        t = r.survival_tally
        if not t or not r.survival_headline or t["kept"] == sum(t.values()):
            return []
        return [f"    survival {r.survival_headline}"]

    def human() -> list[str]:
        lines = []
        for r in results:
            named = f"{r.session}  {_clip(r.title)}" if r.title and r.title != r.session else r.session
            if r.ok:
                lines.append(f"{'?' if r.verdict == 'unknown' else '✓'} {named}")
                lines += counted_survival(r)
                lines += [f"    ! {w['code']} {w['id']}: {w['message']}" for w in r.warnings]
                lines += deletions(r)
                continue
            lines.append(f"✗ {named}")
            lines += _capped("protocol", r.protocol, lambda p: f"    protocol {p['code']}: {p['message']}")
            lines += [f"    candidate {c['candidate']}: {', '.join(x['code'] for x in c['refusals'])}" for c in r.candidates]
            lines += [f"    drift {d['code']} [{d['key'] or '-'}]: {d['message']}" for d in r.drift]
            lines += counted_survival(r)
            lines += [f"    survival {d['code']} [{d['key']}]: {d['message']}"
                      + (f" — “{d['sentence']}”" if d.get("sentence") else "") for d in r.survival]
            lines += [f"    rules {d['code']} [{d['key']}]: {d['message']}" for d in r.action_rule]
            lines += [f"    handoff {h['handoff']}: {', '.join(x['code'] for x in h['refusals'])}" for h in r.handoffs]
            lines += [f"    ! {w['code']} {w['id']}: {w['message']}" for w in r.warnings]
            lines += [f"    stub {p['stub']} {p['code']}: {p['message']}" for p in r.stubs]
            lines += deletions(r)
        counts = Counter(r.verdict for r in results)
        lines.append(f"{counted(len(results), 'session')}: {counts['clear']} ✓ clear, {counts['unknown']} ? not judged "
                     f"in full (see the ! lines), {counts['failed']} ✗ failed")
        if strict and counts["unknown"]:
            lines.append(f"--strict: exit 1, {counted(counts['unknown'], 'session')} not judged in full")
        return lines

    ok = all(r.ok for r in results)
    verdict = "failed" if not ok else "unknown" if any(r.verdict == "unknown" for r in results) else "clear"
    # --strict: "ok" is the gate's answer, as the exit code: it said true beside exit 1 (review-17)
    doc: dict[str, Any] = {**gate(verdict, strict), "verdict": verdict}  # the same shape as drift's, survival's
    emit({**doc, "sessions": [r.as_dict() for r in results]}, as_json, human)
    return EXIT_OK if doc["ok"] else EXIT_REFUSED
