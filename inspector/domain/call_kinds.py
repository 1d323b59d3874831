"""Acts of a kind a command shows by its name: deploying (``./deploy.sh``, ``npm publish``,
``kubectl apply``…), installing packages, committing, merging, restarting or stopping a service.

Each returns ✗ only when the call shows all of it: the command of that kind and every object word
the rule names among its words. What the call cannot show is ``unsure`` with the reason: the
branch a ``git commit`` writes, the weekday where the user is (a call's time is UTC; "on Friday"
is said in the user's time zone, which the log does not give), the target a deploy script picks.
Pure, stdlib only.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from inspector.domain.call_targets import CallAct, argv_words, git_sub, positionals
from inspector.domain.rule_acts import RuleAct
from inspector.domain.shell_words import SimpleCommand

_PUBLISH = frozenset({("npm", "publish"), ("yarn", "publish"), ("pnpm", "publish"), ("cargo", "publish"),
                      ("twine", "upload"), ("kubectl", "apply"), ("helm", "install"), ("helm", "upgrade"),
                      ("terraform", "apply"), ("pulumi", "up"), ("netlify", "deploy"), ("firebase", "deploy"),
                      ("docker", "push"), ("gem", "push"), ("poetry", "publish"), ("uv", "publish"),
                      ("hatch", "publish"), ("flit", "publish"), ("mvn", "deploy"), ("gradle", "publish"),
                      ("vercel", ""), ("fly", "deploy"), ("flyctl", "deploy")})
_INSTALLERS = {"pip": ("install",), "pip3": ("install",), "npm": ("install", "i", "add"), "pnpm": ("install", "i", "add"),
               "yarn": ("add",), "apt": ("install",), "apt-get": ("install",), "brew": ("install",),
               "gem": ("install",), "cargo": ("add", "install"), "go": ("get", "install"), "poetry": ("add",),
               "uv": ("add",), "conda": ("install",), "dnf": ("install",), "yum": ("install",), "apk": ("add",)}
_SERVICES = frozenset({"systemctl", "service", "docker", "supervisorctl", "pm2", "brew"})
_SERVICE_VERBS = {"restart": ("restart",), "重启": ("restart",), "stop": ("stop", "kill"), "停止": ("stop", "kill"),
                  "关闭": ("stop", "kill"), "kill": ("kill", "stop"), "shutdown": ("shutdown",), "reboot": ("reboot",)}
WEEKDAY_NAMES = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def kind_act(act: RuleAct, c: SimpleCommand, at: str | None, branch: str | None = None) -> CallAct | None:
    """``c`` against a rule of kind deploy, install, commit, merge or restart."""
    argv = c.argv
    if act.kind == "deploy":
        return _deploy(act, argv)
    if act.kind == "install":
        return _install(act, argv)
    if act.kind in ("commit", "merge") and argv[0] in ("git", "gh"):
        sub, tail = git_sub(list(argv)) if argv[0] == "git" else (" ".join(argv[1:3]), list(argv[3:]))
        if sub not in ({"commit": ("commit",), "merge": ("merge", "pr merge")}[act.kind]):
            return None
        words = ("git" if argv[0] == "git" else "gh", sub)
        if not act.objects:
            return CallAct("against", words, "", "")
        if act.kind == "commit" and branch is not None:  # the branch an earlier checkout chose
            return CallAct("against", (*words, branch), "", "") if branch in act.objects else None
        if act.kind == "merge" and argv[0] == "git" and all(o in positionals(tail) for o in act.objects):
            return CallAct("unsure", words, "", f"merges {' '.join(act.objects)} into the current branch, which the "
                           "call does not name (the rule forbids merging into it)")
        return CallAct("unsure", words, "", f"{act.kind}s on a branch the call does not name: it may be "
                       + " ".join(act.objects))
    if act.kind == "restart":
        return _restart(act, argv)
    if act.kind == "commit_content" and argv[0] == "git":
        return _commit_content(act, argv)
    return None


def _commit_content(act: RuleAct, argv: tuple[str, ...]) -> CallAct | None:
    """"Do not commit .env": a ``git commit`` naming the path is the act; a ``git add`` of it stages
    what the next commit takes (?); a commit naming no path commits what was staged (not read)."""
    sub, tail = git_sub(list(argv))
    if sub not in ("add", "commit"):
        return None
    if not act.objects:  # "don't commit anything": every commit
        return CallAct("against", ("git", "commit"), "", "") if sub == "commit" else None
    paths = positionals(tail, takes_value=("-m", "--message", "-F", "--file", "-C", "-c", "--author", "--date"))
    low = [(p, p.lower().rstrip("/").rsplit("/", 1)[-1]) for p in paths]
    hit = [p for p, base in low for o in act.objects if base.lstrip(".") == o or base.rsplit(".", 1)[0] == o
           or base == o]
    if not hit:
        return None
    if sub == "add":
        return CallAct("unsure", ("git", "add", *hit), "", "stages it; the commit that follows is the act")
    return CallAct("against", ("git", "commit", *hit), "", "")


def _deploy(act: RuleAct, argv: tuple[str, ...]) -> CallAct | None:
    heads = [a.rsplit("/", 1)[-1].lower() for a in argv[:3]]
    sub = positionals(argv[1:])[:1]
    named = next((h for h in heads if "deploy" in h or "release" in h and h.endswith(".sh")), None)
    if named is None and (argv[0], sub[0] if sub else "") not in _PUBLISH and (argv[0], "") not in _PUBLISH:
        return None
    words = (argv[0], *(sub[:1] if named is None else [named] if named != argv[0] else []))
    tokens = argv_words(argv)
    missing = [o for o in act.objects if o not in tokens]
    if missing:
        return CallAct("unsure", words, "", f"a deploy; the call does not name {missing[0]!r}, so where it "
                       "deploys is not in it")
    return CallAct("against", words + tuple(act.objects), "", "")


def days_somewhere(at: str) -> set[int] | None:
    """The weekdays the instant ``at`` falls on in some time zone (UTC-12 to UTC+14)."""
    try:
        t = datetime.fromisoformat(at.replace("Z", "+00:00"))
    except ValueError:
        return None
    if t.tzinfo is None:  # a time without its zone: read as UTC, as the importers write times
        t = t.replace(tzinfo=UTC)
    return {(t + timedelta(hours=h)).utctimetuple().tm_wday for h in (-12, 0, 14)}


def day_check(act: RuleAct, found: CallAct | None, at: str | None) -> CallAct | None:
    """A rule bound to days ("on Friday", "on weekends"): a call on none of them in any time zone is
    not the act; one that may be (the user's zone is not in the log), or whose time is unknown, is ?."""
    if found is None or not act.days:
        return found
    named = " or ".join(WEEKDAY_NAMES[d] for d in act.days)
    days = days_somewhere(at) if at else None
    if at and days is not None and not set(act.days) & days:
        return None
    if found.verdict != "against":
        return found
    why = (f"the call's time is not known, so whether it ran on a {named} is not" if not at else
           f"the call's time {at!r} could not be read" if days is None else
           f"at {at}: a {named} in some time zone (the user's is not in the log)")
    return CallAct("unsure", found.matched, found.ran, why)


def service_verbs(verb: str) -> tuple[str, ...]:
    """The English words a service command uses for a rule's verb ("重启" → restart)."""
    return _SERVICE_VERBS.get(verb, ())


def _install(act: RuleAct, argv: tuple[str, ...]) -> CallAct | None:
    head = argv[0]
    rest = list(argv[1:])
    if head in ("python", "python3") and rest[:2] == ["-m", "pip"]:
        head, rest = "pip", rest[2:]
    if head == "uv" and rest[:1] == ["pip"]:
        head, rest = "pip", rest[1:]
    subs = _INSTALLERS.get(head)
    pos = positionals(rest, takes_value=("-r", "--requirement", "-c", "--constraint", "-e", "--editable", "-t",
                                         "--target", "-i", "--index-url"))
    if not subs or not pos or pos[0] not in subs:
        return None
    packages = [p for p in pos[1:] if p not in (".",)]
    words = (head, pos[0])
    if not packages:
        return CallAct("unsure", words, "", "installs what a file or the project lists, not named in the call")
    names = {_package_name(p) for p in packages}
    if not act.objects:
        return CallAct("against", words + tuple(packages[:3]), "", "")
    hits = [o for o in act.objects if o in names]
    return CallAct("against", words + tuple(hits), "", "") if hits else None


def _package_name(spec: str) -> str:
    name = spec.lower()
    for cut in ("==", ">=", "<=", "~=", "!=", ">", "<", "[", ";"):
        name = name.split(cut, 1)[0]
    return name.rsplit("@", 1)[0] if not name.startswith("@") else "@" + name[1:].split("@", 1)[0]


def _restart(act: RuleAct, argv: tuple[str, ...]) -> CallAct | None:
    verbs = _SERVICE_VERBS.get(act.verb, ())
    head = argv[0]
    if head in ("reboot", "shutdown", "poweroff", "halt") and act.verb in ("reboot", "shutdown", "关闭"):
        return CallAct("against", (head,), "", "") if not act.objects else None
    pos = positionals(argv[1:])
    if head in ("kill", "pkill", "killall") and "kill" in verbs:
        targets = pos
        verb_word = head
    elif head in _SERVICES and pos and (pos[0] in verbs or len(pos) > 1 and pos[1] in verbs):
        verb_word = pos[0] if pos[0] in verbs else pos[1]
        targets = [p for p in pos if p != verb_word]
    elif head == "kubectl" and pos[:2] == ["rollout", "restart"] and "restart" in verbs:
        verb_word, targets = "rollout restart", pos[2:]
    else:
        return None
    if not act.objects:
        return CallAct("against", (head, verb_word), "", "")
    words = argv_words(targets)
    if all(o in words or any(o in t.lower().split(".")[0].split("@")[0].split("/") for t in targets)
           for o in act.objects):
        return CallAct("against", (head, verb_word, *act.objects), "", "")
    return None


__all__ = ["WEEKDAY_NAMES", "day_check", "days_somewhere", "kind_act", "service_verbs"]
