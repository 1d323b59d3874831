"""The ``inspector`` command: a click group whose bare form opens the app.

``inspector`` opens the demo, ``inspector STORE`` or ``inspector FILE.jsonl`` opens that;
every other word is a sub-command (``inspector --help`` lists them).
"""

from __future__ import annotations

import difflib
import importlib
import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import click

from inspector import __version__
from inspector.cli import interrupts, opening_line
from inspector.cli.command_names import COMMANDS  # also read by the entry, before click loads
from inspector.domain.terminal_safe import inert, inert_reprs, line_safe


def load_command(name: str) -> click.Command:
    module, _, attr = COMMANDS[name].partition(":")
    command = getattr(importlib.import_module(f"inspector.cli.{module}"), attr)
    assert isinstance(command, click.Command) and command.name == name, f"{COMMANDS[name]} is not {name!r}"
    if command.callback is not None:  # an interrupt after this says the command's body had started
        command.callback = interrupts.marks_start(name, command.callback)
    return command


class InspectorGroup(click.Group):
    """Routes ``inspector PATH`` to ``inspector open PATH`` (a path is never a sub-command),
    and loads each command's module only when that command is asked for (click's lazy group)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*COMMANDS, *self.commands})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in COMMANDS:
            self.add_command(load_command(cmd_name))
        return self.commands.get(cmd_name)

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        interrupts.new_invocation()
        with interrupts.said_interrupts():
            return self._parse_args(ctx, args)

    def _parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        ctx.meta[_WANTS_JSON] = "--json" in args
        with _inert_usage_errors(ctx.meta[_WANTS_JSON]):
            if args and (not args[0].startswith("-") or args[0] == "--source") and args[0] not in COMMANDS:
                _refuse_mistyped_command(args[0], args[1:])
                args = ["open", *args]
            return super().parse_args(ctx, args)

    def invoke(self, ctx: click.Context) -> Any:
        # a command's own options and arguments are parsed in here; Ctrl+C: one line, exit 130
        with interrupts.said_interrupts(), _inert_usage_errors(bool(ctx.meta.get(_WANTS_JSON))):
            return super().invoke(ctx)


_WANTS_JSON = "inspector.wants_json"  # ctx.meta: the invocation's words hold --json (a usage error is JSON too)


def _refuse_mistyped_command(word: str, rest: list[str]) -> None:
    """``inspector verfy my.db`` would be read as ``open verfy my.db`` and fail with click's "Got
    unexpected extra argument": a word that is no file, not path-like and close to a command's
    name is taken for a mistyped command, and the usage error names the command meant. A word
    close to none (``inspector stubs my.db``) followed by a second argument, which ``open``
    never takes, is no command either: said so, not "unexpected extra argument"."""
    if "/" in word or "." in word or ":" in word or os.path.lexists(word):
        return
    close = difflib.get_close_matches(word.lower(), COMMANDS, n=1, cutoff=0.75)
    if close:
        raise click.UsageError(f"no command {inert(line_safe(word))}: did you mean {inert(close[0])}? "
                               "(inspector --help lists the commands)")
    if any(not arg.startswith("-") for arg in rest[:1]):
        raise click.UsageError(f"no command {inert(line_safe(word))}, and no file of that name to open "
                               "(inspector --help lists the commands)")


@contextmanager
def _inert_usage_errors(wants_json: bool = False) -> Iterator[None]:
    """Click's usage errors quote the bad argument (``No such option: …``, ``Path '…' does not
    exist``) and click prints them itself, past ``cli/output.py``: the quoted argument is made
    inert on one line here, so an argument holding an escape or a line break (a pasted file
    name) is shown, not obeyed, and never starts a line of its own."""
    try:
        yield
    except click.MissingParameter as error:
        opening_line.quiet()  # click prints it next: not after a progress line on the same line
        if error.param is not None and error.param.name and error.ctx is not None:
            from inspector.cli.session_hint import missing_hint

            hint = missing_hint(error.param.name, error.ctx.params)
            error.message = line_safe(inert_reprs(" ".join(filter(None, [error.message or "", hint]))))
        _json_usage_error(error, wants_json)
        raise
    except click.ClickException as error:
        opening_line.quiet()
        error.message = line_safe(inert_reprs(error.message))
        if isinstance(error, click.UsageError):
            _json_usage_error(error, wants_json)
        raise


def _json_usage_error(error: click.UsageError, wants_json: bool) -> None:
    """With ``--json``, a usage error (exit 2) is a JSON document on stdout too, as every other
    refusal is: ``drift s.db --json | jq`` got nothing on stdout and jq failed on empty input.
    ``--json`` is among the command's words, or click read it before the error."""
    if wants_json or (error.ctx is not None and error.ctx.params.get("as_json")):
        from inspector.cli.output import json_text

        click.echo(json_text({"error": {"code": "usage_error", "message": error.format_message()}}))


@click.group(cls=InspectorGroup, invoke_without_command=True,
             context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="inspector")
@click.pass_context
def cli(ctx: click.Context) -> None:
    """Context Inspector: review an agent session's protected state, summaries and raw evidence.

    \b
    inspector                 the transcripts on this machine (or the demo) in the terminal app
    inspector STORE           open a store (a file, or postgresql://user@host:port/db)
    inspector FILE.jsonl      import a transcript (any format import reads) and open it, following it live
    inspector COMMAND --help  help for one command
    """
    if ctx.invoked_subcommand is None:
        from inspector.store.location import default_store  # INSPECTOR_STORE: that store, not the listing

        ctx.invoke(load_command("open"), target=default_store(), session=None, sources=())


def main(argv: list[str] | None = None) -> Any:
    return cli.main(args=argv, prog_name="inspector")
