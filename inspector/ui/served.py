"""An app served to a browser tab ends when the server that started it is gone.

``inspector serve`` (textual-serve) starts one app process per tab and talks to it over a pipe.
When the server is killed outright (SIGKILL, a crash, a test run stopped), Textual's web driver
sees its input end and stops reading, but the app itself keeps running, with no tab and no
server: every killed server left one such process behind (seen after test runs, and by a
person whose server was killed). The app's parent process then changes (it is handed to init
or a subreaper), so the app looks every two seconds and exits once its parent is not the one
that started it. Only under the web driver: a terminal app's parent is the person's shell.
"""

from __future__ import annotations

import os

from textual.app import App

WEB_DRIVER = "textual.drivers.web_driver"
LOOK_S = 2.0


def end_with_server(app: App[object]) -> None:
    """Exit ``app`` once the process that started it is gone (under textual-serve only)."""
    if WEB_DRIVER not in os.environ.get("TEXTUAL_DRIVER", ""):
        return
    parent = os.getppid()

    def look() -> None:
        if os.getppid() != parent:
            app.exit()

    app.set_interval(LOOK_S, look, name="the server is still there")
