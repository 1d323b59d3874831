"""Headless Chromium for the real-browser tests: Debian's /usr/bin/chromium driven by
Playwright's Python package, which is pointed at that executable so nothing is ever
downloaded at run time (``.ci/run`` installs both). Where neither can be had, the tests
skip and say why."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def chromium_path() -> str | None:
    for candidate in (os.environ.get("INSPECTOR_CHROMIUM"), "/usr/bin/chromium", shutil.which("chromium")):
        if candidate and Path(candidate).exists():
            return candidate
    return None


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("no browser: Playwright's Python package is not installed (pip install -e '.[browser]')")
    executable = chromium_path()
    if executable is None:
        pytest.skip("no browser: /usr/bin/chromium is missing (apt-get install chromium)")
    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS, timeout=60_000)
        try:
            yield launched
        finally:
            launched.close()
