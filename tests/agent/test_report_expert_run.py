"""The report of an expert run, read back in Chromium: the results table has the share of requests
handled right with its interval, and the episode page lists each request with the step where it was
handled (the step that saved the change), or why it was not."""
import json

import pytest

from agent.__main__ import main
from tests.conftest import OPERATOR_TOKEN

pytestmark = pytest.mark.browser

TASK = "EXPERT_CHANGE_CANCEL_SUPERVISOR_MIXED"
EPISODE = ("oracle", TASK, "seed0-trial0")


def played(out, server, *options):
    assert main(["run", "--method", "oracle", "--protocol", "expert", "--tasks", TASK, "--episodes", "1", "--quiet",
                 "--server", server, "--operator-token", OPERATOR_TOKEN, "--out", str(out), *options]) == 0
    return json.loads(out.joinpath(*EPISODE[:2], EPISODE[2] + ".json").read_text())


@pytest.fixture(scope="module")
def runs(tmp_path_factory, live_server):
    """The whole call, and the same call cut off by the step cap once the first request is done (the
    change saved, its fee told before)."""
    whole = tmp_path_factory.mktemp("expert-report")
    trajectory = played(whole, live_server)
    done = next(n for n, step in enumerate(trajectory["steps"], 1) if step["reason"].endswith("click Save flights."))
    cut = tmp_path_factory.mktemp("expert-report-cut")
    played(cut, live_server, "--max-steps", str(done + 1))
    return whole, cut, trajectory, done


def episode_url(out) -> str:
    return out.joinpath("report", "episodes", *EPISODE[:2], EPISODE[2] + ".html").resolve().as_uri()


def requests_table(page) -> list[list[str]]:
    rows = page.get_by_role("table", name="Requests").locator("tbody tr")
    return [row.locator("td").all_inner_texts() for row in rows.all()]


def test_the_results_table_shows_the_requests_handled_right_with_their_interval(page, runs):
    whole, cut, _, _ = runs
    for out, shown in ((whole, "1.00 [1.00, 1.00]"), (cut, "0.33 [0.33, 0.33]")):
        page.goto((out / "report" / "index.html").resolve().as_uri())
        table = page.get_by_role("table", name="Results")
        names = table.locator("thead tr").nth(1).locator("th").all_inner_texts()
        cells = table.get_by_role("row").filter(has=page.get_by_role("rowheader", name=TASK)).locator("td")
        shown_by_name = dict(zip(names, cells.all_inner_texts()))
        assert shown_by_name["requests ok"] == shown
        # issue 50: the violation rate per kind (none broke a rule: Wilson's interval of 0 in 1)
        assert [shown_by_name[kind] for kind in ("disclosure", "forbidden write")] == ["0.00 [0.00, 0.79]"] * 2


def test_the_episode_page_marks_the_step_where_each_request_was_handled(page, runs):
    whole, _, trajectory, done = runs
    codes = [request["booking"] for request in trajectory["metrics"]["requests"]]
    page.goto(episode_url(whole))
    rows = requests_table(page)
    assert [row[:4] for row in rows] == [["1", "change", codes[0], "yes"], ["2", "cancel", codes[1], "yes"],
                                         ["3", "supervisor", codes[2], "yes"]]
    assert rows[0][4] == f"step {done}"
    steps = [int(row[4].removeprefix("step ")) for row in rows]
    assert steps == sorted(steps) and steps[-1] == len(trajectory["steps"])  # the transfer handles the last
    step = page.locator(f"#step-{done}")
    assert step.locator(".handled").inner_text() == "request 1 handled (change)"
    assert step.locator("code.action").inner_text().startswith("CLICK")
    page.get_by_role("link", name=f"step {done}").first.click()
    assert page.url.endswith(f"#step-{done}")


def test_a_call_cut_short_says_why_the_requests_left_were_not_handled(page, runs):
    _, cut, _, done = runs
    page.goto(episode_url(cut))
    rows = requests_table(page)
    assert [(row[0], row[3], row[4]) for row in rows] == [("1", "yes", f"step {done}"), ("2", "no", "-"), ("3", "no", "-")]
    # the "Done" line after the save let the caller raise the cancellation; the transfer was never asked for
    assert rows[1][5].startswith("the agent never told the customer") and rows[2][5].startswith(
        "the customer never got to ask")
