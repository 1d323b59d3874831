"""A shareable review of one session: every read model the app shows, gathered into one document.

The outcome of a review goes into a pull request, a ticket or a chat, read by someone
with no terminal on the store. This use case reads (never writes) what the existing
services already compute — header and badges, the three channels, drift per
generation, survival, candidates with their validation, handoffs with their checks,
the ledger's acts and the conversation — into one plain dict. ``--json`` prints that
dict; ``inspector.report`` renders it as one self-contained HTML file.
"""

from __future__ import annotations

import hashlib
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from inspector import __version__
from inspector.domain.drift import Finding
from inspector.domain.errors import BadInput, no_generation
from inspector.domain.plurals import record_count
from inspector.report.html import render_html
from inspector.services import candidates, channels, deletions, handoffs, overview
from inspector.services.checking import check_store
from inspector.services.conversation import conversation
from inspector.services.deletion_scan import Coverage
from inspector.services.drift import drift_overview
from inspector.services.output_file import companion_refusal, write_target
from inspector.services.read_once import reads_once
from inspector.services.report_bounds import (
    DEFAULT_MAX_CHARS,
    DEFAULT_MAX_ENTRIES,
    bound_check,
    bound_conversation,
)
from inspector.services.sessions import session_ledger
from inspector.services.survival import SurvivalReport, survival_all
from inspector.store.connection import Store, utc_now

REPORT_FORMAT = "inspector-report/1"
_QUOTED = re.compile(r"“([^”]*)”")
# Ledger payload fields that say what an act was about, in the order they are shown.
_WHAT_FIELDS = ("candidate", "handoff", "request", "key", "generation", "version", "decision", "stub", "material",
                "range", "file_name", "new_session", "status", "context_version")


def trigger_words(finding: Finding) -> list[str]:
    """The exact words a finding is about: the verbatim texts its sentence quotes (each
    finding quotes the protected value and, when there is one, the summary's own words)."""
    words = getattr(finding, "words", None)
    if isinstance(words, (list, tuple)) and words:
        return [str(w) for w in words]
    return _QUOTED.findall(finding.message)


def _finding(f: Finding) -> dict[str, Any]:
    return {**f.as_dict(), "words": trigger_words(f)}


def _act(entry: dict[str, Any]) -> dict[str, Any]:
    """A ledger entry as who / when / what / why (the ledger holds ids and reasons, never content)."""
    payload = entry.get("payload") or {}
    what = [f"{name} {payload[name]}" for name in _WHAT_FIELDS if name in payload and payload[name] is not None
            and not isinstance(payload[name], (dict, list))]
    for verb in ("added", "removed"):  # an import's records, a deletion's removed copies
        if isinstance(payload.get(verb), dict) and payload[verb]:
            what.append(f"{verb} " + ", ".join(record_count(n, t) if type(n) is int else f"{n} {t}"
                                                for t, n in payload[verb].items()))
    return {"seq": entry["seq"], "at": entry["at"], "actor": entry["actor"], "kind": entry["kind"],
            "source": entry.get("source"), "what": "; ".join(what), "why": payload.get("reason"),
            "hash": entry.get("hash")}


def _deletion(cov: Coverage) -> dict[str, Any]:
    """A deletion request as the report shows it: what it still has to remove, never the values it
    looks for (a teammate reading the page learns a deletion is pending, not what it deletes)."""
    return {"request": cov.request, "status": cov.status, "copies": [c.as_dict() for c in cov.copies],
            "missing": cov.missing, "warnings": cov.warnings, "kept": cov.kept}


def _kept_by_survival(reports: list[SurvivalReport]) -> list[dict[str, Any]]:
    """Facts kept per generation by the survival verdicts (a fact not yet established in a
    generation's range is not counted against it)."""
    return [{"generation": r.generation, "kept": sum(1 for v in r.verdicts if v.verdict == "kept"),
             "total": len(r.verdicts)} for r in reports]


async def report_data(store: Store, session: str, generation: int | None = None, *,
                      max_entries: int = DEFAULT_MAX_ENTRIES, max_chars: int = DEFAULT_MAX_CHARS) -> dict[str, Any]:
    """Everything the report shows, as one JSON-ready document. ``generation`` picks the
    summary generation the channels and tables centre on (default: the latest). The
    conversation keeps at most ``max_entries`` entries (0: all) and each of its texts at most
    ``max_chars`` characters; ``conversation_left_out`` and each entry's ``cut`` say what went.
    ``check`` is the session's ``inspector check`` result, so the page's badges say what
    ``check`` and the app say, never less. The raw log's drift context and the latest
    generation's verdicts are read once for all of these (``read_once``)."""
    with reads_once():
        return await _report_data(store, session, generation, max_entries, max_chars)


