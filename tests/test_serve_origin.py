"""``inspector serve`` answers only its own page: a web page from another site (cross-site
WebSocket hijacking) or a rebound DNS name must not get an app over the reviewer's store.

Found by attacking the served app: textual-serve checks neither ``Origin`` nor ``Host``,
so any page the reviewer had open could connect to ``ws://127.0.0.1:PORT/ws``, read the
screen and type keys (accept, reject, delete) as the reviewer."""

from __future__ import annotations

import asyncio
import json

import aiohttp

from tests.test_serve_browser import served  # noqa: F401 - the fixture


async def _connect(url: str, origin: str | None, host: str | None = None) -> bool:
    """True when the server hands out an app over its websocket to this origin and host."""
    headers = {"Host": host} if host else {}
    async with aiohttp.ClientSession() as session:
        try:
            async with session.ws_connect(url.replace("http:", "ws:") + "ws", origin=origin, headers=headers) as ws:
                await ws.send_str(json.dumps(["resize", {"width": 100, "height": 30}]))
                async with asyncio.timeout(30):
                    async for message in ws:
                        data = message.data if isinstance(message.data, bytes) else str(message.data).encode()
                        if data:
                            return True
                return False
        except aiohttp.WSServerHandshakeError as refused:
            assert refused.status == 403
            return False


async def _status(url: str, host: str) -> int:
    async with aiohttp.ClientSession() as session, session.get(url, headers={"Host": host}) as response:
        return response.status


def test_only_the_served_page_itself_gets_an_app(served: str) -> None:  # noqa: F811
    port = served.rsplit(":", 1)[1].strip("/")
    assert asyncio.run(_connect(served, "http://evil.example")) is False  # another site's page
    assert asyncio.run(_connect(served, "null")) is False  # a file:// page or sandboxed frame
    assert asyncio.run(_connect(served, f"http://evil.example:{port}", f"evil.example:{port}")) is False  # rebinding
    assert asyncio.run(_status(served, f"evil.example:{port}")) == 403
    assert asyncio.run(_connect(served, served.rstrip("/"))) is True  # the page it served
    assert asyncio.run(_connect(served, f"http://localhost:{port}", f"localhost:{port}")) is True
