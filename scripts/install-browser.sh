#!/usr/bin/env bash
# Installs what the end-to-end browser tests need: Debian's Chromium and the Python
# Playwright package (which drives /usr/bin/chromium; no browser download).
# Never fails the build: where the machine does not allow it, it says so loudly and
# the browser tests skip with the same reason.
set -u
PIP="${1:-.venv/bin/pip}"
if [ ! -x /usr/bin/chromium ]; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    echo "installing Debian's chromium (and a Korean font) for the browser tests (once)..."
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-nanum >/dev/null) \
      || echo "WARNING: could not install chromium: the browser tests will be SKIPPED"
  else
    echo "WARNING: /usr/bin/chromium is missing and cannot be installed here (needs root and apt-get):"
    echo "WARNING: the browser tests will be SKIPPED"
  fi
fi
"$PIP" install --quiet -e '.[dev,browser]' || echo "WARNING: could not install playwright: the browser tests will be SKIPPED"
