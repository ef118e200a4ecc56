# `make run` and `make test` set everything up on a fresh machine with Python 3.11+.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: run test test-fast bench venv clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

venv: $(STAMP)

run: $(STAMP)
	$(BIN)/streamlit run streamlit_app.py --server.headless true

BROWSER_STAMP := $(VENV)/.browser

$(BROWSER_STAMP): $(STAMP) scripts/install-browser.sh
	bash scripts/install-browser.sh $(BIN)/pip
	if [ -x /usr/bin/chromium ]; then touch $(BROWSER_STAMP); fi

# the optional research extra (OpenSpiel, PettingZoo): installed for the tests
RESEARCH_STAMP := $(VENV)/.research

$(RESEARCH_STAMP): $(STAMP)
	$(BIN)/pip install --quiet -e '.[research]'
	touch $(RESEARCH_STAMP)

PG_STAMP := $(VENV)/.postgres

# Debian's postgresql for the store's PostgreSQL tests (each test session starts and
# stops a throwaway server of its own); skipped loudly where it cannot be installed
$(PG_STAMP): $(STAMP) scripts/install-postgres.sh
	bash scripts/install-postgres.sh
	if ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then touch $(PG_STAMP); fi

# every test, hypothesis derandomized (the same examples every run, as in CI); -rs
# prints the reason of every skip (no browser, no PostgreSQL)
test: $(STAMP) $(BROWSER_STAMP) $(RESEARCH_STAMP) $(PG_STAMP)
	HYPOTHESIS_PROFILE=ci $(BIN)/python -m pytest -n 2 -rs

# the edit-test loop: no slow property / brute-force tests, no browser
test-fast: $(STAMP) $(RESEARCH_STAMP)
	$(BIN)/python -m pytest -n 2 -m "not slow and not browser"

bench: $(STAMP) $(RESEARCH_STAMP)
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
