"""verify's checks of the two bookkeeping tables no ledger entry describes: ``store_meta``
holds exactly the rows the inspector writes (its digest key and creation time; the mark of an
unfinished ``migrate`` is reported before this runs), and ``search_watermark`` exactly its
``events`` and ``materials`` rows (format 4; a missing one is verify_layout.py's to name). A row added beside them is read by nothing today, but a later version, or
another tool following docs/store-format.md, might read it: an edit is an edit.

``store_meta.created_at``'s *value* is bound by nothing (no entry records it and nothing reads
it): verify_coverage.py declares it.
"""

from __future__ import annotations

from inspector.services.verify_report import VerifyReport
from inspector.store.connection import Store
from inspector.store.migration_marker import KEY as MIGRATION_KEY
from inspector.store.wal_commits import MARK_KEY  # the commit mark: written by every write, read by none

META_KEYS = ("digest_key", "created_at")
WATERMARKS = ("events", "materials")


async def check_meta(store: Store, report: VerifyReport) -> None:
    rows = await store.db.execute_fetchall("SELECT key FROM store_meta")
    keys = [str(r[0]) for r in rows]
    extra = sorted({k for k in keys if k not in META_KEYS and k not in (MIGRATION_KEY, MARK_KEY)})
    missing = [k for k in META_KEYS if k not in keys]
    if extra or missing:
        said = "; ".join(part for part in (f"added: {', '.join(map(repr, extra))}" if extra else "",
                                           f"missing: {', '.join(missing)}" if missing else "") if part)
        report.fail({"where": "store_meta", "code": "store_meta_differs",
                     "message": f"store_meta was changed outside the inspector ({said}): it holds only the digest "
                                "key and the creation time"})


async def check_watermark_rows(store: Store, report: VerifyReport) -> None:
    rows = await store.db.execute_fetchall("SELECT name, COUNT(*) FROM search_watermark GROUP BY name")
    others = sorted(str(name) for name, _ in rows if name not in WATERMARKS)
    if others:
        report.fail({"where": "search_watermark", "code": "watermark_differs",
                     "message": f"search_watermark holds rows the inspector never writes ({', '.join(map(repr, others))})"
                                ": it holds one row each for 'events' and 'materials'"})
