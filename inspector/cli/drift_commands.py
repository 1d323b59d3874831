"""``drift``, ``correct``, ``correct-summary``, ``confirm`` (one record or many), ``history``."""

from __future__ import annotations

import shlex
from pathlib import Path

import click

from inspector.cli.output import EXIT_OK, EXIT_REFUSED, emit, json_option, run_command
from inspector.cli.store_commands import reviewer_option, sole_store_argument
from inspector.cli.strict_gate import gate, strict_line, strict_option
from inspector.domain.errors import BadInput
from inspector.domain.plurals import counted as _n
from inspector.domain.trust import record_text
from inspector.domain.unreadable import headline as drift_headline
from inspector.domain.unreadable import in_part_events
from inspector.services import confirmations, corrections
from inspector.services.cleared import cleared_results
from inspector.services.cleared import warnings as cleared_warnings
from inspector.services.confirmations import BulkOutcome
from inspector.services.corrections import Outcome
from inspector.services.drift import drift
from inspector.services.drift_agreement import drift_agreement
from inspector.services.read_once import reads_once
from inspector.store.connection import open_store

session_required = click.option("--session", required=True, help="The session.")


def _outcome_text(o: Outcome, store: Path | None = None, session: str | None = None) -> list[str]:
    if o.refusals:
        return [f"refused {r.code}: {r.message}" for r in o.refusals]
    if o.generation is not None:
        doubts = [f"  ? not judged: {w['code']}: {w['message']}" for w in o.warnings]
        if doubts:
            doubts.append("  saved, but the rules could not judge " + ("the sentence" if len(doubts) == 1 else "the sentences") + " above: a person must read it.")
        # what the check of the new text found, said: it is the next summary's starting point
        judged = (f"saved with {_n(len(o.findings), 'drift finding')} (--save-anyway)" if o.findings
                  else "no drift found in it" + (", but see the ? lines" if doubts else ""))
        return [f"generation {o.generation} (corrected, parent {o.parent}); context v{o.context_version}; {judged}; "
                "the next summary starts from it", *doubts]
    lines = [f"{o.key} v{o.version} is {o.status}; context v{o.context_version} · goal r{o.goal_revision}"]
    if o.status == "pending" and o.may_confirm and store is not None and session is not None:
        lines.append(f"it binds nothing until the session's owner confirms it: `inspector confirm {shlex.quote(str(store))} "
                     f"--session {shlex.quote(session)} --key {shlex.quote(str(o.key))} "
                     f"--reviewer {shlex.quote(o.may_confirm)}` (or rejects it: add --reject)")
    return lines


def _where(verbatim_in: tuple[str, ...], cited: tuple[str, ...]) -> str:
    """Where the rebuild found a record's value. "verbatim in no event in range" read as "not in
    the log" for a record proposed after the summary's range (a todo item after a compaction):
    say what the record cites, so the reader sees where it came from."""
    if verbatim_in:
        return f"verbatim in {', '.join(verbatim_in)}"
    shown = ", ".join(cited[:4]) + (f" and {len(cited) - 4} more" if len(cited) > 4 else "")
    return "in no event of the generation's range word for word" + (f" (the record cites {shown})" if cited else "")


@click.command("drift")
@sole_store_argument
@session_required
@click.option("--generation", type=click.IntRange(min=0), help="Default: the latest generation.")
@click.option("--summarizer", metavar="CMD", help="A command that reads the events as JSON on stdin and writes a "
              "narrative rebuild on stdout, shown beside the extractive one.")
