"""The report of a hard-suite run, read back in Chromium: the results table has the verdicts on the
call that the printed table has (state ok, said ok, verified first, under policy with its interval,
violations), the episode page says what each gold line to the customer asks and tells, and a
perfect episode's actions are counted against the gold steps alike (the lines to the customer on
neither side)."""
import json

import pytest

from agent.__main__ import main
from agent.results.report.loading import load_run
from agent.results.summary import CALL_RATES, VIOLATIONS_COLUMN

pytestmark = pytest.mark.browser

TASK = "TASK_POLICY_CANCEL"


@pytest.fixture(scope="module")
def hard_run(tmp_path_factory, live_server):
    out = tmp_path_factory.mktemp("hard-report")
    assert main(["run", "--method", "oracle", "--protocol", "hard", "--tasks", TASK, "--episodes", "1", "--quiet",
                 "--server", live_server, "--out", str(out)]) == 0
    return out


def test_the_results_table_has_the_verdicts_of_the_printed_table(page, hard_run, capsys):
    assert main(["summarize", "--out", str(hard_run), "--wide"]) == 0
    printed = capsys.readouterr().out
    page.goto((hard_run / "report" / "index.html").resolve().as_uri())
    table = page.get_by_role("table", name="Results")
    names = table.locator("thead tr").nth(1).locator("th").all_inner_texts()
    verdicts = [name for name, _ in CALL_RATES] + [VIOLATIONS_COLUMN[0]]
    assert names[3:8] == verdicts and all(name in printed for name in verdicts)
    cells = table.get_by_role("row").filter(has=page.get_by_role("rowheader", name=TASK)).locator("td")
    shown = dict(zip(names, cells.all_inner_texts()))
    assert [shown[name] for name in verdicts] == ["1.00", "1.00", "1.00", "1.00 [0.21, 1.00]", "0"]
    assert "1.00 [0.21, 1.00]" in printed  # under policy, with the same interval


def test_the_episode_page_says_what_each_line_to_the_customer_asks_and_tells(page, hard_run):
    trajectory = json.loads((hard_run / "oracle" / TASK / "seed0-trial0.json").read_text())
    amount = trajectory["scenario"]["details"]["expected"]["must_say"][0]
    page.goto((hard_run / "report" / "episodes" / "oracle" / TASK / "seed0-trial0.html").resolve().as_uri())
    gold = page.locator("table.gold-steps tbody tr")
    first, last = gold.first.locator("td").nth(1).inner_text(), gold.last.locator("td").nth(1).inner_text()
    assert first.startswith("say to the customer: asks confirmation code, date of birth (“")
    assert last.startswith(f"say to the customer: tells {amount} (“") and amount in last


def test_a_perfect_hard_episode_counts_its_actions_as_its_gold_steps(page, hard_run):
    (episode,) = load_run(hard_run).episodes
    says = [g for g in episode.gold if g["action"] == "say"]
    assert episode.metrics["success"] == 1 and len(says) == 2
    assert len(episode.gold_done) == episode.metrics["num_actions"] == len(episode.gold) - 2  # the chart's point
    page.goto((hard_run / "report" / "index.html").resolve().as_uri())
    row = page.locator("#episode-table tbody tr").first
    heads = page.locator("#episode-table thead th").all_inner_texts()
    shown = dict(zip(heads, row.locator("td").all_inner_texts()))
    assert shown["#actions"] == shown["gold"] == str(episode.metrics["num_actions"])
