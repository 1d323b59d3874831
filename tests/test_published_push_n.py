"""``git push -n`` is a dry run too (review-15 on facts_published).

``--dry-run`` was read as publishing nothing, but its short form ``-n`` (alone or in a cluster,
``-nu``) printed the same "* [new branch] …" and was proposed as a published branch. For
``git commit``, ``-n`` is ``--no-verify``: that commit is still published."""

from __future__ import annotations

from inspector.domain.facts_published import published
from inspector.domain.logevents import LogEvent

PUSHED = "To github.com:entireio/cli.git\n * [new branch]      alex/ent-112 -> alex/ent-112"
COMMITTED = "[alex/ent-112 6d61daa] feat: the thing\n 1 file changed"


def _pair(command: str, output: str) -> list[LogEvent]:
    return [LogEvent(1, "tool_call", "model", None, "Bash", "c1", {"command": command}),
            LogEvent(2, "tool_result", "tool", output, "Bash", "c1")]


def test_push_n_publishes_nothing() -> None:
    assert published(_pair("git push -n origin alex/ent-112", PUSHED)) == []
    assert published(_pair("git push -nu origin alex/ent-112", PUSHED)) == []


def test_other_short_flags_still_push_and_commit_n_still_commits() -> None:
    assert [p.value for p in published(_pair("git push -u origin alex/ent-112", PUSHED))] == ["alex/ent-112"]
    assert [p.value for p in published(_pair("git push --no-verify origin alex/ent-112", PUSHED))] == ["alex/ent-112"]
    assert [p.value for p in published(_pair("git commit -n -m 'feat: the thing'", COMMITTED))] == ["6d61daa"]
