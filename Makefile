# Every target sets itself up: a fresh Debian machine with Python 3.11 needs nothing else.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
CHROMIUM := /usr/bin/chromium
HOST ?= 127.0.0.1
PORT ?= 5000

.PHONY: run test setup browser bench fuzz clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

setup: $(STAMP)

# Debian's Chromium is what Playwright drives (see agent/browser.py); its own download fails here.
browser: $(STAMP)
	@if [ ! -x $(CHROMIUM) ]; then \
		if [ "$$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq chromium; \
		else $(VENV)/bin/playwright install chromium; fi; \
	fi

run: $(STAMP)
	$(PY) run.py --host $(HOST) --port $(PORT)

test: $(STAMP) browser
	$(PY) -m pytest -q

# The schemathesis fuzz test of `make test` with many more examples per operation (see README).
FUZZ_EXAMPLES ?= 1000
fuzz: $(STAMP)
	CRM_FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) $(PY) -m pytest tests/api/test_fuzz.py -q -s -p no:cacheprovider --timeout=1800

bench: $(STAMP) browser
	$(PY) benchmarks/api_latency.py
	$(PY) benchmarks/evaluate_latency.py
	$(PY) benchmarks/harness_latency.py
	$(PY) benchmarks/prompt_sizes.py
	$(PY) benchmarks/report_build.py

clean:
	rm -rf $(VENV) instance .pytest_cache
