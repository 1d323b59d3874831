"""The raw-log view the verdict rules read: one event, whichever way it was loaded.

Fact extraction runs at import (on sif records still in memory) and on demand (on rows
read back from a store); both shapes become ``LogEvent`` so the rules see one thing.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

UNTRUSTED_KINDS = frozenset({"tool_result"})  # trust comes from the source (DESIGN: untrusted instruction)


@dataclass(frozen=True, slots=True)
class LogEvent:
    seq: int
    kind: str
    trust: str | None
    content: str | None
    tool: str | None = None
    call_id: str | None = None
    args: dict[str, Any] | None = None
    is_error: bool = False
    sidechain: bool = False
    extra: dict[str, Any] = field(default_factory=dict)
    at: str | None = None

    @classmethod
    def from_record(cls, rec: dict[str, Any]) -> LogEvent:
        """The event of a sif record. Made field by field through the slots (what the frozen
        dataclass's own constructor does through ``object.__setattr__`` by name, at about twice
        the cost): it runs for every event of every import (extracting facts) and every read."""
        if cls is not LogEvent:
            return cls(*_fields_of(rec))
        get = rec.get
        args, at = get("args"), get("at")
        event = _new(LogEvent)
        _seq(event, int(rec["seq"]))
        _kind(event, str(get("kind") or "other"))
        _trust(event, get("trust"))
        _content(event, get("content"))
        _tool(event, get("tool"))
        _call_id(event, get("call_id"))
        _args(event, args if isinstance(args, dict) else None)
        _is_error(event, get("is_error") is True)
        _sidechain(event, get("sidechain") is True)
        _extra(event, {k: rec[k] for k in _EXTRA_FIELDS if k in rec})
        _at(event, at if isinstance(at, str) else None)
        return event

    @property
    def ref(self) -> str:
        return f"evt:{self.seq}"

    @property
    def text(self) -> str:
        return self.content or ""

    @property
    def from_user(self) -> bool:
        """Words the user typed (not a tool result, a command echo or a compaction summary)."""
        return (self.kind == "user_message" and self.trust in ("user", None) and not self.sidechain
                and not self.extra.get("compact_summary"))

    @property
    def untrusted(self) -> bool:
        """Tool output and model output: never a rule without a person's confirmation."""
        return self.kind == "tool_result" or self.trust in ("tool", "model") or self.kind == "assistant_message"


# ``compacted`` (a Codex ``compacted`` line) and ``compaction`` (a Messages compaction block or a
# Responses compaction item) mark a compaction as Claude Code's ``subtype`` does: the goal rules
# read all three as the place where a turn can be cut short (facts_goals._boundary).
_EXTRA_FIELDS = ("compact_summary", "subtype", "stub", "record_type", "compacted", "compaction")


def _fields_of(rec: dict[str, Any]) -> tuple[Any, ...]:
    """:class:`LogEvent`'s fields, in order, read from a sif event record."""
    get = rec.get
    args, at = get("args"), get("at")
    return (int(rec["seq"]), str(get("kind") or "other"), get("trust"), get("content"), get("tool"), get("call_id"),
            args if isinstance(args, dict) else None, get("is_error") is True, get("sidechain") is True,
            {k: rec[k] for k in _EXTRA_FIELDS if k in rec}, at if isinstance(at, str) else None)


_new = object.__new__
_seq, _kind, _trust, _content, _tool, _call_id, _args, _is_error, _sidechain, _extra, _at = (
    LogEvent.__dict__[f.name].__set__ for f in fields(LogEvent))


def records_a_compaction(event: dict[str, Any]) -> bool:
    """An event that records a compaction itself (Claude Code's boundary and summary lines,
    a Codex ``compacted`` line, an old ``summary`` record, a Responses ``compaction`` item or a
    Messages ``compaction`` block): a generation citing it cites its
    own origin, not a fact outside its range."""
    return (event.get("kind") in ("system_message", "other")
            and (event.get("compact_summary") is True or event.get("compacted") is True
                 or event.get("compaction") is True
                 or event.get("subtype") == "compact_boundary" or event.get("record_type") == "summary"
                 or str(event.get("content") or "").casefold().startswith("summary record:")))
