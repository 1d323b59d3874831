"""The stores the verify mutation test edits (tests/test_verify_mutations.py, bench/verify_mutations.py).

Three realistic stores, each built only through the product (imports and acts on the command
line), so every row in them is one a person's work leaves:

- ``samples``: every sample session (sample_sessions/) imported;
- ``transcript``: a real Claude Code transcript followed in two parts (``follow --once``, then
  the rest appended and followed again: an appending import that links its seals), so its
  pending proposed facts, its original's two materials and its problem events are there;
- ``acts``: the samples and the transcript together, then every kind of act: a candidate
  accepted and one rejected, a rebase, a correction of a decision and one of a constraint
  (pending, then confirmed by the owner), a summary correction, a rebuild, proposals
  confirmed in bulk, an unknown action reconciled, an expansion, a handoff accepted, the
  budget read, a deletion carried out, and the search index caught up.

The real transcript lives in ../shared/real_sessions; without it the transcript parts are left
out (``missing`` says so) and the stores hold the samples and acts only.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from click.testing import CliRunner

ROOT = Path(__file__).resolve().parent.parent
REAL = ROOT.parent / "shared" / "real_sessions" / "claude-code" / "ee8f793bfeb9-0__summary_records.jsonl"
SAMPLES = sorted((ROOT / "sample_sessions").glob("*.jsonl"))


@contextmanager
def _quiet_env(folder: Path) -> Iterator[None]:
    """Acts away from any person's folders (their data dir would remember heads)."""
    keys = ("INSPECTOR_CACHE_DIR", "INSPECTOR_SOURCES", "INSPECTOR_DATA_DIR", "INSPECTOR_CONFIG_DIR",
            "INSPECTOR_REVIEWER")
    saved = {k: os.environ.get(k) for k in keys}
    os.environ.update(INSPECTOR_CACHE_DIR=str(folder / "cache"), INSPECTOR_SOURCES=str(folder / "none"),
                      INSPECTOR_DATA_DIR=str(folder / "data"), INSPECTOR_CONFIG_DIR=str(folder / "config"))
    os.environ.pop("INSPECTOR_REVIEWER", None)
    try:
        yield
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def _run(*args: str, ok: tuple[int, ...] = (0,)) -> str:
    from inspector.cli.main import cli

    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    if result.exit_code not in ok:
        raise RuntimeError(f"inspector {' '.join(args)} exited {result.exit_code}: {result.output}")
    return result.output


