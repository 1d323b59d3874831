"""First paint as a person sees it: ``inspector FILE`` beside a Textual hello app and claude-code-log.

    python -m bench.paint_compare [--runs 5] [--file PATH] [--ccl PATH/TO/claude-code-log]

Each program starts in its own tmux session (200×50) and the pane is captured every few
milliseconds until the text a person waits for is there: "Hello, world" for the hello app,
the transcript's first prompt in claude-code-log's session browser; for ``inspector FILE``
the whole first screen: the transcript's first prompt (the session's title), the first
timeline row and the key line at the bottom, all at once (the key line used to be drawn in
a later frame than the rest, so waiting for one of them alone would flatter a partial frame). Time is from just before ``tmux new-session`` to the capture that
shows it, so all three pay the same tmux and polling costs. The three alternate within each
round so machine load hits them alike; medians and ratios are printed.

Byte code is compiled once for all three (into a private prefix: a pip-installed package has
it, an editable install under PYTHONDONTWRITEBYTECODE=1 would recompile at every start).
Warm start for all three: the store beside the transcript exists and the file is unchanged
(``inspector`` does not re-import), claude-code-log's cache is built. claude-code-log sleeps
0.5 s before its TUI starts ("Small delay to let user see the message"); the bench runs it
through a wrapper that skips exactly that sleep (issue 18: "without its sleep"). It is not
a dependency: install it in a separate virtualenv and pass its console script with
``--ccl`` (default: ``claude-code-log`` on PATH).
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REAL = Path(__file__).resolve().parents[2] / "shared" / "real_sessions" / "claude-code"
FILE = REAL / "4b7d5121b42a-0__manual_compaction_bash_progress_v2.1.14.jsonl"

HELLO = '''
from textual.app import App
from textual.widgets import Static

class Hello(App):
    def compose(self):
        yield Static("Hello, world")

Hello().run()
'''

# Runs claude-code-log's own entry point with its one pre-TUI sleep (0.5 s) skipped.
NO_SLEEP = '''
import sys, time
_sleep = time.sleep
time.sleep = lambda s: None if s == 0.5 else _sleep(s)
from claude_code_log.cli import main
sys.argv = ["claude-code-log", *sys.argv[1:]]
main()
'''


def first_prompt_and_row(path: Path) -> tuple[str, str]:
    """The session id and what a person waits for: the session's first user prompt (claude-code-log's
    list shows it; our header names the session by it)."""
    session = ""
    for line in path.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        session = session or record.get("sessionId", "")
        message = record.get("message") or {}
        if record.get("type") == "user" and isinstance(message.get("content"), str):
            return session, message["content"].strip().splitlines()[0][:30]
    raise SystemExit(f"{path}: no user prompt to wait for")


def whole_screen(prompt: str) -> tuple[str, ...]:
    """``inspector FILE``'s first screen as a person sees it whole: the session's title (its first
    prompt), the timeline's first row and the key line at the bottom."""
    return (prompt, "#1 ", "palette")


TMUX = ["tmux", "-L", f"paint{os.getpid()}"]  # a server of our own, kept up by an idle session


