"""A transcript re-imported after it changed: the refusal said in the person's terms.

Imported events never change, so a copy of a transcript whose earlier lines (or, for the
formats a tool rewrites whole, whose messages) differ from what a store already holds for
the same session is refused and nothing is merged (``conflicting_record``). The record
writer words that refusal for sif/1 files, naming the line of the file; for a converted
transcript that line is one of the converted records, which the person never sees, and
the cause is nearly always that the tool went on writing the file after the first import
(Gemini CLI rewrites its session file as each tool call finishes). This says so, and what
to do instead.
"""

from __future__ import annotations

from inspector.domain.errors import BadInput
from inspector.domain.formats.tail import APPENDABLE
from inspector.domain.terminal_safe import inert
from inspector.store import session_rows
from inspector.store.connection import Store, fetch_one

WHY = {"gemini": "Gemini CLI rewrites its session file as the session goes on"}


async def changed_source(store: Store, error: BadInput, source_name: str, fmt: str, *,
                         cut: bool = False) -> BadInput | None:
    """The refusal for a converted transcript whose session the store held before this import
    and which now says something else (None: not that case; the writer's own words stand).
    ``cut``: the file ends in a line cut short — a copy taken mid-write, not a rewritten file
    (it was said "rewritten, not only appended to": new-user-16)."""
    identity = error.identity
    if fmt == "sif" or error.code != "conflicting_record" or not identity:
        return None
    session = str(identity[0])
    try:
        held = await session_rows.exists(store.db, session)
    except Exception:  # noqa: BLE001 - the store cannot say: the writer's own refusal is still true
        return None
    if not held:
        return None  # a conflict inside this one file: not a change since an earlier import
    read_from = await _read_from(store, session)
    other = read_from is not None and read_from != source_name
    why = WHY.get(fmt) or ("its last line is cut short: a copy taken while the agent was still writing, or cut "
                           "part-way, while the store holds the session read further" if cut and fmt in APPENDABLE
                           # another file of the session: nothing says either was rewritten (new-user-17)
                           else f"the store read this session from {read_from}, and this is another file of it: a copy "
                           "taken at another time, or written differently; an import continues only the file it "
                           "read, imported again under its name" if other and fmt in APPENDABLE
                           else "the file was rewritten, not only appended to" if fmt in APPENDABLE
                           else "the tool that writes it rewrote it")
    return BadInput(
        f"this store already holds session {inert(session)} as an earlier import read it, and {source_name} "
        f"{'' if other else 'now '}"
        f"says one of its records differently ({why}). Imported events never change, so nothing was merged; "
        f"import this version into a new store (`inspector {source_name}` opens it in one of its own).",
        code="conflicting_record")


async def _read_from(store: Store, session: str) -> str | None:
    """The file the store's last import of ``session`` read (its name as the ledger keeps it)."""
    try:
        row = await fetch_one(store.db, "SELECT json_extract(payload, '$.file_name') FROM ledger WHERE kind = 'import' "
                              "AND session = ? ORDER BY seq DESC LIMIT 1", (session,))
    except Exception:  # noqa: BLE001 - the store cannot say: the sentence names no file
        return None
    return str(row[0]) if row is not None and row[0] is not None else None
