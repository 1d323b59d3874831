"""An app open on a PostgreSQL store keeps seeing other reviewers' acts after the server
restarted (or its listening connection was dropped).

Found by attacking team review: the change watch listened on one connection and never
listened again once it was gone, so after a server restart an open app went on showing
the old state — another reviewer's accept never reached it, and nothing said so.
"""

from __future__ import annotations

import asyncio

import asyncpg
import pytest

from inspector.services.candidates import accept
from inspector.services.recent_acts import acts_after
from inspector.services.sessions import ChangeWatch
from inspector.store.connection import open_store


@pytest.mark.parametrize("backend", ["postgresql"], indirect=True)
async def test_the_watch_listens_again_after_its_connection_was_dropped(backend_sample_store: str) -> None:
    async with await open_store(backend_sample_store) as app, await open_store(backend_sample_store) as other:
        watch = ChangeWatch(app)
        assert await watch.changed() is False  # the first look: listening from now on
        listener = app.watch_db.listener  # type: ignore[attr-defined]
        admin = await asyncpg.connect(backend_sample_store)
        try:  # what a server restart does to it
            await admin.execute("SELECT pg_terminate_backend($1)", listener.get_server_pid())
        finally:
            await admin.close()
        for _ in range(50):
            if listener.is_closed():
                break
            await asyncio.sleep(0.05)
        await watch.changed()  # listening again (what was missed meanwhile counts as a change)
        await accept(other, "cand-good", actor="bob")
        seen = False
        for _ in range(40):  # within 2 s, as for any other act
            if await watch.changed():
                seen = True
                break
            await asyncio.sleep(0.05)
        assert seen, "another reviewer's accept after the reconnect never reached the open app"
        assert watch.last_actor == "bob"


@pytest.mark.parametrize("backend", ["postgresql"], indirect=True)
async def test_an_open_store_reads_again_after_the_server_dropped_every_connection(backend_sample_store: str) -> None:
    from inspector.services.sessions import list_sessions

    async with await open_store(backend_sample_store) as app, await open_store(backend_sample_store) as other:
        watch = ChangeWatch(app)
        await watch.changed()
        async with app.snapshot():  # a pooled reader, idle afterwards
            pass
        admin = await asyncpg.connect(backend_sample_store)
        try:  # a server restart: every connection of the open app is gone
            await admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                                "WHERE datname = current_database() AND pid <> pg_backend_pid()")
        finally:
            await admin.close()
        await asyncio.sleep(0.3)
        async with await open_store(backend_sample_store) as other:
            await accept(other, "cand-good", actor="bob")
        changed = False
        for _ in range(40):
            changed = await watch.changed() or changed
            if changed and watch.last is not None:
                break
            await asyncio.sleep(0.05)
        assert changed
        assert (await acts_after(app, 0))[-1].actor == "bob"  # what the app reads to say who did it
        assert any(s.id == "s-export" for s in await list_sessions(app))  # the shared reader is back
        async with app.snapshot() as db:  # and a pooled one
            rows = await db.execute_fetchall("SELECT status FROM candidates WHERE id = 'cand-good'")
        assert rows == [("accepted",)]
