"""Whether a process that left a file behind (a partial output, a fresh store being made, an older
store's read copy) may still be writing it: three sweeps asked the same of a pid, each with its own
copy of this check."""

from __future__ import annotations

import os


def alive(pid: int) -> bool:
    """True for this process and for any process the OS does not say is gone: a pid held by another
    user's process answers EPERM, and that process may be the writer — leaving its file is the safe side."""
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True
