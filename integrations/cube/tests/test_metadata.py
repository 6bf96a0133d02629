"""The benchmark CUBE lists: every full and hard task and the paper suite's five, ids naming suite and
task, metadata as data that still says what the scenarios say."""
from agent.crm.client import ScenarioClient
from airlinecrm_cube import metadata
from airlinecrm_cube.benchmark import AirlineCrmBenchmarkConfig

from cube_helpers import FULL, HARD


def test_every_full_and_hard_task_and_the_paper_suites_five():
    tasks = AirlineCrmBenchmarkConfig().tasks()
    assert list(tasks) == ([f"full.{t}" for t in FULL] + [f"paper.{t}" for t in FULL[:5]] + [f"hard.{t}" for t in HARD])
    assert AirlineCrmBenchmarkConfig.benchmark_metadata.num_tasks == 23
    assert tasks["hard.policy-cancel"].customer and not tasks["paper.book-flight"].customer
    assert (tasks["full.book-flight"].task, tasks["full.book-flight"].suite) == ("TASK_BOOK_FLIGHT", "full")
    # the gold path's length and the step cap it recommends (twice that and ten more)
    assert (tasks["full.book-flight"].gold_steps, tasks["full.book-flight"].recommended_max_steps) == (20, 50)


def test_named_subsets_are_the_suites():
    hard = AirlineCrmBenchmarkConfig().named_subset("hard")
    assert [t.suite for t in hard.tasks().values()] == ["hard"] * 12
    assert len(AirlineCrmBenchmarkConfig().named_subset("paper").tasks()) == 5


def test_the_metadata_file_says_what_the_scenarios_say(benchmark):
    context = benchmark._runtime_context
    client = ScenarioClient(context["crm_url"], operator_token=context["operator_token"])
    assert metadata.as_json(metadata.build(client)) == metadata.METADATA_FILE.read_text()
