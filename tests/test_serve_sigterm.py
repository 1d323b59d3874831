"""``inspector serve`` stops promptly on SIGTERM while a tab is connected, and leaves no app behind.

Before: SIGTERM to the server with a tab open did nothing for aiohttp's 60 s shutdown wait
(measured: still running 15 s later), and the usual SIGKILL after that left the tab's shell
and app process running with nobody to stop them. Ctrl+C worked only because a terminal sends
SIGINT to the whole process group. Here the signal goes to the server process alone.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import aiohttp
import pytest

from tests.test_serve_browser import _free_port


def _descendants(pid: int) -> list[int]:
    rows = subprocess.run(["ps", "-eo", "pid=,ppid="], capture_output=True, text=True).stdout.split("\n")
    children: dict[int, list[int]] = {}
    for row in rows:
        if row.strip():
            child, parent = (int(x) for x in row.split())
            children.setdefault(parent, []).append(child)
    out, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            out.append(child)
            todo.append(child)
    return out


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


async def _tab_then_signal(port: int, proc: subprocess.Popen[str], sig: int) -> tuple[list[int], float]:
    async with aiohttp.ClientSession() as client:
        for _ in range(300):
            try:
                ws = await client.ws_connect(f"http://127.0.0.1:{port}/ws?width=120&height=40",
                                             headers={"Origin": f"http://127.0.0.1:{port}"})
                break
            except aiohttp.ClientError:
                await asyncio.sleep(0.2)
        received = 0
        while received < 4000:  # the app's first screen arrives: its process is running
            message = await asyncio.wait_for(ws.receive(), 60)
            assert message.type in (aiohttp.WSMsgType.BINARY, aiohttp.WSMsgType.TEXT), message
            received += len(message.data)
        apps = _descendants(proc.pid)
        assert apps, "the tab runs an app process"
        started = time.monotonic()
        os.kill(proc.pid, sig)  # the server alone, as a service manager or `kill PID` does
        while True:  # screen updates in flight, then the tab is told the session ended
            message = await asyncio.wait_for(ws.receive(), 15)
            if message.type not in (aiohttp.WSMsgType.BINARY, aiohttp.WSMsgType.TEXT):
                break
        assert message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.CLOSING)
        await asyncio.get_running_loop().run_in_executor(None, proc.wait, 15)
        return apps, time.monotonic() - started


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_to_the_server_stops_it_and_its_tabs_apps(sig: int, isolated_cache: Path) -> None:
    port = _free_port()
    env = {**os.environ, "INSPECTOR_CACHE_DIR": str(isolated_cache), "INSPECTOR_REVIEWER": "t"}
    proc = subprocess.Popen([sys.executable, "-m", "inspector", "serve", "--port", str(port)], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True)
    try:
        assert proc.stdout is not None and f":{port}/" in proc.stdout.readline()
        apps, took = asyncio.run(_tab_then_signal(port, proc, sig))
        assert proc.returncode == 0 and took < 10, (proc.returncode, took)
        time.sleep(0.2)
        assert not [pid for pid in apps if _alive(pid)], "an app process outlived the server"
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
