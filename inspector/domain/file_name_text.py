"""A file's name as text the store can hold, whatever bytes name it on disk.

On Linux a file name is bytes; Python hands a name that is not UTF-8 over with lone
surrogates (``x\\udcff.jsonl``). The name of an imported file goes into the ledger's import
entry (hashed as UTF-8), an original transcript's material id and each event's ``origin``: a
lone surrogate there ended the import in a traceback (sif) or a misleading "line 3: not valid
JSON" (Claude Code). So the stored name spells each such byte as ``\\xff`` (valid text, and the
same for the same file every time, so a follow finds its earlier import by it).
"""

from __future__ import annotations


def text_name(name: str) -> str:
    """``name`` with each byte that is not UTF-8 written ``\\xNN`` (unchanged when it is text)."""
    try:
        name.encode("utf-8")
        return name
    except UnicodeEncodeError:
        return name.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
