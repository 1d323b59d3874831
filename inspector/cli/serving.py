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
from (``Origin``) must come from that same host. On every address (``--host 0.0.0.0``)
the host must be one of this machine's addresses or its own name, and the page names the
address it was reached at (not ``0.0.0.0``).
"""

from __future__ import annotations

import functools
import ipaddress
import logging
import re
import shutil
import socket
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import aiohttp_jinja2
import click
import textual_serve
from aiohttp import web
from textual_serve.server import LOGO

from inspector.cli.serve_shutdown import ClosingServer
from inspector.domain.errors import BadInput
from inspector.domain.terminal_safe import terminal_safe

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
    when it listens on every address: then :func:`names_this_machine` decides."""
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


@functools.lru_cache(maxsize=256)
def _local_address(text: str) -> bool:
    """Whether an IP address is one of this machine's: only those can be bound to."""
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return False
    family = socket.AF_INET6 if address.version == 6 else socket.AF_INET
    try:
        with socket.socket(family, socket.SOCK_STREAM) as probe:
            probe.bind((text, 0))
    except OSError:
        return False
    return True


def names_this_machine(host_header: str) -> bool:
    """For a server on every address (``--host 0.0.0.0``): a ``Host`` that is one of this
    machine's addresses (any interface, IPv4 or IPv6) or its own name. A DNS name rebound to
    this machine by another site carries that site's name, so it is still refused."""
    name = host_header.lower()
    if name.startswith("["):
        name = name[1:name.find("]")] if "]" in name else name
    elif name.count(":") == 1:
        name = name.rsplit(":", 1)[0]
    if not name:
        return False
    if name in {"localhost", socket.gethostname().lower(), socket.getfqdn().lower()}:
        return True
    return _local_address(name)


def same_origin_only(hosts: set[str] | None) -> Callable[..., Awaitable[web.StreamResponse]]:
    """Middleware refusing (403) a request for another host name, or from another origin."""

    @web.middleware
    async def middleware(request: web.Request,
                         handler: Callable[[web.Request], Awaitable[web.StreamResponse]]) -> web.StreamResponse:
        host = request.headers.get("Host", "").lower()
        if hosts is not None and host not in hosts:
            return web.Response(status=403, text=f"refused: this server answers for {sorted(hosts)[0]} only\n")
        if hosts is None and not names_this_machine(host):
            return web.Response(status=403, text="refused: this server answers for this machine's own addresses "
                                                 "and name only\n")
        origin = request.headers.get("Origin")
        if origin is not None and origin.lower() not in (f"http://{host}", f"https://{host}"):
            return web.Response(status=403, text="refused: a page from another site cannot open this app\n")
        return await handler(request)

    return middleware


class _GuardedServer(ClosingServer):
    """textual-serve's server with the same-origin middleware in front of every route (and
    its tabs closed on SIGTERM: serve_shutdown.py)."""

    def __init__(self, *args: object, hosts: set[str] | None, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        self._hosts = hosts

    async def _make_app(self) -> web.Application:
        app = await super()._make_app()
        app.middlewares.insert(0, same_origin_only(self._hosts))
        return app

    def initialize_logging(self) -> None:
        """textual-serve's log on this terminal, every record made inert first: aiohttp logs each
        request with its ``User-Agent`` and ``Referer`` as the client sent them, and a client (any
        page or program that reaches the port) may send C1 controls (``\\x9d0;title\\x9c``, an
        8-bit OSC), bidi overrides or invisible characters there (the parser refuses only C0)."""
        super().initialize_logging()
        for handler in logging.getLogger().handlers:
            handler.addFilter(_inert_record)

    async def on_startup(self, app: web.Application) -> None:
        """textual-serve's banner without reading the command as Rich markup: the command names the
        store's path, and a folder named ``[/]`` ended the server (MarkupError), ``[link=…]`` made
        the line a link to wherever the name said."""
        self.console.print(LOGO, highlight=False)
        self.console.print(f"Serving {terminal_safe(self.command)} on {self.public_url}", markup=False,
                           highlight=False)
        self.console.print("\nPress Ctrl+C to quit", style="cyan")

    @aiohttp_jinja2.template("app_index.html")
    async def handle_index(self, request: web.Request) -> dict[str, Any]:
        """The page, its asset and WebSocket URLs naming the address it was reached at (its
        ``Host``, already checked): textual-serve writes the listening address into them, and
        ``0.0.0.0`` is no address a browser can reach — nor the origin the page comes from."""
        self.public_url = f"http://{request.host}"
        return await ClosingServer.handle_index.__wrapped__(self, request)  # type: ignore[no-any-return]


def _inert_record(record: logging.LogRecord) -> bool:
    """A log record's message with every control, bidi and invisible character made visible."""
    record.msg, record.args = terminal_safe(record.getMessage()), None
    return True


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


def _outward_address() -> str:
    """The address another machine would reach this one at (the source of a route out; no
    packet is sent), or 127.0.0.1 when there is no route."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.200", 9))
            return str(probe.getsockname()[0])
        except OSError:
            return "127.0.0.1"


def serve_app(command: str, host: str, port: int, *, title: str) -> None:
    """Serve ``command`` (the app) on http://host:port until Ctrl+C or SIGTERM."""
    check_address(host, port)
    folder = Path(tempfile.mkdtemp(prefix="inspector-serve-"))
    try:
        statics = Path(textual_serve.__file__).resolve().parent / "static"
        server = _GuardedServer(command, host=host, port=port, title=title, statics_path=statics,
                                templates_path=local_templates(folder), hosts=allowed_hosts(host, port))
        shown = _outward_address() if host in _WILDCARD else host
        url_host = f"[{shown}]" if ":" in shown else shown
        where = " (listening on every address of this machine)" if host in _WILDCARD else ""
        click.echo(f"Context Inspector in the browser at http://{url_host}:{port}/{where} (Ctrl+C stops it)")
        server.serve()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
