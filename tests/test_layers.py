"""The project's layers, read from its own imports (every import statement, those inside functions
included, and importlib.import_module of a literal name): no import circle anywhere, and no module
importing from a layer above its own. crm_app (the CRM) < scenarios (the scenario backend, which
attaches itself through the extension hook of crm_app's factory: scenarios/app.py) < agent, whose
own layers docs/architecture.md draws < airlinecrm (the `airlinecrm` command)."""
from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

import crm_app
from tests.api.test_openapi import operations, registered_routes
from tests.databases import dispose

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("crm_app", "scenarios", "agent", "airlinecrm")  # each may import only the ones before it
# agent/'s layers, lowest first: a module imports from its own layer and the ones below.
AGENT_LAYERS = (
    ("agent.json_files",),
    ("agent.crm",),
    ("agent.env",),
    ("agent.episode",),
    ("agent.policies",),
    ("agent.experiment",),
    ("agent.results",),
    ("agent.__main__", "agent.run_options", "agent.memory", "agent.examples", "agent.mcp", "agent.export",
     "agent.standings", "agent.play"),  # the command lines
)


def module_name(path: Path, root: Path = ROOT) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def project_modules(root: Path = ROOT) -> dict[str, Path]:
    return {module_name(path, root): path for package in PACKAGES for path in (root / package).rglob("*.py")
            if "__pycache__" not in path.parts}


def imported(path: Path, known: set[str], root: Path = ROOT) -> set[str]:
    """The project modules the file imports, anywhere in it: for `from X import Y`, X.Y when that is
    a module, else X; relative imports made absolute; import_module / __import__ of a literal name."""
    name = module_name(path, root)
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[:len(package) - node.level + 1] if node.level else []
            source = ".".join(base + ([node.module] if node.module else []))
            found.update({f"{source}.{alias.name}" for alias in node.names} & known or {source})
        elif isinstance(node, ast.Call) and _called_name(node.func) in ("import_module", "__import__"):
            found.update(arg.value for arg in node.args[:1] if isinstance(arg, ast.Constant) and isinstance(arg.value, str))
    return {module for module in found if module in known and module != name}


def _called_name(func: ast.expr) -> str | None:
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None


@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    known = project_modules()
    return {name: imported(path, set(known)) for name, path in known.items()}


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import graph's strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def rank(module: str) -> tuple[int, int]:
    """(package, agent layer) of a module; layers outside agent/ are 0."""
    package = PACKAGES.index(module.split(".")[0])
    if package != PACKAGES.index("agent"):
        return package, 0
    for layer, prefixes in enumerate(AGENT_LAYERS):
        if any(module == prefix or module.startswith(prefix + ".") for prefix in prefixes):
            return package, layer
    return package, -1 if module == "agent" else len(AGENT_LAYERS)


def test_no_import_circle(graph):
    assert circles(graph) == []


def test_every_agent_module_has_a_layer(graph):
    assert [module for module in graph if module.startswith("agent.") and rank(module)[1] == len(AGENT_LAYERS)] == []


def test_no_module_imports_from_a_layer_above_its_own(graph):
    upward = sorted(f"{module} imports {target}" for module, targets in graph.items() for target in targets
                    if rank(target) > rank(module))
    assert upward == []


def test_the_check_finds_a_circle_and_an_upward_import():
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == [["a", "b", "c"]]
    assert rank("agent.env.observation") < rank("agent.episode.play") < rank("agent.__main__")
    assert rank("crm_app.web") < rank("scenarios.routes") < rank("agent.crm.client")


def test_the_walk_sees_imports_inside_functions_and_relative_ones(tmp_path):
    source = tmp_path / "crm_app" / "openapi" / "paths.py"
    source.parent.mkdir(parents=True)
    source.write_text("def f():\n    from ...scenarios.routes import MAX_SEED\n    import scenarios.suites\n"
                      "    importlib.import_module('scenarios.tasks')\n    from ..web import page_url\n")
    known = {"scenarios.routes", "scenarios.suites", "scenarios.tasks", "crm_app.web", "crm_app.openapi.paths"}
    assert imported(source, known, tmp_path) == known - {"crm_app.openapi.paths"}


# In a process of its own, so that nothing the tests imported counts.
LOADED = """
import json, sys
from crm_app import create_app
create_app({"DATABASE_URL": "sqlite://", "SANDBOX_BOOKINGS": 0, "INSTANCE_PATH": sys.argv[1]})
print(json.dumps(sorted(name for name in sys.modules if name.split(".")[0] == "scenarios")))
"""


def test_making_the_crm_app_loads_no_module_of_scenarios(tmp_path):
    done = subprocess.run([sys.executable, "-c", LOADED, str(tmp_path)], cwd=ROOT, capture_output=True, text=True,
                          timeout=120, check=True)
    assert json.loads(done.stdout) == []


def test_the_crm_app_alone_documents_exactly_its_own_routes(database_url, tmp_path):
    app = crm_app.create_app({"DATABASE_URL": database_url, "SANDBOX_BOOKINGS": 0, "INSTANCE_PATH": str(tmp_path)})
    try:
        document = app.test_client().get("/openapi.json").json
    finally:
        dispose(app)
    assert set(operations(document)) == registered_routes(app)
    assert ("GET", "/api/config") in registered_routes(app) and ("GET", "/evaluate") not in registered_routes(app)


def subpackages(root: Path = ROOT) -> list[str]:
    """Every package below the project's packages, as a path with a trailing slash (agent/env/modes/)."""
    return sorted(f"{init.parent.relative_to(root).as_posix()}/" for package in PACKAGES
                  for init in (root / package).rglob("__init__.py")
                  if init.parent != root / package and "__pycache__" not in init.parts)


def test_the_architecture_document_names_every_subpackage():
    document = (ROOT / "docs" / "architecture.md").read_text()
    assert "agent/export/" in subpackages() and "agent/env/modes/" in subpackages()
    assert [package for package in subpackages() if f"`{package}`" not in document] == []
