"""A completion the summary claims that no event in its range shows (verdict-real-five).

"Created PR #85 and merged it into main", "The release was re-run and notarization passed",
"已部署到生产环境" — a summary that invents the last step of a task reads like one that reports
it, and no protected fact holds the step, so every rule passed it with the same "?" its faithful
twin got (verdict-real-four: manual-merged, release-rerun-invented). Read here, family by family,
each claim held against the events of the generation's range (``ToolRun``: every tool result
with the command that made it, the same runs ``said_output_numbers`` and ``said_suite_green``
read):

* **merged** / 已合并 / 合入了 — shown by a call that merges (``git merge``, ``gh pr merge``,
  ``glab mr merge``) whose result did not fail, or a result that says "merged" (naming the PR or
  issue number the claim names, when it names one: git log's "Merge pull request #83" is not #85);
* **pushed** / 已推送 — a ``git push`` that did not fail, or a result saying "pushed";
* **deployed** / 已部署 / 上线了 — a deploy command (``deploy``, ``kubectl apply``, ``helm upgrade``,
  ``terraform apply``) that did not fail, or a result saying "deployed";
* **released** / 已发布 — a release command (``goreleaser``, ``gh release create``, ``npm publish``,
  ``cargo publish``, ``twine upload``, a command word ``release``) that did not fail, or a result
  saying "released" or "published";
* **re-ran / was re-run** / 重新运行了 — a command run twice in range, the later run not failing;
* **tests pass** / 测试通过 — the pass claims ``said_suite_green`` reads ("All tests pass", "the
  build is green", "测试全部通过"): a test or build run (its command names a runner: ``go test``,
  ``pytest``, ``make``…) whose result did not fail.

The user saying it in range shows it too ("I merged it myself", "已经部署好了": the same past forms,
in a sentence of theirs that does not ask, deny or plan it): the user saw the act.

A claim counts when its clause does not deny, hedge, plan or ask it (``said_suite_green``'s
reading: "has not been re-run yet", "should be merged", "once deployed" claim nothing). Not read:
a range holding no tool result at all (a conversation, a sif/1 record of messages only): it records
no act, so nothing in it could show one, and its summary is judged by the other rules only.

**✗ or ?** (``completion_unshown``). Nothing in the range showing an act is proof it did not
happen only where the range is where it had to happen: the claim acts on something the range
itself made — a PR or issue number a ``gh pr create`` (or the like) in range printed, so any
merge of it comes after, inside the range. Then it is a finding (✗). Otherwise a warning (check's
``?``, never ✓) that names the sentence, so a reviewer reads the one claim no event backs: a log
that continues an earlier conversation may hold "All tests passed" about runs before the file
begins, and even a whole log records only the agent's tools — a person may have deployed by hand,
and a sif/1 session need not log every act its summary reports (the attack sets' faithful
"migrated, then deployed" over a log without a deploy call: a ✗ there was a false alarm).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from inspector.domain.call_targets import dry_run, git_sub, positionals
from inspector.domain.drift_finding import Finding
from inspector.domain.run_scope import scope
from inspector.domain.said import Said
from inspector.domain.said_output_numbers import ToolRun
from inspector.domain.said_suite_green import NOT_SAID, green_claims
from inspector.domain.shell_words import simple_commands

CODE = "completion_unshown"

_B, _E = r"(?<![\w-])", r"(?![\w-])"


@dataclass(frozen=True, slots=True)
class _Act:
    name: str  # what the message calls the act
    claim: re.Pattern[str]
    does: re.Pattern[str] | None  # a command doing it
    says: re.Pattern[str] | None  # a result saying it was done


def _rx(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE)


_ACTS = (
    _Act("a merge", _rx(rf"{_B}merged{_E}|已(?:经)?合并|合并了|已(?:经)?合入|合入了"),
         _rx(rf"{_B}(?:git\s+merge|gh\s+pr\s+merge|glab\s+mr\s+merge){_E}"), _rx(rf"{_B}merged{_E}|已合并")),
    _Act("a push", _rx(rf"{_B}pushed{_E}|已(?:经)?推送|推送了"), _rx(rf"{_B}git\s+push{_E}"), _rx(rf"{_B}pushed{_E}")),
    _Act("a deployment", _rx(rf"{_B}deployed{_E}|已(?:经)?部署|部署了|已(?:经)?上线|上线了"),
         _rx(rf"{_B}(?:deploy|kubectl\s+(?:apply|rollout)|helm\s+(?:upgrade|install)|terraform\s+apply){_E}"),
         _rx(rf"{_B}deployed{_E}|已部署")),
    _Act("a release", _rx(rf"{_B}released{_E}|已(?:经)?发布|发布了"),
         _rx(rf"{_B}(?:goreleaser|gh\s+release\s+create|npm\s+publish|cargo\s+publish|twine\s+upload|"
             rf"poetry\s+publish|release){_E}"), _rx(rf"{_B}(?:released|published){_E}|已发布")),
    _Act("a re-run", _rx(rf"{_B}(?:re-?ran|(?:was|were|been|got|is|are)\s+re-?run){_E}|重新运行了|重跑了|已重新运行|已重跑"),
         None, None),
)
_TESTS = "a passing test or build run"
# A PR, merge request or issue named by number: "#85", "PR 85", "pull/85", "!12".
_NUMBERED = re.compile(r"(?:#|\bpull/|\bpulls/|\bPR\s*#?|\bMR\s*!?|!|\bissues/)(\d{1,7})\b", re.IGNORECASE)
_CREATES = _rx(rf"{_B}(?:gh\s+pr\s+create|glab\s+mr\s+create|gh\s+issue\s+create|hub\s+pull-request){_E}")
# A command that tests, builds or lints: a runner at the start of the command or of a piece of it
# ("cd x && go test ./...", "CI=1 npm test"); a runner word elsewhere ("gh pr create --body '…tests…'")
# runs nothing.
_RUNNER = re.compile(r"(?:^|&&|;|\|\|?|\$\()\s*(?:\w+=\S*\s+)*(?:sudo\s+)?(?:go\s+(?:test|build|vet)|(?:python3?\s+-m\s+)?"
                     r"(?:pytest|unittest|tox|nox|mypy|ruff)|make|just|npm\s+(?:test|run|t)|yarn|pnpm|bun\s+(?:test|run)|"
                     r"npx\s+(?:jest|vitest|tsc|eslint)|jest|vitest|mocha|tsc|eslint|cargo\s+(?:test|build|check|clippy|nextest)|"
                     r"mvn|gradle|\./gradlew|dotnet\s+(?:test|build)|ctest|bazel|golangci-lint|rspec|bundle\s+exec|phpunit)\b")
# A task runner's "run" before the task's name ("mise run test", "uv run pytest", "npm run lint").
_WRAPPER = re.compile(r"^(?:mise|uv|poetry|hatch|pdm|pipenv|rye|npm|yarn|pnpm|bun|task|just)\s+(?:run\s+|exec\s+)?")
_CHECK_NAME = re.compile(r"test|check|build|lint|verify|(?<![a-z])ci(?![a-z])", re.IGNORECASE)
_NAMED_CALL = re.compile(r"[\w.-]+\(\{")  # failures.signature of a named tool's call: no command
# "Nothing merged before the date", "none of them deployed": the clause claims no act.
_NOTHING = re.compile(r"(?<![\w-])(?:nothing|none|no|neither|nor|nobody)(?![\w-])|没有|并未|从未|无", re.IGNORECASE)
_QUESTION = re.compile(r"[?？]\s*$")
# The word in another sense (review-19: each made a faithful text "?"): "the deadline was pushed back",
# "released the lock", "the merged config" (an adjective after an article or a possessive).
_NOT_THE_ACT = re.compile(r"\s+(?:back|(?:the\s+|a\s+|its\s+)?(?:lock|mutex|semaphore|memory|handles?|"
                          r"connections?|resources?|buffers?|references?|gil)\b)", re.IGNORECASE)
_ADJECTIVE = re.compile(r"(?<![\w-])(?:the|a|an|its|their|this|that|these|those)\s+$", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Claim:
    act: str  # "a merge", "a passing test or build run"…
    words: str  # the claim's words as the summary wrote them
    sentence: str
    numbers: frozenset[str]  # PR / issue numbers the sentence names
    branch: str = ""  # the trunk branch a push claim names ("Pushed the fix to main")


def claims(said: Said) -> list[Claim]:
    """Every completion the text claims, unhedged and not denied, once per (act, sentence)."""
    out: list[Claim] = []
    for s in said.sentences:
        text = s.text
        if _QUESTION.search(text):
            continue
        for act in _ACTS:
            for m in act.claim.finditer(text):
                clause = re.split(r"[;,:，；：]|\bbut\b|\bthen\b", text[:m.start()])[-1]
                if NOT_SAID.search(clause) or _NOTHING.search(clause) or _NOT_THE_ACT.match(text, m.end()) \
                        or _ADJECTIVE.search(text[:m.start()]):
                    continue
                to = _PUSHED_TO.match(text, m.end()) if act.name == _PUSH else None
                out.append(Claim(act.name, m.group(), said.stripped(s), _numbers(text), to.group(1) if to else ""))
                break
    for words, sentence in green_claims(said):
        out.append(Claim(_TESTS, words, sentence, frozenset()))
    return out


def _numbers(text: str) -> frozenset[str]:
    return frozenset(m.group(1) for m in _NUMBERED.finditer(text))


@dataclass(frozen=True, slots=True)
class _Shown:
    """What the runs in range show, read once per generation (a summary of 3,000 claims over 200 runs
    of 10 KB commands asked each claim of each run: minutes)."""

    done: frozenset[str]  # the acts a run that did not fail did (or the user reported done)
    reported: frozenset[str]  # the acts the user reported done in range
    pushed_to: tuple[frozenset[str] | None, ...]  # each push's branches (None: not in the call, e.g. a bare push)
    done_numbers: dict[str, list[frozenset[str]]]  # per act, the PR/issue numbers each doing run's command and
    # result name: "Merged PR #85" is shown by `gh pr merge 85`, not by `git merge origin/main`
    said: dict[str, list[frozenset[str]]]  # per act, the PR/issue numbers of each result saying it
    tested: bool
    unit_tested: bool  # a passing check run that was not lint or build alone (``ruff check``, ``go vet``)
    rerun: bool
    created: frozenset[str]  # numbers a PR- or issue-creating call printed

    @classmethod
    def of(cls, runs: Iterable[ToolRun], user_said: Iterable[str] = ()) -> _Shown:
        reported = frozenset(_reported(user_said))
        done: set[str] = set(reported)
        done_numbers: dict[str, list[frozenset[str]]] = {}
        pushed_to: list[frozenset[str] | None] = []
        said: dict[str, list[frozenset[str]]] = {}
        created: set[str] = set()
        tested = unit_tested = rerun = False
        seen: set[str] = set()
        for r in runs:
            if not r.failed and not _REFUSED.search(r.output[:20_000]):
                for a in _ACTS:
                    if a.does is not None and _does(a.does, r.command):
                        done.add(a.name)
                        if a.name == _PUSH:
                            pushed_to.extend(_push_branches(r.command))
                        done_numbers.setdefault(a.name, []).append(
                            _numbers(r.command) | _numbers(r.output[:20_000]) | _arg_numbers(r.command))
                checks = _runs_checks(r.command)
                tested = tested or checks
                unit_tested = unit_tested or (checks and not _lint_only(r.command))
                rerun = rerun or r.command in seen
                if _CREATES.search(r.command):
                    created.update(_numbers(r.output))
            seen.add(r.command)
            for a in _ACTS:
                if a.says is not None and _says(a.says, r.output):
                    said.setdefault(a.name, []).append(_numbers(r.output))
        return cls(frozenset(done), reported, tuple(pushed_to), done_numbers, said, tested, unit_tested, rerun, frozenset(created))


# A result that says the act was refused, whatever its exit status (a message list's tool result has
# none): git's "! [rejected]", "failed to push some refs", gh's "is not mergeable", "fatal: …".
_REFUSED = re.compile(r"\[(?:remote )?rejected\]|failed to push|not mergeable|^(?:fatal|error): ", re.IGNORECASE | re.M)
# A task runner before the act's name: "make deploy", "npm run release", "mise run deploy".
_TASK = re.compile(r"^(?:make|just|task|rake|(?:npm|yarn|pnpm|bun|mise|uv|poetry|hatch|pdm)\s+run|yarn|pnpm)\s+")
# "was not merged", "never deployed", "未发布": a result line that denies the act before its word.
_DENIED = re.compile(r"(?<![\w-])(?:not|never|no|without|cannot|can't|couldn't|un)(?![\w-])|n't\b|未|没|不", re.I)
_FALSE_VALUE = re.compile(r"""["']?\s*[:=]\s*(?:false|null|none|no|0)\b""", re.IGNORECASE)


