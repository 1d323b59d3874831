"""``facts``, ``survival``, ``rebuild``: what the raw log says, what each summary kept."""

from __future__ import annotations

import shlex
from pathlib import Path

import click

from inspector.cli import STARTED
from inspector.cli.import_progress import ProgressLine
from inspector.cli.output import EXIT_OK, EXIT_REFUSED, emit, json_option, lines_text, run_command
from inspector.cli.store_commands import reviewer_option, sole_store_argument
from inspector.cli.strict_gate import gate, strict_line, strict_option
from inspector.domain.cell_width import KEY_CELLS, cells, clipped, fitted, padded
from inspector.domain.plurals import counted as _n
from inspector.domain.survival_report import PART_NOTE, part
from inspector.domain.terminal_safe import line_safe
from inspector.domain.vocabulary import STATE_KINDS
from inspector.services import fact_proposals
from inspector.services.rebuilding import rebuild_generation
from inspector.services.survival import survival_report
from inspector.services.survival_verdict import survival_verdict
from inspector.store.connection import open_store

MARK = {"kept": "✓", "missing": "∅", "contradicted": "✗", "unknown": "?"}
KIND = max(map(len, STATE_KINDS))  # "evidence_ref": padded to 11 it pushed its row's key and value one cell


@click.command("facts")
@sole_store_argument
@click.option("--session", required=True, help="The session.")
@click.option("--write", "write_", is_flag=True, help="Append the proposals not stored yet as pending records "
              "(writer: extractor); needs --reviewer.")
@click.option("--with-notes", "with_notes", is_flag=True,
              help='With --json: print {"session", "facts": [...], "notes": [...]} instead of the bare list of facts; '
                   "a note (code read_in_part) names an event the rules read only in its head and tail.")
@reviewer_option(required=False)
@json_option
@run_command()
async def facts_cmd(store: Path, session: str, write_: bool, with_notes: bool, reviewer: str | None,
                    as_json: bool) -> int:
    """Protected records proposed from the raw log, each with the rule that proposed it."""
    if write_ and not reviewer:
        raise click.UsageError("--write records who asked for it: give --reviewer or set INSPECTOR_REVIEWER")
    # a line on stderr while it lasts (a terminal, not --json, past 1 s): 2-5 s with nothing on screen (new-user-15)
    with ProgressLine(f"facts {session}", enabled=not as_json, since=STARTED, stage="reading the log"):
        async with await open_store(store) as opened:
            written = await fact_proposals.write(opened, session, actor=reviewer) if write_ and reviewer else None
            rows, in_part = ([], []) if written is not None else \
                await fact_proposals.proposed_and_read_in_part(opened, session)
    if written is not None:
        emit({"session": session, "written": [f.as_dict() for f in written]}, as_json,
             lambda: [f"{_n(len(written), 'pending record')} added", *(f"  + {f.key}: {f.value[:80]}" for f in written)])
        return EXIT_OK

    def human() -> list[str]:
        notes = [f"note: {note['message']}" for note in in_part]
        if not rows:
            return [f"{session}: the rules propose no fact", *notes]
        # the key cut to its column (cell_width.fitted): a 58-character slug pushed the status and value
        # of its row right, each row by its own amount; --json keeps it whole (flow-19)
        lines = [f"{fitted(r.fact.kind, KIND)} {fitted(r.fact.key)} {padded(f'[{r.status}]', 12)} "
                 f"{clipped(r.fact.value, 70)}  ({', '.join(r.fact.sources[:4])}"
                 f"{' …' if len(r.fact.sources) > 4 else ''}; {r.fact.rule})"
                 + (f"  ◌ {r.stale_text()}" if r.stale else "") for r in rows]
        stale = [r for r in rows if r.stale]
        if stale:  # the app's "◌ stale proposal: reject only", with the command that decides one
            lines.append(f"note: {_n(len(stale), 'stale proposal')} (pending behind the owner's active version): "
                         f"`confirm` refuses {'it' if len(stale) == 1 else 'them'}; reject each with "
                         f"`inspector confirm {shlex.quote(str(store))} --session {shlex.quote(session)} "
                         f"--key {shlex.quote(stale[0].fact.key)} --reject`")
        if any(cells(line_safe(r.fact.key)) > KEY_CELLS for r in rows):
            lines.append("note: a key cut with … in its middle is whole in `--json`; a command given the cut "
                         "form names the whole key")
        return lines + notes

    # the bare list is what scripts written before the notes read; the object only when asked for
    listed = [r.as_dict() for r in rows]
    emit({"session": session, "facts": listed, "notes": in_part} if with_notes else listed, as_json, human)
    return EXIT_OK


