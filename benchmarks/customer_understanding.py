"""How well the hard suite's rule-based customer understands what agents say.

    .venv/bin/python benchmarks/customer_understanding.py [--show N]

Prints the share of the team's corpus (tests/scenarios/data/customer_corpus*.jsonl: lines written
for this project in several manners, each labelled with what a right reply holds) answered right,
per manner, per file and in all, and the number of agreements given where none was asked. When
`../shared/customer-lines/` lies beside the project (real lines of LLM agents, kept outside it), its
own scorer is run too and its last line printed. No model is called.
"""
from __future__ import annotations

import argparse
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.scenarios.customer_corpus import answer, corpus, misses  # noqa: E402

SHARED_SCORER = ROOT.parent / "shared" / "customer-lines" / "score.py"


def corpus_figures(show: int) -> None:
    rows = corpus()
    started = time.perf_counter()
    judged = [(row, answer(row)) for row in rows]
    seconds = time.perf_counter() - started
    wrong = [(row, text, misses(row, text)) for row, text in judged if misses(row, text)]
    for key in ("manner", "file"):
        counts, wrong_counts = Counter(row[key] for row in rows), Counter(row[key] for row, _, _ in wrong)
        print(f"\n{key:<30} {'lines':>5} {'right':>6}")
        for value, count in sorted(counts.items()):
            print(f"{value:<30} {count:>5} {100 * (count - wrong_counts[value]) / count:>5.1f}%")
    false = sum("false agreement" in why for _, _, why in wrong)
    print(f"\ncustomer on the team's corpus: {len(rows) - len(wrong)}/{len(rows)} right "
          f"({100 * (len(rows) - len(wrong)) / len(rows):.1f} %), false agreements {false}; "
          f"{1000 * seconds / len(rows):.2f} ms a line")
    for row, text, why in wrong[:show]:
        print(f"  {', '.join(why)}\n    AGENT: {row['agent'][:200]!r}\n    REPLY: {text!r}")


def shared_figures() -> None:
    if not SHARED_SCORER.exists():
        print(f"\n(no {SHARED_SCORER.parent}: the real agent lines are measured only where they lie beside the project)")
        return
    done = subprocess.run([sys.executable, str(SHARED_SCORER), "--show", "0"], cwd=ROOT, capture_output=True,
                          text=True, timeout=600)
    lines = done.stdout.strip().splitlines()
    print("\n" + (lines[-1] if done.returncode == 0 and lines else f"the shared scorer failed: {done.stderr[-500:]}"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--show", type=int, default=0, help="misses of the corpus to print")
    args = parser.parse_args()
    corpus_figures(args.show)
    shared_figures()


if __name__ == "__main__":
    main()
