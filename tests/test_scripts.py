"""The scripts outside the packages (docs/make_*.py, benchmarks/*.py) are run by hand, not by the
tests: what they import from the project must still exist, so that a rename cannot leave one
broken until someone runs it."""
from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PROJECT = ("agent", "crm_app", "scenarios", "airlinecrm", "tests", "benchmarks")
SCRIPTS = sorted([*ROOT.glob("docs/*.py"), *ROOT.glob("benchmarks/*.py")])


def project_imports(script: Path) -> list[tuple[str, str | None]]:
    """(module, name) of every import of the project's own modules, a plain `import m` with name None."""
    found = []
    for node in ast.walk(ast.parse(script.read_text())):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module.split(".")[0] in PROJECT:
            found += [(node.module, alias.name) for alias in node.names]
        elif isinstance(node, ast.Import):
            found += [(alias.name, None) for alias in node.names if alias.name.split(".")[0] in PROJECT]
    return found


def test_there_are_scripts_to_check():
    assert {path.name for path in SCRIPTS} >= {"make_report_screenshots.py", "make_ui_variant_screenshots.py",
                                               "customer_understanding.py"}


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda path: f"{path.parent.name}/{path.name}")
def test_what_a_script_imports_from_the_project_exists(script):
    missing = []
    for module, name in project_imports(script):
        try:
            imported = importlib.import_module(module)
        except ModuleNotFoundError as error:
            missing.append(f"{module}: {error}")
            continue
        if name is not None and not hasattr(imported, name):
            try:
                importlib.import_module(f"{module}.{name}")
            except ModuleNotFoundError:
                missing.append(f"{module}.{name}")
    assert missing == []
