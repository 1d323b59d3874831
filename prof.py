import asyncio, cProfile, pstats, sys, time
t0 = time.perf_counter()
from inspector.ui.app import InspectorApp
from pathlib import Path
app = InspectorApp(Path("t.db"))
async def auto(pilot):
    from inspector.ui.widgets.timeline_view import TimelineView
    while True:
        try:
            tv = app.screen.query(TimelineView)
            if tv and tv.first().row_count > 0 if hasattr(tv.first(),'row_count') else False:
                break
        except Exception:
            pass
        await asyncio.sleep(0.005)
    print("first rows at", time.perf_counter()-t0, file=sys.stderr)
    app.exit()
pr = cProfile.Profile(); pr.enable()
app.run(headless=True, size=(200,50), auto_pilot=auto)
pr.disable()
pstats.Stats(pr).sort_stats("cumulative").print_stats(45)
