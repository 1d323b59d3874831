"""``inspector serve`` with more than one browser tab, a key flood, a tab closed mid-dialog and
a server restart, as reviewers use it (re-checked for issue 17).

Each tab runs its own app process: two tabs must not share keys or screens, a closed tab
must end its app (else a half-typed dialog would keep the store open for ever), a flood of
keys must leave the app answering, and after the server restarts the page must say the
session ended and come back on a reload."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from tests.browser import browser  # noqa: F401 - the fixture
from tests.test_serve_browser import _free_port, _wait_for, served  # noqa: F401 - the fixture


def _apps(server_pid: int) -> int:
    """The app processes textual-serve runs for the open tabs (one shell per tab)."""
    out = subprocess.run(["ps", "-o", "pid=", "--ppid", str(server_pid)], capture_output=True, text=True).stdout
    return len(out.split())


def _server_pid(port: int) -> int:
    out = subprocess.run(["ps", "-eo", "pid=,args="], capture_output=True, text=True).stdout
    return next(int(line.split()[0]) for line in out.splitlines()
                if "inspector serve" in line and f"--port {port}" in line)


def _tab(browser: Any, url: str) -> tuple[Any, list[bytes]]:  # noqa: F811
    frames: list[bytes] = []
    page = browser.new_page(viewport={"width": 1600, "height": 1000})
    page.on("websocket", lambda ws: ws.on(
        "framereceived", lambda p: frames.append(p if isinstance(p, bytes) else p.encode("utf-8"))))
    page.goto(url)
    _wait_for(frames, b"Protected state", page)
    _wait_for(frames, "Candidates ◷8".encode(), page)
    return page, frames


def _until(check: Any, timeout_s: float = 20) -> bool:
    deadline = time.monotonic() + timeout_s
    while not check():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.2)
    return True


def test_two_tabs_a_key_flood_and_a_tab_closed_mid_dialog(browser: Any, served: str) -> None:  # noqa: F811
    server = _server_pid(int(served.rsplit(":", 1)[1].strip("/")))
    first, first_frames = _tab(browser, served)
    second, second_frames = _tab(browser, served)
    assert _until(lambda: _apps(server) == 2)
    mark = len(second_frames)
    first.locator("#terminal").click()
    first.keyboard.press("k")
    _wait_for(first_frames, b"cand-good", first, start=len(first_frames) - 1)
    second.wait_for_timeout(1000)
    assert b"cand-good" not in b"".join(second_frames[mark:])  # the other tab's screen did not move
    second.locator("#terminal").click()
    for _ in range(400):
        second.keyboard.press("j")
    mark = len(second_frames)
    second.keyboard.press("k")
    _wait_for(second_frames, b"cand-good", second, start=mark, timeout_s=60)  # still answering after the flood
    first.keyboard.press("1")
    mark = len(first_frames)
    first.keyboard.press("c")  # the correction dialog, then the tab goes away half-typed
    _wait_for(first_frames, b"Correct", first, start=mark)
    first.keyboard.type("half a correction")
    first.close()
    assert _until(lambda: _apps(server) == 1), "the closed tab's app is still running"
    second.close()
    assert _until(lambda: _apps(server) == 0)


def test_after_the_server_restarts_the_page_says_so_and_a_reload_brings_the_app_back(
        browser: Any, tmp_path: Path, isolated_cache: Path) -> None:  # noqa: F811
    port = _free_port()
    env = {**os.environ, "INSPECTOR_CACHE_DIR": str(isolated_cache), "INSPECTOR_REVIEWER": "browser-test"}

    def start() -> subprocess.Popen[str]:
        proc = subprocess.Popen([sys.executable, "-m", "inspector", "serve", "--port", str(port)], env=env,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True)
        assert proc.stdout is not None and f":{port}/" in proc.stdout.readline()
        assert _until(lambda: _listening(port), 60)
        return proc

    proc = start()
    try:
        page, frames = _tab(browser, f"http://127.0.0.1:{port}/")
        os.killpg(proc.pid, signal.SIGINT)  # Ctrl+C, as a person stops it
        proc.wait(timeout=30)
        page.wait_for_function("document.body.classList.contains('-closed')", timeout=30_000)
        assert page.locator("text=Session ended.").is_visible()
        proc = start()
        frames.clear()
        page.reload()
        _wait_for(frames, b"Protected state", page)
        page.close()
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGINT)
            proc.wait(timeout=30)


def _listening(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
        return True
    except OSError:
        return False
