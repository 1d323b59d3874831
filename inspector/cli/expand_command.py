"""``inspector expand STORE STUB``: read a verified byte range behind a stub."""

from __future__ import annotations

from pathlib import Path

import click

from inspector.cli.output import EXIT_OK, EXIT_REFUSED, emit, json_option, lines_text, run_command
from inspector.cli.store_commands import reviewer_option, store_argument
from inspector.domain.plurals import counted as _n
from inspector.domain.terminal_safe import inert
from inspector.services.expanding import (
    DEFAULT_MAX_BYTES,
    DEFAULT_SCOPES,
    Expansion,
    expand,
)
from inspector.store.connection import open_store


class ByteRange(click.ParamType):
    name = "S:E"

    def convert(self, value: object, param: click.Parameter | None, ctx: click.Context | None) -> tuple[int, int]:
        if isinstance(value, tuple):
            return value  # type: ignore[return-value]
        text = str(value)
        start, sep, end = text.partition(":")
        if not sep or not start.strip().isdigit() or not end.strip().isdigit():
            self.fail(f"{inert(text)} is not a byte range; write START:END with whole numbers, e.g. 0:4096", param, ctx)
        return int(start), int(end)


def marked_text(result: Expansion) -> str:
    """The text with cut bytes shown as «hex» at the edges (for people; JSON keeps them apart)."""
    if result.binary:
        return result.data.hex(" ")
    head = f"«{result.cut_head.hex(' ')}»" if result.cut_head else ""
    tail = f"«{result.cut_tail.hex(' ')}»" if result.cut_tail else ""
    return head + (result.text or "") + tail


@click.command("expand")
@store_argument
@click.argument("stub")
@click.option("--session", help="The stub's session (needed only when the id is used in several).")
@click.option("--range", "byte_range", type=ByteRange(), help="Bytes START:END, [start, end). Default: the stub's read_slice.")
@click.option("--max-bytes", type=click.IntRange(min=0), default=DEFAULT_MAX_BYTES, show_default=True,
              help="The most this expansion may read, decided before reading. Without --range, a stub's slice "
              "over it shows its first N bytes (cut at a character) and says how much was left out.")
@click.option("--scope", "scopes", multiple=True, metavar="SCOPE",
              help=f"A disclosure scope you may read (repeatable). Default: {', '.join(DEFAULT_SCOPES)}.")
@reviewer_option(required=True)
@json_option
@run_command()
async def expand_cmd(store: Path, stub: str, session: str | None, byte_range: tuple[int, int] | None, max_bytes: int,
                     scopes: tuple[str, ...], reviewer: str, as_json: bool) -> int:
    """Read the bytes behind STUB, checked against the stored original (every expansion is ledgered)."""
    async with await open_store(store) as opened:
        result = await expand(opened, stub, actor=reviewer, session=session, byte_range=byte_range,
                              max_bytes=max_bytes, scopes=scopes or DEFAULT_SCOPES, head=True)

    def human() -> str:
        s, e = result.range
        if result.refusals:
            return lines_text([f"refused: {result.stub} → {result.material} [{s}, {e})"] +
                              [f"  {r.code}: {r.message}" for r in result.refusals])
        lines = [f"{result.stub} → {result.material} [{s}, {e}) · {len(result.data):,} bytes · verified "
                 f"({_n(result.chunks_read, 'chunk')} read) · budget {len(result.data):,} of {max_bytes:,}"]
        if result.cut_head or result.cut_tail:
            lines.append(f"cut characters: head {result.cut_head.hex() or '-'} tail {result.cut_tail.hex() or '-'}; "
                         f"whole characters: wider {list(result.snap_wider or ())} narrower {list(result.snap_narrower or ())}")
        if result.truncated and result.requested:
            rs, re_ = result.requested
            lines.append(f"head only: the first {len(result.data):,} of {result.total_bytes:,} bytes of [{rs}, {re_}) "
                         f"(cut at a character boundary); {result.total_bytes - len(result.data):,} bytes left out — "
                         f"raise --max-bytes or give --range to read the rest")
        lines += [f"note {n.code}: {n.message}" for n in result.notes]
        return lines_text(lines) + "\n\n" + marked_text(result)  # the bytes read keep their own lines

    emit(result.as_dict(), as_json, human)
    return EXIT_REFUSED if result.refusals else EXIT_OK
