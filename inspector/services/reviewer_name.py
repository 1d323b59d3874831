"""Who the app's acts are recorded as: asked once, remembered in the user config directory.

Order: ``--reviewer``, then ``$INSPECTOR_REVIEWER``, then the name remembered in
``user_config_dir("context-inspector")/reviewer`` (``$INSPECTOR_CONFIG_DIR`` overrides the
folder, so tests never touch a person's real config). ``None`` means: ask before the first write.
The operating-system user is never taken silently: the ledger must name a person who said so.
"""

from __future__ import annotations

import os
from pathlib import Path

from platformdirs import user_config_dir

from inspector.domain.trust import hidden_characters

MAX_NAME = 64


def config_dir() -> Path:
    override = os.environ.get("INSPECTOR_CONFIG_DIR")
    return Path(override) if override else Path(user_config_dir("context-inspector"))


def _file() -> Path:
    return config_dir() / "reviewer"


def name_problem(name: str) -> str | None:
    """Why ``name`` cannot name a reviewer, or None when it can."""
    stripped = name.strip()
    if not stripped:
        return "a reviewer needs a name"
    if len(stripped) > MAX_NAME:
        return f"at most {MAX_NAME} characters"
    if hidden_characters(stripped):  # the rule every writing service applies (domain/trust.py)
        return "letters, digits and punctuation only (no control, bidi or invisible characters)"
    return None


def remembered() -> str | None:
    try:
        name = _file().read_text(encoding="utf-8").strip()
    except OSError:
        return None
    return name if name and name_problem(name) is None else None


def remember(name: str) -> Path:
    """Keep ``name`` for the next start; returns the file written."""
    path = _file()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(name.strip() + "\n", encoding="utf-8")
    return path


def resolve(explicit: str | None = None) -> str | None:
    """The reviewer to record, or None when the person has not said yet."""
    for candidate in (explicit, os.environ.get("INSPECTOR_REVIEWER")):
        if candidate and candidate.strip():
            return candidate.strip()
    return remembered()
