"""verify's check against the head this machine remembers for a store (services/verify_pins.py),
and the acts on it: what is remembered, and forgetting it after a file was replaced on purpose.

A backup restored at the same path and a history rewritten behind the tool look the same
here — the ledger no longer holds what the last good verify on this machine saw — so the
break says both, which is which only the person knows, and what to do for each. How to
forget is each surface's to say: ``verify --forget-head`` on the command line, ``F`` (or the
palette's "Forget remembered head") in the app, both asking nothing more of the store.
"""

from __future__ import annotations

from typing import Any

from inspector.services import verify_pins
from inspector.store.connection import Store


def location(store: Store) -> str:
    path = store.path
    return str(path) if store.dialect == "postgresql" else str(path.resolve())


async def check_remembered(store: Store, report: Any, head: tuple[int, str] | None) -> None:
    """The head this machine's last good verify of the store saw must still be in its ledger
    (verify_pins.py); a good run then remembers its own head."""
    where = location(store)
    unreadable = verify_pins.problem()
    if unreadable is not None:  # never taken for "none remembered", never written over
        report.remembered_head = None
        report.not_checked.append(f"the head this machine remembers for the store: {unreadable}, so it was not "
                                  "compared, and this run's head was not remembered (the file was left as it is)")
        return
    pin = verify_pins.remembered(where, store.digest_key)
    report.remembered_head = {"seq": pin[0], "hash": pin[1]} if pin else None
    if pin is not None and pin != head:
        async with store.snapshot() as db:
            rows = await db.execute_fetchall("SELECT hash FROM ledger WHERE seq = ?", (pin[0],))
        now = str(rows[0][0]) if rows else None
        if now != pin[1]:
            report.fail(head_differs(int(report.head["seq"]), pin, now,
                                     verify_pins.remembered_at(where, store.digest_key)))
    if report.ok and not verify_pins.remember(where, store.digest_key, int(report.head["seq"]), str(report.head["hash"])):
        report.not_checked.append(f"remembering this run's head on this machine: {verify_pins.location_said()} "
                                  "cannot be written, so the next verify here has no head to compare")


REMEDY = ("If you restored or replaced the file on purpose, forget the head this machine remembers for it and "
          "verify again; if not, the file was changed behind the tool: restore a copy you trust.")


def head_differs(last: int, pin: tuple[int, str], now: str | None, seen_at: str | None) -> dict[str, Any]:
    """The break when the ledger no longer holds the head the last good verify here saw. Both
    a backup restored at the same path and an edit behind the tool look like this; which it was
    only the person knows, so the sentence names both and what to do for each (how to forget
    is said by each surface: ``verify --forget-head``, the app's ``F``)."""
    when = f" ({seen_at})" if seen_at else ""
    seq, digest = pin
    if now is None and last < seq:
        cut = f"entry {seq} was" if seq == last + 1 else f"entries {last + 1}–{seq} were"
        happened = (f"this file's ledger ends at entry {last}, but the last good verify of this store on this "
                    f"machine{when} saw it reach entry {seq} (hash {digest[:12]}…): an older copy of the store now "
                    f"stands at this path (restored from a backup?), or {cut} cut off.")
    else:
        happened = (f"entry {seq} of this file's ledger is not the one the last good verify of this store on this "
                    f"machine{when} saw (hash {digest[:12]}…, now {(now or 'missing')[:12]}…): another copy of the "
                    f"store now stands at this path (a backup restored and written to since?), or the history up "
                    f"to entry {seq} was rewritten.")
    return {"where": "ledger", "code": "remembered_head_differs", "seq": min(seq, last + 1) if now is None else seq,
            "message": f"{happened} {REMEDY}"}


def remembered_head(store: Store) -> dict[str, Any] | None:
    """The head this machine remembers for the store ({"seq", "hash", "at"}), or None."""
    where = location(store)
    if verify_pins.problem() is not None:
        return None
    pin = verify_pins.remembered(where, store.digest_key)
    if pin is None:
        return None
    return {"seq": pin[0], "hash": pin[1], "at": verify_pins.remembered_at(where, store.digest_key)}


def forget_head(store: Store) -> bool:
    """Drop the head this machine remembers for the store (it was replaced on purpose); False
    when none was remembered. The next good verify remembers the head it finds."""
    if verify_pins.problem() is not None:  # an unreadable heads file is left as it is: nothing to forget in it
        return False
    return verify_pins.forget(location(store), store.digest_key)
