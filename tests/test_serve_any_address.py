"""``inspector serve --host 0.0.0.0``: reached at one of this machine's non-loopback addresses,
the page loads and its WebSocket connects (textual-serve wrote ``0.0.0.0`` into the page's
WebSocket and asset URLs, which a browser elsewhere cannot reach and whose origin the check
then refused), while a page from another site, or a DNS name rebound to this machine, still
gets nothing."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser import browser  # noqa: F401 - the fixture
from tests.test_serve_browser import START_TIMEOUT_S, _free_port, _wait_for
from tests.test_serve_origin import _connect, _status


def _outward_address() -> str | None:
    """A non-loopback IPv4 address of this machine (the one a route out would use), or None."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.200", 9))  # no packet is sent: this only picks the route's source address
            address = str(probe.getsockname()[0])
        except OSError:
            return None
    return None if address.startswith("127.") or address == "0.0.0.0" else address


@pytest.fixture
def served_everywhere(isolated_cache: Path) -> Iterator[str]:
    address = _outward_address()
    if address is None:
        pytest.skip("this machine has no non-loopback IPv4 address to reach the server at")
    port = _free_port()
    env = {**os.environ, "INSPECTOR_CACHE_DIR": str(isolated_cache), "INSPECTOR_REVIEWER": "browser-test"}
    proc = subprocess.Popen([sys.executable, "-m", "inspector", "serve", "--host", "0.0.0.0", "--port", str(port)],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            start_new_session=True)  # its own group: the tabs' apps end with it
    try:
        first = proc.stdout.readline() if proc.stdout else ""
        assert f":{port}/" in first, first
        deadline = time.monotonic() + START_TIMEOUT_S
        while True:
            try:
                socket.create_connection((address, port), timeout=1).close()
                break
            except OSError:
                assert proc.poll() is None and time.monotonic() < deadline, "serve did not start listening"
                time.sleep(0.2)
        yield f"http://{address}:{port}/"
    finally:
        proc.terminate()  # SIGTERM stops it and its tabs' apps (serve_shutdown.py)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)  # never leave an app process behind
            proc.wait()


def test_the_page_names_the_address_it_was_reached_at(served_everywhere: str) -> None:
    page = urllib.request.urlopen(served_everywhere, timeout=30).read().decode()  # noqa: S310 - this machine
    address = served_everywhere.removeprefix("http://").rstrip("/")
    assert "0.0.0.0" not in page
    assert f'data-session-websocket-url="ws://{address}/ws"' in page, page[:2000]


def test_the_websocket_connects_from_its_own_page_and_refuses_others(served_everywhere: str) -> None:
    port = served_everywhere.rsplit(":", 1)[1].strip("/")
    assert asyncio.run(_connect(served_everywhere, served_everywhere.rstrip("/"))) is True
    assert asyncio.run(_connect(served_everywhere, "http://evil.example")) is False
    assert asyncio.run(_connect(served_everywhere, "null")) is False
    # a DNS name rebound to this machine: its page's origin and host are its own name
    assert asyncio.run(_connect(served_everywhere, f"http://evil.example:{port}", f"evil.example:{port}")) is False
    assert asyncio.run(_status(served_everywhere, f"evil.example:{port}")) == 403
    assert asyncio.run(_status(served_everywhere, f"localhost:{port}")) == 200


def test_the_app_runs_in_a_browser_reached_at_a_non_loopback_address(
        browser: Any, served_everywhere: str) -> None:  # noqa: F811
    frames: list[bytes] = []
    page = browser.new_page(viewport={"width": 1600, "height": 1000})
    try:
        page.on("websocket", lambda ws: ws.on(
            "framereceived", lambda p: frames.append(p if isinstance(p, bytes) else p.encode("utf-8"))))
        page.goto(served_everywhere)
        _wait_for(frames, b"Protected state", page)
    finally:
        page.close()
