"""The run report opened from the file system in headless Chromium: a real oracle run (with
screenshots and traces) and a real flat run against the fake model, plus synthetic trajectories
for breadth (more labels, trials, failures, a crash, an incomplete and an unreadable file)."""
import json
import re
import zipfile
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest

from agent.__main__ import main
from tests.agent import scripted_model as model
from tests.agent.synthetic_runs import write_run
from tests.fake_openai import FakeOpenAIServer

pytestmark = pytest.mark.browser

SYNTHETIC = ("heap-few-shot", "step-few-shot")
PROVENANCE = {"labels": ["oracle", "flat-zero-shot"], "model": "fake-model", "git_commit": "0123abc",
              "started": "2026-06-01T10:00:00Z", "command": "python -m agent run --method oracle,flat"}


@pytest.fixture(scope="module")
def run_folder(tmp_path_factory, live_server):
    out = tmp_path_factory.mktemp("report-run")
    main(["run", "--method", "oracle", "--tasks", "TASK_FIND_BOOKING,TASK_CANCEL_FLIGHT", "--episodes", "1",
          "--out", str(out), "--quiet", "--server", live_server, "--screenshots", "--trace", "all"])
    assert (out / "report" / "index.html").exists()  # every run leaves its report
    with FakeOpenAIServer(model.flat_search_flight) as fake:
        main(["run", "--method", "flat", "--tasks", "TASK_FIND_FLIGHT", "--episodes", "1", "--out", str(out),
              "--quiet", "--server", live_server, "--model", "fake-model", "--base-url", fake.base_url])
        requests = list(fake.requests)
    write_run(out, labels=SYNTHETIC, seeds=2, trials=2)
    provenance = {**json.loads((out / "run.json").read_text()), **PROVENANCE}  # the run's record, some keys fixed
    (out / "run.json").write_text(json.dumps(provenance))
    assert main(["report", str(out)]) == 0
    return {"out": out, "report": out / "report", "model_requests": requests, "provenance": provenance}


@pytest.fixture
def offline_page(page, run_folder):
    """A page that records console errors and every request, and refuses any outside the report."""
    report = run_folder["report"].resolve()
    seen = {"errors": [], "outside": []}

    def inside(url: str) -> bool:
        parsed = urlparse(url)
        return parsed.scheme == "file" and Path(unquote(parsed.path)).resolve().is_relative_to(report)

    def guard(route):
        if inside(route.request.url):
            route.continue_()
        else:
            seen["outside"].append(route.request.url)
            route.abort()

    page.context.route("**/*", guard)
    page.on("request", lambda request: None if inside(request.url) else seen["outside"].append(request.url))
    page.on("console", lambda message: seen["errors"].append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: seen["errors"].append(str(error)))
    page.seen = seen
    yield page
    assert seen["errors"] == [] and seen["outside"] == []


def open_report(page, run_folder, path="index.html"):
    page.goto((run_folder["report"] / path).resolve().as_uri())
    return page


def trajectory(run_folder, label, task, name="seed0-trial0"):
    return json.loads((run_folder["out"] / label / task / f"{name}.json").read_text())


def test_the_overview_table_has_every_task_and_label_and_the_provenance(offline_page, run_folder):
    page = open_report(offline_page, run_folder)
    groups = page.locator("table.results thead tr").first.locator("th.group").all_inner_texts()
    assert groups == ["flat-zero-shot", "heap-few-shot", "oracle", "step-few-shot"]
    tasks = page.locator("table.results tbody th").all_inner_texts()
    assert tasks == ["TASK_FIND_FLIGHT", "TASK_BOOK_FLIGHT", "TASK_FIND_BOOKING", "TASK_CANCEL_FLIGHT",
                     "TASK_UPDATE_PASSENGER_DETAILS", "TASK_MODIFY_FLIGHT", "all tasks"]
    assert "pass^k" in page.locator("table.results thead").inner_text()  # the synthetic labels have 2 trials
    oracle_booking = page.locator("table.results tbody tr", has_text="TASK_FIND_BOOKING").locator("td")
    # columns per label: success, progress, #actions, pass^k, n, crashed, incomplete; oracle is the third label
    # one episode: its standard error is not known (issue 9, rule 8)
    assert oracle_booking.nth(14).inner_text() == "1.00 ± n/a [0.21, 1.00]"
    assert oracle_booking.nth(16).inner_text() == "3.0 ± n/a"
    assert "Wilson score interval for success" in page.locator("p.intervals").inner_text()