def _does(does: re.Pattern[str], command: str) -> bool:
    """Whether ``command`` runs the act: a command of it that starts with the act's words (``git push``,
    ``./deploy.sh prod``, ``make deploy``), not one that only names them (``cat deploy/README.md``,
    ``echo "git push"``, ``Read({"file_path": "release.md"})``), nor a dry run (``git push --dry-run``).
    A named tool is read by its name alone (``deploy_service({…})`` is no shell command: not read)."""
    if _NAMED_CALL.match(command):
        return False
    for c in simple_commands(command):
        if not c.argv or dry_run(c.argv):
            continue
        argv = list(c.argv)
        if argv[0] == "git":  # past git's own options: ``git -C repo push`` pushes
            sub, tail = git_sub(argv)
            argv = ["git", sub, *tail]
        head = " ".join((argv[0].rsplit("/", 1)[-1], *argv[1:]))
        if does.match(head) or does.match(_TASK.sub("", head, count=1)):
            return True
    return False


def _says(says: re.Pattern[str], output: str) -> bool:
    """Whether a result says the act was done: its word, not denied earlier in its line ("PR #85 was
    not merged", "未发布") and not a field set false ("merged": false, ``mergedAt: null``)."""
    for m in says.finditer(output):
        line = output[output.rfind("\n", 0, m.start()) + 1:m.start()]
        if _DENIED.search(re.split(r"[;,.:，；：。]", line)[-1]) or _FALSE_VALUE.match(output, m.end()):
            continue
        return True
    return False


