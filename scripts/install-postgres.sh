#!/usr/bin/env bash
# Installs what the store's PostgreSQL tests need: Debian's postgresql (initdb, pg_ctl,
# postgres). The tests make their own throwaway cluster in a temporary folder, on a
# Unix socket, as an unprivileged user (PostgreSQL refuses root): the `postgres` user
# the Debian package makes. No cluster of the package's own is created or started.
# Never fails the build: where the machine does not allow it, it says so loudly and
# the PostgreSQL half of the store tests is skipped with the same reason.
set -u
have_server() { ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || command -v initdb >/dev/null 2>&1; }
if ! have_server; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    echo "installing Debian's postgresql for the store tests (once)..."
    export DEBIAN_FRONTEND=noninteractive
    conf=/etc/postgresql-common/createcluster.conf
    # postgresql-common first, told not to make (and start) a "main" cluster when the
    # server package arrives: the tests never use one
    (apt-get update -qq && apt-get install -y -qq postgresql-common >/dev/null \
      && { sed -i '/^[[:space:]]*create_main_cluster/d' "$conf"; echo "create_main_cluster = false" >> "$conf"; } \
      && apt-get install -y -qq postgresql >/dev/null) \
      || echo "WARNING: could not install postgresql: the PostgreSQL store tests will be SKIPPED"
  else
    echo "WARNING: PostgreSQL's server programs (initdb) are missing and cannot be installed here"
    echo "WARNING: (needs root and apt-get): the PostgreSQL store tests will be SKIPPED"
  fi
fi
if have_server && [ "$(id -u)" = "0" ] && ! id -u postgres >/dev/null 2>&1; then
  # PostgreSQL will not run as root: the tests run it as this unprivileged user
  useradd --system --user-group --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin postgres \
    || echo "WARNING: no unprivileged user postgres to run PostgreSQL as: the PostgreSQL store tests will be SKIPPED"
fi
exit 0
