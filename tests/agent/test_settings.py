"""Resuming into an output folder never mixes results made with other result-changing settings."""
import json

import pytest

from agent.__main__ import main
from agent.experiment.runner import SettingsConflict, episode_spec, prepare
from agent.experiment.settings import result_settings

FLAT = {"model": "model-a", "temperature": 0.3, "max_steps": 60, "protocol": "full"}


def finished(out, settings, label="flat-zero-shot", task="TASK_FIND_FLIGHT", seed=0):
    path = out / label / task / f"seed{seed}-trial0.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    trajectory = {"method": label.split("-")[0], "label": label, "task": task, "seed": seed, "trial": 0,
                  "complete": True, "metrics": {"success": 1, "task_progress": 1.0, "num_actions": 5}}
    if settings is not None:
        trajectory["settings"] = settings
    path.write_text(json.dumps(trajectory))
    return path


def command(out, *extra):
    return ["run", "--method", "flat", "--tasks", "TASK_FIND_FLIGHT", "--episodes", "1", "--out", str(out),
            "--quiet", "--base-url", "http://127.0.0.1:9/v1", "--server", "http://127.0.0.1:9", *extra]


def test_resuming_with_another_model_is_refused_and_changes_nothing(tmp_path, capsys):
    path = finished(tmp_path, FLAT)
    before = path.read_text()
    assert main(command(tmp_path, "--model", "model-b")) == 2
    error = capsys.readouterr().err
    assert f"Refusing to resume into {tmp_path}" in error
    assert "model 'model-a' (this run: 'model-b')" in error and "another --out" in error
    assert path.read_text() == before and not (tmp_path / "run.json").exists()


def test_other_result_changing_settings_are_refused_too(tmp_path, capsys):
    finished(tmp_path, FLAT)
    assert main(command(tmp_path, "--model", "model-a", "--temperature", "0.7")) == 2
    assert "temperature 0.3 (this run: 0.7)" in capsys.readouterr().err
    assert main(command(tmp_path, "--model", "model-a", "--max-steps", "30")) == 2
    assert "max_steps 60 (this run: 30)" in capsys.readouterr().err


def test_a_trajectory_without_settings_is_not_trusted(tmp_path, capsys):
    finished(tmp_path, None)
    assert main(command(tmp_path, "--model", "model-a")) == 2
    assert "records no settings" in capsys.readouterr().err


def test_the_same_settings_resume_and_other_labels_may_share_the_folder(tmp_path):
    finished(tmp_path, FLAT)
    finished(tmp_path, result_settings("oracle", {"max_steps": 60}), label="oracle")
    options = {"model": "model-a", "temperature": 0.3, "max_steps": 60}
    specs = [episode_spec("flat", "TASK_FIND_FLIGHT", 0), episode_spec("flat", "TASK_FIND_FLIGHT", 1),
             episode_spec("oracle", "TASK_FIND_FLIGHT", 0)]
    assert prepare(specs, tmp_path, options).todo == [specs[1]]


def test_the_oracle_records_no_model():
    assert result_settings("oracle", {"model": "model-a", "temperature": 0.3, "max_steps": 60}) == \
        {"model": None, "temperature": None, "max_steps": 60, "protocol": "full"}
    assert result_settings("heap", {"model": "model-a", "temperature": 0.3, "max_steps": 60}) == FLAT


def test_toolcall_records_the_tools_it_is_offered_and_its_scoring_modality():
    from agent.crm.tools import TOOL_NAMES

    assert result_settings("toolcall", {"model": "model-a", "temperature": 0.3, "max_steps": 60}) == \
        {**FLAT, "tools": list(TOOL_NAMES), "modality": "api"}


def test_help_shows_the_defaults(capsys):
    for argv in (["--help"], ["run", "--help"], ["summarize", "--help"]):
        try:
            main(argv)
        except SystemExit as exit_:
            assert exit_.code == 0
    text = " ".join(capsys.readouterr().out.split())
    for shown in ("--episodes 20", "--max-steps 60", "--temperature 0.3", "--out runs/latest",  # python -m agent --help
                  "scenarios per task (default: 20)", "(default: oracle)", "(default: 0.3)", "(default: 60)",
                  "(default: CRM_OPERATOR_TOKEN)", "folder a run wrote to (default: runs/latest)"):
        assert shown in text, shown


def test_the_run_record_keeps_no_secrets():
    from agent.experiment.run_record import public_command, public_url

    command = public_command(["run", "--operator-token", "s3cret", "--base-url", "https://user:key@llm.example/v1?key=k",
                              "--server=http://127.0.0.1:5000", "--operator-token=s3cret"])
    assert "s3cret" not in command and "key" not in command.replace("--", "")
    assert command.endswith("run --operator-token '***' --base-url https://llm.example/v1 "
                            "--server=http://127.0.0.1:5000 '--operator-token=***'")
    assert public_url("postgresql+psycopg://user:pw@db.example/crm") == "postgresql+psycopg://db.example/crm"
    assert public_url("sqlite:////tmp/crm.db") == "sqlite:////tmp/crm.db"


def test_a_hard_episode_recorded_before_channels_resumes_as_a_say_one_and_not_as_a_page_one(tmp_path):
    before_channels = {"model": None, "temperature": None, "max_steps": 60, "protocol": "hard", "scoring_version": 2}
    finished(tmp_path, before_channels, label="oracle", task="TASK_POLICY_CHANGE")
    specs = [episode_spec("oracle", "TASK_POLICY_CHANGE", 0)]
    assert prepare(specs, tmp_path, {"max_steps": 60, "protocol": "hard"}).todo == []
    assert prepare(specs, tmp_path, {"max_steps": 60, "protocol": "hard", "channel": "say"}).todo == []
    with pytest.raises(SettingsConflict, match=r"channel 'say' \(this run: 'page'\)"):
        prepare(specs, tmp_path, {"max_steps": 60, "protocol": "hard", "channel": "page"})


def test_a_hard_episode_scored_by_the_rules_before_issue_53_is_not_resumed(tmp_path):
    """A call recorded without a scoring version was scored by version 1 (a closing line met by any
    line): its folder is refused, so that its results are made again under the rules of now."""
    before = {"model": None, "temperature": None, "max_steps": 60, "protocol": "hard", "channel": "say"}
    finished(tmp_path, before, label="oracle", task="TASK_POLICY_CHANGE")
    specs = [episode_spec("oracle", "TASK_POLICY_CHANGE", 0)]
    with pytest.raises(SettingsConflict, match=r"scoring_version 1 \(this run: 2\)"):
        prepare(specs, tmp_path, {"max_steps": 60, "protocol": "hard"})
    assert result_settings("oracle", {"max_steps": 60, "protocol": "hard"})["scoring_version"] == 2
    assert result_settings("oracle", {"max_steps": 60}).get("scoring_version") is None  # no call, no call scoring
