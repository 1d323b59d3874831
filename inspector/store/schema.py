"""Schema of the session store and its forward migrations.

The store marks itself with SQLite's ``application_id`` and keeps its format version
in ``user_version``, so any SQLite tool can tell what the file is without our code.
"""

from __future__ import annotations

APPLICATION_ID = 0x43495331  # "CIS1"
FORMAT_VERSION = 9
# An event's text is in the event search indexes (events_fts, events_grams) through its first
# EVENT_INDEX_CHARS characters (format 8): indexing costs grow faster than the text (a 4 MB line
# took 4.3 s of trigram insert, 1 MB 0.6 s), so one pasted 30 MB log held the first search 60 s.
# A search checks the rest of such an event against its text (inspector/services/search_long.py).
EVENT_INDEX_CHARS = 1_000_000
CHUNK_SIZE = 64 * 1024
# Materials larger than this are searchable only in their first MATERIAL_INDEX_CAP bytes;
# the UI says so rather than pretending a search covered everything.
MATERIAL_INDEX_CAP = 4 * 1024 * 1024

_V1 = """
CREATE TABLE store_meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE sessions (
    id              TEXT PRIMARY KEY,
    title           TEXT,
    created_at      TEXT,
    adapter         TEXT NOT NULL,
    owner           TEXT,
    goal_revision   INTEGER NOT NULL,
    context_version INTEGER NOT NULL,
    extra           TEXT NOT NULL,
    digest          TEXT NOT NULL
);
CREATE TABLE events (
    event_id  INTEGER PRIMARY KEY,
    session   TEXT NOT NULL REFERENCES sessions(id),
    seq       INTEGER NOT NULL,
    kind      TEXT NOT NULL,
    content   TEXT,
    at        TEXT,
    trust     TEXT,
    call_id   TEXT,
    tool      TEXT,
    extra     TEXT NOT NULL,
    digest    TEXT NOT NULL,
    UNIQUE (session, seq)
);
CREATE INDEX events_call ON events(session, call_id) WHERE call_id IS NOT NULL;
-- The timeline merges events and ledger entries by time; keyset pages walk these.
CREATE INDEX events_time ON events(session, IFNULL(at, ''), seq);
CREATE TABLE tool_defs (
    session         TEXT NOT NULL REFERENCES sessions(id),
    name            TEXT NOT NULL,
    definition_hash TEXT NOT NULL,
    extra           TEXT NOT NULL,
    digest          TEXT NOT NULL,
    PRIMARY KEY (session, name)
);
CREATE TABLE materials (
    material_id      INTEGER PRIMARY KEY,
    session          TEXT NOT NULL REFERENCES sessions(id),
    id               TEXT NOT NULL,
    source_event     INTEGER,
    source_version   TEXT,
    retrieved_at     TEXT,
    disclosure_scope TEXT,
    media_type       TEXT,
    encoding         TEXT NOT NULL,
    content_hash     TEXT NOT NULL,
    size             INTEGER NOT NULL,
    chunk_size       INTEGER NOT NULL,
    chunk_count      INTEGER NOT NULL,
    chunk_hashes     BLOB NOT NULL,
    chunk_binding    TEXT NOT NULL,
    indexed_bytes    INTEGER NOT NULL,
    deleted_at       TEXT,
    extra            TEXT NOT NULL,
    digest           TEXT NOT NULL,
    UNIQUE (session, id)
);
CREATE TABLE material_chunks (
    material_id INTEGER NOT NULL REFERENCES materials(material_id),
    idx         INTEGER NOT NULL,
    data        BLOB NOT NULL,
    PRIMARY KEY (material_id, idx)
);
CREATE TABLE stubs (
    session          TEXT NOT NULL REFERENCES sessions(id),
    id               TEXT NOT NULL,
    material         TEXT NOT NULL,
    content_hash     TEXT,
    source_version   TEXT,
    read_slice       TEXT,
    retrieved_at     TEXT,
    disclosure_scope TEXT,
    outline          TEXT,
    extra            TEXT NOT NULL,
    digest           TEXT NOT NULL,
    PRIMARY KEY (session, id)
);
CREATE TABLE state_records (
    session  TEXT NOT NULL REFERENCES sessions(id),
    key      TEXT NOT NULL,
    version  INTEGER NOT NULL,
    kind     TEXT NOT NULL,
    value    TEXT NOT NULL,
    status   TEXT NOT NULL,
    writer   TEXT,
    at       TEXT,
    scope    TEXT,
    sources  TEXT,
    extra    TEXT NOT NULL,
    digest   TEXT NOT NULL,
    PRIMARY KEY (session, key, version)
);
CREATE TABLE actions (
    session    TEXT NOT NULL REFERENCES sessions(id),
    id         TEXT NOT NULL,
    intent     TEXT,
    call_id    TEXT,
    status     TEXT NOT NULL,
    result_ref TEXT,
    extra      TEXT NOT NULL,
    digest     TEXT NOT NULL,
    PRIMARY KEY (session, id)
);
CREATE TABLE summaries (
    session      TEXT NOT NULL REFERENCES sessions(id),
    generation   INTEGER NOT NULL,
    parent       INTEGER,
    kind         TEXT NOT NULL,
    text         TEXT NOT NULL,
    covers       TEXT,
    base_version INTEGER,
    unresolved   TEXT,
    sources      TEXT,
    claims       TEXT,
    extra        TEXT NOT NULL,
    digest       TEXT NOT NULL,
    PRIMARY KEY (session, generation)
);
CREATE TABLE candidates (
    session       TEXT NOT NULL REFERENCES sessions(id),
    id            TEXT NOT NULL,
    base_version  INTEGER NOT NULL,
    goal_revision INTEGER NOT NULL,
    status        TEXT NOT NULL,
    extra         TEXT NOT NULL,
    digest        TEXT NOT NULL,
    PRIMARY KEY (session, id)
);
CREATE TABLE handoffs (
    session         TEXT NOT NULL REFERENCES sessions(id),
    id              TEXT NOT NULL,
    to_session      TEXT NOT NULL,
    goal_revision   INTEGER,
    context_version INTEGER,
    status          TEXT NOT NULL,
    extra           TEXT NOT NULL,
    digest          TEXT NOT NULL,
    PRIMARY KEY (session, id)
);
CREATE TABLE deletion_requests (
    session      TEXT NOT NULL REFERENCES sessions(id),
    id           TEXT NOT NULL,
    targets      TEXT NOT NULL,
    requested_by TEXT,
    reason       TEXT,
    status       TEXT NOT NULL,
    extra        TEXT NOT NULL,
    digest       TEXT NOT NULL,
    PRIMARY KEY (session, id)
);
-- Commands name stubs, candidates, handoffs and deletion requests by id alone.
CREATE INDEX stubs_id ON stubs(id);
CREATE INDEX candidates_id ON candidates(id);
CREATE INDEX handoffs_id ON handoffs(id);
CREATE INDEX deletion_requests_id ON deletion_requests(id);
CREATE TABLE ledger (
    seq           INTEGER PRIMARY KEY,
    session       TEXT,
    kind          TEXT NOT NULL,
    actor         TEXT NOT NULL,
    at            TEXT NOT NULL,
    payload       TEXT NOT NULL,
    source        TEXT NOT NULL,
    record_digest TEXT,
    prev_hash     TEXT NOT NULL,
    hash          TEXT NOT NULL
);
CREATE INDEX ledger_session ON ledger(session, seq);
CREATE INDEX ledger_time ON ledger(session, at, seq);
CREATE UNIQUE INDEX ledger_sif_record ON ledger(session, record_digest) WHERE record_digest IS NOT NULL;
CREATE TRIGGER ledger_no_update BEFORE UPDATE ON ledger
BEGIN SELECT RAISE(ABORT, 'the ledger is append-only'); END;
CREATE TRIGGER ledger_no_delete BEFORE DELETE ON ledger
BEGIN SELECT RAISE(ABORT, 'the ledger is append-only'); END;
CREATE TRIGGER events_no_update BEFORE UPDATE ON events
BEGIN SELECT RAISE(ABORT, 'raw events are immutable'); END;
CREATE TRIGGER chunks_no_update BEFORE UPDATE ON material_chunks
BEGIN SELECT RAISE(ABORT, 'materials are immutable'); END;
CREATE VIRTUAL TABLE events_fts USING fts5(
    content, content='events', content_rowid='event_id', tokenize='trigram'
);
CREATE VIRTUAL TABLE materials_fts USING fts5(text, tokenize='trigram');
"""