def test_the_results_come_first_and_the_provenance_is_folded_below_them_complete(offline_page, run_folder):
    page = offline_page
    page.set_viewport_size({"width": 1280, "height": 800})
    open_report(page, run_folder)
    first_screen = {"x": 0, "y": 0, "width": 1280, "height": 800}
    outcome = page.get_by_text(re.compile(r"\d+ episodes:\s+\d+ success"))
    results = page.get_by_role("region", name="Results")  # the table, scrolled sideways inside it
    for shown in (outcome, results, page.get_by_role("table", name="Results").get_by_role("rowheader", name="all tasks")):
        assert within(shown.bounding_box(), first_screen), shown
    assert page.evaluate("window.scrollY") == 0
    fold = page.locator("details", has=page.get_by_text("How this run was made"))
    assert fold.get_attribute("open") is None and not page.get_by_text("0123abc").is_visible()
    assert fold.bounding_box()["y"] > page.locator("#charts").bounding_box()["y"]  # after the charts
    fold.get_by_text("How this run was made").click()
    provenance = fold.get_by_role("table", name="run.json")
    recorded = run_folder["provenance"]
    assert provenance.locator("> tbody > tr > th").all_inner_texts() == list(recorded)  # every key of run.json
    text = provenance.inner_text()
    assert "0123abc" in text and "python -m agent run --method oracle,flat" in text
    assert "oracle, flat-zero-shot" in text and "2026-06-01T10:00:00Z" in text
    assert all(f"{name}\t{version}" in text for name, version in recorded["packages"].items())
    assert all(f"{key}\t{value}" in text for key, value in recorded["settings"]["flat-zero-shot"].items()
               if isinstance(value, (str, int)) and not isinstance(value, bool))
    found = fold.get_by_role("table", name="What the trajectories say").inner_text()
    assert "flat-zero-shot, heap-few-shot, oracle, step-few-shot" in found and "fake-model" in found


def within(box, screen) -> bool:
    return (box["x"] >= screen["x"] and box["y"] >= screen["y"] and box["x"] + box["width"] <= screen["width"]
            and box["y"] + box["height"] <= screen["height"])


def test_every_chart_renders_with_a_size(offline_page, run_folder):
    page = open_report(offline_page, run_folder)
    charts = page.locator("figure.chart img")
    assert charts.count() == 5
    for index in range(5):
        chart = charts.nth(index)
        chart.scroll_into_view_if_needed()
        page.wait_for_function("img => img.complete", arg=chart.element_handle())
        assert chart.evaluate("img => img.naturalWidth") > 100
        box = chart.bounding_box()
        assert box["width"] > 100 and box["height"] > 50


def test_a_table_cell_lists_its_episodes_and_the_filters_narrow_the_list(offline_page, run_folder):
    page = open_report(offline_page, run_folder)
    rows = page.locator("#episode-table tbody tr:not(.hidden)")
    total = rows.count()
    assert total == 2 + 1 + 2 * 6 * 2 * 2 + 3  # oracle, flat, synthetic, crashed + incomplete + unreadable
    flight_row = page.locator("table.results tbody tr", has_text="TASK_FIND_FLIGHT")
    flight_row.locator("td").nth(0).locator("a").click()  # flat-zero-shot's success cell
    assert rows.count() == 1 and rows.first.get_attribute("data-label") == "flat-zero-shot"
    assert page.locator("#filter-task").input_value() == "TASK_FIND_FLIGHT"
    crashed = flight_row.locator("td").nth(7 + 5)  # heap-few-shot's crashed count
    assert crashed.inner_text() == "1"
    crashed.locator("a").click()
    assert rows.count() == 1 and rows.first.get_attribute("data-outcome") == "crashed"
    page.locator("#filter-clear").click()
    page.select_option("#filter-outcome", "incomplete")
    assert rows.count() == 2  # the unfinished file and the unreadable one
    page.select_option("#filter-label", "oracle")
    assert rows.count() == 0 and page.locator("#filter-count").inner_text() == f"0 of {total} episodes"


