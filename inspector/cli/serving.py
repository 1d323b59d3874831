"""Running the app behind textual-serve, with nothing fetched from outside this machine.

textual-serve's page template links a web font from a public CDN. A reviewer's browser
on a closed network would wait on it, and a review tool should not announce its users
to a third party, so the template is served from a copy with that one stylesheet link
removed (its own bundled fonts and scripts are served locally as before).

textual-serve checks neither ``Origin`` nor ``Host``: any web page the reviewer has open
could open ``ws://127.0.0.1:PORT/ws`` (browsers let any site open a websocket anywhere),
read the app's screen and type keys as the reviewer, and a DNS name rebound to 127.0.0.1
could load the page as its own. So every request must name this server as its host (on
a loopback address: 127.0.0.1, localhost or ::1), and a request that says where it comes
from (``Origin``) must come from that same host.
"""

from __future__ import annotations

import ipaddress
import re
import shutil
import socket
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path

import click
import textual_serve
from aiohttp import web
from textual_serve.server import Server

from inspector.domain.errors import BadInput

_REMOTE_LINK = re.compile(r"<link[^>]*href=\"https?://[^\"]*\"[^>]*/?>", re.S)


def local_templates(into: Path) -> Path:
    """A copy of textual-serve's templates without links to remote stylesheets."""
    source = Path(textual_serve.__file__).resolve().parent / "templates"
    for template in source.glob("*.html"):
        (into / template.name).write_text(_REMOTE_LINK.sub("", template.read_text(encoding="utf-8")),
                                          encoding="utf-8")
    return into


_WILDCARD = {"", "0.0.0.0", "::"}


def allowed_hosts(host: str, port: int) -> set[str] | None:
    """The ``Host`` header values a request to this server may carry (lower case), or None
    when it listens on every address (then any name can reach it, by the user's choice)."""
    if host in _WILDCARD:
        return None
    names = {host.lower()}
    try:
        if ipaddress.ip_address(host).is_loopback:
            names |= {"127.0.0.1", "localhost", "::1"}
    except ValueError:
        if host.lower() == "localhost":
            names |= {"127.0.0.1", "::1"}
    bracketed = {f"[{n}]" if ":" in n else n for n in names}
    return {f"{n}:{port}" for n in bracketed} | (bracketed if port == 80 else set())


def same_origin_only(hosts: set[str] | None) -> Callable[..., Awaitable[web.StreamResponse]]:
    """Middleware refusing (403) a request for another host name, or from another origin."""

    @web.middleware
    async def middleware(request: web.Request,
                         handler: Callable[[web.Request], Awaitable[web.StreamResponse]]) -> web.StreamResponse:
        host = request.headers.get("Host", "").lower()
        if hosts is not None and host not in hosts:
            return web.Response(status=403, text=f"refused: this server answers for {sorted(hosts)[0]} only\n")
        origin = request.headers.get("Origin")
        if origin is not None and origin.lower() not in (f"http://{host}", f"https://{host}"):
            return web.Response(status=403, text="refused: a page from another site cannot open this app\n")
        return await handler(request)

    return middleware


class _GuardedServer(Server):  # type: ignore[misc]
    """textual-serve's server with the same-origin middleware in front of every route."""

    def __init__(self, *args: object, hosts: set[str] | None, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        self._hosts = hosts

    async def _make_app(self) -> web.Application:
        app = await super()._make_app()
        app.middlewares.insert(0, same_origin_only(self._hosts))
        return app


def check_address(host: str, port: int) -> None:
    """Fail now, with a sentence, when the address cannot be listened on (taken, or not
    this machine's), instead of a traceback after the banner."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as exc:
        raise BadInput(f"cannot listen on {host}:{port}: {exc.strerror}", code="bad_address") from None
    family, kind, proto, _name, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as exc:
            raise BadInput(f"cannot listen on {host}:{port}: {exc.strerror}", code="bad_address") from None


def serve_app(command: str, host: str, port: int, *, title: str) -> None:
    """Serve ``command`` (the app) on http://host:port until Ctrl+C."""
    check_address(host, port)
    folder = Path(tempfile.mkdtemp(prefix="inspector-serve-"))
    try:
        statics = Path(textual_serve.__file__).resolve().parent / "static"
        server = _GuardedServer(command, host=host, port=port, title=title, statics_path=statics,
                                templates_path=local_templates(folder), hosts=allowed_hosts(host, port))
        url_host = f"[{host}]" if ":" in host else host
        click.echo(f"Context Inspector in the browser at http://{url_host}:{port}/ (Ctrl+C stops it)")
        server.serve()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
