#!/usr/bin/env bash
# mount-scripts/test.sh BINARY: tests the mount(8) helper, fstab lines, the systemd units and
# install.sh with real mounts of BINARY. `make test` and CI run it as root; without root or
# /dev/fuse it skips. It installs /sbin/mount.fuse.mediafs for its duration only, bounds every
# mount and command with `timeout`, and leaves no mount, daemon or file behind, whatever fails.
# Exit status 0 when every check passed; each failed check prints a FAIL line. Its harness (mount
# table, waits, checks of a mount, teardown) is mount-scripts/harness.sh.
set -uo pipefail

if [[ $# -ne 1 || ! -x $1 ]]; then
  echo "usage: mount-scripts/test.sh BINARY (an executable mediafs)" >&2
  exit 2
fi
bin=$(realpath "$1")
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
started=$SECONDS
failures=0
helper=/sbin/mount.fuse.mediafs

if [[ $(id -u) != 0 ]]; then
  echo "mount-scripts/test.sh: skipped: needs root (it installs $helper for mount(8))"
  exit 0
fi
if [[ ! -c /dev/fuse ]]; then
  echo "mount-scripts/test.sh: skipped: no /dev/fuse"
  exit 0
fi
for tool in mount umount fusermount3 ffmpeg timeout flock setpriv cmp python3; do
  command -v "$tool" >/dev/null || { echo "mount-scripts/test.sh: FAIL: '$tool' is not installed"; exit 1; }
done

# One run at a time on a machine: the helper in /sbin is shared.
exec 9>/run/lock/mediafs-mount-scripts-test.lock
flock -w 120 9 || { echo "mount-scripts/test.sh: FAIL: another run holds the lock"; exit 1; }

work=$(mktemp -d /tmp/mediafs-mount-scripts.XXXXXX)
chmod 755 "$work"
helper_backup=
helper_installed=false
service_pid=

fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
  return 1
}

pass() { echo "  ok: $*"; }

# Passes with MESSAGE when no check failed since the failure count was $1.
pass_since() {
  local before=$1
  shift
  ((failures == before)) && pass "$@"
  return 0
}

section() { echo "== [$((SECONDS - started)) s] $*"; }

# The harness: the mount table (mount_entry, mount_count, mounts_under), waits (wait_mounted,
# wait_unmounted, wait_exit), the daemons serving under a folder, the checks of a mount through it
# and the teardown. What this script tests is shell and stays shell: mount(8) with the helper,
# fstab lines, the systemd units' command lines, install.sh.
# shellcheck source=mount-scripts/harness.sh
source "$here/harness.sh"

# Process ids of mediafs daemons (`mediafs mount --foreground … MOUNTPOINT`) serving under $work.
daemon_pids() { daemons_under "$work"; }

# Unmounts whatever is mounted under $work and ends the daemons serving there (aborting a FUSE
# connection that does not let go). Status 0 when it found something to remove (a test left it
# behind), 1 when there was nothing.
teardown() { teardown_under "$work"; }

# Runs one test function, then removes (and fails on) anything it left mounted or running.
run_test() {
  "$1"
  if teardown; then fail "$1 left a mount or a daemon behind (removed)"; fi
}

cleanup() {
  local status=$?
  trap - EXIT INT TERM
  if [[ -n $service_pid ]]; then kill -TERM "$service_pid" 2>/dev/null; fi
  if teardown && ((status == 0)); then
    echo "FAIL: a mount or a daemon was left behind (removed by the cleanup)"
    status=1
  fi
  if [[ -n $helper_backup ]]; then
    cp -a "$helper_backup" "$helper"
  elif $helper_installed; then
    rm -f "$helper"
  fi
  if mounts_under "$work" >/dev/null; then
    echo "cleanup: FAIL: a mount under $work is still there; $work kept"
    status=1
  else
    rm -rf --one-file-system "$work"
  fi
  exit "$status"
}
trap cleanup EXIT
trap 'echo "interrupted"; exit 130' INT TERM

# ---------------------------------------------------------------------------------------------
# Fixtures: a small library and the helper where mount(8) looks for it.

src=$work/media
mkdir -p "$src/Sub Folder" "$work/mnt" "$work/mnt two" "$work/svc-mnt" "$work/fake-mnt"
ffmpeg -nostdin -loglevel error -f lavfi -i testsrc=size=64x48:rate=5 -t 1 -pix_fmt yuv420p \
  "$src/clip.mp4" || { fail "ffmpeg could not make clip.mp4"; exit 1; }
ffmpeg -nostdin -loglevel error -f lavfi -i testsrc=size=64x48:rate=5 \
  -f lavfi -i sine=frequency=440:sample_rate=8000 -t 1 -shortest "$src/Sub Folder/tone clip.mkv" \
  || { fail "ffmpeg could not make tone clip.mkv"; exit 1; }
printf 'not media, passes through\n' > "$src/notes.txt"

if [[ -e $helper || -L $helper ]]; then
  helper_backup=$work/helper.backup
  cp -a "$helper" "$helper_backup"
fi
helper_installed=true
install -m 755 "$here/mount.mediafs" "$helper"
# mount(8) passes its environment to the helper: this makes it use the binary under test.
export MEDIAFS_BIN=$bin

# Checks that MOUNTPOINT is a mediafs mount of $src that reads like the source: its type and
# source in the mount table; ls, cmp of the files and info.json through it.
check_mount() {
  local mp=$1 why
  why=$(mount_problem "$mp" "$src") || { fail "${why:-the checks of $mp failed}"; return 1; }
  pass "$mp: fuse.mediafs of $src; ls, cat and cmp through it"
}

# Sets daemon_pid to the one daemon serving MOUNTPOINT; fails unless it runs the binary under test.
daemon_pid=
daemon_of() {
  local out
  daemon_pid=
  out=$(serving_daemon "$1" "$work" "$bin") || { fail "$out"; return 1; }
  daemon_pid=$out
}

# Unmounts MOUNTPOINT with umount(8) and checks that its daemon PID ends.
check_umount() {
  local mp=$1 pid=$2
  timeout -k 2 10 umount "$mp" || { fail "umount $mp failed"; return 1; }
  wait_unmounted "$mp" 5 || { fail "$mp still mounted after umount"; return 1; }
  wait_exit "$pid" 10 || { fail "daemon $pid still running after umount $mp"; return 1; }
  pass "umount $mp: mount gone, daemon $pid ended"
}

# ---------------------------------------------------------------------------------------------
test_mount_type() {
  section "mount -t fuse.mediafs SOURCE MOUNTPOINT"
  local mp=$work/mnt pid
  timeout -k 5 30 mount -t fuse.mediafs "$src" "$mp" || { fail "mount -t fuse.mediafs exited $?"; return 1; }
  check_mount "$mp" || return 1
  daemon_of "$mp" || return 1
  pid=$daemon_pid
  pass "daemon $pid runs $bin (MEDIAFS_BIN reached the helper)"
  check_umount "$mp" "$pid"
}

test_mount_options() {
  section "mount -v -t fuse.mediafs -o allow_other,noexec,…,pid_file=,log_file="
  local mp=$work/mnt pid output entry mount_options super_options before=$failures
  output=$(timeout -k 5 30 mount -v -t fuse.mediafs -o "allow_other,noexec,nosuid,nodev,noatime,relatime,nofail,_netdev,user,pid_file=$work/daemon.pid,log_file=$work/daemon.log,log_level=debug,mount_timeout=20" "$src" "$mp" 2>&1) \
    || { fail "mount with options exited $?: $output"; return 1; }
  [[ $output == *"running:"* ]] || fail "mount -v printed no command line: $output"
  check_mount "$mp" || return 1
  entry=$(mount_entry "$mp")
  IFS=$'\t' read -r _ _ _ mount_options super_options <<< "$entry"
  [[ ,$super_options, == *,allow_other,* ]] || fail "allow_other missing from the mount ($super_options)"
  [[ ,$mount_options, == *,noexec,* && ,$mount_options, == *,ro,* ]] \
    || fail "noexec or ro missing from the mount ($mount_options)"
  daemon_of "$mp" || return 1
  pid=$daemon_pid
  [[ $(cat "$work/daemon.pid" 2>/dev/null) == "$pid" ]] || fail "pid_file= holds '$(cat "$work/daemon.pid" 2>/dev/null)', not $pid"
  [[ -s $work/daemon.log ]] || fail "log_file= was not written"
  pass_since "$before" "options reached the mount: $mount_options / $super_options"
  check_umount "$mp" "$pid"
}

test_fake_and_errors() {
  section "mount -f, and failures that must leave nothing mounted"
  local mp=$work/fake-mnt output status before=$failures
  timeout -k 5 30 mount -f -t fuse.mediafs "$src" "$mp" || fail "mount -f exited $?"
  mount_entry "$mp" >/dev/null && fail "mount -f (fake) mounted $mp"
  [[ -z $(daemon_pids) ]] || fail "mount -f started a daemon"
  pass_since "$before" "mount -f: no mount, no daemon"
  before=$failures

  output=$(timeout -k 5 30 mount -t fuse.mediafs "$work/no-such-folder" "$mp" 2>&1); status=$?
  [[ $status == 32 ]] || fail "a missing source gave exit status $status, not 32"
  [[ $output == *"does not exist"* ]] || fail "a missing source said: $output"
  mount_entry "$mp" >/dev/null && fail "a missing source left $mp mounted"
  pass_since "$before" "missing source: status 32, '${output%%$'\n'*}'"
  before=$failures

  # mediafs exits 64 (EX_USAGE) for an option libfuse rejects; mount(8) reads 64 as "some mount
  # succeeded", so the helper says 1 (incorrect invocation).
  output=$(timeout -k 5 30 mount -t fuse.mediafs -o no_such_option "$src" "$mp" 2>&1); status=$?
  [[ $status == 1 ]] || fail "an unknown option gave exit status $status, not 1: $output"
  mount_entry "$mp" >/dev/null && fail "an unknown option left $mp mounted"
  pass_since "$before" "unknown option: status 1, '${output%%$'\n'*}'"
  before=$failures

  output=$(timeout -k 5 30 mount -t fuse.mediafs -o drop_privileges "$src" "$mp" 2>&1); status=$?
  [[ $status != 0 && $output == *"not supported"* ]] || fail "drop_privileges: status $status: $output"
  mount_entry "$mp" >/dev/null && fail "drop_privileges left $mp mounted"
  pass_since "$before" "drop_privileges refused: '${output%%$'\n'*}'"
  [[ -z $(daemon_pids) ]] || fail "a daemon is left after the failed mounts"
}

# setuid=nobody: the daemon runs as nobody, and only nobody may read the mount (allow_other would
# need user_allow_other in /etc/fuse.conf). Prints FAIL lines; status 1 on a failure.
setuid_nobody() {
  local mp=$work/mnt entry pid uid status=0
  timeout -k 5 30 mount -t fuse.mediafs -o "setuid=nobody,log_file=$work/nobody/log" "$src" "$mp" \
    || { echo "FAIL: setuid=nobody: mount exited $?"; return 1; }
  entry=$(mount_entry "$mp") || { echo "FAIL: setuid=nobody: $mp is not mounted"; return 1; }
  [[ $(cut -f2 <<< "$entry") == fuse.mediafs && $(cut -f5 <<< "$entry") == *user_id=65534* ]] \
    || { echo "FAIL: setuid=nobody: the mount is not nobody's: $entry"; status=1; }
  pid=$(daemon_pids)
  uid=$(awk '/^Uid:/ { print $2 }' "/proc/$pid/status" 2>/dev/null)
  [[ $uid == 65534 ]] || { echo "FAIL: setuid=nobody: the daemon ($pid) runs as uid '$uid'"; status=1; }
  setpriv --reuid=65534 --regid=65534 --clear-groups timeout -k 2 10 cmp "$src/clip.mp4" "$mp/clip.mp4/clip.mp4" \
    || { echo "FAIL: setuid=nobody: nobody cannot read clip.mp4 through the mount"; status=1; }
  timeout -k 2 10 umount "$mp" || { echo "FAIL: setuid=nobody: umount exited $?"; return 1; }
  wait_exit "$pid" 10 || { echo "FAIL: setuid=nobody: daemon $pid still runs after umount"; return 1; }
  return "$status"
}

test_setuid() {
  section "mount -o setuid=USER"
  local mp=$work/mnt pid status
  timeout -k 5 30 mount -t fuse.mediafs -o setuid=root "$src" "$mp" || { fail "setuid=root: mount exited $?"; return 1; }
  check_mount "$mp" || return 1
  daemon_of "$mp" || return 1
  pid=$daemon_pid
  check_umount "$mp" "$pid" || return 1

  chown 65534 "$mp"
  install -d -o 65534 "$work/nobody"
  if setpriv --reuid=65534 --regid=65534 --clear-groups sh -c 'test -r /dev/fuse && test -w /dev/fuse'; then
    setuid_nobody; status=$?
  else
    # /dev/fuse is closed to nobody (as in many containers): run the case in a private mount
    # namespace whose /dev/fuse is a node open to all; its mounts are seen only in there.
    work=$work src=$src here=$here unshare --mount --propagation private -- bash -c "
      source \"\$here/harness.sh\"
      $(declare -f daemon_pids setuid_nobody)
      mknod -m 666 \"\$work/fuse\" c 10 229 && mount --bind \"\$work/fuse\" /dev/fuse || exit 3
      setuid_nobody"
    status=$?
    rm -f "$work/fuse"
  fi
  chown 0 "$mp"
  case $status in
    0) pass "setuid=nobody: the daemon and the mount are nobody's; nobody reads through it" ;;
    3) echo "  note: setuid=nobody skipped: /dev/fuse is closed to nobody and no private namespace could open it" ;;
    *) fail "setuid=nobody (see above)" ;;
  esac
}

