"""The README and docs/ as a newcomer reads them: every relative link resolves (to a file, and to a
heading when it names one), the README stays a landing page (300 lines at most), docs/README.md
lists every page of docs/, and the README's "Evaluate your agent" examples run as they are written
(the Python policy to a score, the HTTP example to the verdict the README shows), as do the
hard suite's loops of docs/your-agent.md."""
from __future__ import annotations

import csv
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DOCS = ROOT / "docs"
PAGES = [README, *sorted(DOCS.glob("*.md"))]
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^```.*?^```", re.S | re.M)


def prose(path: Path) -> str:
    """The page without its code blocks (a link in a code block is not one)."""
    return FENCE.sub("", path.read_text())


def anchors(path: Path) -> set[str]:
    """The anchors of the page's headings, as GitHub makes them."""
    headings = re.findall(r"^#{1,6} (.+)$", prose(path), re.M)
    return {re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-") for heading in headings}


def section(text: str, heading: str) -> str:
    return text.split(f"\n## {heading}\n", 1)[1].split("\n## ", 1)[0]


def blocks(text: str, language: str) -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```", text, re.S | re.M)


def test_every_relative_link_of_the_readme_and_docs_resolves():
    broken = []
    for page in PAGES:
        for target in LINK.findall(prose(page)):
            if re.match(r"^[a-z]+:", target):  # http(s), mailto: not ours to check
                continue
            where, _, anchor = target.partition("#")
            linked = (page.parent / where).resolve() if where else page
            if not linked.exists() or (anchor and linked.suffix == ".md" and anchor not in anchors(linked)):
                broken.append(f"{page.relative_to(ROOT)}: {target}")
    assert broken == []


def test_the_readme_is_a_landing_page_and_docs_readme_lists_every_page():
    text = README.read_text()
    assert len(text.splitlines()) <= 300
    first_screen = "\n".join(text.splitlines()[:60])
    assert "make run" in first_screen and "make test" in first_screen and "## Evaluate your agent" in first_screen
    listed = {Path(target).name for target in LINK.findall(prose(DOCS / "README.md")) if target.endswith(".md")}
    pages = {page.name for page in DOCS.glob("*.md")} - {"README.md"}
    assert pages - listed == set()
    assert "(http://127.0.0.1:5000/api/docs)" in section(text, "The CRM and its API")  # the route table's link


def environment(**extra) -> dict:
    """The project's environment, as after `source .venv/bin/activate`: its python first on PATH."""
    return {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
            "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])), **extra}


def run(script: str, cwd: Path, *command: str, **extra) -> str:
    done = subprocess.run([*command, script] if command else ["bash", "-c", script], cwd=cwd,
                          env=environment(**extra), capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


@pytest.mark.browser
def test_the_python_policy_of_the_readme_runs_to_a_score(tmp_path):
    example = section(README.read_text(), "Evaluate your agent")
    policy, command = blocks(example, "python")[0], blocks(example, "bash")[0]
    assert "my_agent:MyAgent" in command
    (tmp_path / "my_agent.py").write_text(policy)
    printed = run(command, tmp_path, COLUMNS="120")
    assert re.search(r"my_agent\.MyAgent\s+TASK_FIND_BOOKING\s+1\.00", printed)
    rows = list(csv.DictReader((tmp_path / "runs" / "latest" / "summary.csv").open()))
    total = next(row for row in rows if row["task"] == "all tasks")
    assert (total["method"], total["episodes"], float(total["success_mean"])) == ("my_agent.MyAgent", "5", 1.0)
    assert (tmp_path / "runs" / "latest" / "report" / "index.html").exists()


def test_the_http_example_of_the_readme_gets_the_verdict_it_shows(live_server, tmp_path):
    example = section(README.read_text(), "Evaluate your agent").split("### 2.", 1)[1].split("### 3.", 1)[0]
    (script,), (shown,) = blocks(example, "bash"), blocks(example, "console")
    assert "/evaluate" in script and "/api/customer/messages" in script
    printed = run(script, tmp_path, CRM=live_server)
    # the verdict as shown, and the opening line; the customer's words in between are the simulator's
    verdict = lambda text: text[text.index("{"):]  # noqa: E731
    assert verdict(printed) == verdict(shown) and printed.splitlines()[0] == shown.splitlines()[0]
    assert len(printed.splitlines()) == len(shown.splitlines())  # a line of the customer's for each said


@pytest.mark.browser
@pytest.mark.parametrize("number", [0, 1], ids=["CrmEnv", "ApiEnv"])
def test_the_hard_suite_loops_of_your_agent_md_end_in_success(live_server, tmp_path, number):
    loop = blocks(section((DOCS / "your-agent.md").read_text(), "The hard suite from Python"), "python")[number]
    script = tmp_path / "loop.py"
    script.write_text(loop)
    last = run(str(script), tmp_path, sys.executable, CRM=live_server).strip().splitlines()[-1]
    assert last.startswith("1.0 "), last
