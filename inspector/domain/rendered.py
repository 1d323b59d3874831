"""What a reader of a summary sees: the text every verdict reads, before the normal form.

A summary is Markdown that a person reads rendered (the report, a pull request, the model's own
notes). Three kinds of markup change what it says without changing its words (verdict-five):

- an HTML comment (``<!-- … -->``) is not shown at all: a rule kept only inside one is kept
  for no reader, so it is left out ("kept" there was a silent ✓);
- ``<del>``, ``<s>`` and ``<strike>`` strike text out, as ``~~…~~`` does: they become ``~~``,
  which the cancelling words already read;
- a summary written as JSON (the whole text, or a fenced ``json`` block) is read as the lines
  a person would write for it — ``key: value``, a label line for a nested list or object, ``-``
  items, a blank line after each nested block — so a key such as ``lifted_constraints`` is a
  label over the values under it, and a JSON list of rules is a list, not one long sentence
  whose every "unless" reaches every value.

A text with none of these is returned unchanged (the usual case: one ``in`` test per marker).
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from typing import Any

_COMMENT = re.compile(r"<!--.*?(?:-->|\Z)", re.S)
_STRUCK = re.compile(r"<(del|s|strike)\b[^>]*>(.*?)</\1\s*>", re.S | re.I)
_FENCED_JSON = re.compile(r"```json[ \t]*\n(.*?)\n```", re.S | re.I)


@lru_cache(maxsize=256)
def rendered(text: str) -> str:
    """The text as a reader sees it (see the module doc); unchanged when it holds no such markup."""
    if "<!--" in text:
        text = _COMMENT.sub(" ", text)
    if "<" in text and "</" in text:
        text = _STRUCK.sub(lambda m: f"~~{m.group(2)}~~", text)
    stripped = text.strip()
    if stripped[:1] in ("{", "[") and stripped[-1:] in ("}", "]"):
        as_lines = _json_lines(stripped)
        if as_lines is not None:
            return as_lines
    if "```json" in text.lower():
        text = _FENCED_JSON.sub(lambda m: _json_lines(m.group(1)) or m.group(0), text)
    return text


def _json_lines(source: str) -> str | None:
    try:
        doc = json.loads(source)
    except ValueError:
        return None
    if not isinstance(doc, (dict, list)):
        return None
    out: list[str] = []
    _lines(doc, out)
    return "\n".join(out).strip("\n")


def _key(k: Any) -> str:
    return str(k).replace("_", " ")


def _scalar(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return "" if v is None else str(v)


def _lines(node: Any, out: list[str]) -> None:
    if isinstance(node, dict):
        for k, v in node.items():
            if isinstance(v, (dict, list)):
                out.append(f"{_key(k)}:")
                _lines(v, out)
                out.append("")
            else:
                out.append(f"{_key(k)}: {_scalar(v)}")
    elif isinstance(node, list):
        for item in node:
            if isinstance(item, (dict, list)):
                start = len(out)
                _lines(item, out)
                if len(out) > start:
                    out[start] = "- " + out[start]
                out.append("")
            else:
                out.append(f"- {_scalar(item)}")
    else:
        out.append(_scalar(node))
