"""docs/expert-suite.md holds the tables docs/make_expert_tables.py computes from the code: the
interval widths and the suite's structure per template, as they are now."""
import importlib.util
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parents[2] / "docs"


@pytest.mark.database_independent
def test_the_expert_suite_page_holds_the_tables_computed_from_the_code():
    spec = importlib.util.spec_from_file_location("make_expert_tables", DOCS / "make_expert_tables.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    tables = module.tables()
    assert "| expert | 216 |" in tables and "| hard | 12 |" in tables
    assert tables in (DOCS / "expert-suite.md").read_text()
