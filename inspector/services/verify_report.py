"""What ``inspector verify`` reports: the report itself, the stable code of every break, and
the ``--head SEQ:HASH`` a person pins.

Every problem verify finds is a dict with a stable ``code`` (below: scripts and CI match on
it, never on the sentence), ``where`` (the table, or the projection a derived table belongs
to: inspector/services/verify_coverage.py), the row's identity where there is one, and a
one-line ``message``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from inspector.domain.canonical import GENESIS_HASH
from inspector.domain.errors import BadInput
from inspector.domain.terminal_safe import inert
from inspector.services import verify_coverage

# code -> what it means (docs/store-format.md, "What verify can and cannot detect", lists them too)
CODES: dict[str, str] = {
    "ledger_unreadable": "a ledger entry's payload is no longer a JSON object",
    "ledger_gap": "a ledger entry is missing (the seqs have a gap)",
    "ledger_link_broken": "an entry does not point at the previous entry's hash",
    "ledger_hash_mismatch": "an entry's hash does not match its content",
    "ledger_text_differs": "an entry's payload is not the text the inspector writes (a key repeated, reordered or "
                           "spaced): SQL reads can see other values than its hash binds",
    "reconcile_unexplained": "an action.reconcile entry names no evidence or reason",
    "act_incomplete": "an entry of the inspector's own kinds names no row it added or status it set, as every such "
                      "act does: appended by hand",
    "head_truncated": "the ledger ends before the entry pinned with --head",
    "head_rewritten": "the entry pinned with --head now has another hash",
    "remembered_head_differs": "the ledger no longer holds the head this machine's last good verify saw",
    "session_unledgered": "a session row no ledger entry created",
    "versions_differ": "a session's context version or goal revision is not the ledger's",
    "sessions_reordered": "the sessions are stored in another order than the ledger created them",
    "row_count_differs": "a table holds more or fewer rows for a session than the ledger accounts for",
    "row_unreadable": "a record row's JSON column no longer parses",
    "column_type_differs": "a column holds a value of another type than the inspector writes (text stored as a "
                           "BLOB): Python and SQL read it differently",
    "row_digest_mismatch": "a record row's digest does not match its columns",
    "row_text_differs": "a record row's JSON column is not the text the inspector writes (a key repeated, "
                        "reordered or spaced): SQL reads can see other values than its digest binds",
    "seal_mismatch": "a session's rows of a type are not the ones the ledger sealed",
    "status_differs": "a status is not what the replayed ledger set",
    "tombstone_time_differs": "a tombstone's deletion time is not its deletion entry's",
    "tombstone_unordered": "a material is marked deleted but no deletion covers it",
    "deleted_bytes_kept": "a deletion removed a material whose bytes are still stored",
    "material_unbound": "a material no import bound in the ledger",
    "material_rebound": "a material's chunk hashes are not the ones its import bound",
    "material_binding_broken": "a material's chunk hashes are not bound to its content hash",
    "material_bytes_differ": "a material's stored bytes do not hash to its content hash",
    "material_layout_differs": "a material's size, chunking or indexed prefix is not what its chunks give",
    "tombstone_holds_bytes": "a tombstoned material still holds chunks or chunk hashes",
    "chunks_orphaned": "chunks belong to no material",
    "watermark_differs": "the search watermark is missing, duplicated, forged, or above the last event",
    "search_index_coverage": "a search index misses indexed rows or holds entries for none",
    "search_index_text": "a search index's words or stored text are not those of what it indexes",
    "search_index_damaged": "a search index cannot be read or checked at all",
    "store_meta_differs": "store_meta holds a row the inspector never writes, or lacks one it does",
    "guards_removed": "the append-only guard triggers were removed",
    "schema_changed": "the store's tables, indexes, triggers or views are not the format's",
    "pages_damaged": "SQLite's page check found damage",
    "sqlite_unreadable": "SQLite cannot read the store past some point",
    "damaged_store": "the file was a store but cannot be opened as one any more",
    "format_number_differs": "the store's format number is older than the format its schema already holds",
    "migration_unfinished": "the store is an unfinished copy made by migrate",
}


@dataclass(slots=True)
class VerifyReport:
    ok: bool = True
    entries: int = 0
    first_break: dict[str, Any] | None = None
    problems: list[dict[str, Any]] = field(default_factory=list)
    head: dict[str, Any] = field(default_factory=lambda: {"seq": 0, "hash": GENESIS_HASH})
    integrity: str = "quick_check"
    not_replayed: list[str] = field(default_factory=list)
    not_sealed: list[str] = field(default_factory=list)  # "session/type" whose rows no entry sealed
    bytes_rehashed: bool = False
    search_index: str = "not_checked"
    not_checked: list[str] = field(default_factory=list)  # what this run skipped, in words
    remembered_head: dict[str, Any] | None = None  # the head this machine's last good verify saw
    # a carried-out deletion whose text is still in the file (store/deletion_residue.py): not a break
    deleted_text_in_file: dict[str, Any] | None = None
    deletion_finished: dict[str, Any] | None = None  # what the open before this verify finished of one
    # inspector-written entries stamped before an earlier one (a clock set back): not a break, said
    clock_went_back: list[dict[str, Any]] = field(default_factory=list)
    act_page_check: str | None = None  # a large store: what an act checks before it writes (store/page_check.py)

    def fail(self, problem: dict[str, Any]) -> None:
        self.ok = False
        if self.first_break is None:
            self.first_break = problem
        self.problems.append(problem)

    def checked(self) -> str:
        """What this run checked, in words (a reader must not take it for more)."""
        bytes_ = "material bytes rehashed" if self.bytes_rehashed else "material bytes NOT rehashed (--full does)"
        index = ("search index coverage and text" if self.search_index == "checked"
                 else "search index not checked")
        return f"chain, seals, replayed projections, material layout, {bytes_}, {index} and {self.integrity}"

    def relies_on(self) -> list[str]:
        """What a passing run takes on trust (verify_coverage.py), given whether a head is kept outside."""
        return verify_coverage.relies_on(kept_head=self.remembered_head is not None)

    def not_covered(self) -> str:
        parts = [f"not replayed (written before replay): {', '.join(self.not_replayed)}"] if self.not_replayed else []
        if self.not_sealed:
            parts.append(f"not sealed (written before seals): {', '.join(self.not_sealed[:8])}"
                         + (f" and {len(self.not_sealed) - 8} more" if len(self.not_sealed) > 8 else ""))
        parts += [f"not checked: {item}" for item in _same_words_once(self.not_checked)]
        return "; ".join(parts)

    def notes(self) -> list[str]:
        """What a person should know that is not a break: a deletion's text still in the file, and
        acts stamped earlier than an act before them (the ledger's order is its seq, and the timeline
        places such an act after the one before it, services/timeline.py _placed)."""
        said = [self.deleted_text_in_file["message"]] if self.deleted_text_in_file else []
        said += [self.act_page_check] if self.act_page_check else []
        said += [self.deletion_finished["message"]] if self.deletion_finished else []
        if self.clock_went_back:
            first = self.clock_went_back[0]
            more = len(self.clock_went_back) - 1
            said.append(f"ledger times go back: entry {first['seq']} is stamped {first['at']}, before entry "
                        f"{first['after_seq']}'s {first['after']}" + (f" (and {more} more)" if more else "")
                        + " — the clock of the machine that wrote it was set back; the ledger's order is its seq, "
                        "and the timeline shows such an act after the one before it, with its own stamp")
        return said

    def as_dict(self) -> dict[str, Any]:
        return {"ok": self.ok, "entries": self.entries, "first_break": self.first_break,
                "problems": self.problems[:50], "head": self.head, "integrity": self.integrity,
                "not_replayed": self.not_replayed, "not_sealed": self.not_sealed,
                "bytes_rehashed": self.bytes_rehashed, "search_index": self.search_index,
                "not_checked": self.not_checked, "remembered_head": self.remembered_head,
                "relies_on": self.relies_on(), "not_bound": verify_coverage.not_bound(),
                "deleted_text_in_file": self.deleted_text_in_file,
                "deletion_finished": self.deletion_finished, "clock_went_back": self.clock_went_back[:20],
                "act_page_check": self.act_page_check}


def parse_head(text: str) -> tuple[int, str]:
    """``SEQ:HASH`` as printed by verify, or :class:`BadInput`."""
    seq, _, digest = text.partition(":")
    if not seq.isdigit() or len(digest) != 64 or any(c not in "0123456789abcdef" for c in digest):
        raise BadInput(f"--head must be SEQ:HASH as verify prints it (e.g. 12:{'0' * 8}…), not {inert(text)}",
                       code="bad_head")
    return int(seq), digest


def _same_words_once(items: list[str]) -> list[str]:
    """``"calls_grams: compared by …"``, ``"events_grams: compared by …"``: one line naming both,
    so a reader sees one limit of three indexes, not the same sentence three times (the JSON's
    ``not_checked`` keeps one item per index)."""
    names: dict[str, list[str]] = {}
    for item in items:
        name, sep, words = item.partition(": ")
        key = words if sep and name and " " not in name else item
        names.setdefault(key, []).append(name if key == words else "")
    return [", ".join(n for n in found if n) + ": " + words if any(found) else words for words, found in names.items()]
