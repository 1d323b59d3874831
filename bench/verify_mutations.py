"""Does ``inspector verify`` catch every edit made to a store behind the product's back?

    python -m bench.verify_mutations [--json] [--store samples|transcript|acts] [--missed]

Builds the three stores of bench/mutation_stores.py, then applies every edit of
bench/mutation_edits.py (generated from each store's schema) and the WAL, ``-shm`` and
older-copy edits below, each on a fresh copy, and runs verify on it as the command does
(a store that can no longer be opened as the inspector's is ``damaged_store``, exit 1; one
that is not a store at all, exit 3). By default the untouched store's head is remembered
first, as a verify on this machine before the edit leaves it; edits marked "never verified
here" run without. Each result is one of:

- ``caught``: exit 1, the first break naming a stable code and where (its table or the
  projection it was rebuilt into);
- ``declared``: verify said ok, and the edit is one inspector/services/verify_coverage.py
  lists with the reason verify cannot or need not see it — and what a person sees (export,
  ledger, sessions, searches) is byte for byte what it was, or the list says why not;
- ``refused``: SQLite itself refused the edit (a UNIQUE or NOT NULL constraint);
- ``no-op``: the edit left the table as it was;
- ``missed``: verify said ok and nothing declares it. The test fails on any.

Prints a table per store and table name, and the totals (docs/benchmarks.md, "Session 9").
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import os
import shutil
import sqlite3
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench import mutation_edits, mutation_observe
from bench.mutation_edits import Mutation
from bench.mutation_stores import build
from inspector.domain.errors import InspectorError
from inspector.services import verify_coverage, verify_pins, verifying
from inspector.services.verifying import damaged_report, unfinished_report, verify_store
from inspector.store.connection import open_store


@dataclass
class Outcome:
    verdict: str  # caught, declared, refused, no-op, missed, bad input, traceback
    exit: int = 0
    code: str | None = None
    where: str | None = None
    message: str = ""
    declared: str | None = None  # the coverage list's reason, for declared
    extra: dict[str, Any] = field(default_factory=dict)


def _clear(path: Path) -> None:
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)


def head_of(path: Path) -> tuple[bytes, int, str]:
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        key = bytes.fromhex(con.execute("SELECT value FROM store_meta WHERE key = 'digest_key'").fetchone()[0])
        seq, digest = con.execute("SELECT seq, hash FROM ledger ORDER BY seq DESC LIMIT 1").fetchone()
        return key, int(seq), str(digest)
    finally:
        con.close()


_DATA: dict[str, Path] = {}


def verify_now(path: Path, pin: tuple[bytes, int, str] | None) -> tuple[int, dict[str, Any]]:
    """verify as the command runs it: (exit code, its JSON document or the refusal). The data
    folder (where heads are remembered) is made once and emptied before each run."""
    if "dir" not in _DATA:
        _DATA["dir"] = Path(tempfile.mkdtemp(prefix="verify-mutations-"))
    data = _DATA["dir"]
    (data / verify_pins.FILE_NAME).unlink(missing_ok=True)
    saved = os.environ.get("INSPECTOR_DATA_DIR")
    os.environ["INSPECTOR_DATA_DIR"] = str(data)
    try:
        if pin is not None:
            verify_pins.remember(str(path.resolve()), pin[0], pin[1], pin[2])

        async def run() -> tuple[int, dict[str, Any]]:
            cut = getattr(verifying, "cut_report", lambda _path: None)(path)  # as the command: a cut file first
            if cut is not None:
                return 1, cut.as_dict()
            try:
                async with await open_store(path) as store:
                    report = await verify_store(store)
            except InspectorError as exc:
                report = unfinished_report(exc) or damaged_report(path, exc)
                if report is None:
                    return 3, exc.as_dict()
            return (0 if report.ok else 1), report.as_dict()
        return asyncio.run(run())
    finally:
        if saved is None:
            os.environ.pop("INSPECTOR_DATA_DIR", None)
        else:
            os.environ["INSPECTOR_DATA_DIR"] = saved


def _table_digest(con: sqlite3.Connection, table: str) -> str:
    digest = hashlib.sha256()
    try:
        try:
            rows = con.execute(f"SELECT rowid, * FROM '{table}' ORDER BY rowid").fetchall()
        except sqlite3.OperationalError:  # WITHOUT ROWID
            rows = con.execute(f"SELECT * FROM '{table}' ORDER BY 1").fetchall()
        for row in rows:
            digest.update(repr(row).encode("utf-8", "surrogatepass"))
    except sqlite3.Error:
        return "unreadable"
    return digest.hexdigest()


def judge(exit_code: int, doc: dict[str, Any], mutation: Mutation) -> Outcome:
    if exit_code == 1:
        first = doc.get("first_break") or {}
        return Outcome("caught", 1, first.get("code"), first.get("where"), str(first.get("message", "")),
                       extra={"problems": [(p.get("code"), p.get("where")) for p in doc.get("problems") or []]})
    if exit_code == 3 and doc.get("code") == "foreign_wal":  # the log's edit refused before the store was opened
        return Outcome("refused", 3, "foreign_wal", "wal", str(doc.get("message", "")))
    if exit_code == 3:
        return Outcome("bad input", 3, doc.get("code"), None, str(doc.get("message", "")))
    reason = verify_coverage.declared(mutation.table, mutation.column, mutation.kind, pinned=mutation.pinned)
    if reason is not None:
        relied = reason in verify_coverage.relies_on(kept_head=False)
        return Outcome("relied on" if relied else "declared", 0, declared=reason)
    return Outcome("missed", 0)


def attempt(base: Path, work: Path, mutation: Mutation, pin: tuple[bytes, int, str],
            look: Look | None = None) -> Outcome:
    _clear(work)
    shutil.copyfile(base, work)
    if mutation.mode == "file":
        mutation.apply(work)
    else:
        con = sqlite3.connect(work, isolation_level=None)
        try:
            before = _table_digest(con, mutation.table)
            try:
                mutation_edits.apply(con, mutation)
            except sqlite3.Error as exc:
                con.execute("ROLLBACK") if con.in_transaction else None
                return Outcome("refused", message=str(exc))
            if mutation.table != "ledger" and mutation.kind not in ("reseal and rechain",) and \
                    _table_digest(con, mutation.table) == before:
                return Outcome("no-op")
        finally:
            con.close()
    code, doc = verify_now(work, pin if mutation.pinned else None)
    outcome = judge(code, doc, mutation)
    return seen(outcome, work, look) if look is not None else outcome


Look = tuple[dict[str, str], "Path", list[tuple[str, str]]]  # the untouched store's views, a folder, the searches
_VIEWS: dict[tuple[str, int, int], tuple[list[tuple[str, str]], dict[str, str]]] = {}


def _untouched_views(base: Path, folder: Path) -> tuple[list[tuple[str, str]], dict[str, str]]:
    """The searches and what a person sees of the untouched store, read once per process for a
    given file (its path, size and modification time): a run per pick would read them again."""
    stat = base.stat()
    key = (str(base.resolve()), stat.st_size, stat.st_mtime_ns)
    if key not in _VIEWS:
        searches = mutation_observe.queries(base)
        _VIEWS[key] = (searches, mutation_observe.observe(base, folder, searches))
    return _VIEWS[key]


def seen(outcome: Outcome, work: Path, look: Look) -> Outcome:
    """An edit verify did not report must change nothing a person sees, unless the coverage list
    says verify relies on something else for it (then it is a real change, said in relies_on)."""
    if outcome.verdict not in ("declared", "missed"):
        return outcome
    before, folder, searches = look
    changed = mutation_observe.differences(before, mutation_observe.observe(work, folder, searches))
    outcome.extra = {"changed_views": changed}
    if changed:
        outcome.verdict = "missed"
    return outcome


def wal_cases(base: Path, folder: Path) -> list[tuple[str, str, Outcome]]:
    """A store whose WAL holds commits the product made (a writer still open, or one that
    crashed): an act's commit left in the WAL, then the WAL and ``-shm`` edited or removed, an
    edit left only in the WAL, and the store replaced by an older copy of itself."""
    from bench.mutation_stores import _quiet_env, _run

    out: list[tuple[str, str, Outcome]] = []
    live = folder / "live.db"
    _clear(live)
    shutil.copyfile(base, live)
    holder = sqlite3.connect(live)  # keeps the WAL from being copied back when the act's connection closes
    holder.execute("SELECT COUNT(*) FROM sessions").fetchall()
    with _quiet_env(folder):
        _run("reject", str(live), "cand-space", "--reason", "late", "--reviewer", "mo", ok=(0, 1))
    pin = head_of(live)  # the head after the act, as a verify right after it would remember
    wal_bytes = Path(f"{live}-wal").read_bytes()
    frozen = {s: Path(f"{live}{s}").read_bytes() for s in ("", "-wal", "-shm")}
    holder.close()
    work = folder / "wal-work.db"

    def lay(parts: dict[str, bytes | None]) -> None:
        _clear(work)
        for suffix, data in parts.items():
            if data is not None:
                Path(f"{work}{suffix}").write_bytes(data)

    def flipped(data: bytes, at: int) -> bytes:
        b = bytearray(data)
        b[at] ^= 0x01
        return bytes(b)

    cases: list[tuple[str, dict[str, bytes | None], bool]] = [
        ("the WAL as the writer left it (nothing edited)", dict(frozen), True),
        ("the WAL removed (its commits lost: the act undone)", {**frozen, "-wal": None, "-shm": None}, True),
        ("the WAL removed, never verified here", {**frozen, "-wal": None, "-shm": None}, False),
        ("a byte of the WAL's last frame changed", {**frozen, "-wal": flipped(wal_bytes, len(wal_bytes) - 100)}, True),
        ("a byte of the WAL's first frame header changed", {**frozen, "-wal": flipped(wal_bytes, 40)}, True),
        ("the WAL cut in half", {**frozen, "-wal": wal_bytes[: len(wal_bytes) // 2]}, True),
        ("-shm removed", {**frozen, "-shm": None}, True),
        ("-shm zeroed", {**frozen, "-shm": b"\0" * len(frozen["-shm"])}, True),
        ("a byte of -shm's header changed", {**frozen, "-shm": flipped(frozen["-shm"], 16)}, True),
    ]
    for label, parts, pinned in cases:
        lay(parts)
        code, doc = verify_now(work, pin if pinned else None)
        outcome = judge(code, doc, Mutation("wal", "file", label, lambda c: None, mode="file", pinned=pinned))
        outcome.extra = {"head": doc.get("head"), "same_head": (doc.get("head") or {}).get("hash") == pin[2]}
        if outcome.verdict != "caught" and outcome.extra["same_head"]:
            outcome.verdict, outcome.declared = "harmless", "the store reads as the writer left it (same head)"
        out.append(("wal", label, outcome))
    # an edit left only in the WAL: a record reworded with its digest recomputed
    for label, table, column in (("a record reworded (digest recomputed), left only in the WAL", "state_records",
                                  "value"), ("a ledger byte changed, left only in the WAL", "ledger", "actor")):
        _clear(work)
        shutil.copyfile(base, work)
        con = sqlite3.connect(work, isolation_level=None)
        con.execute("PRAGMA journal_mode = WAL")
        con.execute("PRAGMA wal_autocheckpoint = 0")
        rid = con.execute(f"SELECT MIN(rowid) FROM {table}").fetchone()[0]
        value = con.execute(f"SELECT {column} FROM {table} WHERE rowid = ?", (rid,)).fetchone()[0]

        def edit(c: sqlite3.Connection, t: str = table, col: str = column, r: int = rid, v: Any = value) -> None:
            c.execute(f"UPDATE {t} SET {col} = ? WHERE rowid = ?", (mutation_edits.meaningful(v, col), r))
            if t != "ledger":
                mutation_edits.redigest(c, t, r)
        mutation_edits.apply(con, Mutation(table, column, label, edit))
        copy = folder / "wal-only.db"
        _clear(copy)
        for suffix in ("", "-wal", "-shm"):
            if Path(f"{work}{suffix}").exists():
                shutil.copyfile(f"{work}{suffix}", f"{copy}{suffix}")
        con.close()
        code, doc = verify_now(copy, head_of(base))
        out.append(("wal", label, judge(code, doc, Mutation("wal", column, label, edit))))
    # the store replaced by an older copy of itself (a rollback): the samples store is the acts
    # store's own past (the acts store began as a copy of it)
    return out


def rollback_cases(older: Path, newer: Path, folder: Path) -> list[tuple[str, str, Outcome]]:
    out = []
    pin = head_of(newer)
    work = folder / "rolled-back.db"
    for pinned in (True, False):
        _clear(work)
        shutil.copyfile(older, work)
        label = "the store replaced by an older copy of itself" + ("" if pinned else ", never verified here")
        code, doc = verify_now(work, pin if pinned else None)
        out.append(("file", label, judge(code, doc, Mutation("file", "whole", "replaced by an older copy",
                                                                 lambda c: None, mode="file", pinned=pinned))))
    return out


Pick = Callable[[str, str], bool]  # (table, edit) -> whether this run makes the edit


def run(stores: dict[str, Path], folder: Path, only: str | None = None, *, brief: bool = False,
        pick: Pick | None = None) -> list[dict[str, Any]]:
    """Every edit of every store (``only``: one of them; ``brief``: fewer kinds for the search
    indexes' own tables, see mutation_edits.BRIEF_DERIVED_KINDS; ``pick``: only the edits it
    says yes to, so a test can spread one store's edits over several processes — keep every
    edit of a table in one pick, as a "far" edit is made only when that column's "byte" one
    was refused). The WAL cases are picked as ``("wal", "*")``, the older copies as
    ``("file", "the store replaced by an older copy")``."""
    results: list[dict[str, Any]] = []
    for name, base in stores.items():
        if only and name != only:
            continue
        pin = head_of(base)
        work = folder / f"work-{name}.db"
        searches, before = _untouched_views(base, folder)
        look = (before, folder, searches)
        refused: set[tuple[str, str]] = set()
        for mutation in mutation_edits.all_mutations(base, brief=brief):
            if pick is not None and not pick(mutation.table, mutation.kind):
                continue
            if mutation.kind == "far" and (mutation.table, mutation.column) not in refused:
                continue  # only when +1 collided with a key: one value a column can take is enough
            try:
                outcome = attempt(base, work, mutation, pin, look)
            except Exception as exc:  # noqa: BLE001 - what this bench looks for
                outcome = Outcome("traceback", message=f"{type(exc).__name__}: {exc}")
            if mutation.kind == "byte" and outcome.verdict == "refused":
                refused.add((mutation.table, mutation.column))
            results.append({"store": name, "table": mutation.table, "column": mutation.column, "edit": mutation.kind,
                            "pinned": mutation.pinned, **outcome.__dict__})
    if (not only or only == "acts") and "acts" in stores:
        older = "the store replaced by an older copy"
        cases = [*(wal_cases(stores["acts"], folder) if pick is None or pick("wal", "*") else []),
                 *(rollback_cases(stores["samples"], stores["acts"], folder)
                   if pick is None or pick("file", older) else [])]
        for table, label, outcome in cases:
            results.append({"store": "acts", "table": table, "column": "file", "edit": label, "pinned": True,
                            **outcome.__dict__})
    return results


def table(results: list[dict[str, Any]]) -> str:
    verdicts = ["caught", "declared", "relied on", "harmless", "refused", "no-op", "bad input", "missed", "traceback"]
    by: dict[tuple[str, str], Counter[str]] = defaultdict(Counter)
    for r in results:
        by[(r["store"], r["table"])][r["verdict"]] += 1
    lines = [f"{'store':<11} {'table':<24} {'tried':>5} " + " ".join(f"{v:>9}" for v in verdicts)]
    for (store, name), counts in sorted(by.items()):
        lines.append(f"{store:<11} {name:<24} {sum(counts.values()):>5} "
                     + " ".join(f"{counts[v]:>9}" for v in verdicts))
    total = Counter(r["verdict"] for r in results)
    lines.append(f"{'all':<11} {'':<24} {len(results):>5} " + " ".join(f"{total[v]:>9}" for v in verdicts))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--store", choices=("samples", "transcript", "acts"))
    parser.add_argument("--missed", action="store_true", help="list every edit not caught (declared ones too)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        started = time.perf_counter()
        stores = build(folder / "stores")
        results = run(stores, folder, args.store)
        elapsed = time.perf_counter() - started
    if args.json:
        print(json.dumps(results, ensure_ascii=False, indent=1, default=str))
        return 0
    print(table(results))
    print(f"{len(results)} edits in {elapsed:.1f} s")
    for r in results:
        if r["verdict"] in ("missed", "traceback", "bad input") or (
                args.missed and r["verdict"] in ("declared", "harmless", "relied on")):
            seen_ = r.get("extra", {}).get("changed_views")
            print(f"  {r['verdict']:<9} {r['store']}: {r['table']}.{r['column']}: {r['edit']}"
                  f"{'' if r['pinned'] else ' (never verified here)'}  {r.get('declared') or r.get('message', '')[:80]}"
                  + (f"  changed: {', '.join(seen_)[:100]}" if seen_ else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
