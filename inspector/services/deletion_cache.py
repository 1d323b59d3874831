"""A copy the inspector wrote itself outside the store: the start screen's cache of transcripts.

Listing the agents' transcripts (services/discovery.py) keeps what it read of each one — its
first prompt, title, folder — in ``discover-cache.json`` in the cache folder, so the next listing
need not read the files again. A deletion that removes a first prompt from the store left that
copy behind, in a file of ours the person does not know exists. So a deletion request's listing
names the cache entries that hold a value of its targets (as written or JSON-escaped, the way
the cache spells text), carrying it out removes those entries, and both name the transcripts
themselves: they are the agent's files, outside the store, and still hold the value — the next
listing reads them (and caches them) again unless they are removed or rewritten too.
"""

from __future__ import annotations

import json
from typing import Any

from inspector.domain.plurals import counted as _n
from inspector.services.deletion_outside import needles_of
from inspector.services.discovery import ListingCache


def _holding(data: dict[str, Any], needles: list[bytes]) -> list[str]:
    """The transcripts (paths) whose cached entry spells a value, in the cache's order."""
    out = []
    for path, entry in data.items():
        text = json.dumps([path, entry]).encode("utf-8") + json.dumps([path, entry], ensure_ascii=False).encode(
            "utf-8", errors="surrogatepass")
        if any(n in text for n in needles):
            out.append(path)
    return out


def _shown(paths: list[str]) -> str:
    named = ", ".join(paths[:3])
    return named + (f" and {len(paths) - 3} more" if len(paths) > 3 else "")


def cache_warnings(values: list[str], *, remove: bool) -> list[str]:
    """The sentences about the cache's copies; with ``remove``, those entries are taken out first
    (the cache written as listing writes it); a cache that cannot be rewritten is said to."""
    if not values:
        return []
    cache = ListingCache()
    holding = _holding(cache.data, needles_of(values)) if isinstance(cache.data, dict) else []
    if not holding:
        return []
    where = f"the transcript list's cache ({cache.path})"
    outside = (f"the transcripts themselves are outside the store and still hold it: {_shown(holding)} — delete or "
               "rewrite them yourself, or the next listing reads it again")
    if not remove:
        return [f"{where} holds a value of the targets for {_n(len(holding), 'transcript')}: carrying out the request "
                f"removes those entries; {outside}"]
    for key in holding:
        del cache.data[key]
    cache.dirty = True
    error = cache.save()
    if error is not None:
        return [f"{where} holds a value of the targets for {_n(len(holding), 'transcript')} and could not be rewritten "
                f"({error.strerror or error}): delete the file yourself; {outside}"]
    return [f"{where} held a value of the targets for {_n(len(holding), 'transcript')}: those entries were removed; "
            f"{outside}"]
