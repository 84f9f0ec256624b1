# Sourced by .ci/run: a throwaway PostgreSQL cluster for the PostgreSQL store's tests
# (among them four real processes creating the tables and one session at once:
# tests/test_postgres_race.py).
# Installs Debian's postgresql package if needed (apt-get update once, a failed install
# retried once), starts a cluster as the postgres user in a temporary folder, listening
# only on a Unix socket in that folder and on 127.0.0.1 at a free port, exports
# TINYAGENT_TEST_POSTGRES_URL, and defines pg_stop (stop the cluster, remove the
# folder) for the caller's EXIT trap. As root the server runs as the postgres user
# (initdb refuses root); otherwise as the current user, if the binaries are there.

pg_bin() {  # the folder of initdb/pg_ctl: Debian keeps them out of the PATH
    local dir
    for dir in /usr/lib/postgresql/*/bin; do
        [ -x "$dir/pg_ctl" ] && { echo "$dir"; return 0; }
    done
    command -v pg_ctl >/dev/null && { dirname "$(command -v pg_ctl)"; return 0; }
    return 1
}

if ! pg_bin >/dev/null; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq postgresql >/dev/null \
        || { sleep 5; apt-get install -y -qq postgresql >/dev/null; }
fi
PG_BIN=$(pg_bin)
PG_DIR=$(mktemp -d /tmp/tinyagent-pg.XXXXXX)
PG_PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
if [ "$(id -u)" = 0 ]; then
    chown postgres: "$PG_DIR"
    as_postgres() { (cd / && runuser -u postgres -- "$@"); }
else
    as_postgres() { "$@"; }
fi
pg_stop() {
    as_postgres "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m immediate stop >/dev/null 2>&1
    rm -rf "$PG_DIR"
}
as_postgres "$PG_BIN/initdb" -D "$PG_DIR/data" -U postgres -A trust -E UTF8 \
    --no-sync >/dev/null
as_postgres "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/log" -w -o \
    "-c listen_addresses=127.0.0.1 -p $PG_PORT -k $PG_DIR -c fsync=off" start >/dev/null
export TINYAGENT_TEST_POSTGRES_URL="postgresql://postgres@127.0.0.1:$PG_PORT/postgres"
echo "PostgreSQL $("$PG_BIN/pg_ctl" --version | awk '{print $3}') on 127.0.0.1:$PG_PORT"
