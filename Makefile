# `make run` and `make test` set everything up on a fresh machine with Python 3.11+.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: run test test-fast check bench venv clean FORCE

# Python keeps what it compiled (__pycache__, in the venv and the work tree, ignored by
# git) even where the shell asks it not to: `make test` starts a hundred-odd Python
# processes (its workers, an app server per browser module, the store's and the command
# line's processes), and without that each compiled everything it imports again (a
# process importing Streamlit, Playwright and the app: 2.0 s instead of 0.8 s)
unexport PYTHONDONTWRITEBYTECODE

# the compiled counting core is built by the install (scikit-build-core, CMakeLists.txt);
# where it cannot be built, the project installs without it and counts on the Python core
CORE_SOURCES := CMakeLists.txt $(wildcard solver/compiled/*.hpp solver/compiled/*.cpp)

# the editable install maps each module of the packages to its file when it is made, so
# a module moved or removed (a module made a package) needs the install made again: the
# list of modules is a prerequisite, rewritten only when a module comes or goes
PACKAGES := engine notepad solver advisor store app fugitive_cli
MODULES  := $(VENV)/.modules

$(MODULES): FORCE
	@mkdir -p $(VENV)
	@find $(PACKAGES) -name '*.py' | LC_ALL=C sort > $(MODULES).new
	@if cmp -s $(MODULES).new $(MODULES); then rm $(MODULES).new; else mv $(MODULES).new $(MODULES); fi

# every install into the venv: through uv where it could be installed, else pip
INSTALL := VENV=$(VENV) bash scripts/install.sh

$(STAMP): pyproject.toml $(CORE_SOURCES) $(MODULES) scripts/install.sh scripts/install-ccache.sh
	bash scripts/install-ccache.sh
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet uv || echo "NOTE: no uv here: pip installs everything (slower)"
	$(INSTALL) -e '.[dev]' || { \
	  echo "*** WARNING: the compiled counting core did not build (errors above). Installing without it:"; \
	  echo "*** counting runs on the Python core (the same counts, 10-30x slower). Install a C++ compiler"; \
	  echo "*** and the Python headers (apt-get install g++ python3-dev), then run make venv again."; \
	  $(INSTALL) -e '.[dev]' -C cmake.define.FUGITIVE_COMPILED_CORE=OFF; }
	$(BIN)/python -m fugitive_cli.main doctor
	touch $(STAMP)

venv: $(STAMP)

run: $(STAMP)
	$(BIN)/streamlit run streamlit_app.py --server.headless true

BROWSER_STAMP := $(VENV)/.browser

$(BROWSER_STAMP): $(STAMP) scripts/install-browser.sh scripts/extra_requirements.py scripts/install.sh
	VENV=$(VENV) bash scripts/install-browser.sh
	if [ -x /usr/bin/chromium ] || [ -x /usr/bin/chromium-headless-shell ]; then touch $(BROWSER_STAMP); fi

# the optional research extra (OpenSpiel, PettingZoo): installed for the tests, by its
# own requirements (scripts/install.sh --extra)
RESEARCH_STAMP := $(VENV)/.research

$(RESEARCH_STAMP): $(STAMP) scripts/extra_requirements.py scripts/install.sh
	$(INSTALL) --extra research
	touch $(RESEARCH_STAMP)

PG_STAMP := $(VENV)/.postgres

# Debian's postgresql for the store's PostgreSQL tests (each test session starts and
# stops a throwaway server of its own); skipped loudly where it cannot be installed
$(PG_STAMP): $(STAMP) scripts/install-postgres.sh
	bash scripts/install-postgres.sh
	if ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then touch $(PG_STAMP); fi

# the static checks: ruff (a small rule set, the whole project), import-linter (the
# layers of docs/architecture.md) and mypy --strict (engine, notepad, solver, advisor, store,
# fugitive_cli, app); their settings are in pyproject.toml
check: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/lint-imports
	$(BIN)/mypy

# the static checks, then every test, hypothesis derandomized (the same examples every run, as in CI), on the
# compiled counting core. The Python core is checked in the same run, not by a second
# pass: tests/solver/test_cores.py compares the two bit for bit, and the brute-force
# and worked-example tests ask each core (tests/solver/cores.py). --dist loadgroup: each
# browser module on one worker, the longest work first (tests/conftest.py). -rs prints
# the reason of every skip (no browser, no PostgreSQL). In CI (CI=true) a missing
# compiled core is an error, not a fallback. The static checks run beside pytest at the
# lowest priority, in the time the browser tests leave a core idle (a fifth of it;
# mypy's cold cache takes about 30 s of one core), never taking a core from a browser
# test's timing; their output follows pytest's, and either failing fails the target
# (pytest's own exit code first, so 5, "no tests", stays 5).
test: $(STAMP) $(BROWSER_STAMP) $(RESEARCH_STAMP) $(PG_STAMP)
	@if [ -n "$$CI" ]; then $(BIN)/python -c "import solver._compiled" || \
	  { echo "CI: the compiled counting core did not build"; exit 1; }; fi
	@nice -n 19 $(MAKE) --no-print-directory check > $(VENV)/check.log 2>&1 & checks=$$!; \
	HYPOTHESIS_PROFILE=ci $(BIN)/python -m pytest -n 2 --dist loadgroup -rs; tests=$$?; \
	wait $$checks; checked=$$?; \
	echo "--- the static checks (make check), run beside pytest:"; cat $(VENV)/check.log; \
	if [ $$checked -ne 0 ]; then echo "make test: the static checks FAILED (above)"; fi; \
	if [ $$tests -ne 0 ]; then exit $$tests; fi; exit $$checked

# the edit-test loop: no slow property / brute-force tests, no browser
test-fast: $(STAMP) $(RESEARCH_STAMP)
	$(BIN)/python -m pytest -n 2 --dist loadgroup -m "not slow and not browser"

bench: $(STAMP) $(RESEARCH_STAMP)
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis .mypy_cache .ruff_cache .import_linter_cache
