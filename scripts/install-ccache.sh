#!/usr/bin/env bash
# Installs Debian's ccache, which keeps what the compiler made: an install of the
# project compiles the counting core only where its sources changed since any earlier
# install on this machine, in any clone (CMakeLists.txt uses it where it is installed;
# scripts/install.sh builds from the same paths every time). A saving, not a need:
# never fails the build; without it the core is compiled whole (about 40 s on 2 cores).
set -u
command -v ccache >/dev/null 2>&1 && exit 0
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "installing Debian's ccache for the compiled core's builds (once)..."
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -qq ccache >/dev/null 2>&1 \
    || { apt-get update -qq && apt-get install -y -qq ccache >/dev/null; } \
    || echo "NOTE: could not install ccache: the compiled core is compiled whole at every install"
else
  echo "NOTE: no ccache here (apt-get needs root): the compiled core is compiled whole at every install"
fi
exit 0
