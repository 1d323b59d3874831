"""Running a person's command (summarizer, judge) with JSON on stdin, bounded and killed on exit.

Drift's narrative rebuild, the survival judge and the regression suite's summarizer all
hand data to a program we did not write. One runner so each says the same things: it
could not start, it took too long, it exited non-zero (with the last line of its
stderr), or it printed bytes that are not UTF-8 — each as bad input with one sentence,
and no child process is ever left running.

What it prints is read up to :data:`MAX_OUTPUT_BYTES` (stderr: its last :data:`STDERR_TAIL_BYTES`):
a judge of ``cat /dev/zero`` grew the inspector by gigabytes until its timeout (60 s; a
summarizer's 120 s) on a machine shared with others (newuser-19); it is now stopped as soon as
it passes the bound, and said so.
"""

from __future__ import annotations

import asyncio
import os
import shlex
import signal
from typing import Any

from inspector.domain.terminal_safe import inert

MAX_OUTPUT_BYTES = 64 << 20  # a summary or a judgement is pages, not this
STDERR_TAIL_BYTES = 64 << 10  # only its last line is said
_CHUNK = 1 << 16


class CommandFailed(Exception):
    """Why the command gave no answer; the caller words it as its own refusal."""


class _TooMuch(Exception):
    """The command printed more than :data:`MAX_OUTPUT_BYTES` on stdout."""


async def _read_out(stream: asyncio.StreamReader) -> bytes:
    parts: list[bytes] = []
    size = 0
    while chunk := await stream.read(_CHUNK):
        size += len(chunk)
        if size > MAX_OUTPUT_BYTES:
            raise _TooMuch
        parts.append(chunk)
    return b"".join(parts)


async def _read_tail(stream: asyncio.StreamReader) -> bytes:
    tail = b""
    while chunk := await stream.read(_CHUNK):
        tail = (tail + chunk)[-STDERR_TAIL_BYTES:]
    return tail


async def _feed(proc: asyncio.subprocess.Process, data: bytes) -> None:
    """Hand ``data`` on stdin; a command that stops reading early (it needs none of it) is no error."""
    assert proc.stdin is not None
    try:
        proc.stdin.write(data)
        await proc.stdin.drain()
        proc.stdin.close()
        await proc.stdin.wait_closed()
    except (BrokenPipeError, ConnectionResetError):
        pass  # the answer on stdout and the exit status still say how it went


async def _talk(proc: asyncio.subprocess.Process, data: bytes) -> tuple[bytes, bytes]:
    assert proc.stdout is not None and proc.stderr is not None
    tasks = [asyncio.ensure_future(_read_out(proc.stdout)), asyncio.ensure_future(_read_tail(proc.stderr)),
             asyncio.ensure_future(_feed(proc, data))]
    try:
        out, err, _ = await asyncio.gather(*tasks)
    finally:  # one failing (too much output) leaves no other reading on
        await _settle(tasks)
    await proc.wait()
    return out, err


async def _settle(tasks: list[asyncio.Future[Any]]) -> None:
    """Cancel what still runs and wait for it, each outcome read: no "exception was never
    retrieved" printed when the command ends (a regress run whose other cases were cancelled)."""
    for task in tasks:
        task.cancel()
    await asyncio.wait(tasks)
    for task in tasks:
        if not task.cancelled():
            task.exception()


async def _end(proc: asyncio.subprocess.Process) -> None:
    """Kill a command still running and read its pipes to their end: a pipe left full and unread
    is never seen closing, and ``wait`` waits for that (a stopped ``cat /dev/zero`` hung here). The
    whole process group goes (``sh -c 'sleep 30'`` left its sleep running); a process that left the
    group and still holds the pipes is given up after a few seconds."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)  # its own group (start_new_session): a shell's children go too
    except ProcessLookupError:
        pass
    except PermissionError:  # not its group after all: the command itself
        proc.kill()

    async def drain() -> None:
        for stream in (proc.stdout, proc.stderr):
            while stream is not None and await stream.read(_CHUNK):
                pass
        await proc.wait()

    task = asyncio.ensure_future(drain())
    try:
        await asyncio.wait([task], timeout=5)
    finally:
        await _settle([task])


def split(command: str, what: str) -> list[str]:
    try:
        argv = shlex.split(command)
    except ValueError as exc:
        raise CommandFailed(f"cannot read {what} command {inert(command)}: {exc}") from None
    if not argv:
        raise CommandFailed(f"the {what} command is empty")
    return argv


async def run(argv: list[str], data: bytes, timeout: float, *, what: str, command: str | None = None,
              where: str = "") -> str:
    """Stdout as text. ``what`` names the role ("summarizer", "judge"), ``where`` what was being
    answered, for the messages."""
    shown = f"{what} {inert(command or ' '.join(argv))}"
    try:
        proc = await asyncio.create_subprocess_exec(*argv, stdin=asyncio.subprocess.PIPE,
                                                    stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
                                                    start_new_session=True)
    except OSError as exc:
        raise CommandFailed(f"cannot run {shown}: {exc.strerror or exc}") from None
    except ValueError:  # a NUL character in the command (typed into the app, or a script's argument list)
        raise CommandFailed(f"cannot run {shown}: a command cannot hold a NUL character (U+0000)") from None
    # asyncio.wait, not wait_for: a run cancelled (regress stopping its other cases) just as its
    # command said too much left that task's exception unread, printed as a traceback at exit
    talk = asyncio.ensure_future(_talk(proc, data))
    try:
        await asyncio.wait([talk], timeout=timeout)
        if not talk.done():
            raise CommandFailed(f"{shown} took longer than {timeout:g} s{where}")
        try:
            out, err = talk.result()
        except _TooMuch:
            raise CommandFailed(f"{shown} printed more than {MAX_OUTPUT_BYTES >> 20} MiB{where}: no summary or "
                                "judgement is that long; it was stopped") from None
    finally:
        await _settle([talk])
        if proc.returncode is None:  # timed out, cancelled or too much said: leave no child behind
            await _end(proc)
    if proc.returncode != 0:
        tail = err.decode("utf-8", errors="replace").strip().splitlines()
        why = f": {tail[-1][:200]}" if tail else " (it wrote nothing on stderr)"
        raise CommandFailed(f"{shown} exited {proc.returncode}{where}{why}")
    try:
        return out.decode("utf-8")
    except UnicodeDecodeError:
        raise CommandFailed(f"{shown} printed bytes that are not UTF-8{where}") from None