# Format 2: the short-query index, and the call index covering the kind. Trigram FTS cannot answer queries of one or two
# characters, so each event's distinct characters and character pairs are indexed as
# tokens (``ci_grams``, see inspector/store/grams.py): a one- or two-character query is
# then one token lookup. Contentless and ``detail=none`` (no positions): a document
# holds each gram once, so the index stays a list of event ids per gram.
_V2 = """
CREATE VIRTUAL TABLE events_grams USING fts5(
    grams, content='', detail=none,
    tokenize="unicode61 remove_diacritics 0 categories 'L* N* Co M* P* S*'"
);
INSERT INTO events_grams (rowid, grams) SELECT event_id, ci_grams(content) FROM events WHERE content IS NOT NULL;
-- The call index with the kind, so the header's call/result pairing check groups calls
-- by id from the index alone (inspector/services/overview.py).
DROP INDEX events_call;
CREATE INDEX events_call ON events(session, call_id, kind) WHERE call_id IS NOT NULL;
-- Events whose trust label may claim more than their kind allows (few in a sound log):
-- the header counts label conflicts from this index, not by reading every event.
CREATE INDEX events_trust_label ON events(session, kind, trust) WHERE kind IN ('tool_result', 'tool_call',
    'assistant_message') AND trust IS NOT NULL AND trust NOT IN ('tool', 'model');
"""

