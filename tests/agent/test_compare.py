"""`python -m agent compare`: two runs paired episode by episode, with known flips."""
import csv

import pytest

from agent.__main__ import main
from tests.agent.command_line import refusal
from tests.agent.synthetic_runs import write_outcomes

FIND, CANCEL = "TASK_FIND_FLIGHT", "TASK_CANCEL_FLIGHT"


@pytest.fixture
def runs(tmp_path):
    """A wins every find-flight scenario, B only seeds 0-2 and B misses seed 9; on cancel A wins seeds
    0-4 and B seeds 3-9: A alone wins 6 + 3 pairs, B alone 5."""
    a, b = tmp_path / "a", tmp_path / "b"
    write_outcomes(a, "oracle", {**{(FIND, s, 0): 1 for s in range(10)}, **{(CANCEL, s, 0): int(s < 5) for s in range(10)}})
    write_outcomes(b, "flat-zero-shot", {**{(FIND, s, 0): int(s < 3) for s in range(9)},
                                         **{(CANCEL, s, 0): int(s >= 3) for s in range(10)}})
    return a, b


def test_pairs_counts_flips_p_values_and_intervals(runs, capsys, tmp_path):
    a, b = runs
    assert main(["compare", str(a), str(b), "--out", str(tmp_path / "cmp")]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1] == ("Paired by (suite, task, seed, UI variant, customer variant, trial): 19 episode pairs. "
                      f"Not paired: 1 only in A ({FIND} seed 9); none only in B.")
    rows = {line.split()[0]: line.split() for line in out[4:7]}
    # task, pairs, A, B, A - B [interval], McNemar p, A only, B only, ...
    assert rows[FIND][:9] == [FIND, "9", "1.00", "0.33", "+0.67", "[0.33,", "0.89]", "0.0312", "6"]  # 2 / 2^6
    assert rows[CANCEL][:10] == [CANCEL, "10", "0.50", "0.70", "-0.20", "[-0.70,", "0.40]", "0.727", "3", "5"]
    assert out[6].startswith("all tasks") and out[6].split()[2:10] == [
        "19", "0.74", "0.53", "+0.21", "[-0.16,", "0.58]", "0.424", "9"]  # 2 * sum C(14, i<=5) / 2^14
    assert out[-2] == f"Won by A only: {', '.join(f'{FIND} seed {s}' for s in range(3, 9))}, " + \
        f"{', '.join(f'{CANCEL} seed {s}' for s in range(3))}"
    assert out[-1] == f"Won by B only: {', '.join(f'{CANCEL} seed {s}' for s in range(5, 10))}"
    table = {row["task"]: row for row in csv.DictReader((tmp_path / "cmp" / "comparison.csv").open())}
    assert (table[CANCEL]["mcnemar_p"], table[CANCEL]["won_by_b_only"], table["all tasks"]["pairs"]) == ("0.7266", "5", "19")
    assert table[CANCEL]["flipped_to_a"] == f"{CANCEL} seed 0; {CANCEL} seed 1; {CANCEL} seed 2"


def test_runs_of_different_suites_are_refused_unless_allowed(tmp_path, capsys):
    write_outcomes(tmp_path / "full", "oracle", {(FIND, 0, 0): 1})
    write_outcomes(tmp_path / "hard", "oracle", {("TASK_POLICY_CANCEL", 0, 0): 1}, protocol="hard")
    assert main(["compare", str(tmp_path / "full"), str(tmp_path / "hard")]) == 2
    assert capsys.readouterr().err.strip() == (
        f"Refusing to compare {tmp_path / 'full'} with {tmp_path / 'hard'}: they differ in settings that change results "
        f"(suite: full in {tmp_path / 'full'}, hard in {tmp_path / 'hard'}; customer: none in {tmp_path / 'full'}, "
        f"simulated customer in {tmp_path / 'hard'}). Add --allow-different suite,customer to compare them anyway.")
    assert main(["compare", str(tmp_path / "full"), str(tmp_path / "hard"), "--allow-different", "suite,customer"]) == 0
    assert "Compared although they differ in suite: full" in capsys.readouterr().out


