"""Files under folders a person named for listing that the listing leaves out.

The transcript list holds only the tools' own files where the tools keep them (``*.jsonl``,
Gemini's ``chats/session-*.json``). Pointed with ``--source`` or ``INSPECTOR_SOURCES`` at a
folder of downloaded logs (a Gemini chat saved under another name, an inspect-ai ``.eval``, a
saved message list), it said "0 transcript(s)" and nothing more, though ``inspector FILE``
opens every one of them. These are named so the way on is said. Only folders a person named
are looked at: the tools' own folders hold side files (``logs.json``, sub-agent logs) that
are left out on purpose.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from inspector.domain.plurals import counted
from inspector.services import discovery
from inspector.services.discovery import files_under

SUFFIXES = (".json", ".jsonl", ".eval")


def named_sources(given: Iterable[Path] = ()) -> bool:
    """Whether the folders listed were named by a person (``--source``, ``INSPECTOR_SOURCES``)."""
    return bool(list(given)) or bool(os.environ.get("INSPECTOR_SOURCES"))


def unlisted(roots: Iterable[Path], listed: Iterable[str]) -> list[str]:
    """Paths of ``.json``/``.jsonl``/``.eval`` files under ``roots`` that are not in ``listed``,
    sorted; hidden folders are skipped and the depth is the listing's."""
    shown = set(listed)
    out = [entry.path for root in roots for _, entry in files_under(root)
           if entry.name.endswith(SUFFIXES) and entry.path not in shown]
    return sorted(set(out))


def unlisted_said(paths: list[str]) -> str:
    """One sentence: how many, a few names, and how to open one."""
    names = ", ".join(Path(p).name for p in paths[:3]) + (f" and {len(paths) - 3} more" if len(paths) > 3 else "")
    return (f"{counted(len(paths), '.json/.jsonl/.eval file')} there {'is' if len(paths) == 1 else 'are'} not in "
            f"the list ({names}): it holds only "
            "Claude Code, Codex and Gemini CLI transcripts named as those tools name them; "
            "`inspector FILE` opens any of them, `inspector import FILE --into STORE` imports it")


# What each format is called on the start screen's row of another file.
KINDS = {"inspect-ai": "inspect-ai log", "gemini": "Gemini CLI chat", "claude-code": "Claude Code transcript",
         "codex": "Codex transcript", "openai-chat": "OpenAI chat message list",
         "openai-responses": "OpenAI Responses item list", "anthropic": "Anthropic message list",
         "deepseek": "DeepSeek message list", "sif": "sif/1 file"}
DETECT_MOST = 8 << 20  # larger files are said "file" (read whole to be told apart; a row is not worth more)


# the refusals that say what the bytes are (not: too large, unreadable, a folder)
NOT_READ = {"empty_file": "empty file", "compressed_file": "compressed: decompress it first",
            "not_utf8": "not UTF-8 text", "binary_file": "binary data", "not_a_transcript": "no format inspector reads",
            "unknown_format": "no format inspector reads"}
_SEEN: dict[tuple[str, int, int], str] = {}  # (path, size, mtime) -> what it is: a look again reads nothing new


def what_it_is(path: str, size: int, mtime_ns: int = 0) -> str:
    """"inspect-ai log", "OpenAI chat message list", … — the row said "file · 19.1 KB" for each of
    sixteen files, and what one was (or that it was none of these) was learnt only by opening it
    (new-user-17). "file" when it is too large to read for this, or cannot be read."""
    if size > DETECT_MOST:
        return "file"
    key = (path, size, mtime_ns)
    if key not in _SEEN:
        _SEEN[key] = _detected(path)
    return _SEEN[key]


def _detected(path: str) -> str:
    from inspector.domain.errors import BadInput
    from inspector.domain.formats.detect import detect
    from inspector.services.reading import read_import_file

    try:
        return KINDS.get(detect(read_import_file(Path(path)), Path(path).name), "file")
    except BadInput as error:
        return NOT_READ.get(error.code or "", "file")
    except (OSError, ValueError):
        return "file"


def as_found(paths: Iterable[str]) -> list[discovery.Found]:
    """The start screen's rows for these files (new-user-16: with transcripts found too, the app
    listed those alone and never named the inspect-ai logs and message lists beside them, which
    the CLI's listing named): each opened as ``inspector FILE`` opens it, into a store of its own
    in the data folder, named by its size and time (such a file is rewritten, not appended to)."""
    stores = discovery.data_dir() / "stores"
    out = []
    for path in paths:
        try:
            st = os.stat(path)
        except OSError:
            continue
        store = discovery.store_for(path, stores, f"{st.st_size}-{st.st_mtime_ns}")
        out.append(discovery.Found(path, what_it_is(path, st.st_size, st.st_mtime_ns), str(Path(path).parent), None, Path(path).name,
                                   None, None,
                                   st.st_mtime, st.st_size, 0, str(store), store.exists(), False))
    return out
