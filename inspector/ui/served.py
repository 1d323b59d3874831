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
import sys
import threading

from textual.app import App

WEB_DRIVER = "textual.drivers.web_driver"
LOOK_S = 2.0
HARD_EXIT_S = 5.0  # after the server is gone and the app asked to exit


def end_with_server(app: App[object]) -> None:
    """Exit ``app`` once the process that started it is gone (under textual-serve only)."""
    if WEB_DRIVER not in os.environ.get("TEXTUAL_DRIVER", ""):
        return
    parent = os.getppid()
    armed: list[threading.Timer] = []

    def look() -> None:
        if os.getppid() != parent and not armed:
            # No one is attached any more: if the exit does not end the process, the timer does.
            armed.append(end_process_soon())  # once: the look may run again before the exit is done
            app.exit()

    app.set_interval(LOOK_S, look, name="the server is still there")


def end_process_soon() -> threading.Timer:
    """Once the app has ended (its run returned, or it was asked to exit with no one attached),
    end the process in a few seconds if it has not ended by itself: an app that exits while a
    worker is opening the store leaves that store's connections open, and their threads keep
    the interpreter waiting at shutdown for ever (seen: served apps whose server closed their
    pipe, main thread in threading._shutdown behind two aiosqlite worker threads). A daemon
    timer dies with a process that ended, so a clean exit never waits for it.

    It is the last guard, not the fix (stores close however their workers end: store/
    sqlite_connections.close_all, ui/app.show_store): when it fires it says so on stderr,
    naming the threads still running, so a leak that comes back is seen, not papered over."""
    hard = threading.Timer(HARD_EXIT_S, lambda: _fire())  # looked up when it fires
    hard.daemon = True
    hard.start()
    return hard


def _fire() -> None:
    """Say why, if anyone can still read it, then end: a served app's stderr is a pipe to a
    server that is gone, and the print raising there (BrokenPipeError) ended this timer's thread
    before the exit, leaving the process waiting for ever (seen after a CI run)."""
    try:
        print(f"context-inspector: still running {HARD_EXIT_S:g} s after the app ended, held by "
              f"{still_running() or 'no other thread'}; ending the process", file=sys.stderr, flush=True)
    except (OSError, ValueError):  # stderr closed or a broken pipe: nobody to tell
        pass
    finally:
        _end_process()


def still_running() -> str:
    """The threads that keep an ended app's process alive (not daemons, not this one)."""
    me = threading.current_thread()
    names = [t.name for t in threading.enumerate()
             if t.is_alive() and not t.daemon and t is not me and t is not threading.main_thread()]
    return ", ".join(names)


def _end_process() -> None:
    """The last resort once the server is gone: no cleanup is owed to anyone attached."""
    os._exit(0)
