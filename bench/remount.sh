#!/usr/bin/env bash
# bench/remount.sh BIN SOURCE MOUNTPOINT STATE: unmounts MOUNTPOINT if it is mounted, waits for its
# daemon (pid in STATE/pid) to end, and mounts SOURCE there again with a fresh daemon and a fresh
# STATE directory: nothing cached, so the next timed command starts cold. Not timed itself
# (bench.py compare --mnt-prepare).
set -euo pipefail
bin=$1 source=$2 mnt=$3 state=$4
old=$(cat "$state/pid" 2>/dev/null || true)
if awk -v m="$mnt" '$2 == m { found = 1 } END { exit !found }' /proc/self/mounts; then
  timeout 20 fusermount3 -u "$mnt" || timeout 20 fusermount3 -u -z "$mnt"
fi
for ((i = 0; i < 200; i++)); do
  [[ -n $old && -r /proc/$old/cmdline ]] && grep -qa mediafs "/proc/$old/cmdline" || break
  sleep 0.05
done
rm -rf "$state"
mkdir -p "$state/cache" "$mnt"
HOME=$state XDG_CACHE_HOME=$state/cache timeout 60 "$bin" mount --log-file "$state/mediafs.log" \
  --pid-file "$state/pid" "$source" "$mnt" </dev/null >"$state/mount.out" 2>&1