def cpu_seconds(pid: int) -> float:
    """CPU time (user + system) used so far by ``pid`` and its finished children."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return sum(int(f) for f in fields[11:15]) / os.sysconf("SC_CLK_TCK")


def timed(name: str, command: str, marker: str | tuple[str, ...], *, timeout: float = 30.0,
          cwd: Path | None = None) -> tuple[float, float]:
    """Seconds from starting ``command`` in tmux until ``marker`` (every one of several) is on the
    screen, and the CPU seconds the program had used by then (steadier than wall time on a
    loaded machine). ``cwd``: where it starts (not the checkout, whose ``inspector`` package a
    ``python -c`` would import before ``PYTHONPATH``'s)."""
    markers = (marker,) if isinstance(marker, str) else marker
    started = time.perf_counter()
    where = ["-c", str(cwd)] if cwd is not None else []
    subprocess.run([*TMUX, "new-session", "-d", "-s", name, *where, "-x", "200", "-y", "50", f"exec {command}"],
                   check=True)
    pid = int(subprocess.run([*TMUX, "display", "-p", "-t", name, "#{pane_pid}"], capture_output=True,
                             text=True).stdout.strip() or 0)
    screen = ""
    try:
        while time.perf_counter() - started < timeout:
            screen = subprocess.run([*TMUX, "capture-pane", "-p", "-t", name], capture_output=True,
                                    text=True).stdout
            if all(m in screen for m in markers):
                return time.perf_counter() - started, cpu_seconds(pid)
            time.sleep(0.01)
        raise RuntimeError(f"{name}: {markers!r} not on screen after {timeout:.0f} s:\n{screen}")
    finally:
        subprocess.run([*TMUX, "kill-session", "-t", name], capture_output=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--file", type=Path, default=FILE)
    parser.add_argument("--before", type=Path, help="a checkout of an earlier commit: its `inspector FILE` runs too "
                        "(same store), e.g. made with `git archive COMMIT inspector | tar -x -C DIR`")
    parser.add_argument("--ccl", default=shutil.which("claude-code-log") or "claude-code-log",
                        help="claude-code-log's console script (its virtualenv's python runs the wrapper)")
    args = parser.parse_args()
    session, prompt = first_prompt_and_row(args.file)
    tag = f"paint{os.getpid()}"
    subprocess.run([*TMUX, "new-session", "-d", "-s", "idle", "sleep 3600"], check=True)
    try:
        times = run_all(args, session, prompt, tag)
    finally:
        subprocess.run([*TMUX, "kill-server"], capture_output=True)
    report(args, times)


def prepare_home(home: Path, transcript: Path, session: str) -> tuple[Path, Path]:
    """The three programs' files in one home folder: the hello app, claude-code-log's no-sleep
    wrapper, our copy of the transcript and claude-code-log's project holding it. Returns our
    copy and the project folder."""
    (home / "hello.py").write_text(HELLO)
    (home / "noslp.py").write_text(NO_SLEEP)
    ours = home / transcript.name
    shutil.copy(transcript, ours)
    ours.chmod(0o644)
    project = home / "ccl" / "project"
    project.mkdir(parents=True)
    shutil.copy(transcript, project / f"{session}.jsonl")
    return ours, project


def run_all(args: argparse.Namespace, session: str, prompt: str, tag: str) -> dict[str, list[float]]:
    inspector = Path(sys.executable).parent / "inspector"
    ccl_python = Path(args.ccl).resolve().parent / "python"
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        ours, project = prepare_home(home, args.file, session)
        # Byte code as an installed package has it (pip compiles at install): this machine sets
        # PYTHONDONTWRITEBYTECODE=1, under which an editable install recompiles every module at
        # every start. The warm-up run below writes the byte code of all three into one prefix.
        env = (f"env -u PYTHONDONTWRITEBYTECODE PYTHONPYCACHEPREFIX={home / 'pycache'} HOME={shlex.quote(str(home))} "
               "INSPECTOR_REVIEWER=bench TERM=xterm-256color ")
        commands = {
            "hello": (env + f"{shlex.quote(sys.executable)} {home / 'hello.py'}", "Hello, world"),
            "claude-code-log": (env + f"{shlex.quote(str(ccl_python))} {home / 'noslp.py'} --tui {project}", prompt),
            "inspector FILE": (env + f"{shlex.quote(str(inspector))} {shlex.quote(str(ours))}", whole_screen(prompt)),
        }
        if args.before is not None:
            commands["before"] = (env + f"PYTHONPATH={shlex.quote(str(args.before))} {shlex.quote(sys.executable)} -c "
                                  "'from inspector.cli.entry import main; main()' " + shlex.quote(str(ours)),
                                  whole_screen(prompt))
        # warm everything once: our store, claude-code-log's cache, the page cache for all three
        for command, marker in commands.values():
            timed(f"{tag}w", command, marker, timeout=120, cwd=home)
        times: dict[str, list[tuple[float, float]]] = {label: [] for label in commands}
        for run in range(args.runs):
            for label, (command, marker) in commands.items():
                times[label].append(timed(f"{tag}{run}", command, marker, cwd=home))
    return times


def report(args: argparse.Namespace, times: dict[str, list[tuple[float, float]]]) -> None:
    print(f"{args.file.name} ({args.file.stat().st_size / 1024:.0f} KB), medians of {args.runs}, tmux-polled; "
          f"load average {os.getloadavg()[0]:.1f}")
    print_ratios(times, "wall, launch → on screen", targets=True)


def print_ratios(times: dict[str, list[tuple[float, float]]], wall_label: str, *, targets: bool = False) -> None:
    """Each program's median wall and CPU time beside hello's and claude-code-log's, and (with
    ``targets``) issue 18's two ratios for ``inspector FILE``; the paint benches share it."""
    for index, what in ((0, wall_label), (1, "CPU used by then")):
        hello = statistics.median(t[index] for t in times["hello"])
        ccl = statistics.median(t[index] for t in times["claude-code-log"])
        print(f" {what}")
        for label, values in times.items():
            median = statistics.median(t[index] for t in values)
            print(f"  {label:<16} {median * 1000:6.0f} ms  {median / hello:5.2f}× hello  {median / ccl:5.2f}× "
                  f"claude-code-log   runs: {' '.join(f'{t[index] * 1000:.0f}' for t in values)}")
        if not targets:
            continue
        ours = statistics.median(t[index] for t in times["inspector FILE"])
        print(f"  targets (issue 18): ≤ 2.5× hello: {ours / hello:.2f}× {'met' if ours / hello <= 2.5 else 'NOT met'}; "
              f"≤ 0.9× claude-code-log: {ours / ccl:.2f}× {'met' if ours / ccl <= 0.9 else 'NOT met'}")


if __name__ == "__main__":
    main()
