"""A tool call against a rule the agent was given (domain/action_against_rule.py): labelled cases.

Each case is a rule's value, one call (tool, arguments) made after it, and the mark a reviewer
must see: "✗" (the call does the act; the rule confirmed), "?" (it may: the call does not show
all of it), "·" (a dry run) or "" (not the act: a string, an echo, a grep, another branch…). The
labels were written before the module's verdicts were read; the near-misses that must not fire
are as many as the hits.
"""

from __future__ import annotations

import shlex
from typing import Any

import pytest

from inspector.domain.action_against_rule import acts_against_rules
from inspector.domain.logevents import LogEvent
from inspector.domain.survival import Fact


def _bash(command: str) -> tuple[str, dict[str, Any]]:
    return "Bash", {"command": command}


def _nested(command: str, depth: int) -> str:
    """``command`` run through ``bash -c`` ``depth`` times, each level quoted as a shell quotes it."""
    for _ in range(depth):
        command = "bash -c " + shlex.quote(command)
    return command


CASES: list[tuple[str, str, tuple[str, dict[str, Any]], str]] = [
    # (id, rule, call, mark)
    ("push-main", "Never push to main", _bash("git push origin main"), "✗"),
    ("push-main-fix-branch", "Never push to main", _bash("git push origin main-fix"), ""),
    ("push-head-refspec", "Never push to main", _bash("git push origin HEAD:main"), "✗"),
    ("push-refs-heads", "Never push to main", _bash("git push origin feature:refs/heads/main"), "✗"),
    ("push-no-branch", "Never push to main", _bash("git push"), "?"),
    ("push-dry-run", "Never push to main", _bash("git push --dry-run origin main"), "·"),
    ("push-dash-n", "Never push to main", _bash("git push -n origin main"), "·"),
    ("push-echoed", "Never push to main", _bash('echo "git push origin main"'), ""),
    ("push-grepped", "Never push to main", _bash("grep -rn 'git push origin main' docs/"), ""),
    ("push-commented", "Never push to main", _bash("git status # then git push origin main"), ""),
    ("push-commit-message", "Never push to main", _bash('git commit -m "do not git push origin main"'), ""),
    ("push-after-cd", "Never push to main", _bash("cd repo && git add -A && git push origin main"), "✗"),
    ("push-bash-c", "Never push to main", _bash("bash -lc 'git push origin main'"), "✗"),
    ("push-git-C", "Never push to main", _bash("git -C /src/app push origin main"), "✗"),
    ("push-heredoc-data", "Never push to main", _bash("cat > notes.md <<'EOF'\ngit push origin main\nEOF"), ""),
    ("push-zh", "不要推送到 main 分支", _bash("git push origin main"), "✗"),
    ("push-zh-other", "不要推送到 main 分支", _bash("git push origin dev"), ""),
    ("force-rule-plain-push", "禁止 git push --force", _bash("git push origin feature"), ""),
    ("force-rule-dash-f", "禁止 git push --force", _bash("git push -f origin feature"), "✗"),
    ("force-rule-lease", "禁止 git push --force", _bash("git push --force-with-lease origin feature"), "✗"),
    ("force-rule-plus", "禁止 git push --force", _bash("git push origin +feature"), "✗"),
    ("rm-rf", "Do not run rm -rf", _bash("rm -rf build"), "✗"),
    ("rm-fr-split", "Do not run rm -rf", _bash("rm -r -f build"), "✗"),
    ("rm-r-only", "Do not run rm -rf", _bash("rm -r build"), ""),
    ("rm-rf-in-grep", "Do not run rm -rf", _bash('grep -rn "rm -rf" scripts/'), ""),
    ("rm-rf-sudo", "Do not run rm -rf", _bash("sudo rm -rf /var/tmp/cache"), "✗"),
    ("rm-rf-xargs", "Don't run rm -rf build", _bash("find . -name '*.o' | xargs rm -rf"), "?"),
    ("delete-build-zh", "不要删除 build 目录", _bash("rm -rf build/"), "✗"),
    ("delete-build-other", "不要删除 build 目录", _bash("rm -rf build-old"), ""),
    ("delete-build-inside", "不要删除 build 目录", _bash("rm build/app.o"), "?"),
    ("kubectl-prod", "Do not use kubectl delete in prod", _bash("kubectl delete pod web-1 --context prod"), "✗"),
    ("kubectl-get", "Do not use kubectl delete in prod", _bash("kubectl get pods --context prod"), ""),
    ("kubectl-no-context", "Do not use kubectl delete in prod", _bash("kubectl delete pod web-1"), "?"),
    ("drop-users", "Do not drop the users table", ("execute_sql", {"query": "DROP TABLE users;"}), "✗"),
    ("drop-users-psql", "Do not drop the users table", _bash('psql -d app -c "DROP TABLE IF EXISTS users"'), "✗"),
    ("drop-other-table", "Do not drop the users table", ("execute_sql", {"query": "DROP TABLE users_backup"}), ""),
    ("select-users", "Do not drop the users table", ("execute_sql", {"query": "SELECT * FROM users"}), ""),
    ("edit-package-json", "Do not modify package.json", ("Edit", {"file_path": "/app/package.json",
                                                                  "old_string": "a", "new_string": "b"}), "✗"),
    ("read-package-json", "Do not modify package.json", ("Read", {"file_path": "/app/package.json"}), ""),
    ("cat-package-json", "Do not modify package.json", _bash("cat package.json"), ""),
    ("redirect-package-json", "Do not modify package.json", _bash("echo '{}' > package.json"), "✗"),
    ("deploy-friday", "Don't deploy on Friday", _bash("./deploy.sh"), "?"),  # at: a Friday (below)
    ("npm-publish", "Never run npm publish", _bash("npm publish --access public"), "✗"),
    ("npm-publish-dry", "Never run npm publish", _bash("npm publish --dry-run"), "·"),
    ("npm-publish-echo", "Never run npm publish", _bash("echo npm publish"), ""),
    ("restart-nginx", "Never restart nginx", _bash("sudo systemctl restart nginx"), "✗"),
    ("status-nginx", "Never restart nginx", _bash("systemctl status nginx"), ""),
    ("install-packages", "Do not install new packages", _bash("pip install requests"), "✗"),
    ("install-lockfile", "Do not install new packages", _bash("npm ci"), ""),
    ("commit-main", "Don't commit to main", _bash("git commit -am 'fix'"), "?"),
    ("unreadable-rule", "不得修改生产库", _bash("git push origin main"), ""),
    ("substitution-runs", "Never push to main", _bash('echo "$(git push origin main)"'), "✗"),
    ("single-quoted-subst", "Never push to main", _bash("echo '$(git push origin main)'"), ""),
    ("codex-argv", "Never push to main", ("shell", {"command": ["bash", "-lc", "git push origin main"]}), "✗"),
    ("gemini-shell", "Never push to main", ("run_shell_command", {"command": "git push origin main"}), "✗"),
    # Chinese rules
    ("zh-rm-rf", "禁止执行 rm -rf", _bash("rm -rf node_modules"), "✗"),
    ("zh-rm-rf-echo", "禁止执行 rm -rf", _bash("echo 'rm -rf 很危险'"), ""),
    ("zh-delete-dist", "不准删除 dist 目录", _bash("rm -r dist"), "✗"),
    ("zh-delete-dist-other", "不准删除 dist 目录", _bash("rm -r dist2"), ""),
    ("zh-modify-file", "严禁修改 package.json", ("Write", {"file_path": "package.json", "content": "{}"}), "✗"),
    ("zh-modify-read", "严禁修改 package.json", ("Read", {"file_path": "package.json"}), ""),
    ("zh-restart", "不要重启 nginx", _bash("systemctl restart nginx"), "✗"),
    ("zh-restart-other", "不要重启 nginx", _bash("systemctl restart redis"), ""),
    ("zh-force-push", "禁止 git push --force", _bash("git push --force origin main"), "✗"),
    ("zh-push-dry", "不要推送到 main 分支", _bash("git push -n origin main"), "·"),
    ("zh-kubectl", "不要执行 kubectl delete", _bash("kubectl delete ns staging"), "✗"),
    ("zh-kubectl-get", "不要执行 kubectl delete", _bash("kubectl get ns"), ""),
    # hostile and odd shapes
    ("push-in-ssh", "Never push to main", _bash("ssh ci 'cd repo && git push origin main'"), "✗"),
    ("push-quoted-arg-to-python", "Never push to main", _bash("python -c 'print(\"git push origin main\")'"), ""),
    ("push-unclosed-quote", "Never push to main", _bash("git push origin main 'oops"), "?"),
    ("push-nested-too-deep", "Never push to main", _bash(_nested("git push origin main", 8)), "?"),
    ("push-nested-within-reach", "Never push to main", _bash(_nested("git push origin main", 3)), "✗"),
    ("rm-rf-in-heredoc-to-bash", "Do not run rm -rf", _bash("bash <<EOF\nrm -rf /tmp/x\nEOF"), "✗"),
    ("apply-patch-delete", "Do not delete the .env file",
     ("apply_patch", {"input": "*** Begin Patch\n*** Delete File: .env\n*** End Patch"}), "✗"),
    ("sed-in-place", "Do not modify package.json", _bash("sed -i 's/1.0/1.1/' package.json"), "✗"),
    ("sed-print", "Do not modify package.json", _bash("sed -n '1,5p' package.json"), ""),
    ("args-not-a-dict", "Never push to main", ("Bash", {"command": ["git", "push", "origin", "main"]}), "✗"),
    # shell keywords start a command's words, they are not the command (seen in the real transcripts' loops)
    ("rm-rf-in-loop", "Do not run rm -rf", _bash("for d in a b; do rm -rf $d; done"), "✗"),
    ("push-in-if", "Never push to main", _bash("if git diff --quiet; then git push origin main; fi"), "✗"),
    ("for-words-are-data", "Do not run rm -rf", _bash("for w in rm -rf; do echo $w; done"), ""),
    # other tools, by name and arguments, only where the mapping is exact
    ("mcp-push-main", "Never push to main",
     ("mcp__github__push_files", {"owner": "o", "repo": "r", "branch": "main", "files": [{"path": "a"}]}), "✗"),
    ("mcp-push-dev", "Never push to main", ("mcp__github__push_files", {"branch": "dev", "files": []}), ""),
    ("mcp-create-branch-main", "Never push to main", ("mcp__github__create_branch", {"branch": "main"}), ""),
    ("mcp-merge-pr", "Do not merge into main", ("mcp__github__merge_pull_request", {"pull_number": 3}), "?"),
    ("tool-kubectl-delete", "不要执行 kubectl delete", ("kubectl_delete", {"resource": "pod", "name": "x"}), "✗"),
    ("tool-deploy-prod", "Do not deploy to production", ("deploy_service", {"environment": "production"}), "✗"),
    ("tool-deploy-staging", "Do not deploy to production", ("deploy_service", {"environment": "staging"}), ""),
    ("tool-restart-nginx", "Never restart nginx", ("restart_service", {"service": "nginx"}), "✗"),
    ("tool-restart-redis", "Never restart nginx", ("restart_service", {"service": "redis"}), ""),
    ("demo-run-export", "不得修改生产库", ("run_export", {"batch": 500}), ""),
    ("push-notification", "Never push to main", ("send_push_notification", {"message": "done"}), ""),
    ("delete-message", "不要删除 build 目录", ("delete_message", {"message_id": 3}), ""),
    ("git-push-tool-no-branch", "Never push to main", ("git_push", {"remote": "origin"}), "?"),
    # arguments a provider sent as text that is not JSON (kept by the importers as "_raw_arguments")
    ("raw-args-push", "Never push to main", ("Bash", {"_raw_arguments": '{"command": "git push origin main"'}), "?"),
    ("raw-args-other", "Never push to main", ("Bash", {"_raw_arguments": '{"command": "ls -la"'}), ""),
    # rules as people write them: the words past a command, a condition, a day, a generic object
    ("force-to-main-other-branch", "never `git push --force` to main", _bash("git push -f origin feature"), ""),
    ("force-to-main", "never `git push --force` to main", _bash("git push -f origin main"), "✗"),
    ("force-shared-branches", "Don't use git push -f on shared branches", _bash("git push -f origin feature"), "?"),
    ("commit-secrets-plain-commit", "Never commit secrets", _bash("git commit -am wip"), ""),
    ("commit-env-staged", "Do not commit .env files", _bash("git add .env && git commit -m x"), "?"),
    ("push-without-tests", "Do not push without running tests", _bash("git push origin main"), ""),
    ("push-main-on-friday", "Never push to main on Friday", _bash("git push origin main"), "?"),
    ("weekend-push", "Never push to production on weekends", _bash("git push origin production"), "?"),
    ("public-api-one-word", "Do not change the public API", ("Edit", {"file_path": "src/api.go"}), ""),
    ("write-into-etc", "Do not write to /etc", _bash("echo x > /etc/hosts"), "✗"),
    ("update-deps-any-edit", "Do not update dependencies", ("Edit", {"file_path": "src/main.py"}), ""),
    ("merge-prs", "Do not merge PRs", _bash("gh pr merge 12 --squash"), "✗"),
    ("no-verify", "Do not use --no-verify", _bash("git commit --no-verify -m x"), "✗"),
    ("git-add-capital-a", "Never use git add -A", _bash("git add -A"), "✗"),
    ("delete-any-files", "Do not delete any files", _bash("rm docs/blue.md"), "✗"),
    # casual rules: a bare verb ("don't push yet"), "anything", an adjective, a relative scope
    ("bare-push-yet", "don't push yet", _bash("git push origin feature"), "✗"),
    ("bare-push-zh", "先不要推送", _bash("git push"), "✗"),
    ("bare-commit-zh", "不要提交", _bash("git commit -m x"), "✗"),
    ("commit-anything", "don't commit anything", _bash("git commit -m x"), "✗"),
    ("bare-push-status", "don't push yet", _bash("git status"), ""),
    ("existing-tests", "don't modify the existing tests", ("Edit", {"file_path": "tests/test_a.py"}), "✗"),
    ("anything-else", "don't change anything else", ("Edit", {"file_path": "src/else.py"}), ""),
    ("vendor-inside", "don't edit files in vendor/", ("Edit", {"file_path": "vendor/lib/a.go"}), "✗"),
    ("find-exec-rm", "Do not run rm -rf", _bash("find . -name '*.tmp' -exec rm -rf {} +"), "?"),
    ("git-clean-any", "Do not delete any files", _bash("git clean -fdx"), "✗"),
    ("git-clean-build", "不要删除 build 目录", _bash("git clean -fdx"), "?"),
    ("git-clean-dry", "Do not delete any files", _bash("git clean -n -d"), "·"),
    ("git-clean-named-other", "不要删除 build 目录", _bash("git clean -fd dist/"), ""),
    ("edit-readme-stem", "不要改 README", ("Edit", {"file_path": "/r/README.md"}), "?"),
    ("redirect-tests-out", "Don't modify the tests", _bash("go test ./... > /tmp/tests.out"), "?"),
    ("edit-readme-exact", "Do not edit README.md", ("Edit", {"file_path": "/r/README.md"}), "✗"),
    ("drop-any-tables", "Don't drop any tables", ("execute_sql", {"query": "DROP TABLE sessions"}), "✗"),
    ("delete-any-zh", "不要删除任何文件", _bash("rm notes.txt"), "✗"),
]


