"""The AgentLab benchmark of the CRM: its episodes, its action set, and EnvArgs that register the
tasks wherever AgentLab unpickles them (its worker processes) and make the CRM's environments."""
import pickle
import subprocess
import sys

import pytest

from airlinecrm_browsergym import TASK_IDS, TASK_SPLITS
from airlinecrm_browsergym.agentlab import airlinecrm_benchmark


def test_the_benchmark_plays_every_task_on_every_seed():
    benchmark = airlinecrm_benchmark(seeds=range(3), max_steps=25)
    pairs = [(args.task_name, args.task_seed) for args in benchmark.env_args_list]
    assert pairs == [(task, seed) for task in TASK_IDS for seed in range(3)]
    assert {args.max_steps for args in benchmark.env_args_list} == {25}
    actions = benchmark.high_level_action_set_args.make_action_set().describe()
    assert "fill(" in actions and "click(" in actions and "send_msg_to_user(" in actions
    one = airlinecrm_benchmark(tasks=["airlinecrm.book-flight"], seeds=[7])
    assert [(a.task_name, a.task_seed) for a in one.env_args_list] == [("airlinecrm.book-flight", 7)]
    with pytest.raises(ValueError, match="unknown AirlineCRM task airlinecrm.book-hotel"):
        airlinecrm_benchmark(tasks=["airlinecrm.book-hotel"])
    test = airlinecrm_benchmark(seeds=[0], split="test")
    assert [a.task_name for a in test.env_args_list] == [t for t, split in TASK_SPLITS.items() if split == "test"]
    with pytest.raises(ValueError, match="is not in the train split of the expert suite"):
        airlinecrm_benchmark(tasks=[test.env_args_list[0].task_name], split="train")
    with pytest.raises(ValueError, match="unknown split dev"):
        airlinecrm_benchmark(split="dev")


def test_unpickled_env_args_register_the_tasks_in_a_fresh_process():
    env_args = airlinecrm_benchmark(seeds=[1]).env_args_list[0]
    check = ("import pickle, sys, gymnasium as gym; args = pickle.loads(sys.stdin.buffer.read()); "
             "print(args.task_name, sorted(k for k in gym.registry if 'airlinecrm' in k))")
    out = subprocess.run([sys.executable, "-c", check], input=pickle.dumps(env_args), capture_output=True,
                         check=True).stdout.decode()
    assert out.startswith("airlinecrm.find-flight ") and all(f"browsergym/{task}" in out for task in TASK_IDS)


def test_env_args_make_the_environment_agentlab_runs(tmp_path):
    benchmark = airlinecrm_benchmark(tasks=["airlinecrm.find-booking"], seeds=[3])
    (env_args,) = benchmark.env_args_list
    action_set = benchmark.high_level_action_set_args.make_action_set()
    env = env_args.make_env(action_mapping=action_set.to_python_code, exp_dir=tmp_path)
    try:
        obs, _ = env.reset(seed=env_args.task_seed)
        assert obs["goal"].startswith("Find the booking with confirmation code")
        _, reward, terminated, _, _ = env.step('send_msg_to_user("done")')
        assert (reward, terminated) == (0.0, True)
    finally:
        env.close()
