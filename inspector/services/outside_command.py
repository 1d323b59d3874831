"""Running a person's command (summarizer, judge) with JSON on stdin, bounded and killed on exit.

Drift's narrative rebuild, the survival judge and the regression suite's summarizer all
hand data to a program we did not write. One runner so each says the same things: it
could not start, it took too long, it exited non-zero (with the last line of its
stderr), or it printed bytes that are not UTF-8 — each as bad input with one sentence,
and no child process is ever left running.
"""

from __future__ import annotations

import asyncio
import shlex

from inspector.domain.terminal_safe import inert


class CommandFailed(Exception):
    """Why the command gave no answer; the caller words it as its own refusal."""


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
                                                    stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    except OSError as exc:
        raise CommandFailed(f"cannot run {shown}: {exc.strerror or exc}") from None
    except ValueError:  # a NUL character in the command (typed into the app, or a script's argument list)
        raise CommandFailed(f"cannot run {shown}: a command cannot hold a NUL character (U+0000)") from None
    try:
        out, err = await asyncio.wait_for(proc.communicate(data), timeout)
    except TimeoutError:
        raise CommandFailed(f"{shown} took longer than {timeout:g} s{where}") from None
    finally:
        if proc.returncode is None:  # timed out or cancelled: leave no child behind
            proc.kill()
            await proc.wait()
    if proc.returncode != 0:
        tail = err.decode("utf-8", errors="replace").strip().splitlines()
        why = f": {tail[-1][:200]}" if tail else " (it wrote nothing on stderr)"
        raise CommandFailed(f"{shown} exited {proc.returncode}{where}{why}")
    try:
        return out.decode("utf-8")
    except UnicodeDecodeError:
        raise CommandFailed(f"{shown} printed bytes that are not UTF-8{where}") from None
