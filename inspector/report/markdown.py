"""Markdown of untrusted messages rendered to inert HTML.

markdown-it-py with raw HTML off, so ``<script>`` in a message stays text; images off,
so ``![](http://…)`` cannot make the page fetch anything; links rendered as plain text
followed by their address, so nothing from the session is clickable (a report is read
by someone who trusts it more than they should trust the transcript inside it).
"""

from __future__ import annotations

from functools import lru_cache
from html import escape
from typing import Any

from markdown_it import MarkdownIt

from inspector.domain.terminal_safe import markdown_safe

# Past this size a message is shown as preformatted text: Markdown of a pasted log or a
# file dump says nothing more and costs the most to parse.
MARKDOWN_MAX_CHARS = 60_000


def _link_open(self: Any, tokens: list[Any], idx: int, options: Any, env: dict[str, Any]) -> str:
    env.setdefault("links", []).append(tokens[idx].attrGet("href") or "")
    return '<span class="link">'


def _link_close(self: Any, tokens: list[Any], idx: int, options: Any, env: dict[str, Any]) -> str:
    href = env.get("links", [""]).pop() if env.get("links") else ""
    return f'</span> <span class="url">⟨{escape(str(href))}⟩</span>'


def _cell_open(self: Any, tokens: list[Any], idx: int, options: Any, env: dict[str, Any]) -> str:
    """A table cell's column alignment as a class: the parser writes it as an inline ``style``,
    which the page's Content-Security-Policy (our stylesheet only) refuses, cell by cell."""
    token = tokens[idx]
    style = token.attrGet("style") or ""
    if style:
        token.attrs.pop("style", None)
        token.attrSet("class", "align-" + style.removeprefix("text-align:").strip())
    return self.renderToken(tokens, idx, options, env)


@lru_cache(maxsize=1)
def _parser() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False})
    md.enable(["table", "strikethrough"])
    md.disable("image")
    md.add_render_rule("link_open", _link_open)
    md.add_render_rule("link_close", _link_close)
    md.add_render_rule("th_open", _cell_open)
    md.add_render_rule("td_open", _cell_open)
    return md


def render_markdown(text: str) -> str:
    """Inert HTML for ``text``: escaped, no raw HTML, no images, no live links, and invisible
    or reordering characters (bidi overrides, zero-width, controls) shown as marks."""
    text = markdown_safe(text)  # character references too: the parser would decode &#x202E; into the override
    if len(text) > MARKDOWN_MAX_CHARS:
        return f'<pre class="plain">{escape(text)}</pre>'
    return _parser().render(text, {})
