"""What a reviewer reads must add up (flow-ten).

"gen 1 keeps 3 of 6 facts" with the other three ``unknown`` read as three lost: the survival
count says kept, lost (missing or contradicted) and not judged apart, in the header, the
Survival tab, the report and the ``survival`` command.
"""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from inspector.cli.main import cli
from inspector.domain.survival import Fact, survival


def test_a_count_with_unknown_facts_does_not_read_as_facts_lost() -> None:
    facts = [Fact("g1", "goal", "ship the export fix", "active", ("evt:1",), "user"),
             Fact("c1", "constraint", "never touch the production database", "active", ("evt:2",), "user")]
    out = survival(1, "We ship the export fix.", [], (1, 4), facts)
    kept, lost, unknown = out.tally()
    assert kept + lost + unknown == 2 and kept == 1
    assert out.headline() == f"gen 1: 1 of 2 facts kept, {lost} lost, {unknown} not judged"
    assert out.short_headline().startswith("gen 1 1/2 kept, ")


def test_the_survival_command_and_header_say_kept_lost_and_not_judged(sample_store: Path) -> None:
    plain = CliRunner().invoke(cli, ["survival", str(sample_store), "--session", "s-export"])
    assert plain.output.startswith("s-export gen 3: 1 of 5 facts kept, 3 lost, 1 not judged"), plain.output


def test_the_reports_check_section_says_which_warnings_the_headers_question_mark_counts(
        sample_store: Path, tmp_path: Path) -> None:
    out = tmp_path / "r.html"
    done = CliRunner().invoke(cli, ["report", str(sample_store), "--session", "s-export", "-o", str(out)])
    assert done.exit_code == 0, done.output
    page = out.read_text(encoding="utf-8")
    assert "? 2 warnings: not judged in full" in page  # the header's "?": the warnings that make it "?"
    # the Check section counts every warning (3): it says how many of them are the header's two
    assert ("with 3 warnings: 2 leave it not judged in full (the header&#x27;s &quot;?&quot;), 1 does not"
            in page), page[page.index('id="check"'):][:600]
    assert "gen 3: 1 of 5 facts kept, 3 lost, 1 not judged" in page
