#!/usr/bin/env bash
# bench/tracks-mount.sh BIN SOURCE MOUNTPOINT STATE cold|cached: (re)mounts SOURCE on MOUNTPOINT
# with a fresh daemon whose cache folder is STATE/cache/mediafs (XDG_CACHE_HOME=STATE/cache),
# emptied first for "cold", kept for "cached". The untimed setup before each timed copy of the
# tracks section (bench.py compare --mnt-prepare). The daemon's pid goes to STATE/pid.
set -euo pipefail
bin=$1 source=$2 mnt=$3 state=$4 mode=$5
mkdir -p "$state" "$mnt"
if awk -v m="$mnt" '$2 == m { found = 1 } END { exit !found }' /proc/self/mounts; then
  timeout 20 fusermount3 -u "$mnt" || timeout 20 fusermount3 -u -z "$mnt"
fi
if [[ -s $state/pid ]]; then  # the previous daemon exits once unmounted: wait for it (bounded)
  pid=$(cat "$state/pid" 2>/dev/null || true)
  for ((i = 0; i < 200 && ${#pid} > 0; i++)); do
    [[ -r /proc/$pid/cmdline ]] && grep -qa mediafs "/proc/$pid/cmdline" || break
    sleep 0.05
  done
fi
[[ $mode == cached ]] || rm -rf "$state/cache"
mkdir -p "$state/cache"
XDG_CACHE_HOME=$state/cache timeout 60 "$bin" mount --log-file "$state/mediafs.log" --pid-file "$state/pid" \
  "$source" "$mnt" </dev/null >/dev/null
