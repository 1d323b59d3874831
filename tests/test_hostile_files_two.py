"""Hostile files given to the commands that read them (session 9's second hostile round).

Before: `follow` on a FIFO (or a link to one) waited for ever, and on `/dev/zero` read from the
device; `sessions --discover` (and the app's start screen) hung on a FIFO or a link to
/dev/zero in an agent's projects folder; a sif/1 file starting with a UTF-8 byte order mark
was refused as "not valid JSON"; a 50,000-digit integer ended as `conversion_failed` quoting
Python's ValueError; a zip posing as a transcript was called "an Inspect AI log with no
samples"; `follow` on a directory was a usage error (2) where `import` says `not_a_file` (3);
`follow` on a one-line JSON document longer than 64 KiB said "not valid JSON".
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from inspector.cli.main import cli

GOOD = (b'{"type":"header","format":"sif/1"}\n'
        b'{"type":"session","id":"s1","title":"t","created_at":"2025-05-01T00:00:00Z","owner":"o"}\n'
        b'{"type":"event","session":"s1","seq":1,"kind":"user_message","content":"hello"}\n')
DIGITS = "9" * 50_000


def _cli(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), env={"INSPECTOR_REVIEWER": "o"})
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result.exit_code, result.stdout, result.stderr


def _process(*args: str, cwd: Path, timeout: float = 30) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "INSPECTOR_REVIEWER": "o", "INSPECTOR_CACHE_DIR": str(cwd / "cache")}
    return subprocess.run([sys.executable, "-m", "inspector", *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=timeout)  # a hang fails the test instead of stalling the suite


@pytest.fixture
def specials(tmp_path: Path) -> Path:
    os.mkfifo(tmp_path / "fifo.jsonl")
    (tmp_path / "link_fifo.jsonl").symlink_to(tmp_path / "fifo.jsonl")
    (tmp_path / "zero.jsonl").symlink_to("/dev/zero")
    (tmp_path / "dir.jsonl").mkdir()
    return tmp_path


@pytest.mark.parametrize("name, what", [("fifo.jsonl", "named pipe"), ("link_fifo.jsonl", "named pipe"),
                                        ("zero.jsonl", "character device"), ("dir.jsonl", "directory")])
def test_follow_refuses_what_is_not_a_file_at_once(specials: Path, name: str, what: str) -> None:
    done = _process("follow", name, "--once", "--into", str(specials / "s.db"), cwd=specials)
    assert done.returncode == 3 and what in done.stderr and "Traceback" not in done.stderr
    assert json.loads(done.stdout)["error"]["code"] == "not_a_file"
    assert not (specials / "s.db").exists()


def test_discovery_passes_over_fifos_and_devices(specials: Path) -> None:
    projects = specials / "projects" / "p1"
    projects.mkdir(parents=True)
    for name in ("fifo.jsonl", "link_fifo.jsonl", "zero.jsonl"):
        os.rename(specials / name, projects / name)
    (projects / "real.jsonl").write_bytes(
        b'{"type":"user","uuid":"u1","sessionId":"x1","timestamp":"2025-05-01T00:00:00Z","cwd":"/w",'
        b'"message":{"role":"user","content":"hello there"}}\n')
    done = _process("sessions", "--discover", "--source", str(specials / "projects"), "--json", cwd=specials)
    assert done.returncode == 0, done.stderr
    listed = [s["path"] for p in json.loads(done.stdout)["projects"] for s in p["sessions"]]
    assert [Path(p).name for p in listed] == ["real.jsonl"]


def test_a_sif_file_with_a_byte_order_mark_imports(tmp_path: Path) -> None:
    source = tmp_path / "bom.jsonl"
    source.write_bytes(b"\xef\xbb\xbf" + GOOD)
    code, out, err = _cli("import", str(source), "--into", str(tmp_path / "s.db"), "--json")
    assert code == 0, err
    assert json.loads(out)["added"]["event"] == 1
    code, out, _ = _cli("import", str(source), "--into", str(tmp_path / "s.db"), "--json")
    assert code == 0 and json.loads(out)["added"] == {}


@pytest.mark.parametrize("name, data", [
    ("digits.jsonl", GOOD + ('{"type":"event","session":"s1","seq":2,"kind":"tool_call","call_id":"c","tool":"t",'
                             f'"args":{{"n":{DIGITS}}}}}\n').encode()),
    ("claude.jsonl", ('{"type":"user","uuid":"u1","sessionId":"x","timestamp":"2025-05-01T00:00:00Z",'
                      f'"message":{{"role":"user","content":"hi"}},"n":{DIGITS}}}\n').encode()),
    ("list.json", f'[{{"role":"user","content":"hi","n":{DIGITS}}}]'.encode()),
    ("session-1.json", ('{"sessionId":"a","projectHash":"b","startTime":"2025-05-01T00:00:00Z","lastUpdated":'
                        '"2025-05-01T00:00:00Z","messages":[{"id":"1","timestamp":"2025-05-01T00:00:00Z",'
                        f'"type":"user","content":"hi","n":{DIGITS}}}]}}').encode()),
])
def test_an_integer_of_fifty_thousand_digits_is_out_of_range(tmp_path: Path, name: str, data: bytes) -> None:
    source = tmp_path / name
    source.write_bytes(data)
    code, out, _ = _cli("import", str(source), "--into", str(tmp_path / "s.db"), "--json")
    error = json.loads(out)["error"]
    assert code == 3 and error["code"] == "integer_out_of_range" and "ValueError" not in error["message"]
    assert not (tmp_path / "s.db").exists()


def test_a_zip_posing_as_a_transcript_says_unzip_it(tmp_path: Path) -> None:
    packed = io.BytesIO()
    with zipfile.ZipFile(packed, "w") as archive:
        archive.writestr("run.jsonl", GOOD)
    source = tmp_path / "run.jsonl"
    source.write_bytes(packed.getvalue())
    code, out, _ = _cli("import", str(source), "--into", str(tmp_path / "s.db"), "--json")
    error = json.loads(out)["error"]
    assert code == 3 and error["code"] == "compressed_file" and "run.jsonl" in error["message"]


def test_follow_on_a_long_one_line_document_says_it_cannot_be_followed(tmp_path: Path) -> None:
    source = tmp_path / "list.json"
    source.write_bytes(b"[" + b'{"role":"user","content":"hi"},' * 5000 + b'{"role":"user","content":"x"}]')
    code, out, _ = _cli("follow", str(source), "--once", "--into", str(tmp_path / "s.db"))
    assert code == 3 and json.loads(out)["error"]["code"] == "not_appendable"


@pytest.mark.parametrize("args", [["check"], ["check", "--json"], ["ledger"], ["verify"], ["export", "-o", "x.jsonl"],
                                  ["drift", "--session", "s"], ["report", "--session", "s", "-o", "r.html"]])
def test_a_command_without_its_store_is_a_usage_error_not_a_crash(args: list[str], monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.delenv("INSPECTOR_STORE", raising=False)
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2 and "Missing argument 'STORE'" in result.stderr, (result.exception, result.output)


def test_a_nonsense_import_bound_in_the_environment_is_no_bound(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("INSPECTOR_MAX_IMPORT_BYTES", "-1")
    source = tmp_path / "good.jsonl"
    source.write_bytes(GOOD)
    assert _cli("import", str(source), "--into", str(tmp_path / "s.db"))[0] == 0
