"""The PostgreSQL backend: the same store (tables, digests, ledger, refusals) in a server database.

Reached with a URL wherever a store path is taken (inspector/store/location.py). The
services do not know which backend they talk to: the adapter (adapter.py) gives them
aiosqlite's calls, the dialect (dialect.py) their SQL, and what differs for real
(search, integrity, reclaiming deleted space, change notices) is behind named store
functions with one implementation per backend.
"""
