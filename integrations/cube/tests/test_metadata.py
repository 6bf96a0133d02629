"""The benchmark CUBE lists: every full and hard task, the paper suite's five and every expert template
(with its split), ids naming suite and task, metadata as data that still says what the scenarios say."""
from agent.crm.client import ScenarioClient
from airlinecrm_cube import metadata
from airlinecrm_cube.benchmark import AirlineCrmBenchmarkConfig

from cube_helpers import FULL, HARD
from scenarios.suites import SUITES
from scenarios.tasks.expert import TEMPLATES

EXPERT = [f"expert.{t.name.removeprefix('EXPERT_').lower().replace('_', '-')}" for t in TEMPLATES]


def test_every_full_and_hard_task_the_paper_suites_five_and_every_expert_template():
    tasks = AirlineCrmBenchmarkConfig().tasks()
    assert list(tasks) == ([f"full.{t}" for t in FULL] + [f"paper.{t}" for t in FULL[:5]] + [f"hard.{t}" for t in HARD]
                           + EXPERT)
    assert AirlineCrmBenchmarkConfig.benchmark_metadata.num_tasks == 23 + len(TEMPLATES)
    assert [tasks[task_id].split for task_id in EXPERT] == [t.split for t in TEMPLATES]
    assert {tasks[f"hard.{t}"].split for t in HARD} == {"test"}  # a suite without splits: all test
    assert tasks["hard.policy-cancel"].customer and not tasks["paper.book-flight"].customer
    assert (tasks["full.book-flight"].task, tasks["full.book-flight"].suite) == ("TASK_BOOK_FLIGHT", "full")
    # the gold path's length and the step cap it recommends (twice that and ten more)
    assert (tasks["full.book-flight"].gold_steps, tasks["full.book-flight"].recommended_max_steps) == (20, 50)


def test_named_subsets_are_the_suites():
    hard = AirlineCrmBenchmarkConfig().named_subset("hard")
    assert [t.suite for t in hard.tasks().values()] == ["hard"] * 12
    assert len(AirlineCrmBenchmarkConfig().named_subset("paper").tasks()) == 5
    assert list(AirlineCrmBenchmarkConfig().named_subset("expert").tasks()) == EXPERT
    train = AirlineCrmBenchmarkConfig().subset_from_glob("split", "train").tasks()
    assert list(train) == [task_id for task_id, t in zip(EXPERT, TEMPLATES) if t.split == "train"]


def test_the_metadata_file_says_what_the_scenarios_say(benchmark):
    """Every task of full, paper and hard, and every 11th expert template (the rest: the same code)."""
    context = benchmark._runtime_context
    client = ScenarioClient(context["crm_url"], operator_token=context["operator_token"])
    sample = [t.name for t in TEMPLATES[::11]]
    built = metadata.build(client, only={*SUITES["full"].task_names, *SUITES["hard"].task_names, *sample})
    recorded = AirlineCrmBenchmarkConfig().tasks()
    assert list(built) == [task_id for task_id in recorded if task_id in built] and len(built) == 23 + len(sample)
    assert all(built[task_id] == recorded[task_id] for task_id in built)