async def _report_data(store: Store, session: str, generation: int | None, max_entries: int,
                       max_chars: int) -> dict[str, Any]:
    info, badges = await overview.overview(store, session)
    state = await channels.state_records(store, session)
    gens = await channels.generations(store, session)
    if generation is not None and not any(g.generation == generation for g in gens):
        raise no_generation(session, generation, [g.generation for g in gens])
    chosen = generation if generation is not None else (gens[0].generation if gens else None)
    findings, timeline, _texts = await drift_overview(store, session)
    shown = [g for g in sorted(findings) if generation is None or g == generation]
    drift = {"generations": [{"generation": g, "findings": [_finding(f) for f in findings[g]]} for g in shown],
             "field_timeline": timeline.as_dict()}
    cands = [{"candidate": c, "validation": v.as_dict()} for c, v in await candidates.list_candidates(store, session)]
    hands = [{"handoff": h, "check": c.as_dict()} for h, c in await handoffs.list_handoffs(store, session)]
    dels = [_deletion(c) for c in await deletions.list_requests(store, session)]
    survival = sorted(await survival_all(store, session), key=lambda r: r.generation or 0)  # oldest first
    acts = [_act(e) for e in await session_ledger(store, session)]
    (checked,) = await check_store(store, sessions=[session])
    turns, left_out = bound_conversation([t.as_dict() for t in await conversation(store, session)],
                                         max_entries, max_chars)
    return {
        "format": REPORT_FORMAT,
        "generated_at": utc_now(),
        "inspector_version": __version__,
        "store": store.path.name,
        "session": info.as_dict(),
        "badges": badges.as_dict(),
        "generation": chosen,
        "channels": {
            "state": [r.as_dict() for r in state],
            "summary": [g.as_dict() for g in gens if generation is None or g.generation == generation],
            "evidence": [m.as_dict() for m in await channels.evidence(store, session)],
        },
        "drift": drift,
        "survival": [r.as_dict() for r in survival],
        "kept_per_generation": _kept_by_survival(survival),
        "candidates": cands,
        "handoffs": hands,
        "deletions": dels,
        "acts": acts,
        "check": bound_check(checked.as_dict()),
        "conversation": turns,
        "conversation_left_out": left_out,
    }


@dataclass(frozen=True, slots=True)
class WrittenReport:
    path: Path
    bytes: int
    data: dict[str, Any]

    def as_dict(self) -> dict[str, Any]:
        return {**self.data, "written": {"path": str(self.path), "bytes": self.bytes}}


def _write_atomically(path: Path, data: bytes) -> None:
    companion = companion_refusal(path, "report")
    if companion is not None:
        raise companion
    if path.exists() and path.is_dir():
        raise BadInput(f"{path} is a folder; give a file name for the report", code="bad_output")
    if not path.parent.is_dir():
        raise BadInput(f"cannot write {path}: folder {path.parent} does not exist", code="bad_output")
    if path.is_file():
        with path.open("rb") as existing:
            if existing.read(16) == b"SQLite format 3\x00":  # a store (maybe the one being read): never replace it
                raise BadInput(f"{path} is a database; give the report a file name of its own", code="bad_output")
    target = write_target(path, "report")  # a device or FIFO refused; a link written through, not replaced
    partial = target.with_name(f".{target.name}.{os.getpid()}.partial")
    try:
        partial.write_bytes(data)
        partial.replace(target)
    except OSError as exc:
        partial.unlink(missing_ok=True)
        raise BadInput(f"cannot write {path}: {exc.strerror}", code="bad_output") from None


async def write_report(store: Store, session: str, path: Path, generation: int | None = None, *,
                       max_entries: int = DEFAULT_MAX_ENTRIES, max_chars: int = DEFAULT_MAX_CHARS) -> WrittenReport:
    """Gather the session's report and write it as one self-contained HTML file (whole or not at all)."""
    data = await report_data(store, session, generation, max_entries=max_entries, max_chars=max_chars)
    html = render_html(data).encode("utf-8")
    _write_atomically(path, html)
    return WrittenReport(path, len(html), data)


def default_report_path(store_path: Path, session: str) -> Path:
    """Where the app writes a session's report: beside the store, named after both.

    Both names come from outside (a transcript's session id, a store file someone named), so
    each keeps only letters, digits and ``._-``, and a session name past 64 characters is cut
    and ends in a digest of the whole id: a file system takes the name (255 bytes at most),
    two long ids still get two reports, and no escape byte reaches a folder listing."""
    safe = re.sub(r"[^A-Za-z0-9._-]+", "_", session).strip("._") or "session"
    if len(safe) > 64:
        safe = f"{safe[:48]}-{hashlib.sha256(session.encode('utf-8', 'surrogatepass')).hexdigest()[:12]}"
    stem = re.sub(r"[^\w.-]+", "_", store_path.stem)
    while len(f"{stem}.{safe}.report.html".encode()) > 255:
        stem = stem[:-1]
    return store_path.with_name(f"{stem}.{safe}.report.html")
