"""Finding every copy a deletion request must remove: by reference and by value.

By reference: the target rows, their search entries, materials an event observed,
summaries and candidates that cite a target, and the original transcript of an imported
session. By value: every event (content, tool arguments, results, reasoning), material,
stub outline, state record version, action, summary, candidate, handoff and deletion
request that repeats a value the targets held (domain/deletion.py says which values).
Text columns are searched by SQLite (``instr``), so a large session costs one pass per
table; material bytes are scanned chunk by chunk.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import aiosqlite

from inspector.domain.deletion import (
    AS_WRITTEN,
    CHECKED,
    NOT_CHECKED,
    Copy,
    number_pattern,
    secret_values,
    sensitive_values,
    strings_in,
)
from inspector.domain.deletion_bookkeeping import said_fields as _said_fields
from inspector.domain.deletion_forms import FOLDED, LooseMatcher
from inspector.domain.deletion_spelling import BOUND
from inspector.domain.deletion_split import SplitFinder, split_forms
from inspector.domain.formats.builder import ORIGINAL_MEDIA_TYPE
from inspector.domain.formats.titles import prompt_title
from inspector.domain.number_copies import NumberCopies
from inspector.services.deletion_gone import gone_by, removed_by
from inspector.services.deletion_index_entries import index_entries
from inspector.services.deletion_material_scan import (
    material_holds,
    material_holds_loosely,
    material_holds_number,
    material_spellings,
)
from inspector.services.deletion_names import kept_names, matcher, rewritable
from inspector.services.deletion_places import BY_VALUE, Places
from inspector.services.deletion_row_spellings import cell_texts, holding_loosely, with_spellings
from inspector.services.deletion_split_scan import session_pieces, spelled_splits, straddling_values
from inspector.services.deletion_tables import BY_VALUE as _BY_VALUE
from inspector.store import session_rows
from inspector.store.connection import fetch_one
from inspector.store.tables import SPECS


@dataclass(slots=True)
class Coverage:
    request: str
    session: str
    status: str
    copies: list[Copy] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)  # targets that resolve to nothing (already gone?)
    gone_by: dict[str, dict[str, Any]] = field(default_factory=dict)  # a missing target -> the deletion that took it
    removed: dict[str, Any] = field(default_factory=dict)  # done: what its deletion entry removed (deletion_gone.py)
    warnings: list[str] = field(default_factory=list)  # active records left without any evidence
    kept: list[dict[str, Any]] = field(default_factory=list)  # copies no deletion can remove (deletion_names.py)
    rewrite: dict[str, Any] = field(default_factory=dict)  # the session record's fields to rewrite
    values: list[str] = field(default_factory=list, repr=False)  # what was looked for: never printed
    reason: str | None = field(default=None, repr=False)  # the reason as typed, until digested: never printed

    def as_dict(self) -> dict[str, Any]:
        return {"request": self.request, "session": self.session, "status": self.status,
                "copies": [c.as_dict() for c in self.copies], "missing": self.missing,
                "gone_by": self.gone_by, "removed": self.removed, "warnings": self.warnings,
                "kept": self.kept, "checked": list(CHECKED), "not_checked": list(NOT_CHECKED)}


def _forms(values: list[str]) -> list[str]:
    """Each value as stored in a text column and inside canonical JSON (escaped)."""
    out: list[str] = []
    for v in values:
        out.append(v)
        escaped = json.dumps(v, ensure_ascii=False)[1:-1]
        if escaped != v:
            out.append(escaped)
    return out


async def _rows(db: aiosqlite.Connection, type_: str, session: str) -> list[dict[str, Any]]:
    spec = SPECS[type_]
    return [spec.to_record(r) for r in await db.execute_fetchall(
        f"SELECT {spec.select_columns} FROM {spec.table} WHERE session = ?", (session,))]


SPLIT = "cut in two across two records (or two fields of one)"
BATCH = 100  # values per query: SQLite caps the number of parameters


async def _holding(db: aiosqlite.Connection, table: str, columns: tuple[str, ...], name: str, session: str,
                   forms: list[str]) -> list[tuple[str, str | None]]:
    """Rows of ``table`` in ``session`` whose columns contain any of ``forms`` (SQLite's instr)."""
    found: dict[str, str | None] = {}
    for start in range(0, len(forms), BATCH):
        batch = forms[start:start + BATCH]
        test = " OR ".join(f"instr({c}, ?) > 0" for c in columns for _ in batch)
        params = [f for _c in columns for f in batch]
        for ident, content in await db.execute_fetchall(
                f"SELECT {name}, {'content' if table == 'events' else 'NULL'} FROM {table} "
                f"WHERE session = ? AND ({test})", (session, *params)):
            found.setdefault(str(ident), content)
    return list(found.items())


async def _holding_number(db: aiosqlite.Connection, table: str, columns: tuple[str, ...], name: str, session: str,
                          numbers: NumberCopies) -> list[tuple[str, str]]:
    """Rows of ``table`` in ``session`` whose columns hold one of the numbers in any written
    form (fullwidth, other separators, invisible characters between digits): read in
    Python, since SQL's instr only finds one spelling. JSON columns are read as the strings
    they hold (an escaped ``\\u200b`` is the character to the pattern)."""
    found: list[tuple[str, str]] = []
    async with db.execute(f"SELECT {name}, {', '.join(columns)} FROM {table} WHERE session = ?", (session,)) as cur:
        async for ident, *cells in cur:
            for column, cell in zip(columns, cells, strict=True):
                if cell is None:
                    continue
                how = next((h for t in cell_texts(column, cell) if (h := numbers.search(t, in_words=False)) is not None),
                           None)  # in words: found by the loose scan, which reads every row folded next
                if how is not None:
                    found.append((str(ident), how))
                    break
    return found


async def _targets(db: aiosqlite.Connection, out: Coverage, req: dict[str, Any],
                   places: Places) -> tuple[list[str], set[str]]:
    """The targets themselves (and what an event observed); their texts and references."""
    session, add = out.session, out.copies.append
    texts: list[str] = []
    refs: set[str] = set()
    for target in req["targets"]:
        if target.startswith("evt:") and target[4:].isdigit():
            row = await fetch_one(db, "SELECT content, extra FROM events WHERE session = ? AND seq = ?",
                                  (session, int(target[4:])))
            if row is None:
                out.missing.append(target)
                continue
            refs.add(target)
            # the fields' values, not their names: "reasoning_content" (17 characters, a "line" long enough to be
            # a copy) is a sif field name every event with thinking holds, and made each of them a copy to delete
            said = _said_fields(json.loads(row[1]))
            fields = strings_in(list(said.values()) if isinstance(said, dict) else said)
            texts += [row[0] or "", *fields]
            places.add(target, row[0] or "", fields)
            add(Copy("events", target, "the target event"))
            if row[0]:
                add(Copy("events_fts", target, "its search-index entry"))
            for (mid,) in await db.execute_fetchall("SELECT id FROM materials WHERE session = ? AND source_event = ? "
                                                    "AND deleted_at IS NULL", (session, int(target[4:]))):
                refs.add(mid)
                add(Copy("materials", mid, f"observed by {target}"))
        else:
            row = await fetch_one(db, "SELECT material_id, deleted_at FROM materials WHERE session = ? AND id = ?",
                                  (session, target))
            if row is None or row[1] is not None:
                out.missing.append(target)
                continue
            refs.add(target)
            chunks = await db.execute_fetchall("SELECT data FROM material_chunks WHERE material_id = ? ORDER BY idx",
                                               (row[0],))
            texts.append(b"".join(bytes(c[0]) for c in chunks).decode("utf-8", errors="ignore"))
            add(Copy("materials", target, "the target material (bytes and search text; a tombstone row stays)"))
    return texts, refs


async def coverage(db: aiosqlite.Connection, req: dict[str, Any]) -> Coverage:
    session = req["session"]
    out = Coverage(req["id"], session, req["status"])
    places = Places()
    texts, refs = await _targets(db, out, req, places)
    if out.missing:  # named by the deletion that removed them (deletion_gone.py)
        out.gone_by = await gone_by(db, session, out.missing)
    if out.status == "done":
        out.removed = await removed_by(db, session, out.request)
    pieces = await session_pieces(db, session)
    # a target holding only part of a secret (the rest in the next event) names the whole secret
    split = straddling_values(pieces, sorted(refs))
    values = sorted(set(secret_values([t for t in texts if t])) | set(split), key=lambda v: (-len(v), v))
    out.values = values
    seen = {(c.where, c.id) for c in out.copies}
    at: dict[tuple[str, str], int] = {}  # a copy found by value -> its place in out.copies

    def add(where: str, ident: str, why: str, spelling: str | None = None, spellings: tuple[str, ...] = ()) -> None:
        if (where, ident) not in seen:
            seen.add((where, ident))
            at[(where, ident)] = len(out.copies)
            out.copies.append(Copy(where, ident, why, spelling, spellings or ((spelling,) if spelling else ())))
        elif spellings and (where, ident) in at and out.copies[at[(where, ident)]].spelling is not None:
            # found by value again, with every spelling it holds: said all (a copy by reference — a record
            # citing a target — stays said as that)
            out.copies[at[(where, ident)]] = with_spellings(out.copies[at[(where, ident)]], spellings)

    for gen in await _rows(db, "summary", session):
        cites = sorted(refs & set(gen.get("sources", [])))
        if cites:
            add("summaries", f"gen:{gen['generation']}", f"cites {', '.join(cites)}")
    for cand in await _rows(db, "candidate", session):
        cites = sorted(refs & set(cand.get("sources", [])))
        if cites:
            add("candidates", cand["id"], f"cites {', '.join(cites)}")
    forms = _forms(values)
    if forms:
        for table, columns, name, where in _BY_VALUE:
            for ident, content in await _holding(db, table, columns, name, session, forms):
                if where == "deletion_requests" and ident == req["id"]:
                    continue  # its reason is digested below in any case
                if (where, ident) not in seen:  # not the target itself: why() counts each event it is asked about
                    add(where, ident, places.why(ident, content, values) if table == "events" else BY_VALUE,
                        AS_WRITTEN)
                if table == "events" and content:
                    add("events_fts", ident, "its search-index entry")
        numbers = number_pattern(values)
        if numbers is not None:  # a number the targets held, written another way
            for table, columns, name, where in _BY_VALUE:
                for ident, how in await _holding_number(db, table, columns, name, session, numbers):
                    if where == "deletion_requests" and ident == req["id"]:
                        continue
                    add(where, ident, f"repeats a number of the targets, written another way: {how}", how)
                    if table == "events":
                        add("events_fts", ident, "its search-index entry")
        loose = LooseMatcher.of(values)
        bounded: list[str] = []  # records too long to be read whole in the second readings: said, not passed
        if loose or numbers is not None:  # the same values written another way: case, spacing, escapes, base64
            for table, columns, name, where in _BY_VALUE:
                rows = await holding_loosely(db, table, columns, name, session, loose, numbers)
                bounded += [f"{where} {ident}" for ident in rows.bounded]
                for ident, has_text, how, every in rows.found:
                    if where == "deletion_requests" and ident == req["id"]:
                        continue
                    add(where, ident, f"repeats a value of the targets, written another way: {'; '.join(every)}",
                        how, every)
                    if table == "events" and has_text:
                        add("events_fts", ident, "its search-index entry")
        if bounded:
            shown = ", ".join(bounded[:5]) + (f" and {len(bounded) - 5} more" if len(bounded) > 5 else "")
            out.warnings.append(f"{shown}: {BOUND}; a copy there in those spellings is not looked for — name the "
                                "record in the request to remove it whole")
        # as UTF-8, and as UTF-16 (a Windows tool's log, PowerShell's output: hostile review eight)
        needles: dict[bytes, str] = {}
        for codec, how in (("utf-8", AS_WRITTEN), ("utf-16-le", "as UTF-16 bytes"), ("utf-16-be", "as UTF-16 bytes")):
            for v in values:
                needles.setdefault(v.encode(codec, "surrogatepass"), how)
        for mid, material, media in await db.execute_fetchall(
                "SELECT material_id, id, media_type FROM materials WHERE session = ? AND deleted_at IS NULL", (session,)):
            if ("materials", material) in seen:
                continue
            how = await material_holds(db, mid, needles)
            if how is None and numbers is not None:
                how = await material_holds_number(db, mid, numbers)
            if how is None and (loose or numbers is not None):
                how = await material_holds_loosely(db, mid, loose, numbers)
            if how is not None:
                # every spelling of a material (read once more); the imported transcript — often megabytes, removed
                # whole as the events' source — is named by the first (reading it again doubled a listing's time)
                every = (await material_spellings(db, mid, needles, loose, numbers) if media != ORIGINAL_MEDIA_TYPE
                         else ()) or (how,)
                others = [h for h in every if h != AS_WRITTEN]
                add("original" if media == ORIGINAL_MEDIA_TYPE else "materials", material,
                    "its bytes repeat a value of the targets" + (f", written another way: {'; '.join(others)}"
                                                                 if others else ""), how, every)
    finder = SplitFinder(split_forms([*sensitive_values("\n".join(texts)), *split]))
    for first, second, _form in finder.pairs(pieces.pieces, pieces.neighbours):  # a value cut in two
        for owner in (first, second):
            where, ident = owner.split("|", 1)
            if where == "deletion_requests" and ident == req["id"]:
                continue
            other = (second if owner == first else first).split("|", 1)[1]
            add(where, ident, f"holds part of a value of the targets split across {first.split('|', 1)[1]} and "
                              f"{second.split('|', 1)[1]} (together they spell it)" if other != ident else
                "holds a value of the targets split across two of its fields", SPLIT)
            if where == "events":
                add("events_fts", ident, "its search-index entry")
    cut = [*sensitive_values("\n".join(texts)), *split]  # in any spelling, across consecutive events
    for owners, how in spelled_splits(pieces, LooseMatcher.of(values), number_pattern(values),
                                      max((len(v) for v in cut), default=0)):
        named = [o.split("|", 1)[1] for o in owners]
        slots = [at.get((o.split("|", 1)[0], o.split("|", 1)[1])) for o in owners]
        if all(i is not None and out.copies[i].spelling == SPLIT for i in slots):
            continue  # found cut in two as folded already (domain/deletion_split.py), and said so
        for owner in owners:
            where, ident = owner.split("|", 1)
            across = f"{', '.join(named[:-1])} and {named[-1]}"
            said = "" if how == FOLDED else f", written another way: {how}"
            add(where, ident, f"holds part of a value of the targets cut across {across}{said} (together they "
                              "spell it)", SPLIT, (f"{SPLIT}: {how}",))
            if where == "events":
                add("events_fts", ident, "its search-index entry")
    if any(t.startswith("evt:") for t in refs):  # the original and every segment appended while it was followed
        for (original,) in await db.execute_fetchall("SELECT id FROM materials WHERE session = ? AND media_type = ? "
                                                     "AND deleted_at IS NULL ORDER BY material_id",
                                                     (session, ORIGINAL_MEDIA_TYPE)):
            add("original", original, "the imported transcript holds the events' original lines")
    out.copies += await index_entries(db, session, out.copies)
    if req.get("reason") and not str(req["reason"]).startswith("hmac-sha256:"):  # a done one's is digested already
        out.reason = str(req["reason"])  # an export written while it was pending holds it (deletion_outside.py)
        out.copies.append(Copy("deletion_requests", req["id"], "its reason text (kept only as a keyed digest)"))
    await _warn_lost_evidence(db, out)
    out.warnings += places.warnings()
    if forms:
        await _warn_other_sessions(db, out, forms)
    if values:
        match = await matcher(db, session, values, number_pattern(values))
        out.kept = await kept_names(db, session, match)
        out.rewrite = await rewritable(db, session, match)
        if out.rewrite["title"]:
            out.copies.append(Copy("sessions", session, "its title holds a value of the targets (rewritten)"))
        for key in out.rewrite["extra"]:
            out.copies.append(Copy("sessions", f"{session}.{key}", "a field of the session record holds a value "
                                                                   "of the targets (rewritten)"))
    if not out.rewrite.get("title") and await _title_made_from_a_target(db, session, refs):
        out.rewrite = {"title": True, "extra": list(out.rewrite.get("extra") or [])}
        out.copies.append(Copy("sessions", session, "its title was made from a target's text (rewritten)"))
    return out


async def _title_made_from_a_target(db: aiosqlite.Connection, session: str, refs: set[str]) -> bool:
    """Whether the session's title is what an importer makes of a target event's text (its first
    prompt, whitespace collapsed, cut with an ellipsis): a copy of the message however short, which
    the value scan leaves out (a line of under 16 characters is not looked for elsewhere)."""
    seqs = [int(r[4:]) for r in refs if r.startswith("evt:") and r[4:].isdigit()]
    row = await session_rows.title_and_extra(db, session)
    if not seqs or row is None or not row[0]:
        return False
    marks = ",".join("?" * len(seqs))
    rows = await db.execute_fetchall(f"SELECT content FROM events WHERE session = ? AND seq IN ({marks}) "
                                     "AND content IS NOT NULL", (session, *seqs))
    return any(prompt_title(str(content)) == row[0] for (content,) in rows)


async def _warn_other_sessions(db: aiosqlite.Connection, out: Coverage, forms: list[str]) -> None:
    """Another session of the same store holding a value exactly: a request removes only its own
    session's copies, so the deletion names where the value stays (never the value) instead of
    reporting every copy removed. Contents and records are searched; materials of other sessions
    and other spellings are not (NOT_CHECKED says so)."""
    held: dict[str, list[str]] = {}
    for table, columns, name, _where in _BY_VALUE:
        for start in range(0, len(forms), BATCH):
            batch = forms[start:start + BATCH]
            test = " OR ".join(f"instr({c}, ?) > 0" for c in columns for _ in batch)
            for other, ident in await db.execute_fetchall(
                    f"SELECT session, {name} FROM {table} WHERE session != ? AND ({test}) ORDER BY session",
                    (out.session, *[f for _c in columns for f in batch])):
                if str(ident) not in held.setdefault(str(other), []):
                    held[str(other)].append(str(ident))
    for other, idents in held.items():
        shown = ", ".join(idents[:5]) + (f" and {len(idents) - 5} more" if len(idents) > 5 else "")
        out.warnings.append(f"session {other} also holds a value of the targets ({shown}); this request removes "
                            f"only {out.session}'s copies, so a deletion request in {other} must remove those")


async def _warn_lost_evidence(db: aiosqlite.Connection, out: Coverage) -> None:
    """An active record whose every cited source this deletion removes loses its evidence."""
    removed = {c.id for c in out.copies if c.where in ("events", "materials")}
    deleted_state = {c.id for c in out.copies if c.where == "state"}
    for rec in await _rows(db, "state", out.session):
        if rec.get("status") != "active" or f"{rec['key']}@v{rec['version']}" in deleted_state:
            continue
        sources = [s for s in rec.get("sources", []) if isinstance(s, str)]
        if sources and set(sources) <= removed:
            out.warnings.append(f"{rec['key']} v{rec['version']} ({rec['kind']}, active) cites only "
                                f"{', '.join(sources)}, which this deletion removes: it will stand without evidence")
    for rec in await _rows(db, "state", out.session):
        if rec.get("status") == "active" and f"{rec['key']}@v{rec['version']}" in deleted_state:
            out.warnings.append(f"{rec['key']} v{rec['version']} ({rec['kind']}, active) repeats a value of the "
                                "targets and is removed with them: the session will have no active value for it")
