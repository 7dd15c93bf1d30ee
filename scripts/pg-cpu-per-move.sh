#!/usr/bin/env bash
# PostgreSQL's own CPU per accepted move (issue 47): the CPU of every process of the local
# cluster (those alive, and the backends that exited, counted in the postmaster's children's
# time) around one run of `swapboard loadtest` on a database of its own. Run it twice with
# two durations: the difference divided by the difference in moves is the cost of a move,
# without the setup (migrations, sign-ups, games created) both runs share.
#
#   scripts/pg-cpu-per-move.sh BINARY RATE SECONDS
#
# Needs a cluster on this machine that the current user can reach as postgres at
# $PGURL (default postgres://postgres@127.0.0.1:5432) and read the processes of (root).
set -euo pipefail
BIN=$1 RATE=$2 RUN_SECONDS=$3
PGURL=${PGURL:-postgres://postgres@127.0.0.1:5432}
NAME=swapboard_cpu_per_move
psql -qAt "$PGURL/postgres" -c "DROP DATABASE IF EXISTS $NAME" -c "CREATE DATABASE $NAME" 2>/dev/null
TICK=$(getconf CLK_TCK)
# Clock ticks of CPU of the cluster: every postgres process, and the postmaster's reaped
# children (the oldest postgres process is the postmaster).
pg_ticks() {
    local total=0 postmaster
    postmaster=$(pgrep -o -x postgres)
    for pid in $(pgrep -x postgres); do
        read -r -a stat <"/proc/$pid/stat" || continue
        total=$((total + stat[13] + stat[14]))
        if [ "$pid" = "$postmaster" ]; then total=$((total + stat[15] + stat[16])); fi
    done
    echo "$total"
}
before=$(pg_ticks)
out=$("$BIN" loadtest --database "$PGURL/$NAME" --games 200 --accounts 400 --rate "$RATE" \
    --seconds "$RUN_SECONDS" --watchers 0 2>&1)
after=$(pg_ticks)
echo "$out" | grep -E '^moves|^refused'
per_second=$(echo "$out" | sed -n 's/^moves: \([0-9]*\) accepted per second.*/\1/p')
echo "postgres CPU: $(((after - before) * 1000 / TICK)) ms for about $((per_second * RUN_SECONDS)) moves; load $(cut -d' ' -f1-3 /proc/loadavg)"
psql -qAt "$PGURL/postgres" -c "DROP DATABASE IF EXISTS $NAME" >/dev/null
