"""A recorded HTTP exchange (a VCR cassette) given where a transcript goes: say which file to use.

The refusal said "import the saved message list (*.conversation.json) made from it instead" for
every cassette, as if such a file always existed; of the 29 cassettes in the team's
``recordings/`` folders, 21 have none (new-user-16). The file's folder and the one above it are
now looked in: the message list made from it is named with the command that imports it, or the
sentence says there is none and what such a list holds, so it can be made.
"""

from __future__ import annotations

import shlex
from pathlib import Path

from inspector.domain.errors import BadInput
from inspector.domain.file_name_text import text_name

SUFFIXES = (".yaml", ".yml")


def message_list_for(cassette: Path) -> Path | None:
    """``NAME.conversation.json`` beside the cassette or in the folder above (``recordings/..``)."""
    name = cassette.stem + ".conversation.json"
    for folder in (cassette.parent, cassette.parent.parent):
        candidate = folder / name
        if candidate.is_file():
            return candidate
    return None


def explained(error: BadInput, source: Path) -> BadInput:
    """``error`` itself, or for a cassette the refusal naming its message list (or saying there is none)."""
    if error.code != "not_a_transcript" or source.suffix.lower() not in SUFFIXES:
        return error
    shown = text_name(source.name)
    found = message_list_for(source)
    if found is not None:
        return BadInput(f"{shown} is a recorded HTTP exchange (a VCR cassette), not a transcript; the message list "
                        f"made from it is {found}: `inspector import {shlex.quote(str(found))} --into STORE` imports it",
                        code=error.code)
    return BadInput(f"{shown} is a recorded HTTP exchange (a VCR cassette), not a transcript, and no message list made "
                    f"from it ({source.stem}.conversation.json) is beside it or in the folder above; to review the "
                    "conversation, save its last request's `messages` (or `input`) with the response's message added "
                    "as a JSON list, and import that (`--from anthropic`, `openai-chat`, `openai-responses` or "
                    "`deepseek`)", code=error.code)