@strict_option
@json_option
@run_command()
async def drift_cmd(store: Path, session: str, generation: int | None, summarizer: str | None, strict: bool,
                    as_json: bool) -> int:
    """Where a summary generation left the protected state; exit 1 when its verdict is failed (a ✗ drift
    finding, or the same generation's survival ✗), 0 on warnings (?) only (1 with --strict)."""
    # One read of the raw log for drift, survival and check's verdict (drift_agreement): the command writes nothing.
    with reads_once():
        async with await open_store(store) as opened:
            report = await drift(opened, session, generation, summarizer=summarizer)
            lost_context = await cleared_results(opened, session)
            agreed = (await drift_agreement(opened, session, report.generation, report.findings)
                      if report.generation is not None else None)

    def human() -> list[str]:
        notes = [f"  ! {w['code']}: {w['message']}" for w in cleared_warnings(session, lost_context)]
        if report.generation is None:
            return [f"{session}: no summary generations", *notes]
        head = drift_headline(report.findings)
        if agreed is not None and agreed["verdict_parts"]["survival"] != "clear":  # never "no drift" alone over it
            lost = agreed["survival"] or agreed["survival_warnings"]
            head += (f"; survival {'✗' if agreed['survival'] else '?'} "
                     + ", ".join(dict.fromkeys(x["code"] for x in lost)) + " (below)")
        lines = [f"{session} generation {report.generation}: " + head]
        lines += [f"  {'!' if f.severity == 'warning' else '✗'} {f.code} [{f.key or '-'}]: {f.message}"
                  for f in report.findings]
        lines += notes
        if agreed is not None:  # survival of the same generation: check's verdict reads it too
            lines += [f"  ✗ survival {f['code']} [{f['key']}]: {f['message']}" for f in agreed["survival"]]
            lines += [f"  ? survival {w['code']}: {w['message']}" for w in agreed["survival_warnings"]]
            lines += [f"  ! check says {agreed['check']['verdict']} for this session: {why}"
                      for why in agreed["check"]["differs_because"]]
        warned = in_part_events(report.findings)  # a user's message: said once, by its said_in_part warning
        lines += [f"  ! read in part: {r['message']}" for r in report.read_in_part if r["evt"] not in warned]
        t = report.timeline
        if t.keys:
            lines.append(f"field timeline (generation{'s' if len(t.generations) > 1 else ''} "
                         + " ".join(str(g) for g in t.generations) + "):")
            mark = {"kept": "✓", "rewritten": "≠", "missing": "∅", "after": "·"}
            # the marks first, in the generations' order, then the key: padded to 28, an imported key
            # (a 50-character slug) pushed its marks out of line with the others' (newuser-18)
            lines += [f"  {' '.join(mark[t.cells[k][g]] for g in t.generations)}  {k}" for k in t.keys]
            if any(c == "after" for row in t.cells.values() for c in row.values()):
                lines.append("  (· first said after that generation's range, or written by the owner after it: not judged there)")
        lines.append("rebuild from the raw log:")
        lines += [f"  {r.key}: “{r.value}” " + _where(r.verbatim_in, r.cited) for r in report.rebuild]
        if report.narrative:
            lines += ["narrative rebuild:", *report.narrative.splitlines()]  # its lines are its own
        return lines + strict_line(verdict, strict, "generation")

    doc = report.as_dict() | {"cleared_results": [c.as_dict() for c in lost_context]}
    # the headline and verdict a person reads, for scripts too; with no generation, nothing drifted
    # (check's verdict for such a session), so a script reading doc["verdict"] always finds one
    # (verdict-ten) the verdict adds the same generation's survival verdict, as check's does, and
    # carries check's own verdict beside it with why they differ (services/drift_agreement.py)
    doc |= ({"headline": drift_headline(report.findings)} | (agreed or {})
            if report.generation is not None else {"headline": "no summary generations", "verdict": "clear"})
    # the verdict the JSON says (drift and survival of this generation): "failed" with exit 0 told a
    # script the survival ✗ it printed was no failure (docs/verdicts.md, "Exit codes agree")
    verdict = "failed" if report.blocking else doc["verdict"]
    doc = gate(verdict, strict) | doc  # "ok" first, as check's: the gate's answer, the exit code's
    emit(doc, as_json, human)
    return EXIT_OK if doc["ok"] else EXIT_REFUSED


