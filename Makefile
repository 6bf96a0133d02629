# Every target sets itself up: a fresh Debian machine with Python 3.11 needs nothing else.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
# Installed modules are byte-compiled when first imported, not all up front (a third of an install's CPU).
PIP_FLAGS := --quiet --no-compile
# uv installs every environment's pinned dependencies: it resolves, unpacks and builds the editable
# installs in parallel from one cache for the five environments, for about a third of pip's CPU
# (docs/tests.md). pip installs uv itself, into .venv; like pip here, uv compiles nothing up front
# and trusts the system's certificates.
UV_VERSION := 0.13.10
UV := $(VENV)/bin/uv
UV_INSTALL := UV_LINK_MODE=copy UV_NATIVE_TLS=1 $(UV) pip install --quiet --python
CHROMIUM := /usr/bin/chromium
HOST ?= 127.0.0.1
PORT ?= 5000

.PHONY: run test setup browser browsergym cube openenv verifiers integrations postgres http-tools bench fuzz clean

$(UV):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install $(PIP_FLAGS) --disable-pip-version-check uv==$(UV_VERSION)

$(STAMP): pyproject.toml | $(UV)
	$(UV_INSTALL) $(PY) -e '.[agent,ray,test,bench,export]'
	touch $(STAMP)

setup: $(STAMP)

# BrowserGym pins its own Playwright, so its task package is tested in an environment of its own.
BG_VENV := .venv-browsergym
BG_PY := $(BG_VENV)/bin/python
BG_STAMP := $(BG_VENV)/.installed
BG_CONSTRAINTS := integrations/browsergym/constraints.txt

$(BG_STAMP): pyproject.toml $(BG_CONSTRAINTS) | $(UV)
	$(PYTHON) -m venv $(BG_VENV)
	$(UV_INSTALL) $(BG_PY) -c $(BG_CONSTRAINTS) -e '.[browsergym,test]'
	touch $(BG_STAMP)

browsergym: $(BG_STAMP)

# CUBE (cube-standard, its browser and chat tools) needs Python 3.12 or newer: the CUBE package
# (integrations/cube/) gets an environment of its own on the first such Python found (python312.sh).
CUBE_VENV := .venv-cube
CUBE_PY := $(CUBE_VENV)/bin/python
CUBE_STAMP := $(CUBE_VENV)/.installed
CUBE_CONSTRAINTS := integrations/cube/constraints.txt

$(CUBE_STAMP): $(STAMP) pyproject.toml integrations/cube/pyproject.toml $(CUBE_CONSTRAINTS)
	python=$$(sh integrations/cube/python312.sh $(PY)) && $$python -m venv $(CUBE_VENV)
	$(UV_INSTALL) $(CUBE_PY) -c $(CUBE_CONSTRAINTS) -e '.[agent]' -e 'integrations/cube[test]'
	touch $(CUBE_STAMP)

cube: $(CUBE_STAMP)

# OpenEnv (openenv 0.10.0) needs fastmcp 3, which needs mcp 1, and the agent extra pins mcp 2: the
# OpenEnv package (integrations/openenv/) gets an environment of its own, with the project but
# without its agent extra.
OE_VENV := .venv-openenv
OE_PY := $(OE_VENV)/bin/python
OE_STAMP := $(OE_VENV)/.installed
OE_CONSTRAINTS := integrations/openenv/constraints.txt

$(OE_STAMP): pyproject.toml integrations/openenv/pyproject.toml $(OE_CONSTRAINTS) | $(UV)
	$(PYTHON) -m venv $(OE_VENV)
	$(UV_INSTALL) $(OE_PY) -c $(OE_CONSTRAINTS) -e . -e 'integrations/openenv[test]'
	touch $(OE_STAMP)

openenv: $(OE_STAMP)

