"""The widths (and the height) at which the app changes its layout, in one place with no imports:
the app sets them on every screen (the dialogs' toasts, the notice line), the main screen lays
out its zones by them (layout.py)."""

from __future__ import annotations

NARROW_WIDTH = 90  # below this one zone shows at a time
COMPACT_WIDTH = 140  # below this the sessions list starts hidden (s shows it)
BREAKPOINTS = [(0, "-narrow"), (NARROW_WIDTH, "-normal"), (COMPACT_WIDTH, "-wide")]
# fewer rows than this (80×24, 100×30): notices go inline on the main screen, a dialog's toasts to
# the top — a toast of five lines at the bottom right covered the last rows of the lower zone
SHORT_ROWS = 32
VERTICAL_BREAKPOINTS = [(0, "-short"), (SHORT_ROWS, "-tall")]
