"""review-19: hostile cases of this session's new verdicts (docs/reviews/review-19.md).

Before: a completion claim ("Pushed the fix to main", "Deployed to production", "All tests pass") was
shown — check ✓, no "?" — by a command that only named the act (``cat deploy/README.md``,
``Read({"file_path": "release.md"})``), a dry run (``git push --dry-run``), a push refused in a result
with no exit status (a message list's tool result), a result denying the act ("PR #85 was not
merged", ``{"merged": false}``), or a linter alone for a test claim (``ruff check .``); "已经合并"
claimed nothing. Each is now the honest "?" (``completion_unshown``), and a real act still shows it.
"""

from __future__ import annotations

import pytest

from inspector.domain.said import Said
from inspector.domain.said_completion import completion_findings
from inspector.domain.said_output_numbers import ToolRun


def _one(command: str, output: str, failed: bool = False) -> tuple[ToolRun, ...]:
    return (ToolRun(2, command, output, failed),)


NOT_SHOWN = [
    ("cat deploy/README.md", "How to deploy: ./deploy.sh prod", "Deployed the fix to production."),
    ('Read({"file_path":"/repo/deploy/prod.yaml"})', "replicas: 3", "Deployed the fix to production."),
    ("grep -rn 'git push' docs/", "docs/x.md: git push origin main", "Pushed the fix to main."),
    ('echo "git push origin main"', "git push origin main", "Pushed the fix to main."),
    ("git push --dry-run origin main", "To github.com:o/r.git\n   1a2b..3c4d  main -> main", "Pushed the fix to main."),
    ("git push -n origin main", "To github.com:o/r.git\n   1a2b..3c4d  main -> main", "Pushed the fix to main."),
    ("git push origin main", " ! [rejected]        main -> main (fetch first)\n"
     "error: failed to push some refs to 'github.com:o/r.git'", "Pushed the fix to main."),
    ("gh pr merge 85", "X Pull request #85 is not mergeable: the merge commit cannot be cleanly created.",
     "Merged PR #85."),
    ("gh pr view 85", "state: OPEN\nPR #85 was not merged yet", "Merged PR #85."),
    ("gh pr view --json merged", '{"merged": false}', "Merged the PR."),
    ("helm status my-app", "STATUS: failed\nNOTES: the release was not deployed", "Deployed to production."),
    ("ruff check .", "All checks passed!", "All tests pass."),
    ("go vet ./... && golangci-lint run", "", "The unit tests pass now."),
    ("make lint", "ok", "测试全部通过。"),
    ("cat a.txt", "x", "PR 已经合并到主干。"),
    ("cat a.txt", "x", "代码已经推送到 main 分支。"),
]


@pytest.mark.parametrize(("command", "output", "text"), NOT_SHOWN, ids=[f"{t}<-{c}" for c, _, t in NOT_SHOWN])
def test_a_command_that_only_names_refuses_or_denies_the_act_does_not_show_it(command: str, output: str,
                                                                              text: str) -> None:
    got = completion_findings(1, Said.of(text), _one(command, output), None, False)
    assert [f.code for f in got] == ["completion_unshown"], (command, text)
    assert got[0].severity == "warning"  # the log continues: "?", never ✓


SHOWN = [
    ("git push origin fix-login", "To github.com:o/r.git\n * [new branch]      fix-login -> fix-login",
     "Pushed the fix-login branch."),
    ("cd repo && git -C . push origin main", "   1a2b..3c4d  main -> main", "Pushed to main."),
    ("./scripts/deploy.sh prod", "done in 42s", "Deployed the fix to production."),
    ("make deploy ENV=prod", "done", "Deployed to production."),
    ("kubectl apply -f k8s/", "deployment.apps/api configured", "Deployed the new config."),
    ("gh pr merge 12 --squash", "✓ Squashed and merged pull request #12", "Merged PR #12."),
    ("gh pr view 12", "title: Fix login #12\nstate: MERGED", "PR #12 is merged."),
    ("bash -c 'git push origin main'", "   1a2b..3c4d  main -> main", "Pushed to main."),
    ("go test ./...", "ok  \tx/login\t0.2s", "All tests pass."),
    ("ruff check . && pytest -q", "3 passed", "All tests pass."),
    ("go build ./...", "", "The build is green."),
    ("npm run release", "published 1.2.0", "Released 1.2.0."),
]