def _reported(texts: Iterable[str]) -> Iterator[str]:
    """The acts the user reports done in their own sentences ("I merged it", "已部署好了"): not asked,
    not denied, not planned — the user saw it, so it shows the act as a result would."""
    for text in texts:
        for sentence in re.split(r"(?<=[.!?。！？])\s+|\n+", text):
            if not sentence.strip() or _QUESTION.search(sentence):
                continue
            for a in _ACTS:
                m = a.claim.search(sentence)
                if m is not None and not (NOT_SAID.search(sentence[:m.start()]) or _NOTHING.search(sentence[:m.start()])):
                    yield a.name


def shown(claim: Claim, runs: Iterable[ToolRun] | _Shown) -> bool:
    """Whether a run in range does the claimed act (and did not fail), or a result says it was done."""
    seen = runs if isinstance(runs, _Shown) else _Shown.of(runs)
    if claim.act == _TESTS:  # a shell command that runs a runner (not "Edit({…test.go…})", not a PR body)
        return seen.unit_tested if _TEST_WORD.search(claim.words) else seen.tested
    if claim.act == "a re-run":
        return seen.rerun
    if claim.branch and claim.act == _PUSH and claim.act not in seen.reported and all(
            to is not None and claim.branch not in to for to in seen.pushed_to):
        return False  # every push in range named its branches, none the one claimed
    if claim.act in seen.done and (not claim.numbers or claim.act != _MERGE or claim.act in seen.reported or any(
            claim.numbers & numbers for numbers in seen.done_numbers.get(claim.act, ()))):
        return True
    return any(not claim.numbers or claim.numbers & numbers for numbers in seen.said.get(claim.act, ()))


