"""Every search answers the same with this tree as with another revision, and the gram indexes hold the same.

    python -m bench.search_identical [--against main] [--mb 4] [--only SUBSTRING]

A speed change to the search indexes' building (session 19, index-speed: ``ci_grams``) must not
change one answer. The files are bench/import_identical.py's (every file under
../shared/real_sessions/, the sample sessions, the 4 MB bench transcript and its three
message-list layouts) and bench/search_speed.py's data (``--events``, 20,000 by default); each is imported into a fresh store by this tree and by ``REV``'s
``inspector`` package, each in a process of its own (the store's key fixed), the search
indexes caught up as the first search does, and then compared:

* the three short-query indexes (``events_grams``, ``calls_grams``, ``reasoning_grams``) as
  FTS5 reads them: every (term, event) pair (``fts5vocab`` instance) and each event's stored
  token count (``_docsize``), what verify and a deletion rely on;
* the search service's whole answer (``SearchResult.as_dict``: hits, counts, offsets, snippets,
  what was not searched; limit 10,000) for each session and each query: fixed ones (1 and 2
  characters, ASCII, Latin-1, CJK, a space-holding pair, 3+ characters) and ones taken from the
  session's own event text (its 6 most common characters and pairs, 6 pairs it holds once, the
  first 4 CJK characters and pairs, each also upper-cased).

Printed: one line per file, ``same`` or what differs; exit status 1 when anything differs.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

from bench.drift_compare import extract_old
from bench.import_identical import REPO, per_file, sources
from bench.make_data import write_events_file
from bench.search_speed import LAST, THOUGHT

ANSWERS = r"""
import asyncio, collections, hashlib, json, sqlite3, sys
from pathlib import Path
from unittest import mock
from inspector.domain.errors import InspectorError
from inspector.services.importing import import_file
from inspector.services.search import search
from inspector.store.connection import open_store

FIXED = ["e", "E", "a", "Ω", "é", "订", "的", "订单", "中文", "ab", "th", "Th", "a ", " t", "\n", "{\"",
         "the", "error", "订单导", "não", "zebracorn", "quixotically", "result", "ぽぬ", "ゑゐ", "thoughtquark",
         "7777777", "41", "500"]


def queries(db):
    texts = [t for (t,) in db.execute("SELECT content FROM events WHERE content IS NOT NULL ORDER BY event_id")]
    chars, pairs = collections.Counter(), collections.Counter()
    for t in texts:
        chars.update(t)
        pairs.update(t[i:i + 2] for i in range(len(t) - 1))
    found = [c for c, _n in chars.most_common(6)] + [p for p, _n in pairs.most_common(6)]
    found += sorted(p for p, n in pairs.items() if n == 1)[:6]
    found += [c for c in chars if "\u4e00" <= c <= "\u9fff"][:4]
    found += [p for p in pairs if all("\u4e00" <= c <= "\u9fff" for c in p)][:4]
    found += [q.upper() for q in found if q.upper() != q]
    return [q for q in dict.fromkeys(FIXED + found) if q.strip() and "\0" not in q]


def index_digest(db):
    out = {}
    for name in ("events_grams", "calls_grams", "reasoning_grams"):
        h = hashlib.sha256()
        db.execute(f"CREATE VIRTUAL TABLE IF NOT EXISTS temp.v_{name} USING fts5vocab(main, {name}, instance)")
        for row in db.execute(f"SELECT term, doc FROM temp.v_{name} ORDER BY term, doc"):
            h.update(repr(row).encode("utf-8", "surrogatepass"))
        for row in db.execute(f"SELECT id, sz FROM {name}_docsize ORDER BY id"):
            h.update(repr(row).encode())
        out[name] = h.hexdigest()
    return out


out = {}
for source, store_path in json.loads(sys.argv[1]):
    source, store_path = Path(source), Path(store_path)

    async def run():
        await import_file(source, store_path, actor="answers")
        with sqlite3.connect(store_path) as db:
            sessions = [s for (s,) in db.execute("SELECT id FROM sessions ORDER BY id")]
            asked = {s: queries_of(db, s) for s in sessions}
        answers = {}
        async with await open_store(store_path) as store:
            for s in sessions:
                for q in asked[s]:
                    found = (await search(store, s, q, limit=10_000)).as_dict()
                    answers[f"{s} {q!r}"] = hashlib.sha256(json.dumps(found, sort_keys=True).encode()).hexdigest()
        return answers

    def queries_of(db, session):
        con = sqlite3.connect(":memory:")
        con.execute("CREATE TABLE events (event_id INTEGER, content TEXT)")
        con.executemany("INSERT INTO events VALUES (?, ?)",
                        db.execute("SELECT event_id, content FROM events WHERE session = ?", (session,)))
        return queries(con)

    try:
        with mock.patch("inspector.store.format_upgrade.secrets.token_hex", lambda n: "5a" * n):
            answers = asyncio.run(run())
    except InspectorError as exc:
        out[str(source)] = {"refused": [getattr(exc, "code", type(exc).__name__), str(exc)]}
        continue
    with sqlite3.connect(store_path) as db:
        out[str(source)] = {"indexes": index_digest(db), "answers": answers}
print(json.dumps(out))
"""


def search_speed_data(path: Path, events: int) -> Path:
    """The events file bench/search_speed.py imports (its ``build``, without the import)."""
    write_events_file(path, events)
    with path.open("a", encoding="utf-8") as fh:
        fh.write(json.dumps({"type": "event", "session": "s-bench", "seq": events + 1, "kind": "user_message",
                             "content": LAST, "trust": "user", "at": "2025-05-01T00:00:00Z",
                             "reasoning_content": THOUGHT}, ensure_ascii=False) + "\n")
    return path


def answers(files: list[Path], code: Path, stores: Path) -> dict[str, dict[str, object]]:
    return per_file(ANSWERS, "searching", files, code, stores)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--against", default="main", metavar="REV")
    parser.add_argument("--mb", type=float, default=4.0, help="size of the bench transcript (0: none)")
    parser.add_argument("--only", help="only the files whose path holds this")
    parser.add_argument("--events", type=int, default=20_000, help="also bench.search_speed's data with this many "
                        "events (its last one holding the rare word, character, pair and thought; 0: none)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        files = sources(args.mb, root, args.only)
        if args.events:
            files.append(search_speed_data(root / f"search-speed-{args.events}.jsonl", args.events))
        old = root / "old"
        extract_old(args.against, old)
        ours = answers(files, REPO, root / "this")
        theirs = answers(files, old, root / "old-stores")
    differ = queries = 0
    for f in files:
        a, b = ours.get(str(f)), theirs.get(str(f))
        name = f.relative_to(REPO.parent) if f.is_relative_to(REPO.parent) else f.name
        asked = len(a.get("answers", {})) if isinstance(a, dict) else 0  # type: ignore[arg-type]
        queries += asked
        if a == b:
            what = "refused alike" if a and "refused" in a else f"{asked} searches and the gram indexes"
            print(f"same  {name} ({what})")
            continue
        differ += 1
        if a is None or b is None or "refused" in a or "refused" in b:
            print(f"DIFF  {name}: this {a} / {args.against} {b}")
            continue
        for part in ("indexes", "answers"):
            mine, theirs_part = a[part], b[part]  # type: ignore[index]
            print(f"DIFF  {name} {part}: {', '.join(k for k in sorted(set(mine) | set(theirs_part)) if mine.get(k) != theirs_part.get(k))}")
    print(f"{len(files) - differ} of {len(files)} files the same as {args.against} ({queries:,} searches compared)")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
