#!/usr/bin/env bash
# `pip install ARGS` into the project's virtual environment ($VENV, .venv by default):
# through uv where uv is installed there, else pip. uv installs the same requirements
# several times faster (a fresh venv: about 40 s instead of 80 s, most of it the
# compiled core's build; the test extras: 2 s instead of 17 s). It is a saving, not a
# need: where uv cannot be had, or fails, pip does the install (a core that does not
# compile is then tried once more by pip, before the Makefile installs without it).
# `install.sh --extra NAME`: the requirements of pyproject.toml's optional extra NAME
# (scripts/extra_requirements.py), not `-e '.[NAME]'`, which would build the installed
# project and its compiled core again.
set -u
BIN="${VENV:-.venv}/bin"
if [ "${1:-}" = "--extra" ]; then
  reqs="${VENV:-.venv}/$2.txt"
  "$BIN/python" scripts/extra_requirements.py "$2" > "$reqs" || exit 1
  set -- -r "$reqs"
fi
if [ -x "$BIN/uv" ]; then
  # uv takes an installed editable project for up to date unless its pyproject.toml
  # changed: the make rule that calls this runs when a C++ source or a module changed,
  # so the project is built and installed again, as pip does
  again=()
  for arg in "$@"; do [ "$arg" = "-e" ] && again=(--reinstall-package fugitive); done
  "$BIN/uv" pip install --quiet --python "$BIN/python" "${again[@]}" "$@" && exit 0
  echo "NOTE: uv could not install ($*); pip tries" >&2
fi
exec "$BIN/pip" install --quiet "$@"
