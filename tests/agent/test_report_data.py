"""The report's data without a browser: outcomes of every kind of trajectory file, the gold steps
each step met and where an episode left the gold path, tokens and prices, the command line, and
what the runner and the policies record for it (prompts once per episode, traces when asked)."""
import json
import math

import pytest

from agent.__main__ import main
from agent.env.recording import EpisodeRecorder
from agent.policies.llm import Completion
from agent.policies.model import ModelCalls
from agent.results.report import write_report
from agent.results.report.costs import PriceError, load_prices, usage_by_label
from agent.results.report.loading import load_run
from agent.results.report.timeline import divergence, gold_views, step_views
from tests.agent.command_line import refusal
from tests.agent.synthetic_runs import write_run

GOLD = [{"action": "click", "target": "nav", "label": "Find booking"},
        {"action": "fill", "target": "code", "label": "Confirmation code", "value": "ABC123"},
        {"action": "click", "target": "submit", "label": "Search"}]


def handmade(steps_matched, errors=None, complete=True):
    steps = [{"action": f"CLICK {n}", "error": (errors or {}).get(n),
              "metrics": {"task_progress": sum(m) / 3, "matched": m}} for n, m in enumerate(steps_matched, 1)]
    return {"label": "flat-zero-shot", "method": "flat", "task": "TASK_FIND_BOOKING", "seed": 0, "trial": 0,
            "scenario": {"gold_actions": GOLD}, "steps": steps, "complete": complete, "end": {"cause": "stop"},
            "metrics": {"success": int(all(steps_matched[-1])), "task_progress": sum(steps_matched[-1]) / 3,
                        "num_actions": len(steps), "matched": steps_matched[-1]}}


def episode_of(tmp_path, trajectory):
    path = tmp_path / trajectory["label"] / trajectory["task"] / "seed0-trial0.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(trajectory))
    (episode,) = load_run(tmp_path).episodes
    return episode


def test_each_step_shows_the_gold_steps_it_met_and_the_divergence(tmp_path):
    f, t = False, True
    episode = episode_of(tmp_path, handmade([[t, f, f], [t, f, f], [t, f, f], [t, f, f]], errors={3: "no element"}))
    views = step_views(episode)
    assert [v.met for v in views] == [(1,), (), (), ()]
    assert [(g["number"], g["met"], g["met_at"]) for g in gold_views(episode, views)] == [
        (1, True, 1), (2, False, None), (3, False, None)]
    gone = divergence(episode, views)
    assert (gone.after_step, gone.missed, gone.at_step) == (1, 2, 2)


def test_a_group_met_at_its_click_and_an_undone_step(tmp_path):
    f, t = False, True
    episode = episode_of(tmp_path, handmade([[t, f, f], [t, f, f], [t, t, t], [f, t, t]]))
    views = step_views(episode)
    assert [v.met for v in views] == [(1,), (), (2, 3), ()] and views[3].lost == (1,)
    gone = divergence(episode, views)  # step 4 undid gold step 1, and nothing met it again
    assert (gone.after_step, gone.missed, gone.at_step) == (3, 1, 4)


def test_no_divergence_when_every_gold_step_is_met_or_matched_was_not_recorded(tmp_path):
    f, t = False, True
    assert divergence(*_with_views(episode_of(tmp_path / "a", handmade([[t, f, f], [t, t, t]])))) is None
    old = handmade([[t, f, f]])
    del old["steps"][0]["metrics"]["matched"]
    episode = episode_of(tmp_path / "b", old)
    views = step_views(episode)
    assert views[0].met is None and divergence(episode, views) is None


def _with_views(episode):
    return episode, step_views(episode)


def test_every_kind_of_file_gets_an_outcome(tmp_path):
    write_run(tmp_path, labels=("flat-zero-shot",), tasks=("TASK_FIND_BOOKING",), seeds=2)
    (tmp_path / "run.json").write_text("{not json")
    run = load_run(tmp_path)
    outcomes = {e.name: e.outcome for e in run.episodes}
    assert {outcomes["seed2-trial0"], outcomes["seed3-trial0"], outcomes["seed4-trial0"]} == {"crashed", "incomplete"}
    assert outcomes["seed4-trial0"] == "incomplete" and outcomes["seed2-trial0"] == "crashed"
    assert {outcomes["seed0-trial0"], outcomes["seed1-trial0"]} <= {"success", "failure"}
    assert run.provenance is None and "run.json cannot be read" in run.provenance_problem
    assert [row["episodes"] for row in run.rows] == [2]  # the table counts the complete episodes only


def test_cost_needs_a_price_for_the_model(tmp_path):
    write_run(tmp_path, labels=("flat-zero-shot", "step-few-shot"), tasks=("TASK_FIND_BOOKING",), seeds=2,
              broken=False)
    run = load_run(tmp_path)
    unpriced = {u.label: u for u in usage_by_label(run, None)}
    assert unpriced["flat-zero-shot"].cost is None and unpriced["flat-zero-shot"].unpriced == {"synthetic-model"}
    (tmp_path / "prices.json").write_text(json.dumps({"synthetic-model": {"prompt": 2.0, "completion": 8.0}}))
    priced = {u.label: u for u in usage_by_label(run, load_prices(tmp_path / "prices.json"))}
    flat = priced["flat-zero-shot"]
    assert flat.prompt_tokens == sum(r["prompt_tokens"] for r in run.rows if r["method"] == "flat-zero-shot") > 0
    assert math.isclose(flat.cost, (flat.prompt_tokens * 2.0 + flat.completion_tokens * 8.0) / 1e6)