# Format 3: the event search indexes are built after an import, not inside it
# (inspector/store/search_index.py ``catch_up``). ``search_watermark`` records how far they
# reach: every event with ``event_id <= indexed_through`` is in ``events_fts`` and
# ``events_grams``, none above it is. A store of an older format was indexed in each import's
# transaction, so it is indexed through its highest event.
_V3 = """
CREATE TABLE search_watermark (
    name            TEXT PRIMARY KEY,
    indexed_through INTEGER NOT NULL
);
INSERT INTO search_watermark (name, indexed_through) SELECT 'events', IFNULL(MAX(event_id), 0) FROM events;
"""

# Format 4: materials' search text is indexed after an import too (inspector/store/material_index.py),
# up to a watermark of its own: every live material with searchable text and ``material_id <=
# indexed_through`` is in ``materials_fts``, none above it is. A store of an older format
# indexed each material in its import, so it is indexed through its highest material.
_V4 = """
INSERT INTO search_watermark (name, indexed_through) SELECT 'materials', IFNULL(MAX(material_id), 0) FROM materials;
"""

# Format 5: a tool call's input (its ``args``: a Bash command, an Edit's path and strings) is
# searchable (inspector/store/call_index.py). ``calls_fts`` holds each indexed event's call-input
# text (``ci_call_text(extra)``, inspector/domain/call_input.py) under the trigram tokenizer,
# ``calls_grams`` its grams for one- and two-character queries, both keyed by event id and kept
# under the events' watermark: an older store's events at or below it are indexed here.
_V5 = """
CREATE VIRTUAL TABLE calls_fts USING fts5(text, tokenize='trigram');
CREATE VIRTUAL TABLE calls_grams USING fts5(
    grams, content='', detail=none,
    tokenize="unicode61 remove_diacritics 0 categories 'L* N* Co M* P* S*'"
);
WITH c (event_id, t) AS MATERIALIZED (SELECT event_id, ci_call_text(extra) FROM events
    WHERE event_id <= (SELECT indexed_through FROM search_watermark WHERE name = 'events')
    AND instr(extra, '"args"') > 0)
INSERT INTO calls_fts (rowid, text) SELECT event_id, t FROM c WHERE t IS NOT NULL;
INSERT INTO calls_grams (rowid, grams) SELECT rowid, ci_grams(text) FROM calls_fts;
"""

# Format 6: an event's thinking text (``reasoning_content`` in ``extra``: a Claude Code ``thinking``
# block) is searchable (inspector/store/reasoning_index.py), indexed exactly as call input is:
# ``reasoning_fts`` holds each indexed event's thinking (``ci_thinking_text(extra)``,
# inspector/domain/thinking_text.py) under the trigram tokenizer, ``reasoning_grams`` its grams,
# both keyed by event id and kept under the events' watermark: an older store's events at or
# below it are indexed here.
_V6 = """
CREATE VIRTUAL TABLE reasoning_fts USING fts5(text, tokenize='trigram');
CREATE VIRTUAL TABLE reasoning_grams USING fts5(
    grams, content='', detail=none,
    tokenize="unicode61 remove_diacritics 0 categories 'L* N* Co M* P* S*'"
);
WITH c (event_id, t) AS MATERIALIZED (SELECT event_id, ci_thinking_text(extra) FROM events
    WHERE event_id <= (SELECT indexed_through FROM search_watermark WHERE name = 'events')
    AND instr(extra, '"reasoning_content"') > 0)
INSERT INTO reasoning_fts (rowid, text) SELECT event_id, t FROM c WHERE t IS NOT NULL;
INSERT INTO reasoning_grams (rowid, grams) SELECT rowid, ci_grams(text) FROM reasoning_fts;
"""

