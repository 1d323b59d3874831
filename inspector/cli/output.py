"""Printing results and errors the same way in every command.

Exit codes (DESIGN §8): 0 done / holds; 1 refused or findings; 2 usage error;
3 bad input, with nothing changed on disk.

Everything printed passes through the terminal sanitiser here, once, so no command can
forget it: human text shows control characters as visible escapes; ``--json`` keeps
exact strings, JSON-escaped (docs/app.md, "Untrusted text on screen").
"""

from __future__ import annotations

import asyncio
import functools
import json
import re
import sqlite3
import sys
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

import click

from inspector.cli import opening_line
from inspector.domain.errors import BadInput, InspectorError
from inspector.domain.terminal_safe import json_safe, line_safe, terminal_safe
from inspector.store import faults

EXIT_OK, EXIT_REFUSED, EXIT_USAGE, EXIT_BAD_INPUT = 0, 1, 2, 3


def json_text(data: Any) -> str:
    """One JSON document; strings exact, controls and invisible characters \\u-escaped."""
    return json_safe(json.dumps(data, ensure_ascii=False, indent=2))


def echo_safe(text: str, *, err: bool = False) -> None:
    """Print text that may hold content: escapes and hidden characters shown, never obeyed."""
    click.echo(terminal_safe(text), err=err)


def lines_text(lines: Iterable[str]) -> str:
    """Lines of human output, one record each: a line break, tab or carriage return inside a
    value is marked (``␊ ␉ ␍``) on its own line, so content never starts a line that reads as
    the next record or as the command's own verdict."""
    return "\n".join(line_safe(line) for line in lines)


def emit(data: Any, as_json: bool, human: Callable[[], str | list[str]]) -> None:
    """``human`` returns the output's lines (each one record, marked by :func:`lines_text`), or a
    text whose line breaks are its own (a document such as expanded bytes)."""
    if as_json:
        click.echo(json_text(data))
    else:
        shown = human()
        echo_safe(shown if isinstance(shown, str) else lines_text(shown))


def fail(error: InspectorError, as_json: bool) -> None:
    from inspector.cli import upgrade_said

    upgrade_said.left()  # a store the refused command left at its format, said above the error
    opening_line.quiet()  # "opening s.db…" or a progress line is not left in front of the error
    if as_json:
        click.echo(json_text({"error": error.as_dict()}))
    # one line: a line break in quoted input (a file name, an id) is marked, not a new line
    echo_safe(f"error: {line_safe(error.message.strip())}", err=True)
    sys.exit(error.exit_code)


def run_command(as_json_param: str = "as_json") -> Callable[[Callable[..., Awaitable[int | None]]], Callable[..., None]]:
    """Run an async command body; turn product errors into a message and an exit code."""

    def wrap(fn: Callable[..., Awaitable[int | None]]) -> Callable[..., None]:
        @functools.wraps(fn)
        def runner(*args: Any, **kwargs: Any) -> None:
            as_json = bool(kwargs.get(as_json_param))
            from inspector.cli import upgrade_said

            upgrade_said.start()  # a store format upgrade is said on stderr, whatever the command
            try:
                not_text(kwargs)
                code = _run(fn(*args, **kwargs))
                upgrade_said.left()  # "left at format N", once the command knows no later open upgraded it
            except InspectorError as error:
                fail(error, as_json)
                return
            except BrokenPipeError:  # `inspector … | head -1`: click ends it quietly (exit 1); stderr still reads
                _say_left_quietly()
                raise
            except (sqlite3.DatabaseError, OSError) as error:  # the medium failed mid-command: a full disk, a
                # lock held past the wait, an I/O error, a damaged page — each said as what it is (store/faults.py)
                fail(faults.explain(error), as_json)
                return
            except UnicodeDecodeError as error:  # SQLite's message about a damaged schema can itself be undecodable
                fail(InspectorError(f"the store cannot be read here ({error}); `inspector verify STORE` says where "
                                    "it is damaged", code="damaged_store"), as_json)
                return
            except KeyboardInterrupt:
                _say_left_quietly()  # the store closed as the body was cancelled: its held upgrade rolled back
                click.echo("interrupted; nothing partial was committed", err=True)
                sys.exit(130)
            sys.exit(code or EXIT_OK)

        return runner

    return wrap


def _say_left_quietly() -> None:
    """"left at format N" for a command ended by a closed pipe or Ctrl+C: the line was lost, and a
    reader of stderr was left to guess whether the older store had been upgraded (storefault-eleven)."""
    from inspector.cli import upgrade_said

    upgrade_said.left_quietly()


def _run(body: Awaitable[int | None]) -> int | None:
    """``asyncio.run(body)``, except that Ctrl+C after the body returned (while the loop shuts
    down) is not an interruption: the command had finished and said so. It printed "imported …"
    then "interrupted; nothing partial was committed" and exit 130 for an import that was whole
    in the store (review-14)."""
    finished = False
    code: int | None = None
    try:
        with asyncio.Runner() as runner:
            code = runner.run(body)  # type: ignore[arg-type]
            finished = True
    except KeyboardInterrupt:
        if not finished:
            raise
    return code


def not_text(params: dict[str, Any]) -> None:
    """Refuse (exit 3, nothing done) a text argument holding bytes that are not UTF-8: Python
    hands them over as lone surrogates (``\\udc9b`` for a raw 0x9b byte), which no store, digest or
    ledger entry can hold, so a search query, a value, a reason or an id typed or pasted that
    way ended in a traceback half way through the command. Paths are ``Path`` objects (a file
    name may be any bytes) and are not looked at."""
    for name, value in params.items():
        for text in value if isinstance(value, (tuple, list)) else (value,):
            if isinstance(text, str) and _SURROGATE(text):
                raise BadInput(f"the {name.replace('_', ' ')} given ({line_safe(text)}, on the command line or in its "
                               "environment variable) is not UTF-8 text: nothing was done", code="argument_not_text")


_SURROGATE = re.compile("[\ud800-\udfff]").search


json_option = click.option("--json", "as_json", is_flag=True, help="Print one JSON document instead of text.")
