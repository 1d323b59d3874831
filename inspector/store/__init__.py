"""The session store: one SQLite file reached through aiosqlite (DESIGN §4), or the same
store in a PostgreSQL database reached through asyncpg (``store/pg/``, chosen by a
``postgresql://`` URL in :func:`inspector.store.connection.open_store`).

Its tables are a public contract documented in docs/store-format.md.
"""
