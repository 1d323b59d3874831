"""Errors and refusals that carry a stable code and a sentence a person understands."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from inspector.domain.terminal_safe import inert


class InspectorError(Exception):
    """Base of every error the product raises on purpose (never a bare traceback)."""

    exit_code = 3

    def __init__(self, message: str, *, code: str = "bad_input") -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def as_dict(self) -> dict[str, object]:
        return {"code": self.code, "message": self.message}


class StoreBusy(InspectorError):
    """Another write held the store past the wait: a refusal (exit 1), not damage and not bad
    input — the same act can simply be tried again."""

    exit_code = 1

    def __init__(self, waited_s: float) -> None:
        super().__init__(f"another reviewer's write held the store for {waited_s:g} s; nothing was written — try "
                         "again in a moment", code="store_busy")


class StoreFileChanged(InspectorError):
    """The store's file was deleted, replaced or cut under an open store: a write would go to a
    file no one will read again (an unlinked inode, the file that was moved away) or into a
    damaged one, so nothing is written. A refusal (exit 1): reopening the store is the remedy."""

    exit_code = 1


class BadInput(InspectorError):
    """Input that cannot be taken as it is: malformed, unknown, conflicting. Nothing was written.

    ``identity`` names the record a refusal is about (a conflicting record's identity), so a
    service can say it again in the person's terms (services/changed_source.py) — it is not
    part of the JSON document, which keeps code, line and message."""

    def __init__(self, message: str, *, code: str = "bad_input", line: int | None = None,
                 identity: tuple[Any, ...] | None = None) -> None:
        text = f"line {line}: {message}" if line is not None else message
        super().__init__(text, code=code)
        self.line = line
        self.identity = identity

    def as_dict(self) -> dict[str, object]:
        return {"code": self.code, "line": self.line, "message": self.message}


class NotAStore(InspectorError):
    """The path is not a Context Inspector store (or is one of an unknown format version)."""

    def __init__(self, message: str, *, code: str = "not_a_store") -> None:
        super().__init__(message, code=code)


class NotFound(InspectorError):
    """A named session, record or stub does not exist in the store."""

    exit_code = 3

    def __init__(self, message: str) -> None:
        super().__init__(message, code="not_found")


@dataclass(frozen=True, slots=True)
class Refusal:
    """One reason a check said no: a stable code plus a sentence."""

    code: str
    message: str

    def as_dict(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message}


def no_generation(session: str, generation: object, have: list[int]) -> NotFound:
    """A summary generation the session does not hold, naming the ones it does (before: "has no
    summary generation 99" and nothing more, so a script had to run drift to learn them)."""
    held = sorted(have)
    shown = (", ".join(map(str, held)) if len(held) <= 8
             else ", ".join(map(str, held[:3])) + f", … {held[-1]} ({len(held)} in all)")
    return NotFound(f"session {inert(session)} has no summary generation {generation}; "
                    + (f"its generations: {shown}" if held else "it has no summary generation at all"))