@click.command("survival")
@sole_store_argument
@click.option("--session", required=True, help="The session.")
@click.option("--generation", type=click.IntRange(min=0), help="Default: the latest generation.")
@click.option("--judge", metavar="CMD", help="A command that reads one fact and the summary as JSON on stdin and "
              "prints {\"verdict\", \"reason\"}; asked for missing/unknown facts, shown as the judge's opinion.")
@strict_option
@json_option
@run_command()
async def survival_cmd(store: Path, session: str, generation: int | None, judge: str | None, strict: bool,
                       as_json: bool) -> int:
    """Which protected facts a summary generation kept; exit 1 when one is lost (check's ✗: a confirmed fact
    the summary must restate missing, or one contradicted), 0 for a fact only not restated, pending or not
    judged (check's ?; 1 with --strict)."""
    with ProgressLine(f"survival {session}", enabled=not as_json, since=STARTED, stage="judging each fact"):
        async with await open_store(store) as opened:
            report = await survival_report(opened, session, generation, judge=judge)
    # check's rule for survival's part of its verdict (services/survival_verdict.py): ✗ lost, ? the rest
    said = survival_verdict(session, report)
    verdict = "failed" if said.findings else "unknown" if said.warnings else "clear"

    def human() -> list[str]:
        if report.generation is None:
            return [f"{session}: no summary generation"]
        lines = [f"{session} {report.headline()} (covers {list(report.covers) if report.covers else 'all'}; "
                 + ", ".join(f"{k} {v}" for k, v in (report.result.counts if report.result else {}).items()) + ")"]
        for v in report.verdicts:
            label = "" if v.fact.status == "active" else f" [{v.fact.status}]"
            note = PART_NOTE.get(part(v))
            lines.append(f"  {MARK[v.verdict]} {v.verdict:<12} {fitted(v.fact.kind, KIND)} {clipped(v.fact.value, 70)}{label} — "
                         f"{v.reason}"
                         + (f" ({note})" if note else ""))
            judged = report.judged.get(v.fact.key)
            if judged:
                lines.append(f"      judge says {judged['verdict']}: {judged['reason'][:120]}")
        if report.result is not None:  # what the counts leave out, so "keeps 5 of 5" beside 6 records adds up
            for f in report.result.after:
                lines.append(f"  · {'after range':<12} {fitted(f.kind, KIND)} {clipped(f.value, 70)} [{f.status}] — first said at "
                             f"{', '.join(f.sources[:2])}, after what this generation covers: not judged")
            for f in report.result.untrusted:
                lines.append(f"  · {'untrusted':<12} {fitted(f.kind, KIND)} {clipped(f.value, 70)} [{f.status}] — proposed by "
                             f"{f.writer}: not a fact a summary must keep, not counted")
            for f in report.result.in_review:
                lines.append(f"  · {'in review':<12} {fitted(f.kind, KIND)} {clipped(f.value, 70)} [{f.status}] — filed in review "
                             f"({', '.join(f.sources[:2])}) after this summary: not judged against it")
            for f in report.result.unsourced:
                lines.append(f"  · {'no source':<12} {fitted(f.kind, KIND)} {clipped(f.value, 70)} [{f.status}] — cites no event, so "
                             "when it was said is unknown: not judged")
            for f in report.result.stale:
                lines.append(f"  · {'stale':<12} {fitted(f.kind, KIND)} {clipped(f.value, 70)} [{f.status}] — {f.key} "
                             f"{f.detail['stale_behind']}, proposed before its active version: reject it; not counted")
        return lines + strict_line(verdict, strict, "generation")

    # check's ✗, not every missing fact: survival exited 1 on an evidence reference only not restated
    # while check said ? and exited 0 for the same generation (docs/verdicts.md, "Exit codes agree")
    doc = gate(verdict, strict) | {"verdict": verdict} | report.as_dict()
    emit(doc, as_json, human)
    return EXIT_OK if doc["ok"] else EXIT_REFUSED


@click.command("rebuild")
@sole_store_argument
@click.option("--session", required=True, help="The session.")
@reviewer_option(required=True)
@json_option
@run_command()
async def rebuild_cmd(store: Path, session: str, reviewer: str, as_json: bool) -> int:
    """Append a generation rebuilt from the raw log (kind rebuilt, every line cited)."""
    async with await open_store(store) as opened:
        built = await rebuild_generation(opened, session, actor=reviewer)
    emit(built.as_dict(), as_json, lambda: lines_text([f"generation {built.generation} (rebuilt, parent {built.parent}); "
         f"context v{built.context_version}"]) + "\n" + built.text)  # the generation's text keeps its own lines
    return EXIT_OK