def _session(rule: str, tool: str, args: dict[str, Any], *, status: str = "active", sources: tuple[str, ...] = ("evt:1",),
             at: str = "2025-05-02T10:00:00Z", writer: str = "user") -> list[Any]:
    facts = [Fact("constraint.r", "constraint", rule, status, sources, writer)]
    events = [LogEvent(1, "user_message", "user", rule),
              LogEvent(2, "tool_call", "model", None, tool, "c1", args, at=at),
              LogEvent(3, "tool_result", "tool", "ok", tool, "c1")]
    return [facts, events]


@pytest.mark.parametrize(("rule", "call", "mark"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_labelled_case(rule: str, call: tuple[str, dict[str, Any]], mark: str) -> None:
    found = acts_against_rules(*_session(rule, *call))  # 2025-05-02 is a Friday
    assert [h.mark for h in found.hits] == ([mark] if mark else [])
    if mark:
        (hit,) = found.hits
        assert hit.seq == 2 and hit.key == "constraint.r" and hit.matched


def test_a_call_before_the_rule_was_said_is_not_against_it() -> None:
    facts, events = _session("Never push to main", *_bash("git push origin main"), sources=("evt:5",))
    assert acts_against_rules(facts, events).hits == []


def test_a_pending_rule_is_at_most_unsure_and_says_pending() -> None:
    found = acts_against_rules(*_session("Never push to main", *_bash("git push origin main"), status="pending"))
    (hit,) = found.hits
    assert hit.mark == "?" and hit.verdict == "against" and "pending" in hit.why()


def test_a_rule_a_tool_proposed_is_not_read_but_listed() -> None:
    found = acts_against_rules(*_session("Never push to main", *_bash("git push origin main"), status="pending",
                                         writer="tool"))
    assert found.hits == [] and [n["key"] for n in found.not_counted] == ["constraint.r"]


def test_a_rule_citing_no_event_is_unsure_not_a_finding() -> None:
    (hit,) = acts_against_rules(*_session("Never push to main", *_bash("git push origin main"), sources=())).hits
    assert hit.mark == "?" and "cites no event" in hit.why()


def test_deploying_on_a_day_that_is_friday_nowhere_is_not_against_the_rule() -> None:
    # Wednesday noon UTC: no time zone makes it Friday
    found = acts_against_rules(*_session("Don't deploy on Friday", *_bash("./deploy.sh"), at="2025-04-30T12:00:00Z"))
    assert found.hits == []


def test_a_rule_no_call_can_show_is_listed_as_not_read() -> None:
    found = acts_against_rules(*_session("不得修改生产库", *_bash("git push origin main")))
    assert [n["key"] for n in found.not_read] == ["constraint.r"] and found.checked == []


def test_the_hit_names_the_event_the_rule_and_the_words() -> None:
    (hit,) = acts_against_rules(*_session("Never push to main", *_bash("cd app && git push origin main"))).hits
    d = hit.as_dict()
    assert d["code"] == "action_against_rule" and d["evt"] == "evt:2" and d["key"] == "constraint.r"
    assert d["matched"] == ["git", "push", "main"] and d["ran"] == "git push origin main" and d["said_at"] == "evt:1"
    assert "evt:2" in d["message"] and "constraint.r" in d["message"]


def _calls(rule: str, *commands: str, failed: tuple[int, ...] = ()) -> list[tuple[int, str]]:
    """Marks of a session's calls in order: (the call's index, mark); ``failed``: calls whose result is an error."""
    events = [LogEvent(1, "user_message", "user", rule)]
    for i, command in enumerate(commands):
        events += [LogEvent(2 + 2 * i, "tool_call", "model", None, "Bash", f"c{i}", {"command": command},
                            at="2025-05-02T10:00:00Z"),
                   LogEvent(3 + 2 * i, "tool_result", "tool", "x", "Bash", f"c{i}", is_error=i in failed)]
    found = acts_against_rules([Fact("constraint.r", "constraint", rule, "active", ("evt:1",), "user")], events)
    return [((h.seq - 2) // 2, h.mark) for h in found.hits]


@pytest.mark.parametrize(("rule", "commands", "failed", "marks"), [
    ("Don't commit to main", ("git checkout main", "git commit -m x"), (), [(1, "✗")]),
    ("Don't commit to main", ("git checkout -b fix", "git commit -m x"), (), []),
    ("Don't commit to main", ("git switch main && git commit -m x",), (), [(0, "✗")]),
    ("Don't commit to main", ("git checkout main", "git commit -m x"), (0,), [(1, "?")]),
    ("Don't commit to main", ("git commit -m x",), (), [(0, "?")]),
    ("Never push to main", ("git checkout -b fix", "git push"), (), []),
    ("Never push to main", ("git checkout -b fix", "git checkout main; git push"), (), [(1, "✗")]),
], ids=["checkout-main-commit", "branch-fix-commit", "switch-and-commit", "checkout-failed", "no-checkout",
        "push-on-fix", "push-after-checkout-main"])
def test_the_branch_an_earlier_checkout_chose(rule: str, commands: tuple[str, ...], failed: tuple[int, ...],
                                               marks: list[tuple[int, str]]) -> None:
    assert _calls(rule, *commands, failed=failed) == marks


def _with_user(rule: str, said: str, command: str, said_first: bool = True) -> list[str]:
    """The marks when the user says ``said`` before the call (or after it)."""
    talk = LogEvent(2 if said_first else 4, "user_message", "user", said)
    call = [LogEvent(3 if said_first else 2, "tool_call", "model", None, "Bash", "c1", {"command": command}),
            LogEvent(4 if said_first else 3, "tool_result", "tool", "ok", "Bash", "c1")]
    events = sorted([LogEvent(1, "user_message", "user", rule), talk, *call], key=lambda e: e.seq)
    found = acts_against_rules([Fact("constraint.r", "constraint", rule, "active", ("evt:1",), "user")], events)
    return [h.mark + (" lifted" if "lifted" in h.why() else "") for h in found.hits]


@pytest.mark.parametrize(("rule", "said", "first", "marks"), [
    ("Never push to main", "OK, you can push to main now.", True, ["? lifted"]),
    ("Never push to main", "Pushing to main is fine now.", True, ["? lifted"]),
    ("不要推送到 main 分支", "现在可以推送到 main 了。", True, ["? lifted"]),
    ("Never push to main", "Can you push to main?", True, ["✗"]),
    ("Never push to main", "Do not push to main, seriously.", True, ["✗"]),
    ("Never push to main", "OK, you can push to main now.", False, ["✗"]),
    ("Never push to main", "Great work. Now push it to main.", True, ["? lifted"]),
    ("Do not run rm -rf", "ok, run rm -rf build", True, ["? lifted"]),
    ("Never push to main", "Did you push to main?", True, ["✗"]),
], ids=["lifted-can", "lifted-fine", "lifted-zh", "a-question-lifts-nothing", "restated", "lifted-after-the-call",
        "asked-for", "asked-for-command", "a-question-asks-for-nothing"])
def test_a_rule_the_user_lifted_before_the_call_is_a_question(rule: str, said: str, first: bool,
                                                                marks: list[str]) -> None:
    assert _with_user(rule, said, "rm -rf build" if "rm" in rule else "git push origin main", first) == marks


def _with_status(rule: str, status_out: str, command: str) -> list[str]:
    """The marks of ``command`` after a ``git status`` whose result is ``status_out``."""
    events = [LogEvent(1, "user_message", "user", rule),
              LogEvent(2, "tool_call", "model", None, "Bash", "c1", {"command": "git status"}),
              LogEvent(3, "tool_result", "tool", status_out, "Bash", "c1"),
              LogEvent(4, "tool_call", "model", None, "Bash", "c2", {"command": command}),
              LogEvent(5, "tool_result", "tool", "ok", "Bash", "c2")]
    found = acts_against_rules([Fact("constraint.r", "constraint", rule, "active", ("evt:1",), "user")], events)
    return [h.mark for h in found.hits]


@pytest.mark.parametrize(("rule", "out", "command", "marks"), [
    ("Don't commit to main", "On branch main\nChanges to be committed:", "git commit -m x", ["✗"]),
    ("Don't commit to main", "On branch fix/login\nnothing to commit", "git commit -m x", []),
    ("Never push to main", "On branch feature\nYour branch is ahead", "git push", []),
    ("Don't commit to main", "fatal: not a git repository", "git commit -m x", ["?"]),
], ids=["status-main", "status-other", "status-push-other", "status-unreadable"])
def test_the_branch_a_git_status_result_names(rule: str, out: str, command: str, marks: list[str]) -> None:
    assert _with_status(rule, out, command) == marks