test_fstab() {
  section "fstab lines: mount --fstab FILE MOUNTPOINT, mount --fstab FILE --all"
  local fstab=$work/fstab mp=$work/mnt mp2="$work/mnt two" pid pid2 status before
  # fstab writes a space as \040.
  {
    echo "# a test fstab"
    printf '%s  %s  fuse.mediafs  %s  0 0\n' "$src" "$mp" \
      "ro,allow_other,nofail,_netdev,x-systemd.automount,x-systemd.mount-timeout=30,noauto,comment=test,defaults,user,users,noexec,nosuid,nodev"
    printf '%s  %s  fuse.mediafs  %s  0 0\n' "$src" "${mp2// /\\040}" "defaults,nofail"
  } > "$fstab"
  timeout -k 5 30 mount --fstab "$fstab" "$mp" || { fail "mount --fstab $fstab $mp exited $?"; return 1; }
  check_mount "$mp" || return 1
  [[ $(mount_entry "$mp" | cut -f5) == *allow_other* ]] || fail "the fstab line's allow_other is missing"
  daemon_of "$mp" || return 1
  pid=$daemon_pid

  timeout -k 5 30 mount --fstab "$fstab" --all -t fuse.mediafs || { fail "mount --fstab --all exited $?"; return 1; }
  check_mount "$mp2" || return 1
  daemon_of "$mp2" || return 1
  pid2=$daemon_pid
  # mount -a again: libmount must see both as mounted (source, target and type match).
  before=$failures
  timeout -k 5 30 mount --fstab "$fstab" --all -t fuse.mediafs; status=$?
  [[ $status == 0 ]] || fail "a second mount --all exited $status"
  [[ $(mount_count "$mp2") == 1 && $(mount_count "$mp") == 1 ]] \
    || fail "a second mount --all mounted again ($(mount_count "$mp2") mounts on $mp2)"
  pass_since "$before" "mount --all: the auto line mounted once, a second --all mounts nothing"
  check_umount "$mp2" "$pid2"
  check_umount "$mp" "$pid"
  fstab_generator "$fstab" "$mp" "$mp2"
}

