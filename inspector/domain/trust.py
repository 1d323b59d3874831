"""Trust comes from where text came from, not from the label a file gives it.

A tool result, a document or a model's output is untrusted whatever its ``trust`` field
says: a transcript (or an attacker who wrote into one) cannot promote a tool result to
``user`` by labelling it so. A label that claims more than the source allows is kept as
written (the raw log is immutable) and reported as the protocol problem
``trust_label_conflict``. And a protected record of an owner-only kind (goal, constraint,
permission, acceptance) written by anyone but the user or the owner is only a proposal:
it imports as ``pending`` (DESIGN rule 3).
"""

from __future__ import annotations

from inspector.domain.terminal_safe import inert
from inspector.domain.vocabulary import OWNER_ONLY_KINDS

# The trust each kind of event has by its source; a label may lower it, never raise it.
SOURCE_TRUST = {"tool_result": "tool", "tool_call": "model", "assistant_message": "model"}
UNTRUSTED = frozenset({"tool", "model"})
OWNER_WRITERS = frozenset({"user", "owner"})


def effective_trust(kind: str, label: str | None) -> str | None:
    """The trust an event is treated with: its source's, when the label claims more."""
    source = SOURCE_TRUST.get(kind)
    if source is not None and label not in UNTRUSTED:
        return source
    return label


def label_conflict(kind: str, label: str | None) -> str | None:
    """A sentence when ``label`` claims more trust than an event of ``kind`` can have."""
    source = SOURCE_TRUST.get(kind)
    if source is None or label is None or label in UNTRUSTED:
        return None
    return (f"a {kind.replace('_', ' ')} is labelled trust {inert(label)}, but its source makes it {inert(source)}: "
            "it is treated as untrusted whatever the label says")


def imported_status(kind: str, writer: str | None, status: str) -> str:
    """An owner-only record the file says a model, tool, reviewer or extractor wrote can only
    be pending. A record without a writer is the harness's own statement and keeps its status."""
    if kind in OWNER_ONLY_KINDS and status == "active" and writer is not None and writer not in OWNER_WRITERS:
        return "pending"
    return status


def unconfirmed_state(record: dict[str, object], claimed: str) -> str:
    """The sentence for an owner-only record whose file status ``imported_status`` did not take.

    An export writes a correction the owner confirmed (or the goal an accepted handoff carried)
    with its writer, ``reviewer``: re-imported, it is pending again, and its older version stays
    superseded, so the session has no active record of that key. Said, not silent, with the way on."""
    kind, key = str(record.get("kind")), record.get("key")
    return (f"the file says {kind} {inert(key)} v{record.get('version', 1)} is {claimed}, but it was written by "
            f"{record.get('writer')} and only the session's owner sets a {kind.replace('_', ' ')}; a sif file cannot "
            "prove the owner confirmed it: it is imported pending and binds nothing until the owner confirms it here "
            f"(`inspector confirm STORE --session {record.get('session')} --key {key}`)")


def reviewer_name(actor: str | None) -> str:
    """Every write names its actor (DESIGN rule 3): a blank name is refused, not recorded."""
    from inspector.domain.errors import BadInput

    if not isinstance(actor, str) or not actor.strip():
        raise BadInput("a reviewer name is required for this act (--reviewer NAME or INSPECTOR_REVIEWER); a blank "
                       "name records nobody", code="reviewer_required")
    hidden = hidden_characters(actor.strip())
    if not hidden:
        from inspector.domain.terminal_safe import is_terminal_safe

        if not is_terminal_safe(actor.strip()):  # a variation-selector run (bytes behind a letter), a mark flood
            hidden = ["a run of variation selectors or combining marks"]
    if hidden:
        raise BadInput(f"a reviewer name is recorded in the append-only ledger for good, so it must read as written: "
                       f"it holds {', '.join(hidden[:3])} (control, bidi or invisible characters)",
                       code="reviewer_invalid")
    return actor.strip()


# What typed prose may hold that a name may not: its line breaks and tabs (a reason, a value or a
# summary is prose; a file written on Windows ends its lines CR LF), and the joiners that Persian,
# Indic scripts and emoji need (U+200C, U+200D) — they move and hide nothing.
_PROSE_ALLOWED = frozenset({"U+000A", "U+0009", "U+200C", "U+200D"})


