"""``inspector sessions --discover``: the transcripts found in the agent tools' folders."""

from __future__ import annotations

import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from inspector.cli.output import EXIT_OK, emit
from inspector.domain.cell_width import clipped
from inspector.domain.plurals import counted as _n
from inspector.services import discovery
from inspector.services.discovery_copies import copies_said
from inspector.services.unlisted import named_sources, unlisted, unlisted_said


def human_size(size: int) -> str:
    for unit in ("B", "KB", "MB", "GB"):
        if size < 1024 or unit == "GB":
            return f"{size:.0f} {unit}" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1024  # type: ignore[assignment]
    return f"{size} B"


def when(timestamp: float) -> str:
    return datetime.fromtimestamp(timestamp, tz=UTC).strftime("%Y-%m-%d %H:%M")


def span(f: discovery.Found) -> str:
    start = (f.started or "")[:16].replace("T", " ")
    end = (f.ended or "")[:16].replace("T", " ") or when(f.updated)
    if not start:
        return f"→ {end}"
    return f"{start} → {end[11:]}" if start[:10] == end[:10] else f"{start} → {end}"


def discover_listing(sources: tuple[Path, ...], as_json: bool) -> int:
    started = time.perf_counter()
    roots = discovery.sources_from(sources)
    found = discovery.discover(roots)
    discovery.count_compactions(found)
    groups = discovery.by_project(found)
    left_out = unlisted(roots, (f.path for f in found)) if named_sources(sources) else []
    data: dict[str, Any] = {
        "sources": [str(r) for r in roots],
        "count": len(found),
        "projects": [{"project": name, "sessions": [f.as_dict() for f in items]} for name, items in groups],
        "unlisted": left_out,  # folders a person named: files there the list leaves out (services/unlisted.py)
        "missing_sources": [str(p) for p in discovery.missing_sources(sources)],
    }

    def human() -> list[str]:
        lines = [f"{_n(len(found), 'transcript')} in {_n(len(groups), 'project')} "
                 f"({time.perf_counter() - started:.2f}s; sources: {', '.join(map(str, roots))})"]
        lines += [f"⚠ INSPECTOR_SOURCES names {p}, which is not a folder (no such folder, or a file): nothing was "
                  "listed from it" for p in data["missing_sources"]]
        for name, items in groups:
            lines += ["", name]
            for f in items:
                mark = "✓ imported" + (" · changed since" if f.changed_since_import else "") if f.imported else ""
                comp = f" · {_n(f.compactions, 'compaction')}" if f.compactions else ""
                lines.append(f"  {f.tool:<11} {span(f):<30} {human_size(f.size):>9}{comp}  {clipped(f.title or f.session or '')}"
                             f"  {mark}".rstrip())
                lines.append(f"              {f.path}")
                lines += [f"              ⚠ {said}" for said in copies_said(f, lambda p: Path(p).name)]
        if left_out:
            lines += ["", unlisted_said(left_out)]
        return lines

    emit(data, as_json, human)
    return EXIT_OK
