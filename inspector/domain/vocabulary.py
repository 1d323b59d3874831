"""The product's closed vocabularies (DESIGN §2 and §5), kept in one place."""

from __future__ import annotations

SIF_FORMAT = "sif/1"

ADAPTERS = frozenset({"generic", "deepseek-thinking-tools", "anthropic", "openai-chat"})
EVENT_KINDS = frozenset(
    {"user_message", "assistant_message", "tool_call", "tool_result", "system_message", "other"}
)
TRUST_LEVELS = frozenset({"user", "model", "tool", "system", "reviewer"})
CONTINUATION_KINDS = frozenset(
    {"signature", "redacted_thinking", "encrypted_content", "thought_signature", "opaque"}
)
STATE_KINDS = (
    "goal",
    "constraint",
    "permission",
    "acceptance",
    "decision",
    "open_issue",
    "evidence_ref",
    "progress",
    "failure",
    "artifact",
    "reference",
)
# Kinds only the session's owner may change (DESIGN rule 3).
OWNER_ONLY_KINDS = frozenset({"goal", "constraint", "permission", "acceptance"})
STATE_STATUSES = frozenset({"active", "superseded", "pending"})
WRITERS = frozenset({"user", "owner", "reviewer", "model", "tool", "extractor"})
# ``not_done`` is only ever set by a person's reconciliation (the effect was checked and is absent).
ACTION_STATUSES = frozenset({"planned", "in_flight", "succeeded", "failed", "unknown", "not_done"})
SUMMARY_KINDS = frozenset({"recursive", "rebuilt", "milestone", "corrected", "accepted"})
ENCODINGS = frozenset({"utf-8", "base64"})
# Status of a candidate or handoff: proposed, then decided once by a person.
DECISION_STATUSES = frozenset({"pending", "accepted", "rejected"})
DELETION_STATUSES = frozenset({"pending", "done"})
