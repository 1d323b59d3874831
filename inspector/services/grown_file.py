"""A transcript imported while its agent was still writing it, and imported again later.

Two things went wrong with a file an agent was still appending to (docs/reviews/new-user-17.md):

* ``inspector import run.jsonl --into my.db`` run again after the agent went on read the whole
  file as a new import. Its records came out different from the stored ones (the kept original
  above all, now longer) and the import was refused as "the file was rewritten, not only appended
  to" — untrue: it had only grown. The store's last import of the file records where it ended
  and a keyed digest of the bytes up to there (services/following.py); when the file still
  starts with those bytes, what follows them is imported, as ``inspector FILE`` and ``follow`` do.
* A last line with no line end that is not whole JSON is a line being written (a line cut mid-
  write never parses: domain/formats/tail.py ``complete_lines``). It was read as an unreadable
  line, and the rest of it, once written, as a second one: the record in it (a tool result,
  say) was lost for good. Such a line now waits for its line end, and the import says so.

A store made before this read such a half line; a file that continues it is refused here with
what happened (``source_line_cut``), never as "rewritten".
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from inspector.domain.errors import BadInput, NotAStore
from inspector.domain.file_name_text import text_name
from inspector.domain.plurals import counted
from inspector.store.connection import open_store
from inspector.store.location import is_url


def line_goes_on(data: bytes, end: int) -> bool:
    """The import that ended at byte ``end`` stopped inside a line that ``data`` now continues."""
    return 0 < end < len(data) and data[end - 1:end] != b"\n" and data[end:end + 1] not in (b"\n", b"\r")


def cut_line_refusal(name: str, data: bytes, end: int) -> BadInput:
    line = data[:end].count(b"\n") + 1
    if _whole_json(data[data.rfind(b"\n", 0, end) + 1:end]):  # read as its record, not kept unreadable (review-17)
        return BadInput(f"{name}'s line {line} had no line end when the store imported it (it was whole JSON, so the "
                        "store read it whole as a record; the agent has written on in that same line now), but imported "
                        "events never change, so nothing was merged: import the file into a new store to read the line "
                        "as it is now", code="source_line_cut")
    return BadInput(f"{name}'s line {line} was cut short when the store imported it (the file ended inside it: the agent "
                    "was still writing it), and the store keeps that part as an unreadable line; the line goes on now, "
                    "but imported events never change, so nothing was merged: import the file into a new store to read "
                    "it whole (imports now wait for a line's end)", code="source_line_cut")


def _whole_json(line: bytes) -> bool:
    """A whole JSON object: what the line importers read as a record (a bare value is an unreadable line)."""
    try:
        return isinstance(json.loads(line), dict)
    except ValueError:
        return False
    except RecursionError:  # nested past Python's limit: whole as far as can be told; the reader says too_deep
        return True


def whole_lines(data: bytes, fmt: str | None, name: str) -> bytes:
    """``data`` without a half-written last line, for the formats an agent writes line by line
    (a whole document — Gemini CLI's, a message list — is kept as it is: its own parser says
    where it stops; so is sif/1, read all or nothing). Cheap for the usual file: the format is detected only when the last line
    is not whole."""
    from inspector.domain.formats.tail import APPENDABLE, complete_lines

    body = complete_lines(data)
    if len(body) == len(data):
        return data
    if fmt is None:
        from inspector.domain.formats.detect import detect

        try:
            fmt = detect(data, name)
        except BadInput:
            return data  # the import refuses it in its own words
    # sif/1 stays all or nothing (docs/sif.md): a cut last line refuses the file, as it always did
    return body if fmt in APPENDABLE and fmt != "sif" else data


LATER = "importing the file again once it is whole reads it"
FOLLOWED = "it is read as soon as its line end is written (the file is followed live)"


def held_note(data: bytes, body: bytes, later: str = LATER) -> str | None:
    """What an import says of the half-written last line it left for later (None: there is none)."""
    held = len(data) - len(body)
    if not held:
        return None
    line = body.count(b"\n") + 1
    return (f"line {line} is not whole yet ({counted(held, 'byte')} with no line end: the agent may still be "
            f"writing it): not imported; {later}")


def held_json(data: bytes, body: bytes) -> dict[str, Any] | None:
    held = len(data) - len(body)
    return {"line": body.count(b"\n") + 1, "bytes": held} if held else None


async def imported_before(source: Path, into: Any, data: bytes, fmt: str | None) -> bool:
    """The store holds an earlier import of this file (by its name) that the file now continues:
    the same bytes up to where that import ended, and more after them (or none more, when that
    import was itself of what was appended), in a format written line by line. Anything else (a first import, the same bytes, another file of that name, a
    rewritten one) goes the ordinary way, whose refusals say what differs."""
    from inspector.domain.formats.tail import APPENDABLE
    from inspector.services.following import imported_extent, prefix_unchanged

    if not is_url(into) and not (into.is_file() and into.stat().st_size > 0):
        return False
    if fmt is None:  # a file that is no transcript is refused before the store is opened (review-18: the
        from inspector.domain.formats.detect import detect  # open upgraded an older store, then the refusal)

        try:
            detect(data, text_name(source.name))
        except BadInput:
            return False  # the ordinary import refuses it in its own words, before it opens the store
    elif fmt not in APPENDABLE:
        return False  # named a format never continued from an earlier import: the ordinary way reads it
    try:
        async with await open_store(into) as store:
            extent = await imported_extent(store, text_name(source.name))
            if extent is None or extent.end is None or extent.fmt not in APPENDABLE:
                return False
            if fmt is not None and fmt != extent.fmt:
                return False
            # the same bytes again after an import of what was appended: "nothing new" from here too (the
            # ordinary way compares them with a whole-file import, which never read them all at once)
            longer = len(data) > extent.end or (len(data) == extent.end and extent.start > 0)
            return longer and prefix_unchanged(store, extent, data)
    except NotAStore:
        return False
