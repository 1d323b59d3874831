"""How the CLI says a store format upgrade (store/format_upgrade.py): one line on stderr when it is
done, never on stdout, so ``--json`` stays one document; while a long step runs, a progress line
on a terminal (erased, as the opening line is).

Before, a format-7 store opened by any command — even ``verify`` — became format 8 with no word,
and the one-off re-index of long events ran with nothing on the screen."""

from __future__ import annotations

from inspector.cli import opening_line
from inspector.store import format_upgrade


def say(text: str, final: bool) -> None:
    if not final:
        opening_line.say(text)
        return
    from inspector.cli.output import echo_safe

    opening_line.quiet()  # the progress line, erased: the line that stays starts its own line
    echo_safe(text, err=True)


def start() -> None:
    """A command begins: its upgrades said on stderr; stores left at their format before it began (a
    test, a long-lived caller of ``open_store``) are not its to say."""
    format_upgrade.forget_left()
    listen()


def listen() -> None:
    """Say upgrades on this process's stderr (a command, or ``inspector STORE`` before its app starts
    and after it ends: what the app left is said then)."""
    format_upgrade.report_to(say)


def quiet() -> None:
    """Say upgrades nowhere (before an app takes the terminal: it shows them as notices)."""
    format_upgrade.report_to(None)


def left() -> None:
    """Say the stores this command left at their older format (format_upgrade.say_left): at its end,
    so an import that opened its store twice and upgraded it at the second open does not also say
    it was left as it was."""
    format_upgrade.say_left()


def left_quietly() -> None:
    """:func:`left` where stderr may be gone (a closed pipe, Ctrl+C, the terminal closed under the
    app): the store is left as it was either way, and a lost line is no reason for a traceback."""
    try:
        format_upgrade.say_left()
    except (OSError, ValueError):
        pass