@pytest.mark.parametrize(("command", "output", "text"), SHOWN, ids=[f"{t}<-{c}" for c, _, t in SHOWN])
def test_a_command_that_does_the_act_still_shows_it(command: str, output: str, text: str) -> None:
    assert completion_findings(1, Said.of(text), _one(command, output), None, False) == [], (command, text)


def test_one_act_claimed_in_several_sentences_is_one_question_that_quotes_each() -> None:
    """The real 4b7d5121 summary's Verification list claimed passing tests four times: four "?" lines in
    check, "? 5 warnings" in the header and the Drift tab for one unshown act. Now one warning per act,
    quoting every claim; the headline still counts the claims."""
    from inspector.domain.unreadable import headline

    text = ("Verification:\n- All mid-session commit tests passed\n- Full integration test suite passed\n"
            "- Unit tests passed\n- All tests passed after fix\n- Pushed the branch to origin.")
    got = completion_findings(1, Said.of(text), _one("git status", "clean"), None, False)
    assert sorted((f.severity, len(f.words)) for f in got) == [("warning", 1), ("warning", 4)]
    push, tests = sorted(got, key=lambda f: len(f.words))
    assert "passing test or build run" in tests.message and "a push" in push.message
    for words in ("tests passed", "test suite passed", "Unit tests passed", "All tests passed"):
        assert f"“{words.casefold()}”" in tests.message, words  # drift re-quotes them in the text's letters
    assert "claims it 3 more times" in tests.message
    assert headline(got).startswith("no finding; 5 claimed completions that no event in the range shows (completion_unshown)")


def test_a_path_taken_out_of_the_index_only_or_put_back_in_the_same_command_is_not_stale() -> None:
    """``git rm --cached`` leaves the file where it was, and ``mv A /tmp/x && mv /tmp/x A`` puts it back:
    a faithful summary naming it was ✗ ``path_stale`` ("a reader sent there finds nothing")."""
    from inspector.domain.said_stale_path import stale_path_findings

    said = Said.of("The fix is in src/auth/login.go.")
    for command in ("git rm --cached src/auth/login.go", "mv src/auth/login.go /tmp/x.go && mv /tmp/x.go src/auth/login.go",
                    "git rm src/auth/login.go; git checkout HEAD -- src/auth/login.go"):
        assert stale_path_findings(1, said, "", True, _one(command, "ok"), None) == [], command
    for command in ("git rm src/auth/login.go", "rm -f src/auth/login.go",
                    'git mv src/auth/login.go src/auth/signin.go && git commit -m "drop src/auth/login.go"'):
        got = stale_path_findings(1, said, "", True, _one(command, "ok"), None)
        assert [(f.code, f.severity) for f in got] == [("path_stale", "finding")], command


@pytest.mark.parametrize("text", ["The deadline was pushed back to Friday.", "The handler now released the lock before returning.",
                                  "Read the merged config file.", "Compared it with the released binary.",
                                  "The worker released its connections on shutdown."])
def test_the_words_in_another_sense_claim_no_act(text: str) -> None:
    """Each made a faithful summary "?" (``completion_unshown``) over a range with a tool run."""
    assert completion_findings(1, Said.of(text), _one("cat a.txt", "x"), None, False) == [], text


def test_the_act_words_still_claim_beside_those_senses() -> None:
    said = Said.of("Released v1.2.0 to users. Pushed the fix and merged it. The merged config was deployed.")
    got = completion_findings(1, said, _one("cat a.txt", "x"), None, False)
    assert sorted(w for f in got for w in f.words) == ["deployed", "merged", "pushed", "released"]


