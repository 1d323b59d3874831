"""``inspector import FILE --into STORE`` run again after the agent went on writing FILE.

The store's last import of FILE ended where the file then ended; the file now holds those same
bytes and more. What was appended is imported as ``inspector FILE`` and ``follow`` import it
(services/following.py ``catch_up``): before, the whole file was read as a new import and refused
as "rewritten, not only appended to", which was untrue (services/grown_file.py).
"""

from __future__ import annotations

import shlex
from collections.abc import Callable
from pathlib import Path
from typing import Any

from inspector.cli.follow_summary import compaction_arrived
from inspector.cli.import_progress import ImportProgress
from inspector.domain.plurals import counted
from inspector.services import confirmations
from inspector.services.following import catch_up
from inspector.store.connection import fetch_one, open_store


async def import_appended(file: Path, into: Any, actor: str, as_json: bool) -> tuple[dict[str, Any], Callable[[], list[str]]]:
    with ImportProgress(file.name, enabled=not as_json) as progress:  # on a terminal, after 1 s
        caught = await catch_up(file, into, actor=actor, progress=progress)
    sessions = [caught.session] if caught.session else []
    async with await open_store(into) as opened:
        pending = await confirmations.pending_counts(opened, sessions)
        latest = 0
        if caught.generations and caught.session:  # a compaction in the appended lines: said, as a first import says it
            row = await fetch_one(opened.db, "SELECT COALESCE(MAX(generation), 0) FROM summaries WHERE session = ?",
                                  (caught.session,))
            latest = int(row[0]) if row else 0
    arrived = list(range(latest - caught.generations + 1, latest + 1)) if latest else []
    problems = caught.unread + caught.returned
    data = {"store": str(into), "created_store": False, "format": caught.fmt, "sessions": sessions,
            "events": caught.added_events, "materials": caught.added.get("material", 0), "added": caught.added,
            "skipped": {}, "summary_generations": arrived,
            "appended": {"from": caught.start, "to": caught.offset}, "pending": pending,
            "problems": [{"code": p.code, "line": p.line, "message": p.message, "session": p.session, "seq": p.seq}
                         for p in problems],
            "held_back": caught.held}

    def human() -> list[str]:
        from inspector.cli.import_words import pending_steps

        if caught.offset == caught.start:
            lines = [f"imported {file} ({caught.fmt}) into {into}: nothing new (no whole line after byte "
                     f"{caught.offset:,}, where its last import ended)"]
        else:
            lines = [f"imported {file} ({caught.fmt}) into {into}: {counted(caught.added_events, 'new event')} from the "
                     f"{counted(caught.offset - caught.start, 'byte')} appended since its last import"]
        lines += [f"  session {sid}: open it with `inspector {shlex.quote(str(into))} --session {shlex.quote(sid)}`"
                  for sid in sessions]
        for g in arrived:  # review-17: "20 new events" said nothing of the generation drift now judges
            lines.append("  " + compaction_arrived(g, str(caught.session), into))
        lines += pending_steps(str(into), pending)
        for p in problems:
            where = f" (line {p.line})" if p.line is not None else ""
            lines.append(f"  ⚠ {p.code}{where}: {p.message.removeprefix(f'line {p.line}: ')}")
        if caught.held:
            lines.append(f"  ⚠ {caught.held}")
        return lines

    return data, human
