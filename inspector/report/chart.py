"""The facts-kept-per-generation chart as inline SVG (no script, no library, no external asset).

One bar per summary generation: its height is how many tracked facts the generation
kept, drawn inside an outline of how many there were to keep, so a generation that
lost a fact shows a gap the eye catches. Colours come from the page's CSS classes.
"""

from __future__ import annotations

from html import escape
from typing import Any

WIDTH, HEIGHT = 640, 220
LEFT, RIGHT, TOP, BOTTOM = 40, 10, 14, 34


def kept_chart(points: list[dict[str, Any]]) -> str:
    """SVG for ``points`` = [{"generation","kept","total"}], oldest generation first: kept are
    the facts whose survival verdict is ``kept``; total, the facts established by then."""
    if not points:
        return '<p class="muted">No summary generations: nothing to chart.</p>'
    top = max(max(int(p["total"]) for p in points), max(int(p["kept"]) for p in points), 1)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    slot = plot_w / len(points)
    bar = max(min(slot * 0.6, 60.0), 2.0)
    label = "protected facts kept per summary generation"
    parts = [f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-label="{escape(label)}" '
             f'xmlns="http://www.w3.org/2000/svg">', f"<title>{escape(label)}</title>"]
    for tick in sorted({0, top // 2, top}):
        y = TOP + plot_h - plot_h * tick / top
        parts.append(f'<line class="grid" x1="{LEFT}" y1="{y:.1f}" x2="{WIDTH - RIGHT}" y2="{y:.1f}"/>')
        parts.append(f'<text class="axis" x="{LEFT - 6}" y="{y + 4:.1f}" text-anchor="end">{tick}</text>')
    every = max(1, len(points) // 16)  # keep generation labels legible on long sessions
    for i, p in enumerate(points):
        kept, total = int(p["kept"]), int(p["total"])
        x = LEFT + slot * i + (slot - bar) / 2
        h_total, h_kept = plot_h * total / top, plot_h * kept / top
        lost = " lost" if kept < total else ""
        parts.append(f'<g class="bar{lost}"><title>generation {escape(str(p["generation"]))}: {kept} of {total} '
                     "kept</title>")
        parts.append(f'<rect class="total" x="{x:.1f}" y="{TOP + plot_h - h_total:.1f}" width="{bar:.1f}" '
                     f'height="{h_total:.1f}"/>')
        parts.append(f'<rect class="kept" x="{x:.1f}" y="{TOP + plot_h - h_kept:.1f}" width="{bar:.1f}" '
                     f'height="{h_kept:.1f}"/>')
        if i % every == 0:
            parts.append(f'<text class="axis" x="{x + bar / 2:.1f}" y="{HEIGHT - BOTTOM + 16}" '
                         f'text-anchor="middle">g{escape(str(p["generation"]))}</text>')
        parts.append("</g>")
    parts.append(f'<text class="axis" x="{LEFT}" y="{HEIGHT - 4}">'
                 "bars: facts kept · outline: facts established by that generation</text>")
    parts.append("</svg>")
    return "".join(parts)
