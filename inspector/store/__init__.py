"""The session store: one SQLite file reached through aiosqlite (DESIGN §4).

Its tables are a public contract documented in docs/store-format.md.
"""
