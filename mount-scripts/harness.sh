# mount-scripts/harness.sh: the harness of mount-scripts/test.sh, sourced by it (bash 4.4 or later):
# the mount table, waits for mounts and processes, the mediafs daemons serving under a folder, the
# checks of a mount through it, and the teardown. It reads /proc, never a mount point (which may
# hang), and bounds every command that touches a mount with `timeout`.

# One mount a line, in the order of /proc/self/mountinfo (a stacked mount after the one below it):
# DEVICE<TAB>MOUNTPOINT<TAB>FSTYPE<TAB>SOURCE<TAB>MOUNT-OPTIONS<TAB>SUPER-OPTIONS, the mount point
# and the source unescaped (mountinfo writes a space as \040).
mount_table() {
  local line fields i point source
  while IFS= read -r line; do
    # A field may be empty (a mount with no source): split at single spaces, keeping empty fields.
    IFS=$'\x1f' read -ra fields <<< "${line// /$'\x1f'}"
    for ((i = 6; i < ${#fields[@]}; i++)); do [[ ${fields[i]} == - ]] && break; done
    ((i + 2 < ${#fields[@]})) || continue
    printf -v point '%b' "${fields[4]//\\/\\0}"
    printf -v source '%b' "${fields[i + 2]//\\/\\0}"
    printf '%s\t%s\t%s\t%s\t%s\t%s\n' "${fields[2]}" "$point" "${fields[i + 1]}" "$source" "${fields[5]}" "${fields[i + 3]-}"
  done < /proc/self/mountinfo
}

# The mount-table line "MOUNTPOINT<TAB>FSTYPE<TAB>SOURCE<TAB>MOUNT-OPTIONS<TAB>SUPER-OPTIONS" of
# MOUNTPOINT (the top one if it is stacked); status 1 when not mounted.
mount_entry() {
  local device point rest found=
  while IFS=$'\t' read -r device point rest; do
    [[ $point == "$1" ]] && found=$point$'\t'$rest
  done < <(mount_table)
  [[ -n $found ]] || return 1
  printf '%s\n' "$found"
}

# How many mounts are stacked on MOUNTPOINT.
mount_count() {
  local device point rest count=0
  while IFS=$'\t' read -r device point rest; do
    [[ $point == "$1" ]] && count=$((count + 1))
  done < <(mount_table)
  echo "$count"
}

# "DEVICE<TAB>MOUNTPOINT<TAB>FSTYPE" of each mount whose mount point lies under FOLDER, the last
# mounted first; status 1 when there is none.
mounts_under() {
  local prefix=${1%/}/ device point type rest lines=()
  while IFS=$'\t' read -r device point type rest; do
    [[ $point == "$prefix"* ]] && lines=("$device"$'\t'"$point"$'\t'"$type" "${lines[@]}")
  done < <(mount_table)
  ((${#lines[@]} > 0)) || return 1
  printf '%s\n' "${lines[@]}"
}

is_mounted() { mount_entry "$1" > /dev/null; }

# Runs COMMAND… every 50 ms until it succeeds or SECONDS (whole) have passed; whether it succeeded.
wait_until() {
  local seconds=$1 deadline
  shift
  deadline=$(( ${EPOCHREALTIME//[.,]/} + seconds * 1000000 ))
  until "$@"; do
    (( ${EPOCHREALTIME//[.,]/} < deadline )) || return 1
    sleep 0.05
  done
}

# Whether process PID runs. A zombie does not: the daemon of a background mount is reparented to
# PID 1, which may take a while to reap it.
running() {
  local stat state
  { read -r stat < "/proc/$1/stat"; } 2> /dev/null || return 1
  state=${stat##*) }
  [[ -n $state && ${state:0:1} != [ZX] ]]
}

not_running() { ! running "$1"; }
not_mounted() { ! is_mounted "$1"; }

# Waits up to SECONDS for MOUNTPOINT to be mounted; no at once if process PID (when given) ends first.
wait_mounted() {
  local mp=$1 seconds=$2 pid=${3-}
  wait_until "$seconds" mounted_or_ended "$mp" "$pid"
  is_mounted "$mp"
}

mounted_or_ended() { is_mounted "$1" || { [[ -n $2 ]] && ! running "$2"; }; }

# Waits up to SECONDS for MOUNTPOINT to be unmounted.
wait_unmounted() { wait_until "$2" not_mounted "$1"; }

# Waits up to SECONDS (10 by default) for process PID to end.
wait_exit() { wait_until "${2:-10}" not_running "$1"; }

# Pids of `mediafs mount --foreground … MOUNTPOINT` daemons (the form mount.mediafs and the systemd
# units start) serving a mount point under FOLDER, one a line.
daemons_under() {
  local prefix=${1%/}/ dir args
  for dir in /proc/[0-9]*; do
    { mapfile -d '' args < "$dir/cmdline"; } 2> /dev/null || continue
    ((${#args[@]} > 3)) || continue
    [[ ${args[0]##*/} == mediafs && ${args[1]} == mount && ${args[2]} == --foreground && ${args[-1]} == "$prefix"* ]] || continue
    running "${dir#/proc/}" && echo "${dir#/proc/}"
  done | sort -n
}

# Prints the pid of the one daemon under FOLDER serving MOUNTPOINT, which must run BINARY; else
# prints why not and returns 1.
serving_daemon() {
  local mp=$1 folder=$2 binary=$3 pid args found=() exe
  for pid in $(daemons_under "$folder"); do
    { mapfile -d '' args < "/proc/$pid/cmdline"; } 2> /dev/null || continue
    [[ ${args[-1]} == "$mp" ]] && found+=("$pid")
  done
  ((${#found[@]} == 1)) || { echo "expected one daemon for $mp, found ${#found[@]}"; return 1; }
  exe=$(readlink "/proc/${found[0]}/exe") || { echo "cannot read the executable of daemon ${found[0]}"; return 1; }
  [[ $exe == "$(realpath "$binary")" ]] || { echo "the daemon for $mp runs $exe, not $binary"; return 1; }
  echo "${found[0]}"
}

# Prints why MOUNTPOINT is not a fuse.mediafs mount of SOURCE that reads like it (ls, cmp of
# clip.mp4, notes.txt and tone clip.mkv, info.json a JSON object) and returns 1; else nothing.
# Every read goes through `timeout`: a hung mount must not hang the harness.
mount_problem() {
  local mp=$1 source=$2 entry type from names name inside outside
  entry=$(mount_entry "$mp") || { echo "$mp is not mounted"; return 1; }
  IFS=$'\t' read -r _ type from _ <<< "$entry"
  [[ $type == fuse.mediafs ]] || { echo "$mp has type '$type', not fuse.mediafs"; return 1; }
  [[ $from == "$source" ]] || { echo "$mp shows source '$from', not '$source'"; return 1; }
  names=$(timeout -k 2 10 ls -1 "$mp") || { echo "ls $mp failed"; return 1; }
  for name in clip.mp4 notes.txt "Sub Folder"; do
    grep -qxF "$name" <<< "$names" || { echo "ls $mp does not list '$name' (got: ${names//$'\n'/, })"; return 1; }
  done
  timeout -k 2 10 test -d "$mp/clip.mp4" || { echo "$mp/clip.mp4 is not a folder"; return 1; }
  for inside in notes.txt:notes.txt clip.mp4/clip.mp4:clip.mp4 "Sub Folder/tone clip.mkv/tone clip.mkv:Sub Folder/tone clip.mkv"; do
    outside=${inside#*:}
    inside=${inside%%:*}
    timeout -k 2 10 cmp -s "$source/$outside" "$mp/$inside" || { echo "$outside differs through $mp"; return 1; }
  done
  timeout -k 2 10 python3 -c 'import json, sys; info = json.load(open(sys.argv[1], encoding="utf-8")); sys.exit(not (isinstance(info, dict) and info))' \
    "$mp/clip.mp4/info.json" 2> /dev/null || { echo "$mp/clip.mp4/info.json is not a JSON object"; return 1; }
}

# Writes the abort file of FUSE connection NUMBER (mounting fusectl if needed): every request
# waiting on it fails at once and the daemon's /dev/fuse reads end. The way out of a hung mount.
abort_connection() {
  local connections=/sys/fs/fuse/connections
  [[ -d $connections/$1 ]] || timeout -k 2 10 mount -t fusectl none "$connections" 2> /dev/null
  { echo 1 > "$connections/$1/abort"; } 2> /dev/null && echo "teardown: aborted FUSE connection $1" >&2
}

# SIGTERM (and SIGCONT, for a stopped one), then SIGKILL after 3 s; whether process PID ended.
end_process() {
  kill -TERM "$1" 2> /dev/null
  kill -CONT "$1" 2> /dev/null
  wait_exit "$1" 3 && return 0
  kill -KILL "$1" 2> /dev/null
  wait_exit "$1" 5
}

# Unmounts everything under FOLDER (`fusermount3 -u`; else the FUSE connection aborted, then
# `fusermount3 -u -z` or `umount -l`) and ends the daemons serving there. Status 0 when it found
# something to remove (a test left it behind), 1 when there was nothing.
teardown_under() {
  local folder=$1 found=1 device point type pid
  while IFS=$'\t' read -r device point type; do
    found=0
    echo "teardown: unmounting $point" >&2
    timeout -k 2 20 fusermount3 -u "$point" 2> /dev/null && continue
    [[ $type == fuse* ]] && abort_connection "${device#*:}"
    timeout -k 2 20 fusermount3 -u -z "$point" 2> /dev/null || timeout -k 2 20 umount -l "$point" 2> /dev/null \
      || echo "teardown: could not unmount $point" >&2
  done < <(mounts_under "$folder")
  for pid in $(daemons_under "$folder"); do
    found=0
    echo "teardown: ending daemon $pid" >&2
    end_process "$pid"
  done
  return "$found"
}