def test_a_folder_of_several_labels_is_named_by_label(tmp_path, capsys):
    write_outcomes(tmp_path / "run", "oracle", {(FIND, 0, 0): 1})
    write_outcomes(tmp_path / "run", "flat-zero-shot", {(FIND, 0, 0): 0})
    code, err = refusal(main, ["compare", str(tmp_path / "run"), str(tmp_path / "run")], capsys)
    assert code == 2 and f"{tmp_path / 'run'} holds 2 labels (flat-zero-shot, oracle); name one as" in err
    assert main(["compare", f"{tmp_path / 'run'}:oracle", f"{tmp_path / 'run'}:flat-zero-shot"]) == 0
    assert f"{FIND}  1      1.00       0.00       +1.00" in capsys.readouterr().out


def test_plan_says_how_many_paired_seeds(capsys):
    assert main(["compare", "--plan", "--rate", "0.6", "--difference", "0.05"]) == 0
    assert capsys.readouterr().out.splitlines()[1:] == [
        "  1474 paired seeds per task, for a test on one task;",
        "  246 paired seeds per task, for the test over all 6 tasks together (when the tasks' rates are alike)."]
    code, err = refusal(main, ["compare", "--plan", "--rate", "0.6"], capsys)
    assert code == 2 and "--plan needs --difference" in err


def test_plan_from_a_pilot_uses_its_disagreement(runs, capsys):
    a, b = runs
    assert main(["compare", "--plan", str(a), str(b), "--difference", "0.2"]) == 0
    first, *_ = capsys.readouterr().out.splitlines()
    assert first.endswith("from a rate of 0.737 with 80% power at the 5% level (two-sided McNemar test), "
                          "with 73.7% of pairs disagreeing:")


def test_the_variant_breakdown_has_intervals_and_the_paired_gap_to_variant_0(tmp_path, capsys):
    write_outcomes(tmp_path, "flat-ui0", {(FIND, s, 0): 1 for s in range(10)})
    for variant in (1, 2):  # variant 1 loses seeds 6-9, variant 2 seeds 7-9
        write_outcomes(tmp_path, f"flat-ui{variant}", {(FIND, s, 0): int(s < 5 + variant) for s in range(10)},
                       ui_variant=variant)
    assert main(["summarize", "--out", str(tmp_path), "--by-variant", "--wide"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "1.00 ± 0.00 [0.72, 1.00]" in lines[3] and "0.60 ± 0.16 [0.31, 0.83]" in lines[3]
    assert lines[4].startswith("all tasks")  # one task: its total is the same
    assert main(["summarize", "--out", str(tmp_path), "--by-variant"]) == 0  # three labels: a row per label and task
    rows = {tuple(line.split()[:2]): line for line in capsys.readouterr().out.splitlines() if line.startswith("flat-ui")}
    assert "1.00 ± 0.00 [0.72, 1.00]" in rows[("flat-ui0", FIND)] and "0.60 ± 0.16 [0.31, 0.83]" in rows[("flat-ui1", FIND)]
    assert "0.60 ± 0.16 [0.31, 0.83]" in rows[("flat-ui1", "all")]
    assert [line.split() for line in lines[-3:]] == [
        ["flat", "ui", "1", "10", "1.00", "0.60", "+0.40", "[0.10,", "0.70]"],
        ["flat", "ui", "2", "10", "1.00", "0.70", "+0.30", "[0.00,", "0.60]"],
        ["flat", "all", "others", "10", "1.00", "0.65", "+0.35", "[0.10,", "0.65]"]]
    assert main(["report", str(tmp_path), "--by-variant"]) == 0
    gap = (tmp_path / "report" / "index.html").read_text().split('id="variant-gap"')[1].split("</section>")[0]
    assert "<th>flat</th><td>all others</td><td>10</td><td>1.00</td><td>0.65</td><td>+0.35 [0.10, 0.65]</td>" in gap


def test_runs_of_different_call_channels_are_refused_unless_allowed(tmp_path, capsys):
    say, page = tmp_path / "say", tmp_path / "page"
    write_outcomes(say, "oracle", {("TASK_POLICY_CANCEL", 0, 0): 1}, protocol="hard", channel="say")
    write_outcomes(page, "oracle", {("TASK_POLICY_CANCEL", 0, 0): 0}, protocol="hard", channel="page")
    assert main(["compare", str(say), str(page)]) == 2
    assert capsys.readouterr().err.strip() == (
        f"Refusing to compare {say} with {page}: they differ in settings that change results "
        f"(channel: say in {say}, page in {page}). Add --allow-different channel to compare them anyway.")
    assert main(["compare", str(say), str(page), "--allow-different", "channel"]) == 0
    assert f"Compared although they differ in channel: say in {say}, page in {page}." in capsys.readouterr().out
