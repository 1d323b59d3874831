"""Running the app behind textual-serve, with nothing fetched from outside this machine.

textual-serve's page template links a web font from a public CDN. A reviewer's browser
on a closed network would wait on it, and a review tool should not announce its users
to a third party, so the template is served from a copy with that one stylesheet link
removed (its own bundled fonts and scripts are served locally as before).
"""

from __future__ import annotations

import re
import shutil
import socket
import tempfile
from pathlib import Path

import click
import textual_serve
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
        server = Server(command, host=host, port=port, title=title, statics_path=statics,
                        templates_path=local_templates(folder))
        url_host = f"[{host}]" if ":" in host else host
        click.echo(f"Context Inspector in the browser at http://{url_host}:{port}/ (Ctrl+C stops it)")
        server.serve()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
