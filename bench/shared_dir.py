"""Where ../shared/real_sessions is for a bench run from this checkout or from a git worktree of it.

The real transcripts sit beside the main checkout (/work/shared beside /work/main); a worktree
(/work/wt/NAME) has nothing beside it, so the benches that build on them exited there ("needs
…/shared/real_sessions"). A worktree's ``.git`` is a file naming its git directory inside the
main checkout's (``gitdir: /work/main/.git/worktrees/NAME``): the folder beside that checkout is
looked in next.
"""

from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def real_sessions(repo: Path = REPO) -> Path:
    """``shared/real_sessions`` beside ``repo``, else beside the main checkout ``repo`` is a
    worktree of; the first place when neither has it (callers say it is missing)."""
    beside = repo.parent / "shared" / "real_sessions"
    if beside.is_dir():
        return beside
    dot_git = repo / ".git"
    if dot_git.is_file():
        text = dot_git.read_text(encoding="utf-8", errors="replace").strip()
        if text.startswith("gitdir:"):
            git_dir = Path(text.removeprefix("gitdir:").strip())
            # <main>/.git/worktrees/NAME -> <main>
            main = git_dir.parent.parent.parent if git_dir.parent.name == "worktrees" else None
            if main is not None and (main.parent / "shared" / "real_sessions").is_dir():
                return main.parent / "shared" / "real_sessions"
    return beside
