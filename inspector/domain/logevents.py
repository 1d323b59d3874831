"""The raw-log view the verdict rules read: one event, whichever way it was loaded.

Fact extraction runs at import (on sif records still in memory) and on demand (on rows
read back from a store); both shapes become ``LogEvent`` so the rules see one thing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
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
        args = rec.get("args")
        return cls(int(rec["seq"]), str(rec.get("kind") or "other"), rec.get("trust"), rec.get("content"),
                   rec.get("tool"), rec.get("call_id"), args if isinstance(args, dict) else None,
                   rec.get("is_error") is True, rec.get("sidechain") is True,
                   {k: rec[k] for k in ("compact_summary", "subtype", "stub", "record_type") if k in rec},
                   rec.get("at") if isinstance(rec.get("at"), str) else None)

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
