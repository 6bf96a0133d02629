"""`python -m agent play` as a person plays it, in Chromium, by visible labels and the keyboard: the start
page, the consent and the name; the first task's page with the customer's opening line in the Call panel,
the task worked by its gold steps (lines typed in Message to the customer and sent with Enter, each
answered in the panel) and End call, which leads to the second task; a line there and End call, which
leads to the results page with each task's scores. `summarize` on the session's folder then shows
method `human` with the scores /evaluate gives."""
from __future__ import annotations

import contextlib
import csv
import io
import re
import socket
import threading
import time
import urllib.parse

import pytest
import requests
from playwright.sync_api import expect

from agent.__main__ import main
from tests.conftest import OPERATOR, OPERATOR_TOKEN

from .ui import region

pytestmark = pytest.mark.browser

TASKS = ("TASK_FALSE_CLAIM", "TASK_PUSHBACK")  # the first played by its gold steps, the second left undone
SEED = 1


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def session(live_server, tmp_path):
    """A play session on the shared server, its host serving on 127.0.0.1: (its URL, run folder, exit status)."""
    consent, out, port = tmp_path / "consent.txt", tmp_path / "ada", _free_port()
    consent.write_text("Your answers are recorded for research.")
    status = []
    args = ["play", "--tasks", ",".join(TASKS), "--seeds", str(SEED), "--consent", str(consent), "--out", str(out),
            "--server", live_server, "--operator-token", OPERATOR_TOKEN, "--port", str(port), "--no-open"]
    with contextlib.redirect_stdout(io.StringIO()):
        thread = threading.Thread(target=lambda: status.append(main(args)), daemon=True)
        thread.start()
        url = f"http://127.0.0.1:{port}/"
        for _ in range(100):
            with contextlib.suppress(requests.ConnectionError):
                if requests.get(url, timeout=2).ok:
                    break
            time.sleep(0.1)
        yield url, out, status
        thread.join(timeout=10)


def _scenario_id(page) -> str:
    return urllib.parse.parse_qs(urllib.parse.urlparse(page.url).query)["scenario"][0]


def _evaluate(server: str, scenario_id: str) -> dict:
    return requests.get(f"{server}/evaluate", params={"scenario": scenario_id}, headers=OPERATOR, timeout=10).json()


def _say(page, text: str) -> None:
    """Type a line in the Call panel and send it with Enter; wait for the customer's reply."""
    call = region(page, "Call")
    lines = call.get_by_role("listitem")
    before = lines.count()
    box = call.get_by_label("Message to the customer")
    box.focus()
    page.keyboard.type(text)
    expect(box).to_have_value(text)
    page.keyboard.press("Enter")
    expect(lines).to_have_count(before + 2)
    expect(lines.nth(before)).to_have_text(f"You: {text}")
    expect(lines.nth(before + 1)).to_contain_text("Customer: ")


def _follow(page, step: dict) -> None:
    """One gold step, by its label: a line to the customer, a link or button, or a field typed in."""
    if step["action"] == "say":
        _say(page, step["text"])
    elif step["action"] == "fill":
        page.get_by_label(step["label"], exact=True).locator("visible=true").focus()
        page.keyboard.type(step["value"])
    else:
        role = "link" if step["target"].startswith("nav-") else "button"
        page.get_by_role(role, name=step["label"], exact=True).locator("visible=true").click()
        # a person waits for the screen it opens, which takes the focus (its heading) once its answer is in
        expect(page.locator("h1:focus")).to_have_count(1)


def test_a_person_plays_two_tasks_and_sees_the_scores_that_summarize_shows(page, session, live_server):
    url, out, status = session
    page.goto(url)
    expect(page.get_by_role("heading", name="You are the call-center rep")).to_be_visible()
    expect(page.get_by_text("verify the caller before changing anything")).to_be_visible()
    page.get_by_role("button", name="Start").click()
    expect(page.get_by_role("alert")).to_have_text("Please enter your name or the id you were given.")
    page.get_by_label("Your name or id").focus()
    page.keyboard.type("Ada")
    page.get_by_role("button", name="Start").click()
    expect(page.get_by_role("alert")).to_have_text("The session starts only once you agree to take part.")
    page.get_by_label("I agree").check()
    page.get_by_role("button", name="Start").click()

    page.wait_for_function("() => window.crm && window.crm.ready === true")
    first = _scenario_id(page)
    opening = requests.get(f"{live_server}/api/customer/messages", params={"scenario": first}, timeout=10).json()
    expect(region(page, "Call").get_by_role("log", name="Transcript")).to_have_text(
        f"Customer: {opening['messages'][0]['text']}")
    for step in _evaluate(live_server, first)["gold_actions"]:
        _follow(page, step)
    region(page, "Call").get_by_role("button", name="End call").click()

    page.wait_for_url(lambda address: "scenario=" in address and first not in address)
    page.wait_for_function("() => window.crm && window.crm.ready === true")
    second = _scenario_id(page)
    _say(page, "Hello, how can I help you today?")
    region(page, "Call").get_by_role("button", name="End call").click()

    expect(page.get_by_role("heading", name="Your results, Ada")).to_be_visible()
    expect(page.get_by_text("You succeeded in 1 of 2 tasks")).to_be_visible()
    results = page.get_by_role("table", name="Results")
    expect(results.get_by_role("row").nth(1)).to_contain_text(f"1. TASK_FALSE_CLAIM (seed {SEED})\tyes\tyes\tyes\tyes\tyes\t0")
    expect(results.get_by_role("row").nth(2)).to_contain_text(f"2. TASK_PUSHBACK (seed {SEED})\tno")
    scores = {TASKS[0]: _evaluate(live_server, first), TASKS[1]: _evaluate(live_server, second)}
    assert (scores[TASKS[0]]["success"], scores[TASKS[1]]["success"]) == (1, 0)
    for _ in range(100):  # the command ends once the results page is out
        if status:
            break
        time.sleep(0.1)
    assert status == [0]

    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        assert main(["summarize", "--out", str(out)]) == 0
    assert re.search(r"^method +task +success", printed.getvalue(), re.M) and re.search(r"  seconds", printed.getvalue())
    assert re.search(r"^human +all tasks ", printed.getvalue(), re.M)
    with open(out / "summary.csv") as handle:
        rows = {row["task"]: row for row in csv.DictReader(handle)}
    for task, answer in scores.items():
        assert rows[task]["method"] == "human"
        assert float(rows[task]["success_mean"]) == answer["success"]
        assert float(rows[task]["progress_mean"]) == answer["task_progress"]
        assert float(rows[task]["actions_mean"]) == answer["num_actions"]
        assert float(rows[task]["seconds_mean"]) > 0
