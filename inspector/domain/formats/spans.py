"""Where each item of a whole-document transcript lies in the file: its first line and its bytes.

A JSON-lines record points at its line (``origin``: line, bytes). A saved message list, or a
Gemini CLI checkpoint, is one document; its events pointed at *every* line of the file
(``origin.lines`` listing them all, for every event): a 2 MB message list of 14,000 lines and 1,300
messages stored 18 million line numbers (about 100 MB of ``extra``) and took 2 s of CPU, and the
cost grows with lines × messages. Each item now points at its own bytes, as a Gemini chat file's
messages do (gemini.py): the one "line" of an item is its span — its first line's number and the
byte offsets of its JSON text — so the event's original shows that item.

The spans are found by walking the document's top level with the standard decoder's C scanner
(``raw_decode``, no hooks: the values are the fast decoder's, read before), one item at a time, and
counting bytes and line breaks forward only. Anything unexpected (the walk disagrees with the
decoded document) gives None, and the caller points every event at the whole file as one span.
"""

from __future__ import annotations

import json
import re
from typing import Any

from inspector.domain.formats.builder import BOM, Line

_SCAN = json.JSONDecoder()  # spans only: the values were decoded (and checked) before
WS = " \t\n\r"


class Positions:
    """Character offsets to byte offsets and line numbers, moving forward only."""

    def __init__(self, text: str) -> None:
        self.text, self.char, self.byte, self.line = text, 0, 0, 1

    def at(self, pos: int) -> tuple[int, int]:
        piece = self.text[self.char:pos]
        self.byte += len(piece.encode("utf-8", errors="surrogatepass"))
        self.line += piece.count("\n")
        self.char = pos
        return self.byte, self.line


_NOT_WS = re.compile(r"[^ \t\n\r]")


def skip(text: str, pos: int) -> int:
    """The first position at or after ``pos`` that is not JSON white space (searched in C: a
    document padded with megabytes of blanks between its tokens costs no Python loop)."""
    found = _NOT_WS.search(text, pos)
    return len(text) if found is None else found.start()


def expect(text: str, pos: int, char: str) -> int:
    pos = skip(text, pos)
    if text[pos:pos + 1] != char:
        raise ValueError(f"expected {char!r} at character {pos}")
    return pos + 1


def whole(data: bytes) -> Line:
    """The whole file as one span: what an event points at when its item's span is not known."""
    return Line(1, 0, len(data), b"")


class DocumentSpans:
    """The span of each top-level field's value (an object document) and of each item of its list."""

    def __init__(self, fields: dict[str, Line], items: list[Line]) -> None:
        self.fields, self.items = fields, items


def _list_items(text: str, pos: int, positions: Positions) -> tuple[list[Line], int]:
    items: list[Line] = []
    pos = skip(text, expect(text, pos, "["))
    while text[pos:pos + 1] != "]":
        start = pos
        _, pos = _SCAN.raw_decode(text, pos)
        byte_start, line = positions.at(start)
        byte_end, _ = positions.at(pos)
        items.append(Line(line, byte_start, byte_end, b""))
        pos = skip(text, pos)
        if text[pos:pos + 1] == ",":
            pos = skip(text, pos + 1)
    return items, pos + 1


def document_spans(data: bytes, doc: Any, key: str | None) -> DocumentSpans | None:
    """Spans of ``doc`` (decoded from ``data``): of the items of the list that is the document
    (``key`` None) or its field ``key``, and of its other top-level fields; None when the walk
    does not find what ``doc`` holds (then the caller uses :func:`whole`)."""
    try:
        text = (b"   " + data[3:] if data[:3] == BOM else data).decode("utf-8", errors="surrogatepass")
        positions = Positions(text)
        fields: dict[str, Line] = {}
        items: list[Line] = []
        if key is None:
            items, _ = _list_items(text, skip(text, 0), positions)
        else:
            pos = expect(text, 0, "{")
            while (pos := skip(text, pos)) < len(text) and text[pos] != "}":
                name, pos = _SCAN.raw_decode(text, pos)
                pos = skip(text, expect(text, pos, ":"))
                byte_start, line = positions.at(pos)  # before the items' spans: positions move forward only
                if name == key:
                    items, pos = _list_items(text, pos, positions)
                else:
                    _, pos = _SCAN.raw_decode(text, pos)
                byte_end, _ = positions.at(pos)
                fields[str(name)] = Line(line, byte_start, byte_end, b"")
                pos = skip(text, pos)
                if text[pos:pos + 1] == ",":
                    pos += 1
        listed = doc if key is None else doc.get(key) if isinstance(doc, dict) else None
        if not isinstance(listed, list) or len(listed) != len(items):
            return None
        return DocumentSpans(fields, items)
    except (ValueError, IndexError, RecursionError):
        return None
