"""verify's checks of each live material's bytes: its chunk hashes bound to its content hash,
and (small stores, or ``--full``) its chunks rehashed against that content hash.

The binding compared with the one its import recorded in the ledger is replay.py's
``check_bindings``; the layout (size, chunk count, indexed prefix) is verify_layout.py's.
"""

from __future__ import annotations

import hashlib

from inspector.domain.terminal_safe import inert
from inspector.services.verify_report import VerifyReport
from inspector.services.verify_rows import batched
from inspector.store.connection import Store
from inspector.store.materials import chunk_binding


async def material_bytes(store: Store) -> int:
    rows = await store.db.execute_fetchall("SELECT COALESCE(SUM(size), 0) FROM materials WHERE deleted_at IS NULL")
    return int(rows[0][0]) if rows else 0


async def rehash(store: Store, material_id: int) -> str:
    """The whole material's content hash, read chunk by chunk (memory stays at one chunk)."""
    digest = hashlib.sha256()
    async with store.db.execute("SELECT data FROM material_chunks WHERE material_id = ? ORDER BY idx",
                                (material_id,)) as cur:
        async for (data,) in cur:  # SQLite keeps whatever type a tamperer wrote: text is hashed as its bytes
            digest.update(data.encode("utf-8", "surrogatepass") if isinstance(data, str) else bytes(data or b""))
    return "sha256:" + digest.hexdigest()


async def check_materials(store: Store, report: VerifyReport, full: bool) -> None:
    async with store.db.execute(
        "SELECT material_id, session, id, content_hash, chunk_hashes, chunk_binding FROM materials "
        "WHERE deleted_at IS NULL"
    ) as cur:
        rows = [tuple(r) async for r in batched(cur)]
    for material_id, sid, mid, chash, hashes, binding in rows:
        where = {"where": "materials", "session": sid, "id": mid}
        raw = hashes.encode("utf-8", "surrogatepass") if isinstance(hashes, str) else bytes(hashes or b"")
        if chunk_binding(str(chash), raw) != binding:
            report.fail({**where, "code": "material_binding_broken",
                         "message": f"material {inert(mid)}: its chunk hashes are not bound to its content hash"})
        elif full and await rehash(store, material_id) != chash:
            report.fail({**where, "code": "material_bytes_differ",
                         "message": f"material {inert(mid)}: its stored bytes no longer hash to its content hash"})