def test_a_merge_claim_naming_a_pr_is_shown_only_by_a_merge_of_that_pr() -> None:
    """"Merged PR #85 into main." over ``git merge origin/main`` (an agent syncing its branch) was ✓: any merge
    showed a numbered merge claim. Now only one naming #85 (its command or its result) shows it; a merge naming
    no number leaves a "?" (``git merge feature`` then a push may merge the PR), never ✗."""
    def severities(*runs: tuple[int, str, str]) -> list[str]:
        got = completion_findings(1, Said.of("Merged PR #85 into main."), tuple(ToolRun(*r) for r in runs), None, False)
        return [f.severity for f in got]

    created = (2, "gh pr create --fill", "https://github.com/o/r/pull/85")
    assert severities((2, "git merge origin/main", "Merge made by the 'ort' strategy.")) == ["warning"]
    assert severities((2, "gh pr merge 84 --squash", "done")) == ["warning"]
    assert severities(created, (4, "git merge feature", "Fast-forward")) == ["warning"]  # may be it: "?"
    assert severities(created, (4, "git status", "clean")) == ["finding"]  # guard: no merge at all after creating it
    assert severities((2, "gh pr merge 85 --squash", "done")) == []  # guard
    assert severities((2, "gh pr merge --squash", "✓ Squashed and merged pull request #85")) == []  # guard
    plain = completion_findings(1, Said.of("Merged the branch."), (ToolRun(2, "git merge feature", "Fast-forward"),),
                                None, False)
    assert plain == []  # guard: a claim naming no PR is shown by any merge


def test_a_push_claim_naming_the_trunk_is_not_shown_by_pushes_of_other_branches_only() -> None:
    """"Pushed the fix to main." over ``git push origin feature`` was ✓ (the act read, not its branch)."""
    def severities(text: str, *commands: str) -> list[str]:
        runs = tuple(ToolRun(2 * i + 2, c, "ok") for i, c in enumerate(commands))
        return [f.severity for f in completion_findings(1, Said.of(text), runs, None, False)]

    assert severities("Pushed the fix to main.", "git push origin feature") == ["warning"]
    assert severities("Pushed it to the master branch.", "git push -u origin fix-login") == ["warning"]
    for commands in (("git push origin HEAD:main",), ("git push",), ("git push origin +main",),
                     ("git push origin feature", "git push origin main")):  # guards: a push that may be main
        assert severities("Pushed the fix to main.", *commands) == [], commands
    assert severities("Pushed to remote and created PR #85.", "git push -u origin feat") == []  # guard: no trunk
    assert severities("Pushed feature to origin, then opened a PR to main.", "git push origin feature") == []


def test_a_relative_path_removed_after_a_cd_elsewhere_is_a_question_not_a_finding() -> None:
    """``cd /tmp/scratch && rm src/auth/login.go`` removed /tmp/scratch's file: a faithful "The fix is in
    src/auth/login.go" was ✗ ``path_stale`` (review-19 #3). After a `cd` the rule cannot tell which file
    went — "?"; an absolute path, a `cd .`, or no `cd` at all is read as before."""
    from inspector.domain.said_stale_path import stale_path_findings
    from inspector.domain.unreadable import NOT_JUDGED_ALL, headline

    said = Said.of("The fix is in src/auth/login.go.")
    for command in ("cd /tmp/scratch && rm src/auth/login.go", "cd ../other-repo; git rm src/auth/login.go",
                    "cd /repo && git mv src/auth/login.go src/auth/signin.go"):
        got = stale_path_findings(1, said, "", True, _one(command, "ok"), None)
        assert [(f.code, f.severity) for f in got] == [("path_stale", "warning")], command
        assert "after `cd " in got[0].message and "a person must read it" in got[0].message
        assert got[0].code in NOT_JUDGED_ALL  # "?" in check and the header, never ✓
        assert headline(got).startswith("no finding; 1 path a command removed after a `cd` elsewhere (path_stale)")
    for command in ("cd /tmp/scratch && rm /repo/src/auth/login.go", "cd . && rm src/auth/login.go"):
        got = stale_path_findings(1, said, "", True, _one(command, "ok"), None)
        assert [(f.code, f.severity) for f in got] == [("path_stale", "finding")], command
