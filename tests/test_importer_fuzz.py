"""No input crashes an importer: mutated real files either import (store verifies) or are
refused with exit 3 and one sentence, the store unchanged.

The sources are every real transcript (Codex: one built from FORMATS.md, none is in the
collection) and two sif/1 sample sessions.
Mutations: a flipped byte, a cut, a hostile snippet inserted (lone surrogate escape, an
integer past 64 bits, deep nesting, a second record on the line, a duplicate key, bytes
that are not UTF-8), a field's value swapped for one of another type while the JSON
stays valid, a UTF-8 BOM, CRLF line ends, a line written twice, a NUL-padded tail. ``conversion_failed`` (the converters' last-resort refusal) counts as a bug.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import random
import re
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from inspector.cli.main import cli
from tests.conftest import SAMPLES

REAL = Path(__file__).resolve().parents[2] / "shared" / "real_sessions"
if not REAL.is_dir():
    pytest.skip(f"the real transcripts are not beside the project ({REAL})", allow_module_level=True)

WINDOW = 24  # lines of a long JSONL file per example, so one example stays well under a second


def _sources() -> list[tuple[str, bytes]]:
    out: list[tuple[str, bytes]] = []
    for path in sorted(REAL.rglob("*")):
        if not path.is_file() or path.suffix in (".md", ".yaml", ".yml"):
            continue
        if path.stat().st_size > 200_000 and path.suffix != ".jsonl":
            continue
        out.append((path.name, path.read_bytes()))
    codex = [  # no real Codex rollout is in the collection: this one follows FORMATS.md
        {"timestamp": "2026-01-01T00:00:00Z", "type": "session_meta", "payload": {"id": "cx-1", "cwd": "/repo"}},
        {"timestamp": "2026-01-01T00:00:01Z", "type": "response_item",
         "payload": {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "fix it"}]}},
        {"timestamp": "2026-01-01T00:00:02Z", "type": "response_item",
         "payload": {"type": "reasoning", "summary": [{"type": "summary_text", "text": "look"}],
                     "encrypted_content": "gAAAAB=="}},
        {"timestamp": "2026-01-01T00:00:03Z", "type": "response_item",
         "payload": {"type": "function_call", "name": "shell", "arguments": "{\"cmd\":\"ls\"}", "call_id": "c1"}},
        {"timestamp": "2026-01-01T00:00:04Z", "type": "response_item",
         "payload": {"type": "function_call_output", "call_id": "c1", "output": "a.py"}},
        {"timestamp": "2026-01-01T00:00:06Z", "type": "compacted",
         "payload": {"message": "", "replacement_history": [{"type": "message", "role": "user", "content": []}]}},
    ]
    out.append(("rollout-cx-1.jsonl", ("\n".join(json.dumps(r) for r in codex) + "\n").encode()))
    for sample in ("01_export_timeout", "02_orders_handoff"):  # sif/1: all or nothing
        out.append((f"{sample}.jsonl", SAMPLES[sample].read_bytes()))
    return out


SOURCES = _sources()
HOSTILE = [b"\\ud800", b"\\udfff\\u0041", b"99999999999999999999", b"-9223372036854775809", b"1e999",
           b"[" * 5000, b'}{"type":"summary","summary":"x"}', b'"a":1,"a":2,', b"\xff\xfe\x80", b"\n", b'"',
           b"NaN", b"\x00", b'{"type":"user","type":"system"}']
SWAPS = [b"12345", b"true", b"{}", b'{"a":[1,{"b":null}]}', b'["x",2]', b"null", b'"\\ud800"',
         b"99999999999999999999", b'"not a time"', b"-1.5"]
KEY = re.compile(rb'"([A-Za-z_]+)":')


def _window(data: bytes, start: int) -> bytes:
    lines = data.split(b"\n")
    if len(lines) <= WINDOW:
        return data
    first = start % (len(lines) - WINDOW)
    return b"\n".join(lines[first:first + WINDOW]) + b"\n"


@st.composite
def mutated(draw: st.DrawFn) -> tuple[str, bytes]:
    name, data = draw(st.sampled_from(SOURCES))
    if name.endswith(".jsonl") and len(data) > 100_000:  # long transcripts; sif samples stay whole
        data = _window(data, draw(st.integers(0, 10_000)))
    kind = draw(st.sampled_from(["flip", "cut", "insert", "swap", "swap", "bom", "crlf", "repeat", "nul_tail"]))
    pos = draw(st.integers(0, max(0, len(data) - 1)))
    if kind == "bom":  # ways real files break, found by the second attack (issue 8)
        data = b"\xef\xbb\xbf" + data
    elif kind == "crlf":
        data = data.replace(b"\n", b"\r\n")
    elif kind == "repeat":  # a line written twice, anywhere
        lines = data.split(b"\n")
        i = draw(st.integers(0, max(0, len(lines) - 1)))
        data = b"\n".join(lines[:i + 1] + lines[i:])
    elif kind == "nul_tail":  # a preallocated file cut by a crash
        data = data + b"\x00" * draw(st.integers(1, 4096))
    elif kind == "flip":
        data = data[:pos] + bytes([draw(st.integers(0, 255))]) + data[pos + 1:]
    elif kind == "cut":
        data = data[:pos]
    elif kind == "insert":
        data = data[:pos] + draw(st.sampled_from(HOSTILE)) + data[pos:]
    else:
        keys = list(KEY.finditer(data))
        if keys:
            m = keys[draw(st.integers(0, len(keys) - 1))]
            data = data[:m.end()] + draw(st.sampled_from(SWAPS)) + b',"_swapped":' + data[m.end():]
    return name, data


def _snapshot(store: Path) -> str:
    return hashlib.sha256(b"".join(p.read_bytes() for p in sorted(store.parent.glob(store.name + "*")))).hexdigest()


@pytest.fixture(scope="module")
def base_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    store = tmp_path_factory.mktemp("base") / "base.db"
    name, data = next(s for s in SOURCES if s[0].endswith(".conversation.json"))
    (store.parent / name).write_bytes(data)
    assert CliRunner().invoke(cli, ["import", str(store.parent / name), "--into", str(store)]).exit_code == 0
    return store


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                   HealthCheck.too_slow])
@given(case=mutated())
def test_a_mutated_real_file_imports_or_is_refused_in_one_sentence(tmp_path: Path, base_store: Path,
                                                                   case: tuple[str, bytes]) -> None:
    name, data = case
    work = tmp_path / hashlib.sha256(data).hexdigest()[:16]
    work.mkdir(exist_ok=True)
    src, store = work / name, work / "s.db"
    src.write_bytes(data)
    shutil.copy(base_store, store)
    before = _snapshot(store)
    result = CliRunner().invoke(cli, ["import", str(src), "--into", str(store), "--json"])
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.exit_code in (0, 3), result.output
    if result.exit_code == 3:
        assert len(result.stderr.strip().splitlines()) == 1 and result.stderr.startswith("error: "), result.stderr
        assert json.loads(result.stdout)["error"]["code"] != "conversion_failed", result.stdout
        assert _snapshot(store) == before
    else:
        # a fresh store from the same base at a path an earlier example used: no remembered head
        verified = CliRunner().invoke(cli, ["verify", str(store), "--json"],
                                      env={"INSPECTOR_DATA_DIR": str(work / "data")})
        assert verified.exit_code == 0, verified.output
        exported = CliRunner().invoke(cli, ["export", str(store), "-o", str(work / "out.jsonl")])
        assert exported.exit_code == 0, exported.output
    shutil.rmtree(work)


# -- the ways real files break (issue 8, second pass) --------------------------------------------------------------
# Found by mutating the real transcripts: every line written twice made a Claude Code file refused whole
# (conflicting_record: the repeated tool result's material) and doubled the text and calls of a repeated
# assistant line silently; a UTF-8 BOM made a Codex rollout, a Gemini CLI chat and a saved message list
# "not a Codex rollout" / unknown_format; an empty file, a file of blank lines, a gzip'd transcript, UTF-16
# text and random bytes all got the same "cannot tell what FILE is … name the format with --from".

CLAUDE = REAL / "claude-code" / "a6e4c2a0fbd1-0__auto_compaction_v2.0.76.jsonl"
GEMINI = REAL / "gemini-cli" / "ab2b9748b105-0__session.json"
CHAT = REAL / "openai-chat" / "test_multiple_agent_tool_calls.conversation.json"
CODEX = next(data for name, data in SOURCES if name == "rollout-cx-1.jsonl")


def _import(tmp_path: Path, name: str, data: bytes, store: Path | None = None) -> tuple[Any, Path]:
    src = tmp_path / name
    src.write_bytes(data)
    store = store or tmp_path / f"{name}.db"
    return CliRunner().invoke(cli, ["import", str(src), "--into", str(store), "--json", "--reviewer", "t"]), store


def _events(store: Path) -> list[tuple[Any, ...]]:
    import sqlite3

    with sqlite3.connect(store) as db:
        return db.execute("SELECT kind, content, call_id FROM events WHERE kind != 'other' ORDER BY session, seq").fetchall()


def test_a_transcript_with_every_line_written_twice_imports_each_record_once(tmp_path: Path) -> None:
    data = CLAUDE.read_bytes()
    lines = [ln for ln in data.split(b"\n") if ln.strip()]
    doubled = b"".join(ln + b"\n" + ln + b"\n" for ln in lines)
    once, once_store = _import(tmp_path, "once.jsonl", data)
    twice, twice_store = _import(tmp_path, "twice.jsonl", doubled)
    assert once.exit_code == 0 and twice.exit_code == 0, twice.output
    problems = json.loads(twice.stdout)["problems"]
    repeats = [p for p in problems if p["code"] == "duplicate_line"]
    assert len(repeats) == len(lines) and "repeats line" in repeats[0]["message"]
    assert _events(twice_store) == _events(once_store)  # no text or call doubled
    session = json.loads(twice.stdout)["sessions"][0]
    out = tmp_path / "back.jsonl"
    assert CliRunner().invoke(cli, ["export", str(twice_store), "--session", session, "--original", "-o",
                                    str(out)]).exit_code == 0
    assert out.read_bytes() == doubled
    again, _ = _import(tmp_path, "twice.jsonl", doubled, twice_store)
    assert again.exit_code == 0 and json.loads(again.stdout).get("unchanged_since")
    assert CliRunner().invoke(cli, ["verify", str(twice_store)]).exit_code == 0


@pytest.mark.parametrize("source", ["codex", "gemini", "chat", "claude"])
def test_a_utf8_bom_at_the_start_is_read_past_and_kept_in_the_original(tmp_path: Path, source: str) -> None:
    name, data = {"codex": ("rollout-cx-1.jsonl", CODEX), "gemini": (GEMINI.name, GEMINI.read_bytes()),
                  "chat": (CHAT.name, CHAT.read_bytes()), "claude": (CLAUDE.name, CLAUDE.read_bytes())}[source]
    plain, plain_store = _import(tmp_path / "a" if (tmp_path / "a").mkdir() is None else tmp_path, name, data)
    bom, bom_store = _import(tmp_path / "b" if (tmp_path / "b").mkdir() is None else tmp_path, name,
                             b"\xef\xbb\xbf" + data)
    assert plain.exit_code == 0 and bom.exit_code == 0, bom.output
    assert json.loads(bom.stdout)["problems"] == json.loads(plain.stdout)["problems"]
    assert _events(bom_store) == _events(plain_store)
    session = json.loads(bom.stdout)["sessions"][0]
    out = tmp_path / "back"
    assert CliRunner().invoke(cli, ["export", str(bom_store), "--session", session, "--original", "-o",
                                    str(out)]).exit_code == 0
    assert out.read_bytes() == b"\xef\xbb\xbf" + data


NOT_TRANSCRIPTS: dict[str, tuple[Callable[[], bytes], str, str]] = {
    "empty.jsonl": (lambda: b"", "empty_file", "is empty"),
    "blank.jsonl": (lambda: b"\n\n  \r\n\t\n", "empty_file", "only blank lines"),
    "bom-only.jsonl": (lambda: b"\xef\xbb\xbf\n", "empty_file", "only blank lines"),
    "nuls.jsonl": (lambda: b"\x00" * 4096, "empty_file", "only NUL bytes"),
    "session.jsonl": (lambda: gzip.compress(CLAUDE.read_bytes()[:20000]), "compressed_file", "gzip"),
    "session.jsonl.gz": (lambda: gzip.compress(CLAUDE.read_bytes()[:20000]), "compressed_file", "gunzip"),
    "utf16.jsonl": (lambda: CLAUDE.read_bytes()[:4000].decode("utf-8", "ignore").encode("utf-16"), "not_utf8",
                    "UTF-16"),
    "random.jsonl": (lambda: bytes(random.Random(7).randrange(256) for _ in range(50_000)), "binary_file",
                     "binary"),
    "program.jsonl": (lambda: b"\x7fELF\x02\x01\x01\x00" + bytes(range(256)) * 100, "binary_file", "binary"),
}


@pytest.mark.parametrize("name", sorted(NOT_TRANSCRIPTS))
def test_a_file_that_is_no_transcript_is_refused_saying_what_it_is(tmp_path: Path, name: str) -> None:
    make, code, words = NOT_TRANSCRIPTS[name]
    result, store = _import(tmp_path, name, make())
    assert result.exit_code == 3, result.output
    error = json.loads(result.stdout)["error"]
    assert error["code"] == code and words in error["message"], error
    assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.stderr
    assert not store.exists() and sorted(p.name for p in tmp_path.iterdir()) == [name]


def test_the_text_report_counts_lines_not_read_and_lists_the_first_ten(tmp_path: Path) -> None:
    lines = [ln for ln in CLAUDE.read_bytes().split(b"\n") if ln.strip()]
    broken = b"".join(ln + b"\n" + b"\x00garbage %d{\n" % i for i, ln in enumerate(lines[:30]))
    src = tmp_path / "broken.jsonl"
    src.write_bytes(broken)
    result = CliRunner().invoke(cli, ["import", str(src), "--into", str(tmp_path / "s.db"), "--reviewer", "t"])
    assert result.exit_code == 0, result.output
    shown = [ln for ln in result.stdout.splitlines() if ln.lstrip().startswith("⚠")]
    assert len(shown) == 10, result.stdout
    assert "30 lines or parts not read or odd (unreadable_line 30)" in result.stdout


def test_two_claude_code_sessions_run_together_in_one_file_import_and_say_so(tmp_path: Path) -> None:
    """Found: the second session's records were read into the first without a word."""
    first = [ln for ln in CLAUDE.read_bytes().split(b"\n") if ln.strip()]
    second = [ln for ln in (REAL / "claude-code" / "ee8f793bfeb9-0__summary_records.jsonl").read_bytes().split(b"\n")
              if ln.strip()]
    mixed = [ln for pair in zip(first, second, strict=False) for ln in pair] + first[len(second):]
    result, store = _import(tmp_path, "mixed.jsonl", b"\n".join(mixed) + b"\n")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    others = [p for p in report["problems"] if p["code"] == "other_session"]
    assert len(others) == 1 and "488c5296-fc78-4fdf-8cfd-f1cae9454bd0" in others[0]["message"], report["problems"]
    assert others[0]["line"] == next(i for i, ln in enumerate(mixed, 1) if b"488c5296-fc78" in ln)
    assert CliRunner().invoke(cli, ["verify", str(store)]).exit_code == 0
