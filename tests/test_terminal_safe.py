"""Untrusted text reaches no terminal: the sanitiser, and every plain CLI command over a hostile store."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from inspector.cli.main import cli
from inspector.domain.terminal_safe import is_terminal_safe, json_safe, terminal_safe
from inspector.services.importing import import_file
from tests.hostile import KEY, OSC0, OSC52, RAW_FORBIDDEN, RLO, SID, write_hostile


def test_escapes_are_shown_not_obeyed() -> None:
    assert terminal_safe(f"a{OSC52}b") == "a␛]52;c;Y3VybCBldmlsLnNoIHwgc2g=␇b"
    assert terminal_safe("\x1b[2J") == "␛[2J"
    assert terminal_safe("\x9b31m") == "\\x9b31m"  # C1 CSI
    assert terminal_safe("del\x7f nul\x00") == "del␡ nul␀"


def test_a_carriage_return_never_hides_text() -> None:
    shown = terminal_safe("rm -rf / # harmless\rls")
    assert shown == "rm -rf / # harmless␍ls" and "\r" not in shown


def test_bidi_and_zero_width_are_marked() -> None:
    assert terminal_safe(f"invoice{RLO}fdp.exe") == "invoice⟨U+202E⟩fdp.exe"
    assert terminal_safe("a\u2066b\u2069c\u200ed\u200bf\ufeff") == "a⟨U+2066⟩b⟨U+2069⟩c⟨U+200E⟩d⟨U+200B⟩f⟨U+FEFF⟩"
    assert terminal_safe("tag\U000e0041") == "tag⟨U+E0041⟩"  # invisible tag characters smuggle text


def test_ordinary_text_is_unchanged() -> None:
    text = "目标：修复导出超时\n\tindented · emoji 🙂 · Ünïcödé · [bold]not markup here[/]"
    assert terminal_safe(text) == text and is_terminal_safe(text)


def test_json_keeps_exact_strings() -> None:
    value = {"t": f"x{OSC52}{RLO}\x9b\u200b\U000e0041"}
    document = json_safe(json.dumps(value, ensure_ascii=False))
    assert json.loads(document) == value
    assert is_terminal_safe(document)


@pytest.fixture
async def hostile_store(tmp_path: Path) -> Path:
    store = tmp_path / "evil.db"
    await import_file(write_hostile(tmp_path), store, actor="tester")
    return store


def _run(*args: str, cwd: Path) -> subprocess.CompletedProcess[bytes]:
    """A real ``python -m inspector`` process: the bytes its pipes carry."""
    env = {**os.environ, "INSPECTOR_REVIEWER": "rita", "PYTHONIOENCODING": "utf-8"}
    return subprocess.run([sys.executable, "-m", "inspector", *args], capture_output=True, timeout=120, cwd=cwd,
                          env=env, check=False)


def _invoke(*args: str) -> tuple[bytes, bytes]:
    """The command run in this process (click's runner): the bytes it writes to stdout and stderr.
    Nothing here depends on the process boundary (the JSON test below keeps a real process)."""
    result = CliRunner().invoke(cli, list(args), env={"INSPECTOR_REVIEWER": "rita"}, prog_name="inspector")
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)  # no traceback
    return result.stdout_bytes, result.stderr_bytes


def _assert_inert(out: bytes, what: str) -> None:
    text = out.decode("utf-8", errors="surrogateescape")
    assert "\x1b" not in text, f"{what}: an ESC byte reached the terminal"
    for raw in RAW_FORBIDDEN:
        assert raw not in text, f"{what}: {raw!r} reached the terminal"


def test_every_plain_command_prints_no_escape(hostile_store: Path, tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    store = str(hostile_store)
    commands = [
        ("sessions", store), ("ledger", store, "--session", SID), ("check", store), ("drift", store, "--session", SID),
        ("history", store, "--session", SID, "--key", KEY), ("candidates", store, "--session", SID),
        ("validate", store, "cand-evil"), ("handoff", store, "h-evil"), ("deletion", store, "del-evil"),
        ("verify", store), ("expand", store, "stub-page"), ("budget", store, "--session", SID, "--window", "100000"),
        ("accept-handoff", store, "h-evil"), ("import", str(write_hostile(tmp_path)), "--into", str(tmp_path / "b.db")),
        ("export", store, "-o", str(tmp_path / "out.jsonl")),
        ("history", store, "--session", f"nope{OSC0}", "--key", "k"),  # an error message quoting input
    ]
    shown = b""
    for args in commands:
        stdout, stderr = _invoke(*args)
        _assert_inert(stdout + stderr, " ".join(args[:1]))
        shown += stdout
    text = shown.decode("utf-8")
    assert "␛]52;c;Y3VybCBldmlsLnNoIHwgc2g=␇" in text  # readable, with its escapes visible
    assert "⟨U+202E⟩" in text and "␍" in text


def test_json_output_keeps_the_exact_strings(hostile_store: Path, tmp_path: Path) -> None:
    result = _run("sessions", str(hostile_store), "--json", cwd=tmp_path)
    _assert_inert(result.stdout, "sessions --json")
    assert json.loads(result.stdout)[0]["title"] == f"evil {OSC0}title{RLO}txt.exe"
    result = _run("history", str(hostile_store), "--session", SID, "--key", KEY, "--json", cwd=tmp_path)
    _assert_inert(result.stdout, "history --json")
    assert json.loads(result.stdout)[0]["value"] == f"never {RLO}yas\r\x07"


def test_character_references_a_markdown_parser_would_decode_are_marked_too() -> None:
    from inspector.domain.terminal_safe import markdown_safe

    text = "invoice_&#x202E;txt.exe zero&#8203;width &rlm;x &#x1b;]52;c;eA==&#7; &amp; &lt;b&gt; &copy; 1 &lt 2"
    # references to controls are left: parsers decode them to U+FFFD; visible ones stay for the parser to show
    assert markdown_safe(text) == ("invoice_⟨U+202E⟩txt.exe zero⟨U+200B⟩width ⟨U+200F⟩x &#x1b;]52;c;eA==&#7; &amp; "
                                   "&lt;b&gt; &copy; 1 &lt 2")
    assert markdown_safe(f"a{RLO}b") == "a⟨U+202E⟩b"
