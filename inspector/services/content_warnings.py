"""Warnings ``check`` adds about untrusted content already held as state or summary.

- ``untrusted_instruction`` on a pending protected record whose writer is not the user or
  owner, or whose sources are tool results or model output: an instruction from an
  untrusted source waiting for the owner's confirmation;
- ``untrusted_instruction`` on an active record of an owner-only kind that the file labels
  the user's (or no one's) while every source it cites is a tool result or model output,
  and no confirmation by the owner through the inspector stands behind it: the writer is a
  label, like an event's trust field, and the source decides;
- ``untrusted_instruction`` on the latest summary generation when it carries a rule that
  appears only in untrusted text (an injected rule that a summary took in);
- ``sensitive_data`` in the latest summary and in pending candidates.

Warnings are shown and never block (DESIGN §6): ``check`` still exits 1 only on refusals,
drift findings and protocol problems.
"""

from __future__ import annotations

import json
from typing import Any

from inspector.domain.text_checks import sensitive_data, untrusted_rules
from inspector.domain.trust import OWNER_WRITERS, SOURCE_TRUST
from inspector.domain.vocabulary import OWNER_ONLY_KINDS
from inspector.services.session_facts import session_facts
from inspector.store.connection import Store, fetch_one
from inspector.store.tables import SPECS


def _payload(raw: str | None) -> dict[str, Any]:
    try:
        body = json.loads(raw or "{}")
    except ValueError:
        return {}
    return body if isinstance(body, dict) else {}


def _warning(code: str, where: str, ident: str, message: str) -> dict[str, Any]:
    return {"code": code, "where": where, "id": ident, "message": message}


async def content_warnings(store: Store, session: str) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    async with store.snapshot() as db:
        untrusted_events = {f"evt:{seq}" for (seq,) in await db.execute_fetchall(
            "SELECT seq FROM events WHERE session = ? AND (trust IN ('tool', 'model') OR kind IN ("
            + ", ".join("?" for _ in SOURCE_TRUST) + "))", (session, *sorted(SOURCE_TRUST)))}
        spec = SPECS["state"]
        for row in await db.execute_fetchall(f"SELECT {spec.select_columns} FROM state_records WHERE session = ? "
                                             "AND status = 'pending' ORDER BY key, version", (session,)):
            rec = spec.to_record(row)
            from_untrusted = sorted(set(rec.get("sources") or []) & untrusted_events)
            writer = rec.get("writer")
            # Only rules can be instructions (goal, constraint, permission, acceptance); the
            # extractor proposes those from the user's own words, so its proposals are not
            # untrusted instructions — an artifact path or a failed run is a fact, not a rule.
            if rec.get("kind") not in OWNER_ONLY_KINDS or writer == "extractor":
                continue
            if (writer is not None and writer not in OWNER_WRITERS) or from_untrusted:
                source = f"written by {writer}" if writer not in OWNER_WRITERS and writer else \
                    f"sourced from {', '.join(from_untrusted)}"
                # a reviewer's correction (or a record an import could not take as confirmed) is a
                # proposal, not text from an untrusted source: said as one, with the way on
                said = (f"a reviewer's proposal; it binds nothing until the owner confirms or rejects it (`inspector "
                        f"confirm STORE --session {session} --key {rec['key']} [--reject]`)"
                        if writer == "reviewer" and not from_untrusted else
                        f"{source}: an instruction from an untrusted source; it binds nothing until the owner confirms it")
                out.append(_warning("untrusted_instruction", "state", f"{rec['key']}@v{rec['version']}",
                                    f"{rec['key']} v{rec['version']} ({rec['kind']}) is pending, {said}"))
        confirmed = {(p.get("key"), p.get("version")) for (raw,) in await db.execute_fetchall(
            "SELECT CAST(payload AS TEXT) FROM ledger WHERE session = ? AND kind = 'confirmation'", (session,))
            for p in [_payload(raw)] if p.get("decision") == "confirmed"}
        for row in await db.execute_fetchall(f"SELECT {spec.select_columns} FROM state_records WHERE session = ? "
                                             "AND status = 'active' ORDER BY key, version", (session,)):
            rec = spec.to_record(row)
            sources = [s for s in rec.get("sources") or [] if isinstance(s, str)]
            if (rec.get("kind") not in OWNER_ONLY_KINDS or rec.get("writer") not in (*OWNER_WRITERS, None)
                    or not sources or not set(sources) <= untrusted_events
                    or (rec["key"], rec["version"]) in confirmed):
                continue
            label = f"labelled {rec['writer']}'s" if rec.get("writer") else "with no writer"
            out.append(_warning("untrusted_instruction", "state", f"{rec['key']}@v{rec['version']}",
                                f"{rec['key']} v{rec['version']} ({rec['kind']}) is active, {label}, but every source "
                                f"it cites is tool or model output ({', '.join(sources)}): the label claims what "
                                "the source cannot give; ask the owner, and correct it if they never said it"))
        facts = await session_facts(db, session, with_texts=True)
        latest = await fetch_one(db, "SELECT generation, text FROM summaries WHERE session = ? "
                                 "ORDER BY generation DESC LIMIT 1", (session,))
        if latest is not None:
            gen, text = f"gen:{latest[0]}", latest[1] or ""
            for sentence in untrusted_rules(text, facts.trusted_texts, facts.untrusted_texts):
                out.append(_warning("untrusted_instruction", "summary", gen,
                                    f"generation {latest[0]} carries “{sentence}”, a rule found only in tool or model "
                                    "output"))
            for kind in sensitive_data(text):
                out.append(_warning("sensitive_data", "summary", gen,
                                    f"generation {latest[0]} contains what looks like a {kind}"))
        cand = SPECS["candidate"]
        for row in await db.execute_fetchall(f"SELECT {cand.select_columns} FROM candidates WHERE session = ? "
                                             "AND status = 'pending' ORDER BY rowid", (session,)):
            rec = cand.to_record(row)
            summary = rec.get("summary") if isinstance(rec.get("summary"), str) else ""
            for kind in sensitive_data(summary):
                out.append(_warning("sensitive_data", "candidate", rec["id"],
                                    f"candidate {rec['id']} contains what looks like a {kind}"))
    return out
