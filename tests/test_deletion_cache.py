"""A deletion and the start screen's transcript cache (services/deletion_cache.py).

Before: listing the agents' transcripts cached each one's first prompt in
``discover-cache.json``; deleting that prompt from the store left the copy there, unnamed.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from inspector.cli.main import cli
from tests.conftest import write_sif

SID = "11111111-2222-3333-4444-555555555555"
MAIL = "zq7victim@example.org"


def _transcript(path: Path, prompt: str, sid: str = SID) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    base = {"sessionId": sid, "cwd": "/p", "version": "2.1.14"}
    records = [
        {**base, "type": "user", "uuid": "u1", "parentUuid": None, "timestamp": "2025-05-01T00:00:00Z",
         "message": {"role": "user", "content": prompt}},
        {**base, "type": "assistant", "uuid": "a1", "parentUuid": "u1", "timestamp": "2025-05-01T00:00:01Z",
         "message": {"id": "m1", "role": "assistant", "model": "x", "content": [{"type": "text", "text": "ok"}]}},
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def _run(*args: str) -> tuple[int, dict[str, object]]:
    result = CliRunner().invoke(cli, [*args, "--json"])
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result.exit_code, json.loads(result.stdout)


@pytest.fixture
def listed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path, Path]:
    """A store made from a listed transcript, a request to delete its first prompt, and the cache."""
    for name in ("cache", "data", "config"):
        monkeypatch.setenv(f"INSPECTOR_{name.upper()}_DIR", str(tmp_path / name))
    monkeypatch.setenv("INSPECTOR_SOURCES", str(tmp_path / "src"))
    monkeypatch.setenv("INSPECTOR_REVIEWER", "o")
    source = _transcript(tmp_path / "src" / "proj" / "t.jsonl", f"please mail the report to {MAIL} today")
    _transcript(tmp_path / "src" / "other" / "u.jsonl", "an unrelated prompt about ports", sid="other-session")
    assert CliRunner().invoke(cli, ["sessions", "--discover"]).exit_code == 0
    cache = tmp_path / "cache" / "discover-cache.json"
    assert MAIL in cache.read_text(encoding="utf-8")
    store = tmp_path / "s.db"
    assert _run("import", str(source), "--into", str(store))[0] == 0
    request = write_sif(tmp_path / "req.jsonl", [{"type": "deletion_request", "session": SID, "id": "del-1",
                                                  "targets": ["evt:1"], "reason": "gdpr"}])
    assert _run("import", str(request), "--into", str(store))[0] == 0
    return store, cache, source


def test_the_listing_names_the_cached_copy_and_changes_nothing(listed: tuple[Path, Path, Path]) -> None:
    store, cache, source = listed
    before = cache.read_bytes()
    code, doc = _run("deletion", str(store), "del-1")
    assert code == 0
    said = [w for w in doc["warnings"] if "transcript list's cache" in w]  # type: ignore[union-attr]
    assert len(said) == 1 and "removes those entries" in said[0] and str(source) in said[0], doc["warnings"]
    assert cache.read_bytes() == before


def test_carrying_out_removes_the_cached_copy_and_keeps_the_other_entries(listed: tuple[Path, Path, Path]) -> None:
    store, cache, source = listed
    code, doc = _run("delete", str(store), "del-1")
    assert code == 0 and doc["status"] == "done", doc
    said = [w for w in doc["warnings"] if "transcript list's cache" in w]  # type: ignore[union-attr]
    assert len(said) == 1 and "were removed" in said[0] and str(source) in said[0], doc["warnings"]
    kept = json.loads(cache.read_text(encoding="utf-8"))
    assert MAIL not in json.dumps(kept) and str(source) not in kept
    assert any(path.endswith("u.jsonl") for path in kept)  # the unrelated transcript's entry stays
    assert [p.name for p in cache.parent.iterdir()] == ["discover-cache.json"]  # no temporary file left
    assert _run("verify", str(store))[0] == 0


def test_no_cache_or_no_copy_in_it_says_nothing(listed: tuple[Path, Path, Path]) -> None:
    store, cache, _source = listed
    cache.write_text(json.dumps({"/elsewhere/x.jsonl": [1, 2, {"title": "nothing secret"}]}), encoding="utf-8")
    code, doc = _run("delete", str(store), "del-1")
    assert code == 0 and not [w for w in doc["warnings"] if "cache" in w], doc["warnings"]  # type: ignore[union-attr]
    assert "/elsewhere/x.jsonl" in json.loads(cache.read_text(encoding="utf-8"))