def test_a_wrong_price_table_is_refused_with_the_reason(tmp_path):
    (tmp_path / "prices.json").write_text(json.dumps({"gpt-4o": {"input": 2.5}}))
    with pytest.raises(PriceError, match="needs numbers 'prompt' and 'completion'"):
        load_prices(tmp_path / "prices.json")


def test_report_command_errors(tmp_path, capsys):
    code, err = refusal(main, ["report", str(tmp_path / "missing")], capsys)
    assert code == 2 and "is not a run folder" in err
    (tmp_path / "prices.json").write_text("[1, 2]")
    _, err = refusal(main, ["report", str(tmp_path), "--prices", str(tmp_path / "prices.json")], capsys)
    assert "must map model names to prices" in err


def test_a_rebuilt_report_replaces_the_old_one_whole(tmp_path, capsys):
    write_run(tmp_path, labels=("flat-zero-shot",), tasks=("TASK_FIND_BOOKING",), seeds=1, broken=False)
    assert main(["report", str(tmp_path)]) == 0
    assert f"Report: {tmp_path / 'report' / 'index.html'}" in capsys.readouterr().err
    (tmp_path / "report" / "stale.html").write_text("old")
    write_report(tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["flat-zero-shot", "report"]
    assert not (tmp_path / "report" / "stale.html").exists()
    charts = sorted(p.name for p in (tmp_path / "report" / "charts").iterdir())
    assert charts == ["actions.svg", "ends.svg", "progress.svg", "success.svg", "tokens.svg"]


def test_open_shows_the_report_in_the_default_browser(tmp_path, monkeypatch):
    write_run(tmp_path, labels=("flat-zero-shot",), tasks=("TASK_FIND_BOOKING",), seeds=1, broken=False)
    opened = []
    monkeypatch.setattr("webbrowser.open", lambda url: opened.append(url) or True)
    assert main(["report", str(tmp_path), "--open"]) == 0
    assert opened == [(tmp_path / "report" / "index.html").resolve().as_uri()]


class _StubClient:
    def complete(self, messages):
        return Completion("REASON: r\nACTION: CLICK 1", 10, 2, cached=False, seconds=0.25)


def test_prompts_are_recorded_with_each_system_prompt_once_per_episode():
    calls = ModelCalls(_StubClient())
    calls.ask("SYSTEM A", "page 1", "FLAT")
    calls.ask("SYSTEM A", "page 1 again", "FLAT")
    first = calls.take_step_log()
    calls.ask("SYSTEM A", "page 2", "FLAT")
    second = calls.take_step_log()
    (system_id,) = first["system_prompts"]
    assert first["system_prompts"][system_id] == "SYSTEM A" and "system_prompts" not in second
    assert [c["user_prompt"] for c in first["model_calls"]] == ["page 1", "page 1 again"]
    assert {c["system_prompt"] for c in first["model_calls"] + second["model_calls"]} == {system_id}
    assert first["model_calls"][0]["seconds"] == 0.25
    calls.reset()  # a new episode writes its system prompts again
    calls.ask("SYSTEM A", "page 1", "FLAT")
    assert calls.take_step_log()["system_prompts"] == {system_id: "SYSTEM A"}


class _Tracing:
    def __init__(self):
        self.stopped_with = []

    def start(self, **options):
        pass

    def stop(self, path=None):
        self.stopped_with.append(path)


class _Context:
    def __init__(self):
        self.tracing = _Tracing()


@pytest.mark.parametrize("mode, failed, kept", [("failed", False, False), ("failed", True, True),
                                                ("all", False, True)])
def test_a_trace_is_kept_for_the_episodes_its_mode_names(tmp_path, mode, failed, kept):
    recorder, context = EpisodeRecorder(trace=mode), _Context()
    recorder.folder = tmp_path / "seed0-trial0"
    recorder.begin(context)
    recorder.end(context, failed=failed)
    assert context.tracing.stopped_with == [recorder.folder / "trace.zip" if kept else None]


def test_an_unknown_trace_mode_is_refused(capsys):
    with pytest.raises(ValueError, match="trace must be one of failed, all"):
        EpisodeRecorder(trace="some")
    _, err = refusal(main, ["run", "--trace", "some"], capsys)
    assert "invalid choice: 'some'" in err


def test_the_success_chart_draws_each_rates_95_percent_interval_not_its_standard_error():
    from agent.results.report.charts import interval_bars
    rows = [{"success_mean": 0.2, "success_se": 0.13, "success_low": 0.0567, "success_high": 0.5098},
            None, {"success_mean": 1.0, "success_se": float("nan")}]  # no row; a row made before intervals
    down, up = interval_bars(rows)
    assert [round(value, 4) for value in down] == [0.1433, 0.0, 0.0]
    assert [round(value, 4) for value in up] == [0.3098, 0.0, 0.0]