def test_every_episode_link_opens_a_page_with_all_its_steps(offline_page, run_folder):
    page = open_report(offline_page, run_folder)
    links = page.locator("a.episode-link").evaluate_all("links => links.map(a => a.getAttribute('href'))")
    assert len(links) == 2 + 1 + 48 + 3
    for href in links:
        label, task, name = Path(unquote(href)).with_suffix("").parts[-3:]
        path = run_folder["out"] / label / task / f"{name}.json"
        try:
            expected = len(json.loads(path.read_text()).get("steps") or [])
        except ValueError:
            expected = 0  # the unreadable file
        open_report(page, run_folder, unquote(href))
        assert page.locator("article.step").count() == expected, href
        assert page.locator("#step-count").inner_text() == str(expected)


def test_arrow_keys_move_between_steps(offline_page, run_folder):
    page = open_report(offline_page, run_folder, "episodes/oracle/TASK_CANCEL_FLIGHT/seed0-trial0.html")
    steps = len(trajectory(run_folder, "oracle", "TASK_CANCEL_FLIGHT")["steps"])
    current = page.locator("article.step.current")
    assert current.get_attribute("id") == "step-1"
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert current.get_attribute("id") == "step-3"
    assert page.locator("#step-position").inner_text() == f"step 3 of {steps}"
    assert page.evaluate("window.location.hash") == "#step-3"
    top = page.locator("#step-3").bounding_box()["y"]
    assert 0 <= top < 300  # scrolled to it, below the sticky bars
    page.keyboard.press("ArrowLeft")
    assert current.get_attribute("id") == "step-2"
    for _ in range(steps + 2):
        page.keyboard.press("ArrowRight")
    assert current.get_attribute("id") == f"step-{steps}"  # stays on the last step


def test_screenshots_show_when_recorded_and_the_trace_is_linked(offline_page, run_folder):
    page = open_report(offline_page, run_folder, "episodes/oracle/TASK_FIND_BOOKING/seed0-trial0.html")
    steps = len(trajectory(run_folder, "oracle", "TASK_FIND_BOOKING")["steps"])
    shots = page.locator("figure.shot img")
    assert shots.count() == steps
    for index in range(steps):
        shots.nth(index).scroll_into_view_if_needed()
        page.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=shots.nth(index).element_handle())
        assert shots.nth(index).evaluate("img => img.naturalWidth") == 1280  # the viewport
    recorded = sorted((run_folder["out"] / "oracle" / "TASK_FIND_BOOKING" / "seed0-trial0").glob("*.jpg"))
    assert [p.name for p in recorded] == [f"step{n:03d}.jpg" for n in range(1, steps + 1)]
    assert all(p.read_bytes()[:2] == b"\xff\xd8" and p.stat().st_size < 80_000 for p in recorded)  # small JPEGs
    trace = page.locator("#trace-link").get_attribute("href")
    with zipfile.ZipFile(run_folder["report"] / "episodes/oracle/TASK_FIND_BOOKING" / unquote(trace)) as archive:
        assert any(name.endswith(".trace") for name in archive.namelist())
    assert "playwright show-trace" in page.locator("table.facts").inner_text()
    open_report(page, run_folder, "episodes/heap-few-shot/TASK_FIND_FLIGHT/seed0-trial0.html")
    assert page.locator("figure.shot").count() == 0 and page.locator("#trace-link").count() == 0


