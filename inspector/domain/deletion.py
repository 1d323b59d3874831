"""What a deletion request must cover (DESIGN §2 "deletion").

A target (``evt:N`` or a material id) has copies: the row itself, its search-index entry,
materials observed by that event, summaries and candidates that cite it or repeat its
sensitive values (phone numbers, e-mail addresses, ids found in the target), and the
original transcript file an imported session keeps. Deleting leaves a tombstone (ids and
counts in the ledger), never the content.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from inspector.domain.text_checks import SENSITIVE


@dataclass(frozen=True, slots=True)
class Copy:
    where: str  # events | materials | summaries | candidates | events_fts | materials_fts | original
    id: str
    why: str

    def as_dict(self) -> dict[str, Any]:
        return {"where": self.where, "id": self.id, "why": self.why}


def sensitive_values(text: str) -> list[str]:
    """The concrete sensitive strings in a target, to find where summaries repeat them."""
    found: list[str] = []
    for pattern in SENSITIVE.values():
        found += [m.group(0) for m in pattern.finditer(text)]
    return sorted(set(found))


def repeats(text: str, values: list[str]) -> list[str]:
    return [v for v in values if v and v in text]