def _follow_in_two_parts(store: Path, work: Path) -> None:
    """The transcript grows while it is followed: half first, the rest appended and followed again."""
    lines = REAL.read_bytes().splitlines(keepends=True)
    copy = work / REAL.name
    copy.write_bytes(b"".join(lines[: len(lines) // 2]))
    _run("follow", str(copy), "--into", str(store), "--once", "--reviewer", "ana")
    with copy.open("ab") as out:
        out.write(b"".join(lines[len(lines) // 2:]))
    _run("follow", str(copy), "--into", str(store), "--once", "--reviewer", "ana")


def _acts(store: Path, work: Path) -> None:
    s = str(store)
    _run("accept", s, "cand-good", "--reviewer", "lin")
    _run("reject", s, "cand-warn", "--reason", "it warns", "--reviewer", "mo")
    _run("rebase", s, "cand-stale", "--reviewer", "lin", ok=(0, 1))
    _run("correct", s, "--session", "s-export", "--key", "open_issue.p95", "--value", "P95 仍待测 (reopened)",
         "--reason", "the summary closed it", "--reviewer", "lin")
    _run("correct", s, "--session", "s-export", "--key", "constraint.prod", "--value", "不得修改生产库和备份",
         "--reason", "backups too", "--reviewer", "mo")  # not the owner: pending
    _run("confirm", s, "--session", "s-export", "--key", "constraint.prod", "--reviewer", "lin")
    text = work / "corrected.txt"
    text.write_text("目标：修复订单导出超时。约束：不得修改生产库和备份。P95 仍待测 (reopened)。", encoding="utf-8")
    _run("correct-summary", s, "--session", "s-export", "--generation", "1", "--text-file", str(text),
         "--reason", "it closed an open issue", "--reviewer", "lin", ok=(0, 1))
    _run("rebuild", s, "--session", "s-export", "--reviewer", "lin")
    _run("reconcile", s, "a7", "--status", "succeeded", "--evidence", "evt:5", "--reason", "the index exists",
         "--reviewer", "maria", ok=(0, 1))
    _run("expand", s, "stub-7", "--range", "0:64", "--reviewer", "lin")
    _run("accept-handoff", s, "h-good", "--reviewer", "maria")
    _run("budget", s, "--session", "s-export", "--window", "8000", "--fixed", "500", "--reserve", "500")
    _run("delete", s, "del-1", "--reviewer", "zhou")
    if REAL.exists():
        sessions = _run("sessions", s, "--json")
        import json

        for row in json.loads(sessions):
            if row["id"].startswith(("s-", "h-")) or row.get("events", 0) == 0:
                continue
            _run("confirm", s, "--session", row["id"], "--all-pending", "--reviewer", "ana", ok=(0, 1))
    _run("search", s, "--session", "s-export", "导出")  # the search index caught up


def _chunked(work: Path) -> Path:
    """A session whose material spans three chunks (64 KiB each) and a stub into its middle:
    the light stores' multi-chunk material (the large sample's is 1.5 MB)."""
    import json

    text = "".join(f"line {i}: 导出批次 {i % 97} 完成 — ok\n" for i in range(6000))[: 150_000]
    records = [{"type": "header", "format": "sif/1"},
               {"type": "session", "id": "s-chunks", "title": "three chunks", "owner": "ana", "adapter": "generic",
                "created_at": "2025-05-02T00:00:00Z", "goal_revision": 1},
               {"type": "event", "session": "s-chunks", "seq": 1, "kind": "tool_result", "call_id": "c1",
                "content": "the log is folded into res:log", "trust": "tool", "at": "2025-05-02T00:00:01Z"},
               {"type": "material", "session": "s-chunks", "id": "res:log", "source_event": 1, "source_version": "v1",
                "retrieved_at": "2025-05-02T00:00:01Z", "disclosure_scope": "team", "media_type": "text/plain",
                "encoding": "utf-8", "content": text},
               {"type": "stub", "session": "s-chunks", "id": "stub-log", "material": "res:log",
                "source_version": "v1", "read_slice": [65000, 70000], "retrieved_at": "2025-05-02T00:00:01Z",
                "disclosure_scope": "team", "outline": "the middle of the log"}]
    path = work / "chunks.jsonl"
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    return path


def build(folder: Path, *, light: bool = False, transcript: bool = True) -> dict[str, Path]:
    """The stores, closed cleanly (each file alone is the whole store): name -> path. ``light``:
    without the 1.5 MB large-fold sample (a test's copies stay small; the three-chunk material
    added to every store keeps a material of several chunks). ``transcript=False``: without the
    transcript store of its own (the acts store still follows the transcript), for a test that
    edits the acts store only."""
    folder.mkdir(parents=True, exist_ok=True)
    stores: dict[str, Path] = {}
    with _quiet_env(folder), tempfile.TemporaryDirectory(dir=folder) as tmp:
        work = Path(tmp)
        samples = folder / "samples.db"
        for path in [*(p for p in SAMPLES if not (light and p.name.startswith("06_"))), _chunked(work)]:
            _run("import", str(path), "--into", str(samples), "--reviewer", "tester")
        stores["samples"] = samples
        if REAL.exists() and transcript:
            stores["transcript"] = folder / "transcript.db"
            _follow_in_two_parts(stores["transcript"], work)
        acts = folder / "acts.db"
        shutil.copyfile(samples, acts)
        if REAL.exists():
            _follow_in_two_parts(acts, work)
        _acts(acts, work)
        stores["acts"] = acts
    for path in stores.values():
        for suffix in ("-wal", "-shm"):
            if Path(f"{path}{suffix}").exists():
                raise RuntimeError(f"{path} was not closed cleanly ({suffix} left)")
    return stores


def missing() -> str | None:
    """Why the transcript parts are left out, or None."""
    return None if REAL.exists() else f"needs {REAL} (../shared/real_sessions): the transcript store is left out"