def test_an_llm_episode_shows_its_prompts_replies_and_the_gold_steps_each_step_met(offline_page, run_folder):
    page = open_report(offline_page, run_folder, "episodes/flat-zero-shot/TASK_FIND_FLIGHT/seed0-trial0.html")
    first_request = run_folder["model_requests"][0]
    step = page.locator("#step-1")
    prompt = step.locator("details.prompt")
    assert not prompt.locator("pre.prompt").is_visible()  # collapsed until asked for
    prompt.locator("summary").click()
    assert prompt.locator("pre.prompt").inner_text() == model.user_text(first_request)
    system_id = prompt.locator("a").inner_text()
    system = page.locator(f"#system-{system_id}")
    system.locator("summary").click()
    assert system.locator("pre").inner_text() == model.system_text(first_request)
    assert step.locator("pre.reply").inner_text().startswith("REASON:")
    assert "stack FLAT" in step.inner_text() and "prompt +" in step.inner_text()
    gold_rows = page.locator("table.gold-steps tbody tr")
    saved = trajectory(run_folder, "flat-zero-shot", "TASK_FIND_FLIGHT")
    assert gold_rows.count() == len(saved["scenario"]["gold_actions"])
    search_click = len(saved["steps"]) - 1  # the click on Search flights met every gold step
    assert gold_rows.last.locator("td").nth(3).inner_text() == f"step {search_click}"
    assert "met gold" in page.locator(f"#step-{search_click} header").inner_text()
    assert "passed" in page.locator("section.final").inner_text()


def test_text_from_trajectories_is_shown_as_text_never_run(offline_page, run_folder):
    page = open_report(offline_page, run_folder, "episodes/step-few-shot/TASK_FIND_FLIGHT/seed0-trial1.html")
    assert "hacked" not in page.title()
    assert '<script>document.title = "hacked"</script>' in page.locator("ol.conversation").inner_text()
    assert page.locator("main script").count() == 0 and page.locator("main img").count() == 0
    observation = page.locator("#step-1 details.observation pre").text_content()
    assert observation.startswith("<text id=1>AirlineCRM</text>")


def test_crashed_incomplete_and_unreadable_episodes_are_shown_as_such(offline_page, run_folder):
    page = open_report(offline_page, run_folder)
    assert "1 crashed" in page.locator("p.totals").inner_text()
    assert "2 incomplete" in page.locator("p.totals").inner_text()
    open_report(page, run_folder, "episodes/heap-few-shot/TASK_FIND_FLIGHT/seed2-trial0.html")
    assert "This episode crashed" in page.inner_text("main") and "TimeoutError" in page.inner_text("pre.traceback")
    open_report(page, run_folder, "episodes/heap-few-shot/TASK_FIND_FLIGHT/seed3-trial0.html")
    assert "This episode is incomplete" in page.inner_text("main")
    open_report(page, run_folder, "episodes/heap-few-shot/TASK_FIND_FLIGHT/seed4-trial0.html")
    assert "cannot be read" in page.inner_text("main")


def test_the_compare_page_puts_every_label_side_by_side(offline_page, run_folder):
    page = open_report(offline_page, run_folder, "compare/TASK_FIND_FLIGHT/seed0.html")
    columns = page.locator("section.episode-column")
    assert columns.evaluate_all("cs => cs.map(c => c.dataset.label)") == [
        "flat-zero-shot", "heap-few-shot", "heap-few-shot", "step-few-shot", "step-few-shot"]
    flat = columns.first
    steps = len(trajectory(run_folder, "flat-zero-shot", "TASK_FIND_FLIGHT")["steps"])
    assert flat.locator("li.cstep").count() == steps and "met every gold step" in flat.inner_text()
    flat.locator("h2 a").click()
    assert page.url.endswith("episodes/flat-zero-shot/TASK_FIND_FLIGHT/seed0-trial0.html")
