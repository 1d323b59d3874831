"""``inspector serve``'s own terminal: what a client sends and what a store's path holds stays inert.

Found by the fifth hostile round (docs/reviews/untrusted-five.md). aiohttp logs every request
on the server's terminal with its ``User-Agent`` and ``Referer`` as sent; its parser refuses C0
controls there but not C1 controls or bidi overrides (bytes 0x80-0xFF are legal header text),
so any program or page that reached the port printed ``\\x9d0;title\\x9c`` (an 8-bit OSC) or
U+202E raw on the reviewer's terminal. And textual-serve prints its banner, which names the
store's path, as Rich markup: a folder named ``[/]`` ended ``serve`` with a MarkupError.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from tests.conftest import import_isolated
from tests.hostile import write_hostile

START_TIMEOUT_S = 90
# What a client sends in the headers aiohttp logs: an 8-bit OSC (title), an 8-bit CSI, a bidi
# override, an isolate and a zero-width space, each as UTF-8 (C0 controls are refused by the parser).
HOSTILE_AGENT = "ua \u009d0;PWNED\u009c \u009b2J \u202egnp.exe \u2066x\u2069 zero\u200bwidth [bold]b[/]"
RAW = ("\u009d", "\u009c", "\u009b", "\u202e", "\u2066", "\u200b")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _serve(store: Path, port: int) -> subprocess.Popen[bytes]:
    env = {**os.environ, "INSPECTOR_REVIEWER": "five", "COLUMNS": "1000"}  # one line per record
    return subprocess.Popen([sys.executable, "-m", "inspector", "serve", str(store), "--port", str(port)], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)


def _wait_listening(proc: subprocess.Popen[bytes], port: int) -> None:
    deadline = time.monotonic() + START_TIMEOUT_S
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            assert proc.poll() is None, (proc.stdout.read() if proc.stdout else b"").decode("utf-8", "replace")
            assert time.monotonic() < deadline, "serve did not start listening"
            time.sleep(0.2)


def _request(port: int, agent: str) -> None:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(f"GET /missing HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUser-Agent: {agent}\r\n"
                  f"Referer: {agent}\r\nConnection: close\r\n\r\n".encode())
        while s.recv(4096):
            pass


def _stop(proc: subprocess.Popen[bytes]) -> bytes:
    proc.terminate()
    try:
        out, _ = proc.communicate(timeout=15)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, _ = proc.communicate()
    return out


def test_serve_logs_a_hostile_request_and_a_bracketed_store_path_inert(tmp_path: Path) -> None:
    built = import_isolated([write_hostile(tmp_path)], tmp_path / "h.db", actor="five")
    folder = tmp_path / "a[/]b" / "c[link=https:evil.example]d"
    folder.mkdir(parents=True)
    store = folder / "s[bold].db"
    shutil.copyfile(built, store)
    port = _free_port()
    proc = _serve(store, port)
    try:
        _wait_listening(proc, port)
        _request(port, HOSTILE_AGENT)
        time.sleep(1)  # the access log is written after the answer
    finally:
        out = _stop(proc)
    text = out.decode("utf-8", "replace")
    assert "MarkupError" not in text and "Traceback" not in text, text[-2000:]
    assert "a[/]b" in text and "[link=https:evil.example]" in text  # the path shown as typed
    assert "GET /missing" in text, text[-2000:]  # the request was logged…
    for raw in RAW:
        assert raw not in text, (raw, text[-2000:])  # …with nothing a terminal would obey
    assert "\\x9d0;PWNED\\x9c" in text and "⟨U+202E⟩" in text
