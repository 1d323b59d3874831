"""Stopping ``inspector serve`` promptly on SIGTERM while browser tabs are connected.

textual-serve turns SIGINT and SIGTERM into aiohttp's graceful exit, and aiohttp then waits
(60 s) for every open request to end before it cancels them. A connected tab's WebSocket
request ends only when the browser closes it, so ``kill PID`` (a service manager, a test
fixture, ``docker stop``) waited for a minute and was then usually followed by SIGKILL,
which left each tab's app process running with nobody to stop it. Ctrl+C seemed to work
only because the terminal sends SIGINT to the whole process group, app processes included.

So the server keeps the tabs it serves, and on shutdown closes each one's WebSocket (code
1001, "going away": the page says the session ended), asks its app to quit the way a
closed tab does, and waits at most :data:`QUIT_WAIT_S` for it before ending the process.
The app command is run with ``exec`` so the process textual-serve holds is the app itself,
not a shell between them that a signal would stop while the app ran on.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from aiohttp import WSCloseCode, web
from textual_serve.server import AppService, Server, log, to_int

QUIT_WAIT_S = 3.0  # an app asked to quit has this long before its process is ended


class ClosingServer(Server):  # type: ignore[misc]
    """A textual-serve server that closes its tabs and their apps when it is told to stop."""

    def __init__(self, command: str, *args: Any, **kwargs: Any) -> None:
        super().__init__(f"exec {command}", *args, **kwargs)
        self._tabs: dict[web.WebSocketResponse, AppService | None] = {}
        self._handlers: set[asyncio.Task[Any]] = set()

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        """textual-serve's handler, with the tab registered until it ends (same steps otherwise)."""
        websocket = web.WebSocketResponse(heartbeat=15)
        width = to_int(request.query.get("width", "80"), 80)
        height = to_int(request.query.get("height", "24"), 24)
        app_service: AppService | None = None
        task = asyncio.current_task()
        if task is not None:
            self._handlers.add(task)
        self._tabs[websocket] = None
        try:
            await websocket.prepare(request)
            app_service = AppService(self.command, write_bytes=websocket.send_bytes, write_str=websocket.send_str,
                                     close=websocket.close, download_manager=self.download_manager, debug=self.debug)
            self._tabs[websocket] = app_service
            await app_service.start(width, height)
            try:
                await self._process_messages(websocket, app_service)
            finally:
                await app_service.stop()
        except asyncio.CancelledError:
            await websocket.close()
        except Exception as error:  # textual-serve logs and ends the tab alike
            log.exception(error)
        finally:
            if app_service is not None:
                await app_service.stop()
            self._tabs.pop(websocket, None)
            if task is not None:
                self._handlers.discard(task)
        return websocket

    async def on_shutdown(self, app: web.Application) -> None:
        """Close every tab, let its app quit, and end the apps that do not within the wait."""
        await super().on_shutdown(app)
        tabs = list(self._tabs.items())
        for websocket, _service in tabs:
            with contextlib.suppress(Exception):
                await websocket.close(code=WSCloseCode.GOING_AWAY, message=b"server stopping")
        handlers = [t for t in self._handlers if not t.done()]
        if handlers:
            await asyncio.wait(handlers, timeout=QUIT_WAIT_S)
        for _websocket, service in tabs:
            process = getattr(service, "_process", None)
            if process is not None and process.returncode is None:
                with contextlib.suppress(ProcessLookupError):
                    process.kill()
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(process.wait(), 1.0)
        for task in self._handlers:
            if not task.done():
                task.cancel()
