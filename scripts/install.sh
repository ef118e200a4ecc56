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
  uv_install() { "$BIN/uv" pip install --quiet --python "$BIN/python" "$@"; }
  # uv takes an installed editable project for up to date unless its pyproject.toml
  # changed: the make rule that calls this runs when a C++ source or a module changed,
  # so the project is built and installed again, as pip does
  again=()
  for arg in "$@"; do [ "$arg" = "-e" ] && again=(--reinstall-package fugitive); done
  if [ ${#again[@]} -gt 0 ]; then
    # the project built in the venv, its build system installed there first (with the
    # CMake and ninja scikit-build-core asks for where the machine has none), not in a
    # new temporary build environment: the compiled core is compiled from the same
    # paths at every install, so that ccache finds what it compiled before
    # (CMakeLists.txt). Where that fails, the usual isolated build below.
    # shellcheck disable=SC2046
    if uv_install $("$BIN/python" scripts/extra_requirements.py --build) \
       && tools=$("$BIN/python" -c 'from scikit_build_core.build import get_requires_for_build_editable as r; print(" ".join(r()))') \
       && { [ -z "$tools" ] || uv_install $tools; } \
       && uv_install --no-build-isolation "${again[@]}" "$@"; then exit 0; fi
    echo "NOTE: the build in the venv failed ($*); uv tries in a build environment of its own" >&2
  fi
  uv_install "${again[@]}" "$@" && exit 0
  echo "NOTE: uv could not install ($*); pip tries" >&2
fi
exec "$BIN/pip" install --quiet "$@"