# Format 7: the session's ledger entries of one kind are found without reading the others. An
# import and every poll of a followed transcript look up the session's deletion entries (what a
# deletion removed is never imported again: services/record_writer.py), and through the
# (session, seq) index that read every entry of the session: 25 ms a poll with 10,000 entries
# (expansions, corrections), 0.01 ms with this one (docs/benchmarks.md). IF NOT EXISTS: a test
# store put back to an older format keeps it (SQLite records the statement without the clause).
_V7 = """
CREATE INDEX IF NOT EXISTS ledger_kind ON ledger(session, kind, seq);
"""

# Format 8: an event's text is indexed through its first EVENT_INDEX_CHARS characters, and the
# events longer than that (a pasted log, a dumped file: few) are found by ``events_long``, so a
# search checks the rest of their text itself (inspector/services/search_long.py). An older store
# indexed such events whole: their entries are taken out (with the text they were made from)
# and made again from the indexed prefix, so a later deletion takes out exactly what is there.
# IF NOT EXISTS: a test store put back to format 7 keeps the index (as format 7's step).
_V8 = f"""
CREATE INDEX IF NOT EXISTS events_long ON events(session, event_id) WHERE length(content) > {EVENT_INDEX_CHARS};
"""
# ... and, for an older store, each long event at or below the watermark re-indexed, one event at a
# time (store/format_upgrade.py runs these with its id, so a long upgrade can say how far it got):
# its whole-text entries taken out, its prefix's put in.
V8_REINDEX = (
    "INSERT INTO events_fts (events_fts, rowid, content) SELECT 'delete', event_id, content FROM events "
    "WHERE event_id = ?",
    "INSERT INTO events_grams (events_grams, rowid, grams) SELECT 'delete', event_id, ci_grams(content) FROM events "
    "WHERE event_id = ?",
    f"INSERT INTO events_fts (rowid, content) SELECT event_id, substr(content, 1, {EVENT_INDEX_CHARS}) FROM events "
    "WHERE event_id = ?",
    f"INSERT INTO events_grams (rowid, grams) SELECT event_id, ci_grams(substr(content, 1, {EVENT_INDEX_CHARS})) "
    "FROM events WHERE event_id = ?",
)
V8_LONG_EVENTS = (f"SELECT event_id FROM events WHERE length(content) > {EVENT_INDEX_CHARS} AND event_id <= "
                  "(SELECT indexed_through FROM search_watermark WHERE name = 'events') ORDER BY event_id")

# Format 9: a tool call's input and an event's thinking are indexed as its text is since format 8,
# through their first EVENT_INDEX_CHARS characters (the SQL functions ci_call_text and
# ci_thinking_text give that part: inspector/store/side_index.py), and ``events_long_extra`` finds
# the events whose stored JSON is longer than that: the only ones whose call input or thinking may
# be (side_index.LONG_EXTRA), whose rest a search reads itself. IF NOT EXISTS: a store whose number
# was taken back keeps it (its upgrade then finds nothing to cut).
_V9 = f"""
CREATE INDEX IF NOT EXISTS events_long_extra ON events(session, event_id) WHERE length(extra) > {EVENT_INDEX_CHARS};
"""
# ... and, for an older store, the events at or below the watermark that index lists: each entry of
# theirs longer than the bound re-made from its first part (store/format_upgrade.py, in Python).
V9_LONG_EXTRA = (f"SELECT event_id FROM events WHERE length(extra) > {EVENT_INDEX_CHARS} AND event_id <= "
                 "(SELECT indexed_through FROM search_watermark WHERE name = 'events') ORDER BY event_id")

# Forward migrations: MIGRATIONS[n] brings a store from format n to n + 1.
# Format 0 is an empty file; an upgrade runs every step it needs in one transaction with the version bump.
MIGRATIONS: dict[int, str] = {0: _V1, 1: _V2, 2: _V3, 3: _V4, 4: _V5, 5: _V6, 6: _V7, 7: _V8, 8: _V9}
