#!/usr/bin/env bash
# bench/next-time.sh COUNTER TIMES COMMAND...: runs COMMAND with every "{T}" replaced by the next
# time of the space-separated list TIMES (cycling; the position is kept in the file COUNTER), so
# that each timed run of a benchmark asks for a frame no earlier run asked for.
set -euo pipefail
counter=$1 times=($2)
shift 2
n=$(cat "$counter" 2>/dev/null || echo 0)
echo $((n + 1)) >"$counter"
t=${times[n % ${#times[@]}]}
exec "${@//\{T\}/$t}"
