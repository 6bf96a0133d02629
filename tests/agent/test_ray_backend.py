"""`--backend ray`: episodes played by Ray workers on a local Ray instance (started once for this
module, as the runner starts one), written by the driver exactly as the local backend writes them."""
import json
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from tqdm import tqdm

from agent.__main__ import main
from agent.crm.client import ServerError
from agent.episode.play import crashed
from agent.experiment.runner import Driver, episode_spec
from scenarios.tasks import TASK_NAMES
from agent.experiment.backends import ray_cluster
from agent.experiment.backends.episode_worker import WorkerConfig
from tests.agent.command_line import refusal
from tests.agent.conftest import ORACLE_ON_EVERY_TASK
from tests.agent.played import played, trajectories
from tests.fake_openai import FakeOpenAIServer

pytestmark = pytest.mark.browser
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def ray_address():
    """The address of a local Ray instance (two CPUs) that this process is connected to; runs in
    this process use the connection, other processes join with --ray-address."""
    with ray_cluster.connected(cpus=2) as ray:
        yield ray.get_runtime_context().gcs_address


def files(out: Path) -> list[Path]:
    """Every file and folder a run wrote, its report aside."""
    return sorted(path.relative_to(out) for path in out.rglob("*") if "report" not in path.relative_to(out).parts)


def table(printed: str) -> list[str]:
    """The summary table of what a run printed (the lines naming its folder aside)."""
    return printed.split("\n\nTrajectories:")[0].splitlines()


def test_ray_workers_play_into_out_like_the_local_backend_and_a_rerun_resumes(tmp_path, live_server, ray_address,
                                                                             serial_oracle_run):
    local, printed = serial_oracle_run
    command = [*ORACLE_ON_EVERY_TASK, "--concurrency", "4", "--server", live_server, "--backend", "ray",
               "--ray-address", ray_address, "--out", str(tmp_path)]
    joined = subprocess.run([sys.executable, "-m", "agent", *command], cwd=ROOT, capture_output=True, text=True,
                            timeout=300)  # a second driver joins the cluster
    assert joined.returncode == 0, joined.stderr
    assert table(joined.stdout) == table(printed)
    rows = [line.split()[1] for line in table(printed) if line.startswith("oracle ")]  # each block: every task
    assert rows[:len(TASK_NAMES) + 1] == [*TASK_NAMES, "all"]  # and the total ("all tasks")
    on_ray = trajectories(tmp_path, "oracle")
    assert set(on_ray) == {(task, 0) for task in TASK_NAMES}
    assert all(played(trajectory) == played(trajectories(local, "oracle")[key]) for key, trajectory in on_ray.items())
    assert files(tmp_path) == files(local)
    record = json.loads((tmp_path / "run.json").read_text())
    assert record["execution"] == {"backend": "ray", "browsers": None, "ray_address": ray_address, "concurrency": 4}

    assert main(command) == 0  # this process, already connected
    assert trajectories(tmp_path, "oracle") == on_ray  # nothing played again
    assert len(json.loads((tmp_path / "run.json").read_text())["earlier_runs"]) == 1


def test_a_crashed_episode_is_recorded_as_by_the_local_backend(tmp_path, live_server, ray_address, capsys):
    assert main(["run", "--tasks", "TASK_FIND_BOOKING", "--episodes", "2", "--concurrency", "2", "--quiet",
                 "--server", live_server, "--operator-token", "wrong", "--backend", "ray", "--out", str(tmp_path)]) == 1
    assert "Every episode of this run crashed (2)" in capsys.readouterr().err
    broken = list(trajectories(tmp_path, "oracle").values())
    assert len(broken) == 2 and all("answered 403" in t["crash"] for t in broken)
    assert all(t == crashed(episode_spec("oracle", t["task"], t["seed"]), t["settings"], t["crash"]).to_json()
               for t in broken)  # what the local backend writes for a crashed episode


@pytest.mark.parametrize("backend", ["local", "ray"])
def test_a_refused_model_stops_the_run_loudly(tmp_path, live_server, ray_address, backend, capsys):
    with FakeOpenAIServer(lambda request: {"status": 401, "error": "Incorrect API key provided"}) as refusing:
        assert main(["run", "--method", "flat", "--tasks", "TASK_FIND_FLIGHT", "--episodes", "4", "--quiet",
                     "--model", "fake-model", "--base-url", refusing.base_url, "--server", live_server,
                     "--concurrency", "2", "--backend", backend, "--out", str(tmp_path)]) == 1
    assert len(refusing.requests) <= 2  # the episodes in flight, then no other
    assert "The run stopped: The API key was refused" in capsys.readouterr().err
    assert json.loads((tmp_path / "run.json").read_text())["outcome"].startswith("stopped: The API key was refused")
    crashed = trajectories(tmp_path, "flat-zero-shot").values()
    assert 1 <= len(crashed) <= 2 and all(not t["complete"] and "Incorrect API key" in t["crash"] for t in crashed)


def test_ray_options_are_checked(tmp_path, capsys):
    _, err = refusal(main, ["run", "--ray-address", "127.0.0.1:6379", "--out", str(tmp_path)], capsys)
    assert "--ray-address is for --backend ray" in err
    _, err = refusal(main, ["run", "--backend", "ray", "--browsers", "0", "--out", str(tmp_path)], capsys)
    assert "--browsers takes a number of browsers, 1 or more" in err


def test_an_address_where_no_cluster_listens_is_reported(tmp_path, live_server, capsys):
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        address = f"127.0.0.1:{probe.getsockname()[1]}"
    assert main(["run", "--tasks", "TASK_FIND_BOOKING", "--episodes", "1", "--backend", "ray", "--ray-address",
                 address, "--server", live_server, "--quiet", "--out", str(tmp_path)]) == 1
    assert f"Cannot join the Ray cluster at {address}: " in capsys.readouterr().err


def test_a_cluster_without_a_cpu_per_browser_is_refused(tmp_path, live_server, ray_address, capsys):
    assert main(["run", "--tasks", "TASK_FIND_BOOKING", "--episodes", "3", "--concurrency", "3", "--browsers", "3",
                 "--backend", "ray", "--server", live_server, "--quiet", "--out", str(tmp_path)]) == 1
    assert "The Ray cluster has 2 CPU(s); 3 browsers need one each" in capsys.readouterr().err
    assert not list(tmp_path.glob("oracle/*/*.json"))


def test_workers_that_cannot_reach_the_server_stop_the_run_with_the_reason(tmp_path, ray_address):
    with socket.socket() as probe:  # a port nobody listens on, as the driver's loopback is for other nodes
        probe.bind(("127.0.0.1", 0))
        unreachable = f"http://127.0.0.1:{probe.getsockname()[1]}"
    driver = Driver(tmp_path, {"oracle": {"max_steps": 60}}, False, tqdm(disable=True))
    with pytest.raises(ServerError, match=f"A Ray worker on .*: The CRM server at {unreachable} cannot be used.*"
                                          "Give --server with an address the cluster's nodes can reach"):
        ray_cluster.play_all([episode_spec("oracle", "TASK_FIND_BOOKING", 0)], driver,
                             WorkerConfig(unreachable, {}), concurrency=1, browsers=1, address=None)
    assert driver.written == []
