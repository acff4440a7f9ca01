#!/usr/bin/env bash
# packaging/test-deb.sh PACKAGE.deb: installs the package into a clean Debian 12 root, where no
# Swift toolchain is, and uses it there; `make deb-test` and CI run it (packaging/README.md).
#
# The root is made by mmdebstrap from Debian's mirror (the apt variant and mount(8)), kept as a
# tarball in the cache folder and made again after a week; the packages apt downloads are kept
# there too. Each run unpacks the tarball into a folder of its own and, in a private mount
# namespace with /dev, /proc and /sys bound in, runs in the root with chroot:
#   apt-get install ./mediafs_*.deb (its dependencies from the mirror), mediafs --version, ldd;
#   mount -t fuse.mediafs on a folder holding one film made here with the ffmpeg command, ls,
#   info.json, a thumbnail, an audio and a subtitle track read and checked with ffprobe, umount,
#   and the daemon's exit;
#   apt-get purge --autoremove mediafs, then the root's files compared with those before the
#   install: nothing added, nothing removed, beyond apt's and dpkg's own logs and records and the
#   daemon's cache folder (the user's data).
# Whatever fails, the mount and the daemon are ended, the namespace goes with its mounts and the
# root is removed.
#
# Skips, saying why, without root, mmdebstrap, /dev/fuse or a reachable mirror.
# Environment: MEDIAFS_DEB_TEST_CACHE (default ${XDG_CACHE_HOME:-~/.cache}/mediafs-deb-test),
# MEDIAFS_DEB_TEST_MIRROR (default http://deb.debian.org/debian).
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=mount-scripts/harness.sh
source "$here/../mount-scripts/harness.sh"

# The second half runs in the private mount namespace: test-deb.sh --in-namespace WORK DEB SECONDS,
# SECONDS those the first half took.
if [[ ${1-} == --in-namespace ]]; then
  in_namespace=true
  work=$2
  deb=$3
  elapsed=$4
