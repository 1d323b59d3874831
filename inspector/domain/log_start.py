"""Whether an imported transcript's log begins where its conversation began.

A Claude Code transcript often continues an earlier conversation: its first record names a
parent (``parentUuid``) that is not in the file, because the earlier part was compacted
into another file or never saved. A summary of such a log may rightly name files and
functions no event of this log holds, so a rule that calls those "invented" must know
whether the log is whole at its start (``invented_identifier`` when it is, a warning that
it cannot tell when it is not). Read from the head of the original file only.
"""

from __future__ import annotations

import json


def claude_code_starts_whole(head: str) -> bool | None:
    """True: the first record with a parent field (a message, a hook's system line) has no
    parent, or its parent is an earlier line of the file. False: its parent is not in the
    file (the log continues an earlier conversation). None: no such record in ``head``
    (or not a Claude Code transcript)."""
    seen: set[str] = set()
    for line in head.splitlines():
        try:
            rec = json.loads(line)
        except ValueError:
            continue
        if not isinstance(rec, dict):
            continue
        if "parentUuid" in rec:
            parent = rec.get("parentUuid")
            return parent is None or parent in seen
        uid = rec.get("uuid")
        if isinstance(uid, str):
            seen.add(uid)
    return None
