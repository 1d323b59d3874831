"""Looking for transcripts in a thread, started before the app's modules load.

Its own module, without click or the other commands: the bare ``inspector`` (the start
screen, issue 16) loads only this, the listing and the app before the list is on screen.
"""

from __future__ import annotations

from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

from inspector.services import discovery


def start_listing(sources: tuple[Path, ...]) -> Future[list[discovery.Found]]:
    """Look for transcripts in a thread, so the listing overlaps loading the app (a --source
    that is not a folder is refused here, before any screen)."""
    roots = discovery.sources_from(sources)
    return ThreadPoolExecutor(max_workers=1, thread_name_prefix="discover").submit(discovery.discover, roots)
