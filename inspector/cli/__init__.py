"""The scriptable command line: the same services as the app, human text or ``--json``."""

from __future__ import annotations

import time

# When the command line's code began to load: a progress line counts its seconds from here, since on a
# loaded machine loading the modules takes seconds of its own, which the person waits through too.
STARTED = time.monotonic()
