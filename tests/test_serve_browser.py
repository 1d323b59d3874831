"""``inspector serve``: the app in headless Chromium through textual-serve.

The terminal is drawn on a canvas, so what the app shows is read from the websocket
frames the browser receives (the app's screen output), and keys are typed into the page
as a person would."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser import browser  # noqa: F401 - the fixture

START_TIMEOUT_S = 60


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def served(tmp_path: Path, isolated_cache: Path) -> Iterator[str]:
    port = _free_port()
    env = {**os.environ, "INSPECTOR_CACHE_DIR": str(isolated_cache), "INSPECTOR_REVIEWER": "browser-test"}
    proc = subprocess.Popen([sys.executable, "-m", "inspector", "serve", "--port", str(port)], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            start_new_session=True)  # its own group: the tabs' apps end with it
    try:
        first = proc.stdout.readline() if proc.stdout else ""  # printed once the demo store is ready
        assert f"http://127.0.0.1:{port}/" in first, first
        deadline = time.monotonic() + START_TIMEOUT_S
        while True:  # then the server starts listening
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert proc.poll() is None and time.monotonic() < deadline, "serve did not start listening"
                time.sleep(0.2)
        yield f"http://127.0.0.1:{port}/"
    finally:
        proc.terminate()  # SIGTERM stops it and its tabs' apps (serve_shutdown.py)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)  # never leave an app process behind
            proc.wait()


def _wait_for(frames: list[bytes], text: bytes, page: Any, start: int = 0, timeout_s: float = 60) -> None:
    deadline = time.monotonic() + timeout_s
    while text not in b"".join(frames[start:]):
        assert time.monotonic() < deadline, f"{text!r} never reached the browser"
        page.wait_for_timeout(200)


def test_the_app_runs_in_a_browser_and_answers_keys(browser: Any, served: str) -> None:  # noqa: F811
    frames: list[bytes] = []
    requests: list[str] = []
    page = browser.new_page(viewport={"width": 1600, "height": 1000})
    try:
        page.on("request", lambda r: requests.append(r.url))
        page.on("websocket", lambda ws: ws.on(
            "framereceived", lambda p: frames.append(p if isinstance(p, bytes) else p.encode("utf-8"))))
        page.goto(served)
        _wait_for(frames, b"Protected state", page)
        _wait_for(frames, "Candidates ◷8".encode(), page)  # the demo's first session finished loading
        assert b"cand-good" not in b"".join(frames)  # the candidates tab is not showing yet
        before = len(frames)
        page.locator("#terminal").click()
        page.keyboard.press("k")
        _wait_for(frames, b"cand-good", page, start=before)
        _wait_for(frames, b"stale_base", page, start=before)  # with its refusal, as in the terminal
        assert all(url.startswith(served) for url in requests), requests  # nothing from outside this machine
    finally:
        page.close()
