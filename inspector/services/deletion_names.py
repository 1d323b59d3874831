"""Copies of a deleted value held by *names*: titles, keys, ids, tool names, reviewer names,
and the ledger entries that spell them.

A name is how other rows, tombstones and the append-only ledger refer to a record, so it
cannot be rewritten in place without leaving the old spelling wherever it was referred to.
DESIGN rule 1 keeps the ledger as written (hash-chained), and rule 2 says a deletion never
has to break the chain. So a deletion either removes a copy or refuses:

- a session's title and the free fields of its record (``extra``) are display values nothing
  refers to: when no ledger entry spells them, they are rewritten (a new value, sealed by the
  deletion's own ledger entry — the redaction deletion is for);
- every other name holding a value (a state key, a material, stub, action, candidate or
  handoff id, a call id, a tool name, a tool definition, a material record's fields, the
  free-text fields of materials, stubs, state records, actions and requests) and
  every ledger entry holding one (an actor — a reviewer's name —, a reason typed into a
  correction, an id it lists) is a copy the deletion *cannot* remove: it is listed in
  ``kept`` with where it is and why, and ``delete`` refuses (``copy_kept``) rather than say
  "deleted" while it stays.
"""

from __future__ import annotations

import json
import re
from typing import Any

import aiosqlite

from inspector.domain.deletion import AS_WRITTEN, sensitive_values
from inspector.domain.deletion_forms import LooseMatcher
from inspector.domain.deletion_spelling import spelled_in, spellings_in
from inspector.domain.number_copies import NumberCopies
from inspector.domain.plurals import plural
from inspector.domain.terminal_safe import quoted
from inspector.store import session_rows

# Names a deletion cannot rewrite: (table, column, what a person calls it, why it stays).
_REFERRED = "other rows, tombstones and ledger entries refer to the record by it"
_FIELD = "a field of the record, bound by its digest and exported as written"
_NAMES: tuple[tuple[str, str, str, str], ...] = (
    ("state_records", "key", "state key", _REFERRED),
    ("materials", "id", "material id", _REFERRED),
    ("stubs", "id", "stub id", _REFERRED),
    ("actions", "id", "action id", _REFERRED),
    ("candidates", "id", "candidate id", _REFERRED),
    ("handoffs", "id", "handoff id", _REFERRED),
    ("handoffs", "to_session", "handoff successor", "it names another session by its id"),
    ("events", "call_id", "call id", "calls and results are paired by it, also in tombstones"),
    ("events", "tool", "tool name", "the session's tool calls and definitions refer to it"),
    ("tool_defs", "name", "tool name", "the session's tool calls refer to it"),
    ("tool_defs", "extra", "tool definition", "a tool definition is kept whole (its hash is bound)"),
    ("materials", "extra", "material record field", "a material record stays as its tombstone"),
    ("sessions", "id", "session id", "every row and ledger entry of the session is keyed by it"),
    # Free-text fields of a record that are neither its content nor its name: bound by the
    # record's digest and exported as written, so a value there stays unless the deletion refuses.
    ("materials", "source_version", "material source version", _FIELD),
    ("materials", "disclosure_scope", "material disclosure scope", _FIELD),
    ("materials", "media_type", "material media type", _FIELD),
    ("stubs", "source_version", "stub source version", _FIELD),
    ("stubs", "disclosure_scope", "stub disclosure scope", _FIELD),
    ("state_records", "scope", "state record scope", _FIELD),
    ("actions", "result_ref", "action result reference", _FIELD),
    ("deletion_requests", "requested_by", "deletion requester", _FIELD),
)
REWRITTEN_TITLE = "✕ title removed by deletion {request}"
REWRITTEN_FIELD = "✕ removed by deletion {request}"


# A proposed fact's key spells the start of its value as a slug (domain/facts._key: case-folded,
# every run of non-word characters one "-", cut at 32 characters): "can you also cc zz.keys.private@
# example.com on the report?" is the key goal.later_request.can-you-also-cc-zz-keys-private.6fc276,
# which the import's ledger entry lists. No spelling a deletion compared found it there, so `delete`
# said "done" while the ledger kept most of the address (docs/reviews/untrusted-seven.md). A
# sensitive value's slug in a name is that value: whole, or its first 12+ characters where the
# key's slug was cut. The extractor's keys now leave sensitive values out (domain/fact_keys.py);
# this still finds a key that spells one in a store made before, or brought by an imported sif file.
_SLUG = re.compile(r"[^\w]+")
_SLUG_SHOWN = 12


def value_slug(value: str) -> str | None:
    slug = _SLUG.sub("-", value.casefold()).strip("-")
    return slug if len(slug) >= 7 else None


def _slug_in(name: str, slug: str) -> bool:
    start = name.find(slug[:7])
    while start >= 0:
        shown = 0
        for a, b in zip(name[start:], slug, strict=False):
            if a != b:
                break
            shown += 1
        if shown >= min(len(slug), _SLUG_SHOWN):
            return True
        start = name.find(slug[:7], start + 1)
    return False


class NameMatcher:
    """Whether a name holds a value: exactly, or written another way (domain/deletion_forms.py),
    or a sensitive value as a fact's key spells it."""

    def __init__(self, values: list[str], numbers: NumberCopies | None) -> None:
        self.exact = [v for v in values if v]
        self.loose = LooseMatcher.of(values)
        self.numbers = numbers
        self.slugs = sorted({slug for v in sensitive_values("\n".join(self.exact))
                             if (slug := value_slug(v)) is not None})

    def holds(self, text: str) -> bool:
        return self.spelling(text) is not None

    def spelling(self, text: str) -> str | None:
        """How ``text`` spells a value (domain/deletion_spelling.py), or None."""
        if any(v in text for v in self.exact):
            return AS_WRITTEN
        if self.slugs and any(_slug_in(text.casefold(), slug) for slug in self.slugs):
            return "as a fact key spells it (a slug)"
        return spelled_in(text, self.loose, self.numbers)

    def spellings(self, text: str, first: str) -> list[str]:
        """Every spelling ``text`` holds a value in, ``first`` (what :meth:`spelling` answered) first: a
        name found as written may also hold it encoded (round eleven: a listing names them all)."""
        return list(dict.fromkeys([first, *spellings_in(text, self.loose, self.numbers)]))