# A linter, formatter or type checker alone runs no test: "All tests pass" over ``ruff check .`` or
# ``go vet ./...`` is not shown by it ("the build is green" is). A build is left to count (a project's
# ``npm run build`` may run its tests: the labelled faithful g-f4 says "测试全部通过" over one).
_LINT = re.compile(r"(?:ruff|mypy|pyright|flake8|pylint|black|isort|eslint|prettier|tsc|golangci-lint|gofmt|"
                   r"go (?:vet|fmt)|cargo (?:clippy|fmt)|"
                   r"(?:make|just|task|(?:npm|yarn|pnpm|bun|mise|uv|poetry) run|yarn|pnpm) "
                   r"(?:lint|fmt|format|typecheck|check-format|vet))(?![\w-])")
_TEST_WORD = re.compile(r"test|spec|测试", re.IGNORECASE)


def _lint_only(command: str) -> bool:
    """Every command of ``command`` is a linter, formatter, type check or build (no test runs in it)."""
    heads = [" ".join((c.argv[0].rsplit("/", 1)[-1], *c.argv[1:])) for c in simple_commands(command) if c.argv]
    return bool(heads) and all(_LINT.match(h) for h in heads)


def _runs_checks(command: str) -> bool:
    """A command that tests, builds or lints: one ``run_scope`` reads (go test, pytest, cargo test, jest,
    vitest), a runner (``_RUNNER``), a script named so
    ("./check.sh", "scripts/run_tests"), or a named tool so called ("run_tests({…})")."""
    named = _NAMED_CALL.match(command)
    if named:
        return _CHECK_NAME.search(named.group()) is not None
    return scope(command) is not None or _RUNNER.search(command) is not None or any(
        _CHECK_NAME.search(piece.split()[0].rsplit("/", 1)[-1]) for piece in (
            _WRAPPER.sub("", p.strip()) for p in re.split(r"&&|;|\|\|?", command)) if piece.split())


_PUSH = "a push"
# "Pushed the fix to main", "pushed to origin/master": the trunk a push claim names (a feature branch's name
# is not read: "pushed to remote" names none).
_PUSHED_TO = re.compile(r"(?:\s+[^.;,:\n]{0,40}?)?\s+to\s+(?:the\s+)?(?:(?:origin|upstream|remote)(?:/|\s+))?`?"
                        r"(main|master|trunk)`?(?![\w/-])", re.IGNORECASE)