# What systemd makes of the fstab at boot: systemd-fstab-generator's units, and their verify.
fstab_generator() {
  local fstab=$1 mp=$2 mp2=$3 generator out=$work/generator unit name output before=$failures
  for generator in /usr/lib/systemd/system-generators/systemd-fstab-generator \
                   /lib/systemd/system-generators/systemd-fstab-generator ''; do
    [[ -x $generator ]] && break
  done
  if [[ -z $generator ]] || ! command -v systemd-escape >/dev/null; then
    echo "  note: systemd-fstab-generator or systemd-escape is not installed: skipped the generated units"
    return 0
  fi
  mkdir -p "$out"
  SYSTEMD_FSTAB=$fstab timeout -k 2 10 "$generator" "$out" "$out" "$out" 2>&1 \
    || { fail "systemd-fstab-generator failed on $fstab"; return 1; }
  for name in "$mp" "$mp2"; do
    unit=$out/$(systemd-escape --path --suffix=mount "$name")
    grep -qx 'Type=fuse.mediafs' "$unit" 2>/dev/null || { fail "no mount unit of type fuse.mediafs for $name"; continue; }
    if command -v systemd-analyze >/dev/null; then
      output=$(timeout -k 2 20 systemd-analyze verify "$unit" 2>&1) && [[ -z $output ]] \
        || fail "systemd-analyze verify ${unit##*/}: $output"
    fi
  done
  [[ -f $out/$(systemd-escape --path --suffix=automount "$mp") ]] \
    || fail "x-systemd.automount made no automount unit for $mp"
  pass_since "$before" "systemd-fstab-generator: a fuse.mediafs mount unit per line (verified), an automount for x-systemd.automount"
}

