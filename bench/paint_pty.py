"""First paint read from the program's own terminal: the moment its bytes hold what a person waits for.

    python -m bench.paint_pty [--runs 5] [--file PATH] [--before DIR] [--ccl PATH/TO/claude-code-log]

The same three (four with ``--before``) programs and markers as ``bench.paint_compare``,
but each runs on a pseudo-terminal of 200×50 set before it starts, and the bench reads its
output as it is written: no polling delay, and the CPU the program had used is read at
that instant. Why both: tmux-polled CPU figures include whatever the program did between
drawing and the next capture (the post-paint work), and tmux answers the terminal queries
Textual sends at start, which changes the order of a start's first events; here nobody
answers them. Medians of ``--runs`` rounds, the programs alternating within each round.
"""

from __future__ import annotations

import argparse
import fcntl
import os
import select
import shutil
import struct
import subprocess
import sys
import tempfile
import termios
import time
from pathlib import Path

from bench.paint_compare import FILE, cpu_seconds, first_prompt_and_row, prepare_home, print_ratios, whole_screen


def timed(argv: list[str], env: dict[str, str], marker: bytes | tuple[bytes, ...], timeout: float = 30.0,
          cwd: Path | None = None) -> tuple[float, float]:
    markers = (marker,) if isinstance(marker, bytes) else marker
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 200, 0, 0))
    started = time.perf_counter()
    proc = subprocess.Popen(argv, env=env, stdin=slave, stdout=slave, stderr=slave, start_new_session=True, cwd=cwd,
                            preexec_fn=lambda: fcntl.ioctl(0, termios.TIOCSCTTY, 0))
    os.close(slave)
    seen = b""
    try:
        while time.perf_counter() - started < timeout:
            ready, _, _ = select.select([master], [], [], 1.0)
            if not ready:
                continue
            try:
                seen += os.read(master, 1 << 16)
            except OSError:
                break
            if all(m in seen for m in markers):
                return time.perf_counter() - started, cpu_seconds(proc.pid)
        raise RuntimeError(f"{argv}: {markers!r} not written within {timeout:.0f} s")
    finally:
        proc.kill()
        proc.wait()
        os.close(master)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--file", type=Path, default=FILE)
    parser.add_argument("--before", type=Path)
    parser.add_argument("--ccl", default=shutil.which("claude-code-log") or "claude-code-log")
    args = parser.parse_args()
    session, prompt = first_prompt_and_row(args.file)
    ccl_python = str(Path(args.ccl).resolve().parent / "python")
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        ours, project = prepare_home(home, args.file, session)
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env.update(PYTHONPYCACHEPREFIX=str(home / "pycache"), HOME=str(home), INSPECTOR_REVIEWER="bench",
                   TERM="xterm-256color")
        screen = tuple(m.encode() for m in whole_screen(prompt))
        entry = [sys.executable, "-c", "from inspector.cli.entry import main; main()", str(ours)]
        programs: dict[str, tuple[list[str], dict[str, str], bytes]] = {
            "hello": ([sys.executable, str(home / "hello.py")], env, b"Hello, world"),
            "claude-code-log": ([ccl_python, str(home / "noslp.py"), "--tui", str(project)], env, prompt.encode()),
            "inspector FILE": (entry, env, screen),
        }
        if args.before is not None:
            programs["before"] = (entry, {**env, "PYTHONPATH": str(args.before)}, screen)
        for argv, program_env, marker in programs.values():  # byte code, store, caches, page cache
            timed(argv, program_env, marker, timeout=120, cwd=home)
        times: dict[str, list[tuple[float, float]]] = {label: [] for label in programs}
        for _ in range(args.runs):
            for label, (argv, program_env, marker) in programs.items():
                times[label].append(timed(argv, program_env, marker, cwd=home))
    print(f"{args.file.name}, medians of {args.runs}, read from a pty; load average {os.getloadavg()[0]:.1f}")
    print_ratios(times, "wall, start → written")

if __name__ == "__main__":
    main()