@click.command("correct")
@sole_store_argument
@session_required
@click.option("--key", required=True, help="The protected state key, e.g. constraint.prod.")
@click.option("--value", required=True, help="The correct canonical value (taken byte for byte).")
@click.option("--reason", required=True, help="Why (recorded in the ledger).")
@click.option("--kind", help="Only to add a new key: its kind (goal, constraint, decision, …).")
@click.option("--rationale", help="A new rationale (default: the current version's is carried forward).")
@click.option("--alternative", "alternatives", multiple=True,
              help="An alternative set aside (repeatable; default: the current version's are carried forward).")
@reviewer_option(required=True)
@json_option
@run_command()
async def correct_cmd(store: Path, session: str, key: str, value: str, reason: str, kind: str | None,
                      rationale: str | None, alternatives: tuple[str, ...], reviewer: str, as_json: bool) -> int:
    """File a correction of a protected record as a new version (pending unless you own it)."""
    async with await open_store(store) as opened:
        outcome = await corrections.correct(opened, session, key, value, reason=reason, actor=reviewer, kind=kind,
                                            rationale=rationale, alternatives=list(alternatives) or None)
    emit(outcome.as_dict(), as_json, lambda: _outcome_text(outcome, store, session))
    return EXIT_REFUSED if outcome.refusals else EXIT_OK


MAX_TEXT_BYTES = 16 << 20  # a corrected summary is a page or a few; more is a wrong file (a log, /dev/zero)


def _text_of(text_file: Path) -> str:
    """The corrected text, or one sentence saying what the file is (before: Python's own words,
    "[Errno 2] No such file or directory: 'x'", "'utf-8' codec can't decode byte 0x89 …", and a
    folder was a usage error, exit 2). At most :data:`MAX_TEXT_BYTES` are read: ``--text-file
    /dev/zero`` (or a stream that never ends) read until memory ran out, with no word said."""
    if text_file.is_dir():
        raise BadInput(f"{text_file} is a folder: give the file holding the corrected text")
    try:
        if str(text_file) == "-":
            data = click.get_binary_stream("stdin").read(MAX_TEXT_BYTES + 1)
        else:
            with text_file.open("rb") as fh:
                data = fh.read(MAX_TEXT_BYTES + 1)
    except OSError as exc:
        raise BadInput(f"cannot read {text_file}: {exc.strerror or exc}") from None
    if len(data) > MAX_TEXT_BYTES:
        raise BadInput(f"{text_file} holds more than {MAX_TEXT_BYTES >> 20} MiB: too long for a corrected summary "
                       "(a log or a device given by mistake?); nothing was written")
    try:
        text = data.decode("utf-8-sig")  # a byte-order mark (Notepad writes one) is no text of the summary
    except UnicodeDecodeError as exc:
        raise BadInput(f"{text_file} is not UTF-8 text (byte 0x{exc.object[exc.start]:02x} at offset {exc.start}): "
                       "write the corrected summary as UTF-8 text") from None
    return text.replace("\r\n", "\n").replace("\r", "\n")  # line ends read as text mode read them


@click.command("correct-summary")
@sole_store_argument
@session_required
@click.option("--generation", required=True, type=click.IntRange(min=0), help="The generation being corrected.")
@click.option("--text-file", required=True, type=click.Path(path_type=Path, exists=False),
              help="UTF-8 file with the corrected text ('-' for standard input).")
@click.option("--reason", required=True, help="Why (recorded in the ledger).")
@click.option("--unresolved", multiple=True, help="An unresolved marker (repeatable). Default: the open issues and "
              "pending decisions now.")
@click.option("--save-anyway", is_flag=True, help="Save even though the new text still has drift findings "
              "(recorded in the ledger with the codes).")