def typed_text(text: str, what: str, code: str, *, kept: str) -> str:
    """Text a reviewer typed, refused (``code``, nothing written) when it holds a character that acts
    on a terminal or hides or reorders what is read: every later reader must see what was typed as it
    was typed (``kept`` says where it stays). The same rule for every command and dialog that takes
    such text (the services check it, so the app's dialogs too): a reason and a reviewer's name
    (kept in the append-only ledger), and a record's value, rationale, alternatives, a corrected
    summary and its unresolved markers (kept in the session's history: old versions stay) —
    deletion-ten; before, only names and reasons were checked and the rest was stored as typed."""
    from inspector.domain.errors import BadInput

    hidden = [c for c in hidden_characters(text.replace("\r\n", "\n")) if c not in _PROSE_ALLOWED]
    if hidden:
        raise BadInput(f"{what} is {kept}, so it must read as written: it holds {', '.join(hidden[:3])}"
                       f"{' and more' if len(hidden) > 3 else ''} (control, bidi or invisible characters); nothing "
                       "was written", code=code)
    return text


_LEDGER = "recorded in the append-only ledger for good"
_HISTORY = "kept in the session's history as typed (earlier versions stay)"


def reason_text(reason: str) -> str:
    """A typed reason, refused (``reason_invalid``, nothing written) when it holds a character that
    acts on a terminal or hides or reorders what is read: it is recorded in the append-only ledger
    for good, as a reviewer's name is (:func:`reviewer_name`), and shown to every later reader —
    an escape there was stored and only ever shown inert (deletion-nine)."""
    return typed_text(reason, "a reason", "reason_invalid", kept=_LEDGER)


def record_text(text: str, what: str, code: str) -> str:
    """A record's text a reviewer typed (a value, a rationale, an alternative, a corrected summary,
    an unresolved marker): the reason's rule (:func:`typed_text`)."""
    return typed_text(text, what, code, kept=_HISTORY)


def new_key(key: str) -> str:
    """A state key a reviewer makes up (``correct --kind``): a name other records and the ledger
    refer to, so nothing hidden at all (``key_invalid``), as a reviewer's name."""
    from inspector.domain.errors import BadInput

    hidden = hidden_characters(key)
    if hidden:
        raise BadInput(f"a new state key is how every later version and ledger entry names the record, so it must "
                       f"read as written: it holds {', '.join(hidden[:3])} (control, bidi or invisible characters); "
                       "nothing was written", code="key_invalid")
    return key


def hidden_characters(text: str) -> list[str]:
    """The characters of ``text`` that act on a terminal or hide/reorder what is read (control,
    format — bidi, zero-width —, surrogate, private-use, line/paragraph separators), as U+XXXX."""
    import unicodedata

    return sorted({f"U+{ord(ch):04X}" for ch in text
                   if unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Zl", "Zp")})


# Statuses only a person's act in a store sets: a decision on a candidate or handoff, a
# deletion carried out, an unknown outcome reconciled as not done. A sif file can say them, but
# nothing in it proves who decided (its ledger lines are unsigned text anyone can write), so they
# are not taken: the record imports undecided, and the claim is reported (`unverified_act`).
ACT_STATUSES: dict[str, tuple[frozenset[str], str]] = {
    "candidate": (frozenset({"accepted", "rejected"}), "pending"),
    "handoff": (frozenset({"accepted", "rejected"}), "pending"),
    "deletion_request": (frozenset({"done"}), "pending"),
    "action": (frozenset({"not_done"}), "unknown"),
}
_ACT_WORDS = {"accepted": "was accepted", "rejected": "was rejected", "done": "was carried out",
              "not_done": "was reconciled as not done"}


def unverified_act(type_: str, record: dict[str, object]) -> tuple[str, str] | None:
    """``(status to import, sentence)`` when an imported record claims a status only an act sets."""
    rule = ACT_STATUSES.get(type_)
    status = record.get("status")
    if rule is None or not isinstance(status, str) or status not in rule[0]:
        return None
    name = type_.replace("_", " ")
    return rule[1], (f"the file says {name} {inert(record.get('id'))} {_ACT_WORDS[status]}, but a sif file cannot prove "
                     f"who decided (its acts are unsigned): it is not taken, a new {name} is imported {rule[1]} to be "
                     "decided here (one already stored keeps its own status)")