# verifiers 0.4.0 (vf-eval) pins mcp 2.0.0, which OpenEnv's fastmcp refuses: its taskset package
# (integrations/verifiers/) gets an environment of its own, without openenv or the project; it reaches
# the OpenEnv server over its WebSocket API, and its tests start that server with $(OE_PY).
VF_VENV := .venv-verifiers
VF_PY := $(VF_VENV)/bin/python
VF_STAMP := $(VF_VENV)/.installed
VF_CONSTRAINTS := integrations/verifiers/constraints.txt

$(VF_STAMP): integrations/verifiers/pyproject.toml $(VF_CONSTRAINTS) | $(UV)
	$(PYTHON) -m venv $(VF_VENV)
	$(UV_INSTALL) $(VF_PY) -c $(VF_CONSTRAINTS) -e 'integrations/verifiers[test]'
	touch $(VF_STAMP)

verifiers: $(VF_STAMP)

# Debian's Chromium is what Playwright drives (see agent/env/browser.py); its own download fails here.
browser: $(STAMP)
	@if [ ! -x $(CHROMIUM) ]; then \
		if [ "$$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq chromium; \
		else $(VENV)/bin/playwright install chromium; fi; \
	fi

# Debian's PostgreSQL server programs: the tests and the benchmark start throw-away servers with
# them (tests/postgres_cluster.py).
postgres:
	@if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then \
		if [ "$$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq postgresql; \
		else echo "PostgreSQL is needed: sudo apt-get install -y postgresql" >&2; exit 1; fi; \
	fi

# curl and jq: the README's HTTP example, which tests/test_readme.py runs as it is written.
http-tools:
	@if ! command -v curl >/dev/null || ! command -v jq >/dev/null; then \
		if [ "$$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq curl jq; \
		else echo "curl and jq are needed: sudo apt-get install -y curl jq" >&2; exit 1; fi; \
	fi

run: $(STAMP)
	$(PY) run.py --host $(HOST) --port $(PORT)

# The passes in two streams at once (tests/run_streams.py; docs/tests.md): the tests in .venv (SQLite
# but the `beside` tests, then the `beside` sweeps, then the database tests on PostgreSQL, each on a
# pytest-xdist worker per core); and the integrations: their environments built (make integrations,
# beside the first stream's tests on a fresh machine), then BrowserGym, CUBE, OpenEnv, verifiers and
# the package build.
test: $(STAMP) browser postgres http-tools
	@MAKE="$(MAKE)" PY=$(PY) BG_PY=$(BG_PY) CUBE_PY=$(CUBE_PY) OE_PY=$(OE_PY) VF_PY=$(VF_PY) $(PY) tests/run_streams.py

integrations: $(BG_STAMP) $(CUBE_STAMP) $(OE_STAMP) $(VF_STAMP)

# The schemathesis fuzz test of `make test` with many more examples per operation (see README).
FUZZ_EXAMPLES ?= 1000
fuzz: $(STAMP)
	CRM_FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) $(PY) -m pytest tests/api/test_fuzz.py -q -s -p no:cacheprovider --timeout=1800

bench: $(STAMP) $(BG_STAMP) $(OE_STAMP) browser postgres
	$(PY) benchmarks/server_throughput.py
	$(PY) benchmarks/slow_clients.py
	$(PY) benchmarks/api_latency.py
	$(PY) benchmarks/evaluate_latency.py
	$(PY) benchmarks/harness_latency.py
	$(PY) benchmarks/prompt_sizes.py
	$(PY) benchmarks/report_build.py
	$(PY) benchmarks/leaderboard_build.py
	$(PY) benchmarks/observation_modes.py
	$(PY) benchmarks/call_panel.py
	$(PY) benchmarks/scale_out.py
	$(PY) benchmarks/vs_browsergym.py
	$(PY) benchmarks/customer_understanding.py
	$(PY) benchmarks/customer_reply.py
	$(PY) benchmarks/browser_step_cost.py
	$(OE_PY) benchmarks/rl_throughput.py

clean:
	rm -rf $(VENV) $(BG_VENV) $(CUBE_VENV) $(OE_VENV) $(VF_VENV) instance .pytest_cache