@reviewer_option(required=True)
@json_option
@run_command()
async def correct_summary_cmd(store: Path, session: str, generation: int, text_file: Path, reason: str,
                              unresolved: tuple[str, ...], save_anyway: bool, reviewer: str, as_json: bool) -> int:
    """Write a corrected generation (parent = GENERATION); it is where the next summary starts.

    The new text is checked for drift first: with findings nothing is written (exit 1)
    unless --save-anyway. Sentences the rules cannot judge are saved and listed as
    "? not judged" (JSON: warnings)."""
    text = _text_of(text_file)
    for marker in unresolved:  # typed here; the app's come from the store (its open issues)
        record_text(marker, "an unresolved marker", "unresolved_invalid")
    async with await open_store(store) as opened:
        outcome = await corrections.correct_summary(opened, session, generation, text, reason=reason, actor=reviewer,
                                                    unresolved=list(unresolved) or None, save_anyway=save_anyway)
    emit(outcome.as_dict(), as_json, lambda: _outcome_text(outcome))
    return EXIT_REFUSED if outcome.refusals else EXIT_OK


@click.command("confirm")
@sole_store_argument
@session_required
@click.option("--key", "keys", multiple=True, help="The key whose pending version is decided (repeatable).")
@click.option("--all-pending", is_flag=True, help="Decide every pending record of the session (narrow with "
              "--kind and --writer).")
@click.option("--kind", help="With --all-pending: only records of this kind.")
@click.option("--writer", help="With --all-pending: only records written by this writer (e.g. extractor).")
@click.option("--reject", is_flag=True, help="Reject the pending version instead of confirming it.")
@click.option("--reason", default="", help="Why (recorded in the ledger).")
@reviewer_option(required=True)
@json_option
@run_command()
async def confirm_cmd(store: Path, session: str, keys: tuple[str, ...], all_pending: bool, kind: str | None,
                      writer: str | None, reject: bool, reason: str, reviewer: str, as_json: bool) -> int:
    """Confirm (or --reject) pending protected records: one --key, several, or --all-pending.

    Goal, constraint, permission and acceptance are decided by the session's owner only; a
    bulk decision decides what the reviewer may, refuses the rest (exit 1), one ledger entry each."""
    if bool(keys) == all_pending:
        raise click.UsageError("name the records with --key (repeatable) or use --all-pending")
    if (kind or writer) and not all_pending:
        raise click.UsageError("--kind and --writer narrow --all-pending; they do not apply to --key")
    async with await open_store(store) as opened:
        if len(keys) == 1:
            outcome = await corrections.confirm(opened, session, keys[0], actor=reviewer, reject=reject, reason=reason)
            emit(outcome.as_dict(), as_json, lambda: _outcome_text(outcome))
            return EXIT_REFUSED if outcome.refusals else EXIT_OK
        bulk = await confirmations.decide_many(opened, session, [(k, None) for k in keys] if keys else None,
                                               actor=reviewer, reject=reject, reason=reason, kind=kind,
                                               writer=writer)
    emit(bulk.as_dict(), as_json, lambda: _bulk_text(bulk))
    return EXIT_REFUSED if bulk.refused else EXIT_OK


def _bulk_text(o: BulkOutcome) -> list[str]:
    lines = [f"{o.decision} {len(o.decided)}: " + ", ".join(f"{d.key} v{d.version}" for d in o.decided)
             + f"; context v{o.context_version} · goal r{o.goal_revision}"] if o.decided else [
        f"nothing {o.decision}; nothing was written"]
    lines += [f"refused {r.refusal.code}: {r.refusal.message}" for r in o.refused]
    return lines


@click.command("history")
@sole_store_argument
@session_required
@click.option("--key", required=True)
@json_option
@run_command()
async def history_cmd(store: Path, session: str, key: str, as_json: bool) -> int:
    """Every version of KEY with its writer, time, and the ledger acts behind it."""
    async with await open_store(store) as opened:
        versions = await corrections.history(opened, session, key)

    def human() -> list[str]:
        lines = []
        for v in versions:
            lines.append(f"v{v['version']} {v['status']:<10} {v['value']}  (by {v['writer'] or '?'} at {v['at'] or '?'})")
            # the decision and the reason, each when there is one: not "correction by ann:  clarify"
            lines += [f"    L{a['ledger']} {a['kind']} by {a['actor']}: "
                      + " ".join(str(w) for w in (a["decision"], a["reason"]) if w) for a in v["acts"]]
        return lines

    emit(versions, as_json, human)
    return EXIT_OK
