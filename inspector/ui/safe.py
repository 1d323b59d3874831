"""Showing content in widgets: escapes made visible, markup never interpreted.

Every string that came from a store (event text, titles, keys, ids, actors, messages that
quote them) reaches a widget through one of these, so an OSC 52 in a tool result is shown
as ``␛]52;…`` instead of writing the clipboard, and ``[bold]`` in a summary is shown as
typed instead of styling the screen. ``markup`` sanitises template variables; Textual
substitutes ``$name`` variables as literal text, never as markup.
"""

from __future__ import annotations

from textual.content import Content

from inspector.domain.terminal_safe import line_safe, terminal_safe


def safe(value: object) -> str:
    """The string with control, bidi and zero-width characters made visible."""
    return terminal_safe(value if isinstance(value, str) else str(value))


def plain(value: object) -> Content:
    """Content text shown literally: sanitised, no markup parsed."""
    return Content(safe(value))


def markup(template: str, **values: object) -> Content:
    """``Content.from_markup`` for a constant template whose ``$variables`` may hold content."""
    return Content.from_markup(template, **{name: safe(v) for name, v in values.items()})


def one_line(value: object) -> str:
    """A value shown on one line (a list entry's title, a status bar): line breaks and tabs marked."""
    return line_safe(value if isinstance(value, str) else str(value))