async def matcher(db: aiosqlite.Connection, session: str, values: list[str],
                  numbers: NumberCopies | None) -> NameMatcher:
    """A matcher for the values that are not themselves a record's whole name: a target's
    fields refer to records (``"material": "original:chat.json"``), and a reference to a
    record is not a copy of the content being deleted."""
    names: set[str] = set()
    for table, column, _what, _why in _NAMES:
        where = "id = ?" if table == "sessions" else "session = ?"
        names |= {str(r[0]) for r in await db.execute_fetchall(
            f"SELECT DISTINCT {column} FROM {table} WHERE {where} AND {column} IS NOT NULL", (session,))}
    return NameMatcher([v for v in values if v not in names], numbers)


async def kept_names(db: aiosqlite.Connection, session: str, match: NameMatcher) -> list[dict[str, Any]]:
    """Every name and ledger entry of ``session`` holding a value, which no deletion can remove."""
    kept: list[dict[str, Any]] = []
    seen: set[tuple[str, str]] = set()
    for table, column, what, why in _NAMES:
        where = "id = ?" if table == "sessions" else "session = ?"
        for (name,) in await db.execute_fetchall(f"SELECT DISTINCT {column} FROM {table} WHERE {where} "
                                                 f"AND {column} IS NOT NULL", (session,)):
            text = str(name)
            if (what, text) not in seen and (how := match.spelling(text)) is not None:
                seen.add((what, text))
                kept.append({"where": f"{table}.{column}", "name": text, "what": what, "spelling": how,
                             "spellings": match.spellings(text, how),
                             "why": f"the {what} {quoted(text)} holds a value of the targets; {why}, so it cannot be "
                                    "rewritten in place", "remedy": remedy(session, ledger=False)})
    for seq, kind, actor, payload in await db.execute_fetchall(
            "SELECT seq, kind, actor, CAST(payload AS TEXT) FROM ledger WHERE session = ? ORDER BY seq", (session,)):
        parts = [(p, how, text) for p, text in (("its actor (a reviewer's or writer's name)", str(actor or "")),
                                                (_payload_part(payload, match), str(payload or "")))
                 if text and (how := match.spelling(text)) is not None]
        for part, how, text in parts:
            kept.append({"where": "ledger", "name": f"entry {seq} ({kind})", "what": "ledger entry", "spelling": how,
                         "spellings": match.spellings(text, how),
                         "why": f"ledger entry {seq} ({kind}) holds a value of the targets in {part}; the ledger is "
                                "append-only and hash-chained, so removing it would break the chain",
                         "remedy": remedy(session, ledger=True)})
    return kept


def remedy(session: str, *, ledger: bool, names: bool | None = None) -> str:
    """How a copy no deletion can remove is removed after all: only a new store made without it
    (this store's ledger and names stay as written, DESIGN rules 1 and 2). ``names`` as well as
    ``ledger``: both kinds of copy, one instruction (:func:`one_remedy`)."""
    steps = [*(["rename each name that holds it everywhere in FILE"] if names or (names is None and not ledger) else []),
             *(["remove the value from the ledger entries in FILE"] if ledger else [])]
    return (f"export the session (`inspector export STORE --session {session} -o FILE`), {' and '.join(steps)}, "
            "import FILE into a new store, and retire this store file and its backups")


def one_remedy(session: str, kept: list[dict[str, Any]]) -> str:
    """The one way out for every kept copy: `deletion` printed a "to remove it:" line per kind of
    copy (rename a name / remove from the ledger), two different instructions under one ✕ block
    (deletion-nine). Empty when nothing is kept."""
    if not kept:
        return ""
    ledger = any(k.get("where") == "ledger" for k in kept)
    return remedy(session, ledger=ledger, names=any(k.get("where") != "ledger" for k in kept))


def _payload_part(payload: str | None, match: NameMatcher) -> str:
    """Which field of a payload holds the value, in words (``reason``, ``key``, …)."""
    try:
        body = json.loads(payload or "{}")
    except ValueError:
        return "its payload"
    if isinstance(body, dict):
        fields = [k for k, v in body.items() if match.holds(json.dumps(v, ensure_ascii=False))]
        if fields:
            return f"its payload {'field' if len(fields) == 1 else plural('field')} " + ", ".join(fields[:4])
    return "its payload"


async def rewritable(db: aiosqlite.Connection, session: str, match: NameMatcher) -> dict[str, Any]:
    """The session record's display fields holding a value: ``{"title": bool, "extra": [keys]}``."""
    row = await session_rows.title_and_extra(db, session)
    if row is None:
        return {"title": False, "extra": []}
    title, extra = row
    try:
        fields = json.loads(extra or "{}")
    except ValueError:
        fields = {}
    keys = [k for k, v in fields.items() if isinstance(fields, dict) and match.holds(
        v if isinstance(v, str) else json.dumps(v, ensure_ascii=False))] if isinstance(fields, dict) else []
    return {"title": bool(title) and match.holds(str(title)), "extra": keys}


def redacted_extra(extra: str, keys: list[str], request: str) -> dict[str, Any]:
    fields = json.loads(extra or "{}")
    return {k: (REWRITTEN_FIELD.format(request=request) if k in keys else v) for k, v in fields.items()}
