"""``regress``: the compression regression suite (seed 002, 压缩回归)."""

from __future__ import annotations

from pathlib import Path

import click

from inspector.cli.output import EXIT_OK, EXIT_REFUSED, echo_safe, emit, json_option, run_command
from inspector.domain.plurals import counted as _n
from inspector.domain.regress import DEFAULT_GENERATIONS, CaseResult
from inspector.domain.terminal_safe import inert, line_safe
from inspector.services.regress import DEFAULT_JOBS, DEFAULT_TIMEOUT_S, RegressReport, regress


def _case_text(result: CaseResult) -> list[str]:
    c = result.case
    head = (f"✓ {c.id}: passed ({len(result.generations)} generations, {len(c.must_keep())} must-keep facts)"
            if result.passed else f"✗ {c.id}: failed, first at generation {result.first_failing_generation}")
    lines = [head, "    gen  covers    kept missing contradicted unknown  findings"]
    for g in result.generations:
        n = g.survival.counts
        codes = ", ".join(dict.fromkeys(f.code for f in g.blocking)) or "-"
        lines.append(f"    {g.generation:>3}  {g.covers[0]:>3}-{g.covers[1]:<4} {n['kept']:>5} {n['missing']:>7} "
                     f"{n['contradicted']:>12} {n['unknown']:>7}  {codes}")
    for f in result.failures():
        fact = f" “{f.value}”" if f.value else ""
        lines.append(f"    ✗ case {c.id}, {f.key or '-'}{fact}: {f.what}, first at generation {f.generation} — "
                     f"{f.message}")
    return lines


def _text(report: RegressReport) -> list[str]:
    lines = [f"regress with {inert(report.summarizer)}, up to {report.generations} generations per case"]
    for result in report.cases:
        lines += _case_text(result)
    failed = [c for c in report.cases if not c.passed]
    lines.append(f"{len(report.cases) - len(failed)} of {_n(len(report.cases), 'case')} passed"
                 + (f"; failed: {', '.join(c.case.id for c in failed)}" if failed else ""))
    return lines


@click.command("regress")
@click.argument("cases", type=click.Path(path_type=Path))
@click.option("--summarizer", "command", required=True, metavar="CMD",
              help="A command that reads the previous summary and the new events as JSON on stdin and prints the "
                   "next summary on stdout; or a built-in: keep-all, naive-truncate [--chars K].")
@click.option("--generations", type=click.IntRange(min=1), default=DEFAULT_GENERATIONS, show_default=True,
              help="Generations per case (fewer when a case has fewer events).")
@click.option("--timeout", type=click.FloatRange(min=0.1), default=DEFAULT_TIMEOUT_S, show_default=True,
              help="Seconds one summarizer call may take.")
@click.option("--jobs", type=click.IntRange(min=1), default=DEFAULT_JOBS, show_default=True,
              help="Cases run at the same time.")
@json_option
@run_command()
async def regress_cmd(cases: Path, command: str, generations: int, timeout: float, jobs: int, as_json: bool) -> int:
    """Compress each case recursively with a summarizer and judge every generation.

    CASES is a folder of sif/1 files (or one file); each session's active state records
    are the facts that must survive. Exit 1 when a must-keep fact is missing or
    contradicted, or a drift finding appears, naming the case, the fact and the first
    failing generation. Nothing is written.
    """
    report = await regress(cases, command, generations, timeout=timeout, jobs=jobs,
                           progress=lambda line: echo_safe(line_safe(line), err=True))  # names come from case files
    emit(report.as_dict(), as_json, lambda: _text(report))
    return EXIT_OK if report.passed else EXIT_REFUSED
