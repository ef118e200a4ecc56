#!/usr/bin/env bash
# Installs what the end-to-end browser tests need: Debian's Chromium, its old headless
# shell (the same Blink without the full browser around it: the tests' pages drawn for
# about a fifth less CPU, harness/browser.py), and the Python Playwright package (which
# drives them; no browser download). Never fails the build: where the machine does not
# allow it, it says so loudly and the browser tests skip with the same reason.
set -u
VENV="${VENV:-.venv}"
if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromium-headless-shell ]; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    echo "installing Debian's chromium and chromium-headless-shell (and a Korean font) for the browser tests (once)..."
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-nanum >/dev/null) \
      || echo "WARNING: could not install chromium: the browser tests will be SKIPPED"
    # the headless shell is a saving, not a need: without it the tests run on chromium
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium-headless-shell >/dev/null \
      || echo "NOTE: no chromium-headless-shell: the browser tests run on the full chromium (slower)"
  elif [ ! -x /usr/bin/chromium ]; then
    echo "WARNING: /usr/bin/chromium is missing and cannot be installed here (needs root and apt-get):"
    echo "WARNING: the browser tests will be SKIPPED"
  fi
fi
VENV="$VENV" bash scripts/install.sh --extra browser \
  || echo "WARNING: could not install playwright: the browser tests will be SKIPPED"
