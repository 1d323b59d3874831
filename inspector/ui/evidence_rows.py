"""The rows of the Raw evidence list: materials, their stubs, and a followed original's parts
folded into one row.

A followed transcript keeps its appended bytes as parts of the kept original, one material per
poll (``original:FILE@OFFSET``: services/following.py), so an export lays them end to end. A
session followed for a while listed dozens of those one-line parts, and the stubs a reviewer
came to expand were pushed below the fold (issue 15's re-check: 65 parts after four minutes).
Here the parts of each original are one row under it — "65 parts appended while followed ·
bytes 98,124–655,335" — that ``enter`` opens and closes; every other material and every stub
keeps its own row, in store order.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from textual.widgets.option_list import Option

from inspector.domain.short_ids import short_ref
from inspector.services.channels import MaterialView
from inspector.ui.safe import markup

PART = re.compile(r"^(original:.+)@(\d+)$")  # a part appended to the kept original at byte OFFSET
RUN_PREFIX = "run:"


@dataclass(slots=True)
class PartsRun:
    """The parts appended to one kept original while it was followed, in the order imported."""

    original: str
    parts: list[MaterialView]

    @property
    def start(self) -> int:
        return _offset(self.parts[0])

    @property
    def end(self) -> int:
        return _offset(self.parts[-1]) + max(self.parts[-1].size, 0)

    @property
    def size(self) -> int:
        return sum(max(p.size, 0) for p in self.parts)


def _offset(m: MaterialView) -> int:
    found = PART.match(m.id)
    return int(found.group(2)) if found else 0


def arrange(materials: list[MaterialView]) -> list[MaterialView | PartsRun]:
    """Materials in store order, the parts of each original gathered into one run placed after
    the original (or where its first part was, when the original is not listed). A lone part,
    or a part that holds stubs, keeps a row of its own."""
    runs: dict[str, PartsRun] = {}
    for m in materials:
        found = PART.match(m.id)
        if found and not m.stubs:
            runs.setdefault(found.group(1), PartsRun(found.group(1), [])).parts.append(m)
    folded = {base for base, run in runs.items() if len(run.parts) > 1}
    out: list[MaterialView | PartsRun] = []
    placed: set[str] = set()
    for m in materials:
        found = PART.match(m.id)
        base = found.group(1) if found and not m.stubs else None
        if base in folded:
            if base not in placed:  # the original was not listed before its first part
                out.append(runs[base])
                placed.add(base)
            continue
        out.append(m)
        if m.id in folded and m.id not in placed:
            out.append(runs[m.id])
            placed.add(m.id)
    return out


def human_size(n: int) -> str:
    if n < 0:
        return "missing"
    for unit in ("B", "KB", "MB", "GB"):
        if n < 1024 or unit == "GB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024  # type: ignore[assignment]
    return str(n)


def material_option(m: MaterialView) -> Option:
    # Each line is cut with "…" rather than wrapped (the list is `-rows`): a long id or
    # version once broke a stub's line in the middle at 100 columns, the id on a line of its
    # own. Ids are short here (short_ids.py); the detail below shows them whole.
    state = "[$error]deleted[/]" if m.deleted else "[$accent]missing[/]" if m.size < 0 else "$size"
    return Option(markup(
        f"[b]$id[/b]  {state}  [dim]$v · $scope · $h[/]", id=short_ref(m.id),
        size=human_size(m.size), v=m.source_version or "no version", scope=m.disclosure_scope or "no scope",
        h=m.content_hash.removeprefix("sha256:")[:8] or "no hash"), id=f"mat:{m.id}")


def part_option(m: MaterialView) -> Option:
    """A listed part: where it starts in the file and its size (its id is the original's, long)."""
    state = "[$error]deleted[/]" if m.deleted else "$size"
    return Option(markup(f"    @$at  {state}  [dim]$h[/]", at=f"{_offset(m):,}", size=human_size(m.size),
                         h=m.content_hash.removeprefix("sha256:")[:8] or "no hash"), id=f"mat:{m.id}")


def stub_options(m: MaterialView) -> list[Option]:
    options = []
    for s in m.stubs:
        rng = f"[{s.read_slice[0]}, {s.read_slice[1]})" if s.read_slice else "[whole]"
        outline = " ".join((s.outline or "no outline").split())
        options.append(Option(markup(
            "  ↳ $id $rng $scope\n    [dim]「$outline」[/]", id=short_ref(s.id), rng=rng,
            scope=s.disclosure_scope or "", outline=outline[:200]), id=f"stub:{s.id}"))
    return options


def run_option(run: PartsRun, opened: bool) -> Option:
    return Option(markup(
        "  $mark [b]$n parts[/b] appended while followed  [dim]bytes $a–$b · $size · enter $verb[/]",
        mark="▾" if opened else "▸", n=f"{len(run.parts):,}", a=f"{run.start:,}", b=f"{run.end:,}",
        size=human_size(run.size), verb="folds them" if opened else "lists them"), id=f"{RUN_PREFIX}{run.original}")


def options_for(rows: list[MaterialView | PartsRun], opened: set[str]) -> list[Option]:
    """The list's options: each material with its stubs, each run folded unless ``opened``."""
    options: list[Option] = []
    for row in rows:
        if isinstance(row, PartsRun):
            options.append(run_option(row, row.original in opened))
            if row.original in opened:
                options += [part_option(p) for p in row.parts]
            continue
        options.append(material_option(row))
        options += stub_options(row)
    return options


def shape(rows: list[MaterialView | PartsRun], opened: set[str]) -> list[tuple[object, ...]]:
    """What the list's rows are, one entry per row, without what only a folded run's own line
    says (its count of parts): a follow's poll that only added a part changes no entry, one that
    brought new materials adds entries at the end, so the list is not rebuilt for either (with
    thousands of stubs a rebuild took ~0.3 s, at every poll)."""
    out: list[tuple[object, ...]] = []
    for row in rows:
        if isinstance(row, PartsRun):
            out.append(("run", row.original, len(row.parts) if row.original in opened else None))
        else:
            out.append(("material", row.id, row.size, row.deleted, row.content_hash,
                        tuple((s.id, s.read_slice and tuple(s.read_slice)) for s in row.stubs)))
    return out
