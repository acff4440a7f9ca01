#!/usr/bin/env bash
# bench/fresh-copy.sh BIN SOURCE MOUNTPOINT FOLDER TARGET STATE: mounts SOURCE on MOUNTPOINT with a
# fresh daemon (empty memory cache), copies MOUNTPOINT/FOLDER/*.png to TARGET with cp, unmounts.
# One timed run of "copy the whole listed thumbs/ of a film".
set -euo pipefail
bin=$1 source=$2 mnt=$3 folder=$4 target=$5 state=$6
rm -rf "$target" "$state"
mkdir -p "$target" "$state" "$mnt"
XDG_CACHE_HOME=$state timeout 60 "$bin" mount --log-file "$state/mediafs.log" "$source" "$mnt"
trap 'timeout 20 fusermount3 -u "$mnt" || timeout 20 fusermount3 -u -z "$mnt"' EXIT
timeout 600 cp "$mnt/$folder"/*.png "$target"/