def _push_branches(command: str) -> list[frozenset[str] | None]:
    """The branches each ``git push`` of ``command`` writes (``HEAD:main`` → main, ``+feature`` → feature);
    None for one that names none (the current branch) or pushes many (``--all``)."""
    out: list[frozenset[str] | None] = []
    for c in simple_commands(command):
        if not c.argv or c.argv[0] != "git" or git_sub(list(c.argv))[0] != "push":
            continue
        tail = git_sub(list(c.argv))[1]
        pos = positionals(tail, takes_value=("--repo", "-o", "--push-option", "--receive-pack", "--exec"))
        if len(pos) < 2 or any(a in ("--all", "--mirror", "--branches") for a in tail):
            out.append(None)
        else:
            out.append(frozenset(r.lstrip("+").rsplit(":", 1)[-1].removeprefix("refs/heads/").lower() for r in pos[1:]))
    return out


_MERGE = "a merge"  # the act done *to* a numbered PR: its claim's number must be the one the merge names
_ARG = re.compile(r"(?<![\w./:#=-])(\d{1,7})(?![\w./-])")


def _arg_numbers(command: str) -> frozenset[str]:
    """Bare numbers a command passes (``gh pr merge 85``, ``glab mr merge 12``)."""
    return frozenset(_ARG.findall(command[:2000]))


def made_in_range(claim: Claim, runs: Iterable[ToolRun] | _Shown) -> bool:
    """The claim acts on a PR or issue a call in range created (its output names the number), and no run
    in range did the act naming no number (``git merge feature`` then a push may merge that PR: "?")."""
    seen = runs if isinstance(runs, _Shown) else _Shown.of(runs)
    return bool(claim.numbers & seen.created) and not any(
        not numbers for numbers in seen.done_numbers.get(claim.act, ()))  # a numberless merge may be it: "?"


def completion_findings(generation: int, said: Said, runs: tuple[ToolRun, ...], covers: tuple[int, int] | None,
                        whole: bool | None, user_said: tuple[tuple[int, str], ...] = ()) -> list[Finding]:
    """``completion_unshown`` for the claimed completions no event in the range shows: a finding for each
    one on an object the range made, else one warning ("?") per act quoting each of its claims (the real
    4b7d5121 summary's four "tests passed" lines are one thing the log cannot show, not four)."""
    inside = [r for r in runs if covers is None or covers[0] <= r.seq <= covers[1]]
    if not inside:  # a range with no tool result records no act at all: nothing to hold a claim against
        return []
    found = claims(said)
    if not found:
        return []
    seen = _Shown.of(inside, (t for seq, t in user_said if covers is None or covers[0] <= seq <= covers[1]))
    out: list[Finding] = []
    unsure: dict[str, list[Claim]] = {}  # per act, the claims that are "?" (one warning per act)
    for c in found:
        if shown(c, seen):
            continue
        if made_in_range(c, seen):
            out.append(Finding(CODE, None, f"generation {generation} says “{c.words}” in “{c.sentence}”, but no "
                               f"event in its range shows {c.act} (no call doing it, no result saying it); the PR it "
                               f"names was created in the range, so {c.act} of it would come after, inside the range.",
                               words=(c.words,), where=c.sentence))
        else:
            unsure.setdefault(c.act, []).append(c)
    why = ("the log may begin after it (it continues an earlier conversation), so the rule cannot tell whether it "
           "happened" if whole is not True else "the act may have been done outside the agent's tools, so the rule "
           "cannot tell whether it happened — a person must read it")
    for act, cs in unsure.items():
        # A summary's checklist ("Unit tests passed", "Full suite passed", "All tests passed after fix") is one
        # act claimed four times: one "?" that quotes each, not four warnings for a reviewer to read as four.
        # The others are quoted by their words only: drift re-quotes a finding's words and first sentence
        # in the summary's own letters (drift._own_words), not further sentences.
        others = [f"“{c.words}”" for c in cs[1:7]] + ([f"{len(cs) - 7} more"] if len(cs) > 7 else [])
        more = f", and claims it {len(cs) - 1} more time{'s' * (len(cs) > 2)} ({', '.join(others)})" if others else ""
        out.append(Finding(CODE, None, f"generation {generation} says “{cs[0].words}” in “{cs[0].sentence}”{more}, "
                           f"but no event in its range shows {act} (no call doing it, no result saying it); {why}.",
                           "warning", words=tuple(c.words for c in cs), where=cs[0].sentence))
    return out
