"""A secret cut in two is still a copy: streamed across two events, across a tool call's input
and its result, across a summary and a folded result (material), and a request naming only the
half that one event holds. Also a fullwidth number whose character a material chunk boundary
cuts. Before: `deletion` listed none of them and `delete` said done with both halves kept.
"""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from inspector.cli.main import cli
from inspector.store.schema import CHUNK_SIZE
from tests.conftest import write_sif
from tests.test_deletion_copies import fts_terms, on_disk, secure_delete_off, trigrams  # noqa: F401

KEY = "sk-live-4f9a8b7c6d5e4f3a2b1c"
AT = "2025-05-01T00:00:00Z"
SID = "s-split"
FULLWIDTH = "".join(chr(ord(c) + 0xFEE0) for c in "13800138000")


def _event(seq: int, kind: str, content: str = "", **more: object) -> dict[str, object]:
    trust = {"user_message": "user", "tool_result": "tool"}.get(kind, "model")
    return {"type": "event", "session": SID, "seq": seq, "kind": kind, "trust": trust, "at": AT,
            "content": content, **more}


def _records() -> list[dict[str, object]]:
    # a fullwidth digit (3 bytes) cut by the material's first chunk boundary
    cut = "x" * (CHUNK_SIZE - 4) + FULLWIDTH + " end"
    assert cut.encode()[CHUNK_SIZE - 1:CHUNK_SIZE + 2].decode() == FULLWIDTH[1]  # its bytes on both sides
    return [
        {"type": "session", "id": SID, "title": "t", "owner": "o", "created_at": AT},
        _event(1, "user_message", f"my key is {KEY}, call 138-0013-8000"),
        _event(2, "assistant_message", "streamed: " + KEY[:10]),
        _event(3, "assistant_message", KEY[10:] + " done"),
        _event(4, "tool_call", call_id="c1", tool="sh", args={"cmd": "echo " + KEY[:14]}),
        _event(5, "tool_result", KEY[14:] + "\n", call_id="c1", tool="sh"),
        _event(6, "user_message", "nothing here sk"),  # controls: an ordinary end and start
        _event(7, "user_message", "live music tonight"),
        _event(8, "tool_result", "big output folded", call_id="c2", tool="sh"),
        _event(9, "user_message", "half of a key: " + KEY[:12]),
        _event(10, "user_message", KEY[12:] + " was the rest"),
        {"type": "summary", "session": SID, "generation": 1, "text": "The key starts " + KEY[:12], "covers": [1, 8]},
        {"type": "material", "session": SID, "id": "res:rest", "source_event": 5, "content": KEY[12:] + " output",
         "retrieved_at": AT, "source_version": "v1", "disclosure_scope": "team"},
        {"type": "material", "session": SID, "id": "res:cut", "source_event": 8, "content": cut,
         "retrieved_at": AT, "source_version": "v1", "disclosure_scope": "team"},
        {"type": "deletion_request", "session": SID, "id": "del-all", "targets": ["evt:1"], "reason": "leak"},
        {"type": "deletion_request", "session": SID, "id": "del-half", "targets": ["evt:9"], "reason": "leak"},
    ]


def _run(*args: str) -> tuple[int, dict[str, object]]:
    result = CliRunner().invoke(cli, [*args, "--json"], env={"INSPECTOR_REVIEWER": "o"})
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result.exit_code, json.loads(result.stdout)


def _store(tmp_path: Path) -> str:
    store = tmp_path / "s.db"
    code, _ = _run("import", str(write_sif(tmp_path / "s.jsonl", _records())), "--into", str(store))
    assert code == 0
    return str(store)


def _listed(doc: dict[str, object]) -> set[str]:
    return {c["id"] for c in doc["copies"] if c["where"] in ("events", "materials", "summaries")}  # type: ignore[index,union-attr]


def test_every_half_of_a_split_secret_is_listed_and_no_ordinary_neighbour(tmp_path: Path) -> None:
    store = _store(tmp_path)
    code, doc = _run("deletion", store, "del-all")
    assert code == 0
    listed = _listed(doc)
    for half in ("evt:2", "evt:3", "evt:4", "evt:5", "gen:1", "res:rest", "evt:9", "evt:10", "res:cut"):
        assert half in listed, (half, sorted(listed))
    assert not {"evt:6", "evt:7"} & listed  # "…sk" then "live…" is no key
    whys = {c["id"]: c["why"] for c in doc["copies"] if c["where"] == "events"}  # type: ignore[index,union-attr]
    assert "split across evt:2 and evt:3" in whys["evt:2"]
    assert any("split" in n for n in doc["not_checked"])  # type: ignore[union-attr]


def test_a_request_naming_one_half_covers_the_other(tmp_path: Path) -> None:
    store = _store(tmp_path)
    _code, doc = _run("deletion", store, "del-half")
    listed = _listed(doc)
    # evt:9 holds only "sk-live-4f9a": the whole key it begins is what the request removes
    assert {"evt:10", "evt:1", "evt:3", "evt:5", "res:rest"} <= listed, sorted(listed)


def test_after_delete_no_half_stays_on_disk_or_in_the_index(tmp_path: Path, secure_delete_off: None) -> None:  # noqa: F811 (the fixture)
    store = _store(tmp_path)
    assert _run("search", store, "--session", SID, "4f9a8b")[1]["hits"]  # indexed before the deletion
    code, doc = _run("delete", store, "del-all")
    assert code == 0 and doc["status"] == "done"
    halves = [KEY[:10], KEY[10:], KEY[:14], KEY[14:], KEY[:12], KEY[12:]]
    for name, data in on_disk(Path(store)).items():
        for half in [*halves, FULLWIDTH[:4], FULLWIDTH[-4:]]:
            assert half.encode() not in data, f"{half!r} is still in {name}"
    assert not trigrams([KEY[8:]]) & fts_terms(Path(store), "events_fts")
    assert _run("search", store, "--session", SID, "9a8b7c")[1]["hits"] == []
    assert _run("verify", store)[0] == 0


def test_reports_exports_and_transcripts_beside_the_store_are_named(tmp_path: Path) -> None:
    """Files a deletion cannot remove are named, never passed over: before, the HTML report and the
    export written before the deletion kept the secret with `delete` saying only "done"."""
    store = _store(tmp_path)
    assert CliRunner().invoke(cli, ["report", store, "--session", SID, "-o", str(tmp_path / "r.html")]).exit_code == 0
    assert CliRunner().invoke(cli, ["export", store, "-o", str(tmp_path / "e.jsonl")]).exit_code == 0
    (tmp_path / "notes.html").write_text("nothing secret here", encoding="utf-8")
    code, doc = _run("delete", store, "del-all")
    assert code == 0 and doc["status"] == "done"
    named = [w for w in doc["warnings"] if w.startswith("files beside the store")]  # type: ignore[union-attr]
    assert len(named) == 1 and "e.jsonl" in named[0] and "r.html" in named[0] and "s.jsonl" in named[0]
    assert "notes.html" not in named[0]