# ---------------------------------------------------------------------------------------------
# The systemd units, without a running systemd: verify them, then run what the service runs.

systemd_escape_path() {
  if command -v systemd-escape >/dev/null; then systemd-escape --path "$1"; return; fi
  # Enough for the plain paths of this test: drop the leading /, '-' → \x2d, '/' → '-'.
  local path=${1#/}
  path=${path//-/\\x2d}
  echo "${path//\//-}"
}

# Sets `command` to the words of KEY= in UNIT for INSTANCE, expanded as systemd does (specifiers
# %f %i %I %E, $VAR split at spaces, ${VAR} as one word, from the EnvironmentFile), with the
# binary replaced by the one under test; `ignore_failure` is true for a "-" prefix.
declare -A unit_env
command=()
ignore_failure=false
unit_command() {
  local unit=$1 key=$2 value word words parts
  value=$(grep -m1 "^$key=" "$unit") || { fail "$unit has no $key="; return 1; }
  value=${value#*=}
  ignore_failure=false
  if [[ $value == -* ]]; then ignore_failure=true; value=${value#-}; fi
  [[ $value == [@+!:]* || $value == *[\"\'\\\;]* ]] \
    && { fail "$key= in $unit uses syntax this test does not expand: $value"; return 1; }
  command=()
  read -ra words <<< "$value"
  for word in "${words[@]}"; do
    word=${word//%f/$instance_path}
    word=${word//%i/$instance}
    word=${word//%I/${instance_path#/}}
    word=${word//%E/$config_home}
    if [[ $word =~ ^\$([A-Za-z_][A-Za-z0-9_]*)$ ]]; then
      read -ra parts <<< "${unit_env[${BASH_REMATCH[1]}]-}"
      command+=("${parts[@]}")
    elif [[ $word =~ ^\$\{([A-Za-z_][A-Za-z0-9_]*)\}$ ]]; then
      command+=("${unit_env[${BASH_REMATCH[1]}]-}")
    elif [[ $word == *[%\$]* ]]; then
      fail "$key= in $unit: cannot expand '$word'"; return 1
    else
      command+=("$word")
    fi
  done
  [[ ${command[0]} == /usr/local/bin/mediafs ]] && command[0]=$bin
  return 0
}

# Reads the unit's EnvironmentFile (KEY=VALUE lines) into unit_env.
read_unit_environment() {
  local unit=$1 file line
  file=$(grep -m1 '^EnvironmentFile=' "$unit") || { fail "$unit has no EnvironmentFile="; return 1; }
  file=${file#*=}
  file=${file//%i/$instance}
  file=${file//%E/$config_home}
  [[ -f $file ]] || { fail "EnvironmentFile= of $unit is $file, which the test did not write"; return 1; }
  unit_env=()
  while IFS= read -r line; do
    [[ -z $line || $line == \#* ]] && continue
    unit_env[${line%%=*}]=${line#*=}
  done < "$file"
}

test_unit_verify() {
  local unit=$1 scope=$2 copy output
  if ! command -v systemd-analyze >/dev/null; then
    echo "  note: systemd-analyze is not installed: skipped verifying $unit"
    return 0
  fi
  # verify needs an instance and the binary it names to exist.
  mkdir -p "$work/verify-$scope" "$work/runtime"
  copy="$work/verify-$scope/mediafs@verify.service"
  sed "s#/usr/local/bin/mediafs#$bin#g" "$unit" > "$copy"
  if [[ $scope == user ]]; then
    output=$(XDG_RUNTIME_DIR=$work/runtime timeout -k 2 20 systemd-analyze --user verify "$copy" 2>&1)
  else
    output=$(timeout -k 2 20 systemd-analyze verify "$copy" 2>&1)
  fi
  local status=$?
  [[ $status == 0 && -z $output ]] || { fail "systemd-analyze${scope/#user/ --user} verify $unit: status $status: $output"; return 1; }
  pass "systemd-analyze verify: ${unit#"$here"/}"
}

# Runs ExecStartPre= and ExecStart= of UNIT like systemd would, then stops it: with ExecStop=
# (stop=execstop) or with SIGTERM, as systemd does when ExecStop= could not unmount (stop=sigterm).
test_unit_run() {
  local unit=$1 stop=$2 status daemon
  instance_path=$work/svc-mnt
  instance=$(systemd_escape_path "$instance_path")
  config_home=$work/config
  rmdir "$instance_path"                       # ExecStartPre= makes it
  mkdir -p "$config_home/mediafs"
  printf 'MEDIAFS_SOURCE=%s\nMEDIAFS_OPTIONS=-o allow_other --log-level debug --pid-file %s\n' \
    "$src" "$work/service.pid" > "$config_home/mediafs/$instance.conf"
  read_unit_environment "$unit" || return 1
  grep -qx 'Type=simple' "$unit" || fail "$unit is not Type=simple"
  grep -qx 'Restart=on-failure' "$unit" || fail "$unit has no Restart=on-failure"

  unit_command "$unit" ExecStartPre || return 1
  timeout -k 2 10 "${command[@]}" || { fail "ExecStartPre= (${command[*]}) exited $?"; return 1; }
  unit_command "$unit" ExecStart || return 1
  echo "  ExecStart: ${command[*]}"
  timeout -k 2 25 "${command[@]}" < /dev/null > "$work/service.log" 2>&1 &
  service_pid=$!
  if ! wait_mounted "$instance_path" 15 "$service_pid"; then
    fail "ExecStart= did not mount $instance_path: $(tail -3 "$work/service.log")"; return 1
  fi
  check_mount "$instance_path" || return 1
  daemon_of "$instance_path" || return 1
  daemon=$daemon_pid

  if [[ $stop == execstop ]]; then
    unit_command "$unit" ExecStop || return 1
    echo "  ExecStop: ${command[*]}"
    timeout -k 2 10 "${command[@]}" || fail "ExecStop= exited $? with the mount up"
  else
    kill -TERM "$daemon"
  fi
  wait "$service_pid"; status=$?
  service_pid=
  [[ $status == 0 ]] || { fail "the service's daemon exited $status after stop ($stop): $(tail -3 "$work/service.log")"; return 1; }
  mount_entry "$instance_path" >/dev/null && { fail "$instance_path still mounted after stop ($stop)"; return 1; }
  pass "stopped by $stop: daemon exited 0, mount gone"
  if [[ $stop == sigterm ]]; then
    # systemd runs ExecStop= even when the daemon is gone; the "-" prefix makes its failure harmless.
    unit_command "$unit" ExecStop || return 1
    $ignore_failure || fail "ExecStop= of $unit lacks the '-' prefix (it fails once the mount is gone)"
  fi
}

test_units() {
  section "systemd units (no running systemd: verify, then run ExecStart=/ExecStop= by hand)"
  test_unit_verify "$here/system/mediafs@.service" system
  test_unit_verify "$here/user/mediafs@.service" user
  test_unit_run "$here/system/mediafs@.service" execstop
  test_unit_run "$here/user/mediafs@.service" sigterm
}

# ---------------------------------------------------------------------------------------------
test_install() {
  section "install.sh into a staging folder (--destdir)"
  local dest=$work/dest output failures_before=$failures
  output=$(bash "$here/install.sh" --bin "$bin" --destdir "$dest" 2>&1) || { fail "install.sh: $output"; return 1; }
  cmp -s "$bin" "$dest/usr/local/bin/mediafs" || fail "install.sh did not install the binary"
  [[ -x $dest/sbin/mount.fuse.mediafs ]] && cmp -s "$here/mount.mediafs" "$dest/sbin/mount.fuse.mediafs" \
    || fail "install.sh did not install the helper as sbin/mount.fuse.mediafs"
  cmp -s "$here/system/mediafs@.service" "$dest/etc/systemd/system/mediafs@.service" \
    || fail "install.sh did not install the system unit"
  output=$(bash "$here/install.sh" --uninstall --destdir "$dest" 2>&1) || fail "install.sh --uninstall: $output"
  [[ -z $(find "$dest" -type f) ]] || fail "install.sh --uninstall left: $(find "$dest" -type f)"

  output=$(HOME=$work/home XDG_CONFIG_HOME= bash "$here/install.sh" --user --bin "$bin" --prefix /opt/mediafs --destdir "$dest" 2>&1) \
    || { fail "install.sh --user: $output"; return 1; }
  local unit=$dest$work/home/.config/systemd/user/mediafs@.service
  [[ -x $dest/opt/mediafs/bin/mediafs ]] || fail "install.sh --user --prefix did not install the binary"
  grep -q '^ExecStart=/opt/mediafs/bin/mediafs mount --foreground' "$unit" 2>/dev/null \
    && ! grep -q /usr/local/bin "$unit" || fail "the --user unit does not run /opt/mediafs/bin/mediafs"
  [[ ! -e $dest/sbin/mount.fuse.mediafs ]] || fail "install.sh --user installed the helper"
  output=$(HOME=$work/home XDG_CONFIG_HOME= bash "$here/install.sh" --user --uninstall --prefix /opt/mediafs --destdir "$dest" 2>&1) \
    || fail "install.sh --user --uninstall: $output"
  [[ -z $(find "$dest" -type f) ]] || fail "install.sh --user --uninstall left: $(find "$dest" -type f)"

  output=$(bash "$here/install.sh" --bin "$bin" --prefix /opt/mediafs --destdir "$dest" 2>&1) || fail "install.sh --prefix: $output"
  grep -q '^\[ -n "$bin" \] || bin=/opt/mediafs/bin/mediafs$' "$dest/sbin/mount.fuse.mediafs" \
    || fail "install.sh --prefix did not point the helper at /opt/mediafs/bin/mediafs"
  pass_since "$failures_before" "install.sh and --uninstall, system and --user, default and --prefix"
}

run_test test_mount_type
run_test test_mount_options
run_test test_fake_and_errors
run_test test_setuid
run_test test_fstab
run_test test_units
run_test test_install

if ((failures > 0)); then
  echo "mount-scripts/test.sh: $failures check(s) FAILED ($((SECONDS - started)) s)"
  exit 1
fi
echo "mount-scripts/test.sh: all passed ($((SECONDS - started)) s)"
