#!/usr/bin/env bash
# `pip install ARGS` into the project's virtual environment ($VENV, .venv by default):
# through uv where uv is installed there, else pip. uv installs the same requirements
# several times faster (a fresh venv: about 40 s instead of 80 s, most of it the
# compiled core's build; the test extras: 2 s instead of 17 s). It is a saving, not a
# need: where uv cannot be had, or fails, pip does the install.
set -u
BIN="${VENV:-.venv}/bin"
if [ -x "$BIN/uv" ]; then
  "$BIN/uv" pip install --quiet --python "$BIN/python" "$@" && exit 0
  echo "NOTE: uv could not install ($*); pip tries" >&2
fi
exec "$BIN/pip" install --quiet "$@"