else
  in_namespace=false
  if [[ $# -ne 1 || ! -f $1 || $1 != *.deb ]]; then
    echo "usage: packaging/test-deb.sh PACKAGE.deb" >&2
    exit 2
  fi
  deb=$(realpath "$1")
fi

mirror=${MEDIAFS_DEB_TEST_MIRROR:-http://deb.debian.org/debian}
security=${mirror%/debian}/debian-security
cache=${MEDIAFS_DEB_TEST_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/mediafs-deb-test}
started=$((SECONDS - ${elapsed:-0}))
failures=0

fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
  return 1
}
pass() { echo "  ok: $*"; }
section() { echo "== [$((SECONDS - started)) s] $*"; }
skip() {
  echo "packaging/test-deb.sh: skipped: $*"
  exit 0
}

# Runs COMMAND… in the root, as root with a plain environment, bounded by SECONDS.
in_root() {
  local seconds=$1
  shift
  timeout -k 5 "$seconds" chroot "$work/root" /usr/bin/env -i HOME=/tmp/home LANG=C.UTF-8 \
    PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive "$@"
}

# The root's files: "TYPE PATH" a line, sorted, leaving out the kernel's and the test's folders,
# apt's downloads and lists, and the logs.
root_files() {
  (cd "$work/root" && find . -xdev \( -path ./proc -o -path ./sys -o -path ./dev -o -path ./tmp \
    -o -path ./run -o -path ./var/cache/apt -o -path ./var/lib/apt/lists -o -path ./var/log \
    -o -path ./srv/media -o -path ./mnt/media \) -prune -o -printf '%y %p\n' | LC_ALL=C sort)
}

# Leaves out of a diff of root_files what is not the package's to remove: what apt and dpkg keep
# of their own work (the previous status, the debconf database backups, auto-installed marks,
# ldconfig's cache), and the cache folder the daemon made as root (/root/.cache/mediafs: mount(8)
# runs its helper with an empty environment), which is the user's data and stays, as it should.
not_the_package() {
  grep -vE -e '^[<>] [a-z] \./var/lib/dpkg/(status|diversions|statoverride|available)-old$' \
    -e '^[<>] [a-z] \./var/cache/debconf/[a-z]+\.dat-old$' -e '^[<>] [a-z] \./var/lib/apt/extended_states$' \
    -e '^[<>] [a-z] \./var/cache/ldconfig/aux-cache$' -e '^[<>] [a-z] \./root/\.cache(/mediafs(/.*)?)?$'
}

# Every process whose root is the test's root: the daemon, anything left of a command.
processes_in_root() {
  local dir
  for dir in /proc/[0-9]*; do
    [[ $(readlink "$dir/root" 2> /dev/null) == "$work/root" ]] && echo "${dir#/proc/}"
  done
}

# Unmounts the film folder's mount and ends every process in the root; whether something was left.
teardown_root() {
  local left=1 pid
  if is_mounted "$work/root/mnt/media"; then
    left=0
    teardown_under "$work/root/mnt" || true
    is_mounted "$work/root/mnt/media" && echo "teardown: could not unmount $work/root/mnt/media"
  fi
  for pid in $(processes_in_root); do
    left=0
    echo "teardown: ending process $pid ($(tr '\0' ' ' < "/proc/$pid/cmdline" 2> /dev/null))"
    end_process "$pid"
  done
  return "$left"
}

in_namespace_part() {
  local root=$work/root version expected names entries info thumb track subtitle pid size type
  trap 'teardown_root' EXIT
  trap 'echo "interrupted"; exit 130' INT TERM
  mount --rbind /dev "$root/dev" && mount --make-rslave "$root/dev" \
    && mount -t proc proc "$root/proc" && mount --rbind /sys "$root/sys" && mount --make-rslave "$root/sys" \
    && mount --bind "$cache/archives" "$root/var/cache/apt/archives" \
    || { fail "could not bind /dev, /proc, /sys and the package cache into the root"; return; }
  cp /etc/resolv.conf "$root/etc/resolv.conf"
  mkdir -p "$root/tmp/home" "$root/mnt/media"

  section "apt-get update in the root"
  in_root 300 apt-get update -qq || { fail "apt-get update in the root"; return; }
  root_files > "$work/files-before"
  [[ ! -e $root/opt/swift ]] || fail "the root has /opt/swift"

  section "apt-get install ./$(basename "$deb")"
  cp "$deb" "$root/tmp/"
  in_root 900 apt-get install -y -q --no-install-recommends "/tmp/$(basename "$deb")" > "$work/install.log" 2>&1 \
    || { tail -n 30 "$work/install.log"; fail "apt-get install of the package"; return; }
  pass "installed: $(grep -m1 -E '^[0-9]+ upgraded' "$work/install.log") $(grep -m1 '^Need to get' "$work/install.log")" \
    "$(grep -m1 '^After this operation' "$work/install.log")"

  # The listing sees what the package installs, so the comparison after the purge means something.
  root_files > "$work/files-installed"
  grep -qx 'f ./usr/bin/mediafs' "$work/files-installed" && grep -qx 'f ./usr/sbin/mount.fuse.mediafs' "$work/files-installed" \
    || fail "the root's file list after the install has no /usr/bin/mediafs or /usr/sbin/mount.fuse.mediafs"

  expected=$(dpkg-deb -f "$deb" Version)
  version=$(in_root 10 mediafs --version) || fail "mediafs --version fails in the root"
  [[ $version == "$expected" ]] && pass "mediafs --version says $version" \
    || fail "mediafs --version says '$version', the package is $expected"
  if in_root 10 ldd /usr/bin/mediafs > "$work/ldd" 2>&1 && ! grep -qE 'not found|swift|Foundation|dispatch' "$work/ldd"; then
    pass "every library found, no Swift runtime outside the binary ($(wc -l < "$work/ldd") in ldd)"
  else
    cat "$work/ldd"
    fail "ldd /usr/bin/mediafs in the root"
  fi

  section "mount -t fuse.mediafs /srv/media /mnt/media"
  if ! in_root 60 mount -t fuse.mediafs /srv/media /mnt/media -o pid_file=/tmp/mediafs.pid,log_file=/tmp/mediafs.log; then
    cat "$root/tmp/mediafs.log" 2> /dev/null | tail -n 20
    fail "mount -t fuse.mediafs in the root"
    return
  fi
  pid=$(cat "$root/tmp/mediafs.pid" 2> /dev/null)
  IFS=$'\t' read -r _ type _ < <(mount_entry "$root/mnt/media") && [[ $type == fuse.mediafs ]] \
    && pass "mounted, type fuse.mediafs, daemon $pid" || fail "no fuse.mediafs mount on /mnt/media"

  names=$(in_root 20 ls /mnt/media) && [[ $names == film.mkv ]] && pass "ls /mnt/media: $names" \
    || fail "ls /mnt/media says '$names'"
  entries=$(in_root 20 ls /mnt/media/film.mkv | tr '\n' ' ')
  for name in film.mkv info.json thumbs tracks; do
    [[ " $entries" == *" $name "* ]] || fail "ls /mnt/media/film.mkv does not list $name (got: $entries)"
  done
  in_root 20 cmp /srv/media/film.mkv /mnt/media/film.mkv/film.mkv && pass "the original reads the same" \
    || fail "film.mkv/film.mkv differs from the source"

  info=$work/info.json
  in_root 60 cat /mnt/media/film.mkv/info.json > "$info" \
    && python3 -c 'import json, sys; info = json.load(open(sys.argv[1])); sys.exit(not (isinstance(info, dict) and info))' "$info" \
    && pass "info.json is a JSON object ($(wc -c < "$info") bytes)" || fail "info.json"

  thumb=$work/at-1s.png
  size=$(in_root 60 stat -c %s /mnt/media/film.mkv/thumbs/at-1s.png)
  in_root 60 cat /mnt/media/film.mkv/thumbs/at-1s.png > "$thumb" \
    && [[ $(wc -c < "$thumb") == "$size" ]] \
    && [[ $(ffprobe -v error -show_entries stream=codec_name,width -of csv=p=0 "$thumb") == png,320 ]] \
    && pass "thumbs/at-1s.png: a 320-wide PNG of the size stat said ($size bytes)" \
    || fail "thumbs/at-1s.png (stat: $size bytes, read: $(wc -c < "$thumb"))"

  track=$(in_root 60 sh -c 'ls /mnt/media/film.mkv/tracks/audible/*.mka | head -n 1')
  in_root 120 cat "$track" > "$work/track.mka" \
    && [[ $(ffprobe -v error -show_entries stream=codec_type,codec_name -of csv=p=0 "$work/track.mka") == "aac,audio" ]] \
    && pass "${track#/mnt/media/film.mkv/}: one AAC audio stream ($(wc -c < "$work/track.mka") bytes)" \
    || fail "the audio track '$track'"
  subtitle=$(in_root 60 sh -c 'ls /mnt/media/film.mkv/tracks/legible/*.srt | head -n 1')
  in_root 60 cat "$subtitle" > "$work/track.srt" && grep -q 'Hello from the package test' "$work/track.srt" \
    && pass "${subtitle#/mnt/media/film.mkv/}: the film's subtitle" || fail "the subtitle track '$subtitle'"

  section "umount /mnt/media"
  in_root 30 umount /mnt/media && wait_unmounted "$root/mnt/media" 10 && pass "unmounted" \
    || fail "umount /mnt/media"
  [[ -z $pid ]] || { wait_exit "$pid" 10 && pass "the daemon ended"; } || fail "the daemon $pid is still running"

  section "apt-get purge --autoremove mediafs"
  in_root 300 apt-get purge -y -q --autoremove mediafs > "$work/purge.log" 2>&1 \
    || { tail -n 30 "$work/purge.log"; fail "apt-get purge"; return; }
  pass "purged with $(grep -cE '^(Removing|Purging) ' "$work/purge.log") remove and purge steps"
  in_root 10 dpkg-query -W -f='${Status}' mediafs > "$work/status" 2>&1
  ! grep -q 'installed\|config-files' "$work/status" && pass "dpkg knows no mediafs" \
    || fail "dpkg still has mediafs: $(cat "$work/status")"
  root_files > "$work/files-after"
  diff "$work/files-before" "$work/files-after" | grep '^[<>]' | not_the_package > "$work/files-diff"
  if [[ -s $work/files-diff ]]; then
    fail "the root's files changed from before the install to after the purge:"
    head -n 40 "$work/files-diff"
  else
    pass "the root's files after the purge are those before the install ($(wc -l < "$work/files-before") entries)"
  fi
}

if $in_namespace; then
  in_namespace_part
  teardown_root && fail "the test left a mount or a process in the root (ended)"
  trap - EXIT
  exit $((failures > 0))
fi

[[ $(id -u) == 0 ]] || skip "needs root (chroot, mounts)"
command -v mmdebstrap > /dev/null || skip "mmdebstrap is not installed (apt-get install mmdebstrap)"
[[ -c /dev/fuse ]] || skip "no /dev/fuse"
for tool in unshare chroot ffmpeg ffprobe python3 dpkg-deb timeout flock; do
  command -v "$tool" > /dev/null || { echo "packaging/test-deb.sh: FAIL: '$tool' is not installed"; exit 1; }
done
host=${mirror#*://}
host=${host%%/*}
timeout 20 bash -c "exec 3<>/dev/tcp/$host/80" 2> /dev/null || skip "the mirror $mirror cannot be reached"

exec 9> /run/lock/mediafs-deb-test.lock
flock -w 600 9 || { echo "packaging/test-deb.sh: FAIL: another run holds the lock"; exit 1; }

mkdir -p "$cache/archives/partial"
tarball=$cache/bookworm.tar
if [[ ! -s $tarball || -n $(find "$tarball" -mtime +6) ]]; then
  section "mmdebstrap: a Debian 12 root into $tarball"
  if ! timeout -k 10 1200 mmdebstrap --quiet --variant=apt --include=mount bookworm "$cache/bookworm.new.tar" \
      "deb $mirror bookworm main" "deb $mirror bookworm-updates main" \
      "deb $security bookworm-security main"; then
    rm -f "$cache/bookworm.new.tar"
    echo "packaging/test-deb.sh: FAIL: mmdebstrap"
    exit 1
  fi
  mv -f "$cache/bookworm.new.tar" "$tarball"
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/mediafs-deb-test.XXXXXX")
trap 'rm -rf --one-file-system "$work"' EXIT
trap 'echo "interrupted"; exit 130' INT TERM
section "the root unpacked into $work/root"
mkdir "$work/root"
tar --numeric-owner -xpf "$tarball" -C "$work/root" || { echo "packaging/test-deb.sh: FAIL: unpacking $tarball"; exit 1; }

# One film: H.264, an AAC track and a SubRip subtitle, three seconds.
mkdir -p "$work/root/srv/media"
printf '1\n00:00:00,500 --> 00:00:02,500\nHello from the package test\n' > "$work/film.srt"
timeout -k 5 120 ffmpeg -nostdin -loglevel error -f lavfi -i testsrc2=size=640x360:rate=25:duration=3 \
  -f lavfi -i sine=frequency=440:duration=3 -i "$work/film.srt" -map 0 -map 1 -map 2 \
  -c:v libx264 -preset ultrafast -g 25 -c:a aac -c:s srt -metadata:s:a:0 language=eng \
  -metadata:s:s:0 language=eng "$work/root/srv/media/film.mkv" \
  || { echo "packaging/test-deb.sh: FAIL: ffmpeg could not make the film"; exit 1; }

unshare --mount --propagation private -- bash "${BASH_SOURCE[0]}" --in-namespace "$work" "$deb" "$((SECONDS - started))"
status=$?
if mounts_under "$work" > /dev/null; then
  echo "FAIL: mounts under $work outside the namespace:"
  mounts_under "$work"
  status=1
fi
section "done"
if ((status == 0)); then
  echo "packaging/test-deb.sh: all passed in $((SECONDS - started)) s"
else
  echo "packaging/test-deb.sh: FAILED in $((SECONDS - started)) s"
fi
exit "$status"
