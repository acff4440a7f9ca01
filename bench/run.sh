#!/usr/bin/env bash
# bench/run.sh: the benchmark that `make bench` runs. It measures mediafs against the plain
# filesystem underneath it and writes Docs/PERFORMANCE.md.
#
# Usage: bench/run.sh            (as root, for the cold-cache figures)
#
# Environment:
#   MEDIAFS_BIN        the mediafs binary to measure; without it, `swift build -c release` builds one
#   BENCH_SMALL=1      a quick smoke run on the small media set (written to .bench-media/PERFORMANCE-small.md)
#   BENCH_RUNS         runs per figure (default 7; 3 with BENCH_SMALL)
#   BENCH_PROBE_RUNS   fresh mounts timed for the first, probing listing (default 3; 1 with BENCH_SMALL)
#   BENCH_MEDIA_DIR    where the media is made and kept between runs (default .bench-media)
#   BENCH_MOUNT_OPTS   passed to `mediafs mount -o`
#   BENCH_TIMEOUT      bound, in seconds, on any one command run against a mount (default 600)
#   BENCH_OUT          the report to write (default Docs/PERFORMANCE.md)
#   BENCH_SECTIONS     the sections to run, space-separated (default: all, in the order below)
#
# One section per capability: a function `section_<name>` that mounts what it needs, measures,
# records its figures with the bench.py helpers (bench_section, bench_compare, bench_time,
# bench_note, record_peak_rss) and unmounts. SECTIONS below lists them in the order they run;
# a new capability (thumbnails, chapters, tracks, remount) adds a function and its name there.

set -euo pipefail
export LC_ALL=C  # the same sorting and number formats on every machine

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SMALL=${BENCH_SMALL:-0}
MEDIA_CACHE=${BENCH_MEDIA_DIR:-$ROOT/.bench-media}
MOUNT_OPTS=${BENCH_MOUNT_OPTS:-}
MOUNT_TIMEOUT=60
export BENCH_TIMEOUT=${BENCH_TIMEOUT:-600}
if ((SMALL)); then
  MODE=small RUNS=${BENCH_RUNS:-3} PROBE_RUNS=${BENCH_PROBE_RUNS:-1}
  OUT=${BENCH_OUT:-$MEDIA_CACHE/PERFORMANCE-small.md}
else
  MODE=full RUNS=${BENCH_RUNS:-7} PROBE_RUNS=${BENCH_PROBE_RUNS:-3}
  OUT=${BENCH_OUT:-$ROOT/Docs/PERFORMANCE.md}
fi
MEDIA=$MEDIA_CACHE/$MODE

SECTIONS=(originals listing thumbs chapters tracks library)
if [[ -n ${BENCH_SECTIONS:-} ]]; then
  read -r -a SECTIONS <<<"$BENCH_SECTIONS"
fi

say() { printf '%s\n' "$*"; }
die() { printf 'bench: %s\n' "$*" >&2; exit 1; }

# ---------------------------------------------------------------------------------------------
# Prerequisites, binary, media

for tool in python3 ffmpeg ffprobe fusermount3 mountpoint timeout cmp getfattr; do
  command -v "$tool" >/dev/null || die "$tool not found (apt-get install python3 ffmpeg fuse3 util-linux diffutils attr)"
done
[[ -c /dev/fuse ]] || die "/dev/fuse is missing: FUSE is not available here"

if [[ -n ${MEDIAFS_BIN:-} ]]; then
  BIN=$MEDIAFS_BIN
else
  # The toolchain may be installed outside PATH (as in /opt/swift on the project's machine).
  command -v swift >/dev/null || [[ ! -x /opt/swift/usr/bin/swift ]] || PATH=/opt/swift/usr/bin:$PATH
  command -v swift >/dev/null || die "swift not found: install the toolchain or set MEDIAFS_BIN"
  say "building mediafs (swift build -c release) ..."
  (cd "$ROOT" && swift build -c release) || die "the release build failed"
  BIN=$(cd "$ROOT" && swift build -c release --show-bin-path)/mediafs
fi
[[ -x $BIN ]] || die "no mediafs binary at $BIN"
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")

mkdir -p "$MEDIA_CACHE"
say "media: $MEDIA ($MODE; made once by scripts/make-media.sh, then reused) ..."
media_args=(); ((SMALL)) && media_args=(--small)
bash "$ROOT/scripts/make-media.sh" "${media_args[@]}" "$MEDIA" >"$MEDIA_CACHE/make-media-$MODE.log" 2>&1 ||
  { tail -20 "$MEDIA_CACHE/make-media-$MODE.log" >&2; die "scripts/make-media.sh failed (log: $MEDIA_CACHE/make-media-$MODE.log)"; }

# The work directory sits beside the media, on the same filesystem, so the listing library can be
# made of hard links.
WORK=$(mktemp -d "$MEDIA_CACHE/run.XXXXXX")
RESULTS=$WORK/results.jsonl
PY=(python3 "$ROOT/bench/bench.py" --results "$RESULTS")

# ---------------------------------------------------------------------------------------------
# Mounting, with a bound on every step and a cleanup that always unmounts

MOUNTS=()            # mount points currently mounted by this script
declare -A DAEMON    # mount point -> daemon pid (from --pid-file)
declare -A CONN      # mount point -> FUSE connection number (the mount's minor device number)

# mount_mediafs SOURCE MOUNTPOINT NAME: mount in the background with a fresh cache and state
# directory ($WORK/state-NAME), so that nothing persisted by an earlier mount is reused.
mount_mediafs() {
  local src=$1 mnt=$2 state=$WORK/state-$3
  # A fourth argument "keep": reuse the state directory (and so the cache folder) of an earlier mount.
  [[ ${4:-} == keep ]] || rm -rf "$state"
  mkdir -p "$mnt" "$state/cache"
  local -a opts=()
  [[ -z $MOUNT_OPTS ]] || opts=(-o "$MOUNT_OPTS")
  if ! HOME=$state XDG_CACHE_HOME=$state/cache timeout "$MOUNT_TIMEOUT" \
       "$BIN" mount "${opts[@]}" --log-file "$state/mediafs.log" --pid-file "$state/pid" \
       "$src" "$mnt" </dev/null >"$state/mount.out" 2>&1; then
    cat "$state/mount.out" >&2
    [[ ! -f $state/mediafs.log ]] || tail -20 "$state/mediafs.log" >&2
    ! is_mounted "$mnt" || MOUNTS+=("$mnt")
    die "mediafs mount $src $mnt failed or took more than ${MOUNT_TIMEOUT}s"
  fi
  MOUNTS+=("$mnt")
  is_mounted "$mnt" || die "mediafs mount returned 0 but $mnt is not in the mount table"
  CONN[$mnt]=$(mountpoint -d "$mnt" | cut -d: -f2)
  local i
  for ((i = 0; i < 50; i++)); do [[ ! -s $state/pid ]] || break; sleep 0.1; done
  [[ -s $state/pid ]] || die "mediafs wrote no pid file ($state/pid)"
  DAEMON[$mnt]=$(<"$state/pid")
}

# is_daemon PID: the process is alive and is a mediafs (guards against a reused pid).
is_daemon() { [[ -n $1 && -r /proc/$1/cmdline ]] && grep -qa mediafs "/proc/$1/cmdline"; }

# is_mounted MOUNTPOINT: read from the mount table, without touching the (possibly hung) mount.
is_mounted() { awk -v m="$1" '$2 == m { found = 1 } END { exit !found }' /proc/self/mounts; }

# abort_connection MOUNTPOINT: the way out of a hung mount (see PLATFORM-NOTES.md).
abort_connection() {
  local conn=${CONN[$1]:-}
  [[ -n $conn ]] || return 1
  [[ -d /sys/fs/fuse/connections/$conn ]] || mount -t fusectl none /sys/fs/fuse/connections 2>/dev/null || true
  [[ -w /sys/fs/fuse/connections/$conn/abort ]] || return 1
  say "bench: aborting FUSE connection $conn of $1" >&2
  echo 1 >"/sys/fs/fuse/connections/$conn/abort"
}

# unmount_mediafs MOUNTPOINT: fusermount3 -u, then abort and lazy unmount if that fails; then wait
# (bounded) for the daemon to exit, and end it by its pid if it does not.
unmount_mediafs() {
  local mnt=$1 pid=${DAEMON[$1]:-} i
  if is_mounted "$mnt"; then
    if ! timeout 20 fusermount3 -u "$mnt" 2>/dev/null; then
      sleep 1
      timeout 20 fusermount3 -u "$mnt" 2>/dev/null ||
        { abort_connection "$mnt"; timeout 20 fusermount3 -u -z "$mnt"; } ||
        say "bench: could not unmount $mnt" >&2
    fi
  fi
  for ((i = 0; i < 100 && ${#pid} > 0; i++)); do is_daemon "$pid" || break; sleep 0.1; done
  if is_daemon "$pid"; then
    say "bench: mediafs (pid $pid) still running 10s after unmount; sending TERM" >&2
    kill -TERM "$pid" 2>/dev/null || true
    sleep 2
    ! is_daemon "$pid" || kill -KILL "$pid" 2>/dev/null || true
  fi
  local -a rest=()
  for i in "${MOUNTS[@]}"; do [[ $i == "$mnt" ]] || rest+=("$i"); done
  MOUNTS=("${rest[@]}")
}

cleanup() {
  local rc=$? mnt
  set +e
  trap - EXIT INT TERM
  for mnt in "${MOUNTS[@]}"; do unmount_mediafs "$mnt"; done
  if awk -v w="$WORK/" 'index($2, w) == 1 { found = 1 } END { exit !found }' /proc/self/mounts; then
    say "bench: something is still mounted under $WORK; leaving it in place" >&2
  else
    rm -rf --one-file-system "$WORK"
  fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# ---------------------------------------------------------------------------------------------
# Recording helpers (thin wrappers over bench.py)

bench_section() { "${PY[@]}" section --id "$1" --title "$2" --intro "${3:-}"; say ""; say "== $2"; }
bench_note()    { "${PY[@]}" note --section "$1" "$2"; say "  note: $2"; }
bench_time()    { "${PY[@]}" time "$@"; }     # --section S --label L [--runs N] [--drop-caches] -- CMD...
bench_compare() { "${PY[@]}" compare "$@"; }  # see bench.py: REFERENCE ::: MOUNT
meta()          { "${PY[@]}" meta "$1" "$2"; }

# record_peak_rss MOUNTPOINT LABEL: the daemon's peak resident set (VmHWM), in the memory section.
record_peak_rss() {
  local pid=${DAEMON[$1]:-} kb
  kb=$(awk '/^VmHWM:/ { print $2 }' "/proc/$pid/status" 2>/dev/null || true)
  if [[ -z $kb ]]; then
    bench_note memory "$2: peak RSS not readable (no /proc/$pid/status)"
  else
    "${PY[@]}" value --section memory --label "$2" --value "$(awk -v k="$kb" 'BEGIN { printf "%.1f", k / 1024 }')" --unit MiB
  fi
}

# mount_counter MOUNTPOINT NAME: one of the daemon's counters from user.mediafs.stats on the mount's root.
mount_counter() {
  getfattr -n user.mediafs.stats --only-values "$1" 2>/dev/null |
    python3 -c 'import json, sys; print(json.load(sys.stdin).get(sys.argv[1], "?"))' "$2" || echo "?"
}

# Cold-cache figures need root to empty the page cache.
CAN_DROP=0
if { sync && echo 3 >/proc/sys/vm/drop_caches; } 2>/dev/null; then
  CAN_DROP=1
  PAGE_CACHE="emptied before every cold run (echo 3 > /proc/sys/vm/drop_caches)"
else
  PAGE_CACHE="could not be emptied (writing /proc/sys/vm/drop_caches was refused: not root?); cold figures skipped"
  say "note: $PAGE_CACHE"
fi

# ---------------------------------------------------------------------------------------------
# Section: originals — reading the original bytes through the mount against the source file

section_originals() {
  local name=feature-1080p.mp4
  local src=$MEDIA/$name mnt=$WORK/mnt-originals
  local file=$mnt/$name/$name size
  size=$(stat -c %s "$src")
  bench_section originals "Originals: reading a file through the mount" \
    "\`cat\` of \`$name\` ($(awk -v b="$size" 'BEGIN { printf "%.1f MB", b / 1e6 }')) read from the source directory (direct) and as \`$name/$name\` through the mount; direct and mount runs alternate. Cold: page cache emptied before every run. Warm: after one unmeasured read of each. Goal: mount throughput at least 0.8x direct."
  mount_mediafs "$MEDIA" "$mnt" originals

  [[ $(stat -c %s "$file") == "$size" ]] || die "$file: size $(stat -c %s "$file") through the mount, $size in the source"
  cmp -s "$src" "$file" || die "$file: bytes differ from $src"
  bench_note originals "checked: same size and same bytes through the mount as in the source"

  local -a common=(--section originals --runs "$RUNS" --bytes "$size" --ref-name direct --mnt-name mount
                   --ratio throughput --goal-min 0.8)
  if ((CAN_DROP)); then
    bench_compare "${common[@]}" --label cold --drop-caches --warmup 0 -- cat "$src" ::: cat "$file"
  else
    bench_note originals "cold page cache not measured: /proc/sys/vm/drop_caches is not writable (run as root)"
  fi
  bench_compare "${common[@]}" --label warm --warmup 1 -- cat "$src" ::: cat "$file"
  if grep -q "FUSE passthrough)" "$WORK/state-originals/mediafs.log"; then
    bench_note originals "the original was passed through (FUSE passthrough, kernel $(uname -r)): the kernel reads the source file itself and no read reaches the daemon, cold or warm; without it (\`--no-passthrough\`, a kernel before 6.9, or not root) cold reads are spliced from the source to /dev/fuse by the daemon and warm ones come from the mount's own page cache (keep_cache)"
  else
    bench_note originals "no FUSE passthrough here (it needs Linux 6.9 or later and root): cold reads are spliced from the source file to /dev/fuse by the daemon; warm reads of an unchanged file come from the kernel's page cache (keep_cache) and never reach the daemon, so the gap left is the kernel's FUSE read path itself"
  fi

  record_peak_rss "$mnt" "daemon after the originals section"
  unmount_mediafs "$mnt"
}

# ---------------------------------------------------------------------------------------------
# Section: listing — `ls -lR` of a 1,000-entry library, through the mount against the source

LIBRARY_MEDIA=(feature-1080p.mp4 movie-1080p.mkv clips/clip-vp9.webm clips/clip-hevc10.mkv
               clips/uhd-4k.mp4 "clips/Holiday Café 2021.mp4" clips/portrait-rotated.mp4
               clips/anamorphic-pal.mpg audio/audiobook.m4a)
LIBRARY_PLAIN=(notes.txt poster.jpg)

# build_library DIR: 1,000 media entries (hard links to the test media, cycling through
# LIBRARY_MEDIA) in 4 x 5 nested folders of 50 each, plus 5 plain files per folder.
build_library() {
  local lib=$1 n=0 shelf year i src base
  for shelf in Films Series Documentaries Home; do
    for year in 2019 2020 2021 2022 2023; do
      mkdir -p "$lib/$shelf/$year"
      for ((i = 0; i < 50; i++, n++)); do
        src=${LIBRARY_MEDIA[n % ${#LIBRARY_MEDIA[@]}]}
        base=$(basename "$src")
        ln "$MEDIA/$src" "$lib/$shelf/$year/$(printf '%04d %s' "$n" "$base")"
      done
      for ((i = 0; i < 5; i++)); do
        src=${LIBRARY_PLAIN[i % ${#LIBRARY_PLAIN[@]}]}
        ln "$MEDIA/$src" "$lib/$shelf/$year/$(printf 'extra-%d %s' "$i" "$(basename "$src")")"
      done
    done
  done
}

section_listing() {
  local lib=$WORK/library mnt=$WORK/mnt-listing run
  build_library "$lib"
  local entries media_count plain_count
  entries=$(find "$lib" -mindepth 1 | wc -l)
  media_count=$(find "$lib" -type f ! -name 'extra-*' | wc -l)
  plain_count=$(find "$lib" -type f -name 'extra-*' | wc -l)
  bench_section listing "Listing: \`ls -lR\` of a 1,000-entry library" \
    "A library of $media_count media files (hard links to the $MODE test media, ${#LIBRARY_MEDIA[@]} distinct files, in 20 folders nested two deep) and $plain_count plain files; $entries entries in the source. First pass: \`ls -lR\` of a fresh mount (fresh cache directory, page cache emptied), which probes every media file; timed on $PROBE_RUNS fresh mount(s). Then \`ls -lR\` of the source (direct) and of the mount after that first pass, alternating. The mount lists much more: each media file is a folder holding the original, \`info.json\` and, for a video, \`thumbs/\` with its listed names (a few dozen per film; their sizes come from the probe, no image is made), so \`ls -lR\` of the mount stats about 25 times as many entries as of the source."

  local -a drop=()
  ((CAN_DROP)) && drop=(--drop-caches)
  for ((run = 1; run <= PROBE_RUNS; run++)); do
    mount_mediafs "$lib" "$mnt" listing
    bench_time --section listing --label "mount, first pass (probing)" --runs 1 "${drop[@]}" -- ls -lR "$mnt"
    ((run == PROBE_RUNS)) || unmount_mediafs "$mnt"
  done

  local folders mnt_entries
  folders=$(find "$mnt" -mindepth 4 -maxdepth 4 -name info.json | wc -l)
  mnt_entries=$(find "$mnt" -mindepth 1 | wc -l)
  bench_note listing "checked: $folders of $media_count media files appear as folders holding info.json; the mount shows $mnt_entries entries, the source $entries"

  bench_compare --section listing --label "after the first pass" --runs "$RUNS" --warmup 1 \
    --ref-name direct --mnt-name mount --ratio time -- ls -lR "$lib" ::: ls -lR "$mnt"
  bench_note listing "the files are hard links: ${#LIBRARY_MEDIA[@]} distinct inodes, so a probe cache keyed by inode would make the first pass cheaper than it would be over $media_count distinct files"

  record_peak_rss "$mnt" "daemon after the listing section"
  unmount_mediafs "$mnt"
}

# ---------------------------------------------------------------------------------------------
# Section: thumbs — frames on demand against the ffmpeg command and ffmpegthumbnailer

# thumb_times FIRST COUNT DURATION: COUNT times from FIRST, spread over a film of DURATION seconds;
# with FIRST and the step off the 10 s keyframe grid, most fall inside a GOP (decoding from the
# keyframe before them, the usual case).
thumb_times() {
  awk -v first="$1" -v n="$2" -v d="$3" 'BEGIN { step = (d - 20) / n; for (i = 0; i < n; i++) printf "%.1f ", first + i * step }'
}

section_thumbs() {
  local name=feature-1080p.mp4
  local src=$MEDIA/$name mnt=$WORK/mnt-thumbs out=$WORK/thumb-out
  local film=$mnt/$name/thumbs duration times near_times
  duration=$(ffprobe -v error -show_entries format=duration -of csv=p=0 "$src")
  mkdir -p "$out"
  bench_section thumbs "Thumbnails: frames on demand" \
    "\`$name\` ($(ffprobe -v error -select_streams v:0 -show_entries stream=width,height,codec_name -of csv=p=0:s=x "$src"), $(printf '%.0f' "$duration") s, a keyframe every 10 s). Each timed run asks for a time no earlier run asked for (\`bench/next-time.sh\`), in the middle of a GOP, so neither side has it cached; the daemon runs and the file is probed. The mount side is \`cat NAME > /dev/null\`, a whole first read of the PNG. Runs alternate between the two sides."
  if ! command -v ffmpegthumbnailer >/dev/null; then
    bench_note thumbs "ffmpegthumbnailer is not installed (apt-get install ffmpegthumbnailer): the near- comparison is skipped"
  fi
  mount_mediafs "$MEDIA" "$mnt" thumbs
  ls -l "$film" >/dev/null

  times=$(thumb_times 5.3 $((RUNS * 2 + 4)) "$duration")
  local -a next_ref=("$ROOT/bench/next-time.sh" "$WORK/at-ref.n" "$times")
  local -a next_mnt=("$ROOT/bench/next-time.sh" "$WORK/at-mnt.n" "$times")
  bench_compare --section thumbs --label "first read of at-T.png" --runs "$RUNS" --warmup 1 \
    --ref-name "ffmpeg -ss T -frames:v 1 -vf scale=320:-1" --mnt-name mount --ratio time --goal-max 0.5 -- \
    "${next_ref[@]}" ffmpeg -nostdin -v error -y -ss "{T}" -i "$src" -frames:v 1 -vf scale=320:-1 "$out/ref.png" ::: \
    "${next_mnt[@]}" cp "$film/at-{T}s.png" "$out/mnt.png"

  # The same at keyframes: what remains once neither side decodes a run of frames to the time.
  local key_times
  key_times=$(awk -v n=$((RUNS * 2 + 4)) -v d="$duration" 'BEGIN { for (i = 1; i <= n; i++) printf "%d ", (i * 37 % int(d / 10 - 1) + 1) * 10 }')
  bench_compare --section thumbs --label "first read of at-T.png, T on a keyframe" --runs "$RUNS" --warmup 1 \
    --ref-name "ffmpeg -ss T -frames:v 1 -vf scale=320:-1" --mnt-name mount --ratio time -- \
    "$ROOT/bench/next-time.sh" "$WORK/key-ref.n" "$key_times" ffmpeg -nostdin -v error -y -ss "{T}" -i "$src" -frames:v 1 -vf scale=320:-1 "$out/ref.png" ::: \
    "$ROOT/bench/next-time.sh" "$WORK/key-mnt.n" "$key_times" cp "$film/at-{T}s.png" "$out/mnt.png"
  bench_note thumbs "a frame-accurate thumbnail inside a GOP costs the decoding of every frame from the keyframe before it (about 1.7 ms a 1080p frame here, up to 250 frames with a keyframe every 10 s), and the ffmpeg command must decode the same frames: the ratio is bounded by that shared work; what mediafs saves is the process start, the probe and the seek (see the keyframe row)"

  if command -v ffmpegthumbnailer >/dev/null; then
    near_times=$(thumb_times 3.7 $((RUNS * 2 + 4)) "$duration")
    bench_compare --section thumbs --label "first read of near-T.png" --runs "$RUNS" --warmup 1 \
      --ref-name "ffmpegthumbnailer -t T -s 320" --mnt-name mount --ratio time --goal-max 0.5 -- \
      "$ROOT/bench/next-time.sh" "$WORK/near-ref.n" "$near_times" ffmpegthumbnailer -t "{T}" -s 320 -i "$src" -o "$out/ref.png" ::: \
      "$ROOT/bench/next-time.sh" "$WORK/near-mnt.n" "$near_times" cp "$film/near-{T}s.png" "$out/mnt.png"
  fi

  # A cached re-read, timed inside one process (a process start alone costs about a millisecond).
  local cached
  cached=$(python3 - "$film/at-12.5s.png" <<'PY'
import statistics, sys, time
path = sys.argv[1]
open(path, "rb").read()
samples = []
for _ in range(200):
    started = time.perf_counter()
    with open(path, "rb") as f:
        while f.read(1 << 20): pass
    samples.append(time.perf_counter() - started)
print(f"{statistics.median(samples) * 1000:.3f}")
PY
)
  "${PY[@]}" value --section thumbs --label "cached re-read of at-12.5s.png (open, read whole, close; median of 200)" \
    --value "$cached" --unit ms --goal "< 1 ms" --met "$(awk -v v="$cached" 'BEGIN { print (v < 1 ? "yes" : "no") }')"
  say "  cached re-read: $cached ms"
  unmount_mediafs "$mnt"

  # The whole listed thumbs/ of the film, copied from a fresh mount, against one ffmpeg pass with
  # the fps filter making the same periodic frames.
  local listed interval
  mount_mediafs "$MEDIA" "$mnt" thumbs-all
  listed=$(ls "$film" | wc -l)
  interval=$(ls "$film" | awk -F'[ms]' '/^at-[0-9]+m[0-9]+s\.png$/ { sub(/^at-/, ""); t[n++] = $1 * 60 + $2 } END { print t[1] - t[0] }')
  local periodic=$((listed - 3))
  unmount_mediafs "$mnt"
  bench_note thumbs "the film's thumbs/ lists $listed names: $periodic every $interval s and the three quarters"
  local -a copy_all=("$ROOT/bench/fresh-copy.sh" "$BIN" "$MEDIA" "$mnt" "$name/thumbs" "$out/all" "$WORK/state-thumbs-all/cache")
  bench_compare --section thumbs --label "whole thumbs/ of the film" --runs "$(( RUNS < 3 ? RUNS : 3 ))" --warmup 0 \
    --ref-name "ffmpeg -vf fps=1/$interval,scale=320:-1 (one pass)" --mnt-name "cp from a fresh mount" --ratio time --goal-max 1.0 -- \
    bash -c 'rm -rf "$3" && mkdir -p "$3" && ffmpeg -nostdin -v error -i "$1" -vf "fps=1/$2:round=down,scale=320:-1" "$3/%03d.png"' sh "$src" "$interval" "$out/ref-all" ::: \
    "${copy_all[@]}"
  bench_note thumbs "the mount side includes mounting and unmounting (about 0.1 s): the copy must start from an empty memory cache"

  # Peak memory under the concurrency load of the tests: 8 readers x 200 random names, with ls -lR.
  mount_mediafs "$MEDIA" "$mnt" thumbs-load
  python3 - "$mnt" "$duration" <<'PY'
import random, subprocess, sys, threading
root, duration = sys.argv[1], float(sys.argv[2])
rng = random.Random(42)
names = []
for i in range(240):
    film = ["feature-1080p.mp4", "movie-1080p.mkv"][i % 2]
    t = rng.randrange(0, int(duration * 100) - 200) / 100
    names.append(f"{film}/thumbs/" + rng.choice([f"at-{t}s.png", f"near-{t}s.png", f"at-{t}s@180h.png"]))
def reader(seed):
    r = random.Random(seed)
    for _ in range(200):
        with open(f"{root}/{r.choice(names)}", "rb") as f: f.read()
lister = subprocess.Popen(["sh", "-c", f"while :; do ls -lR '{root}' >/dev/null; done"])
threads = [threading.Thread(target=reader, args=(i,)) for i in range(8)]
for t in threads: t.start()
for t in threads: t.join()
lister.kill()
PY
  record_peak_rss "$mnt" "daemon after 8 readers x 200 random thumbnails (240 names, 2 films) with ls -lR"
  unmount_mediafs "$mnt"
}

# ---------------------------------------------------------------------------------------------
# Section: chapters — `ls -l chapters/` of the film against `ffprobe -show_chapters`

section_chapters() {
  local name=feature-1080p.mp4
  local src=$MEDIA/$name mnt=$WORK/mnt-chapters
  local chapters=$mnt/$name/chapters duration count
  duration=$(ffprobe -v error -show_entries format=duration -of csv=p=0 "$src")
  count=$(ffprobe -v error -show_chapters -of csv=p=0 "$src" | grep -c .)
  bench_section chapters "Chapters: \`ls -l chapters/\` of a film" \
    "\`ls -l $name/chapters/\` ($(printf '%.0f' "$duration") s, $count chapters, each listed as a PNG whose exact size is known without decoding, plus chapters.json and chapters.txt) against \`ffprobe -v error -show_chapters $name\` (a process that opens the file and prints its chapters). Cold: a fresh daemon before each mount run (\`bench/remount.sh\`, not timed), so the first \`ls -l\` looks the film up (probe), reads its chapters and plans each image$( ((CAN_DROP)) && echo '; page cache emptied before every run of either side'). Warm: the same daemon after one unmeasured listing. Runs alternate between the two sides."
  mount_mediafs "$MEDIA" "$mnt" chapters

  local listed made
  listed=$(ls -l "$chapters" | grep -c '\.png$' || true)
  [[ $listed == "$count" ]] || die "$chapters lists $listed images where ffprobe shows $count chapters"
  made=$(mount_counter "$mnt" chapter_images_made)
  [[ $made == 0 ]] || die "listing $chapters made $made images"
  bench_note chapters "checked: \`ls -l\` lists $listed images, one per chapter ffprobe shows, and made none of them (user.mediafs.stats)"

  local -a drop=()
  ((CAN_DROP)) && drop=(--drop-caches)
  bench_compare --section chapters --label cold --runs "$RUNS" --warmup 0 "${drop[@]}" \
    --ref-name "ffprobe -show_chapters" --mnt-name "ls -l chapters/" --ratio time \
    --mnt-prepare "$(printf '%q ' "$ROOT/bench/remount.sh" "$BIN" "$MEDIA" "$mnt" "$WORK/state-chapters")" -- \
    ffprobe -v error -show_chapters "$src" ::: ls -l "$chapters"
  DAEMON[$mnt]=$(<"$WORK/state-chapters/pid")
  bench_compare --section chapters --label warm --runs "$RUNS" --warmup 1 \
    --ref-name "ffprobe -show_chapters" --mnt-name "ls -l chapters/" --ratio time -- \
    ffprobe -v error -show_chapters "$src" ::: ls -l "$chapters"

  bench_note chapters "the warm daemon read the film's chapters $(mount_counter "$mnt" chapter_lists_read) time(s) and made $(mount_counter "$mnt" chapter_images_made) chapter image(s) over all its listings"
  record_peak_rss "$mnt" "daemon after the chapters section"
  unmount_mediafs "$mnt"
}

# ---------------------------------------------------------------------------------------------
# Section: tracks — subtitles and audio of the MKV through the mount against the ffmpeg command

# track_passes MOUNTPOINT: passes the daemon ran extracting tracks (from user.mediafs.stats).
track_passes() {
  python3 -c 'import json, os, sys; print(json.loads(os.getxattr(sys.argv[1], "user.mediafs.stats"))["track_passes"])' "$1"
}

section_tracks() {
  local name=movie-1080p.mkv
  local src=$MEDIA/$name mnt=$WORK/mnt-tracks out=$WORK/track-out state=$WORK/state-tracks
  local tracks=$mnt/$name/tracks duration subs audio_name
  duration=$(ffprobe -v error -show_entries format=duration -of csv=p=0 "$src")
  subs=$(ffprobe -v error -select_streams s -show_entries stream=index -of csv=p=0 "$src" | wc -l)
  mkdir -p "$out"
  bench_section tracks "Tracks: subtitles and audio extracted through the mount" \
    "\`$name\` ($(printf '%.0f' "$duration") s, $(awk -v b="$(stat -c %s "$src")" 'BEGIN { printf "%.0f MB", b / 1e6 }'), 3 audio and $subs subtitle streams). Cold: each mount-side run starts from a fresh mount with an empty cache folder (mounting is not timed), so the copy's first \`stat\` runs the file's one pass, which makes every audio and subtitle file at once. Cached: a fresh mount on the cache folder the cold runs filled, so the files come from disk. The page cache is warm for both sides (the source was read by the runs before). Runs alternate between the two sides."

  # (Re)mounts before each mount-side run; the section's cleanup knows the mount point.
  local -a setup=("$ROOT/bench/tracks-mount.sh" "$BIN" "$MEDIA" "$mnt" "$state")
  MOUNTS+=("$mnt")
  "${setup[@]}" cold
  CONN[$mnt]=$(mountpoint -d "$mnt" | cut -d: -f2)
  DAEMON[$mnt]=$(<"$state/pid")
  ls "$tracks"/*/ >/dev/null
  local passes
  passes=$(track_passes "$mnt")
  [[ $passes == 0 ]] || die "ls of tracks/*/ ran $passes track pass(es); it must run none"
  cp "$tracks"/legible/* "$out"/ && ffmpeg -nostdin -v error -y -i "$src" -map 0:s:0 -c:s srt "$out/ref.srt"
  cmp -s "$out/ref.srt" "$tracks/legible/eng English SRT.srt" ||
    bench_note tracks "the first SubRip file differs from ffmpeg's conversion (timings and texts are checked by the tests)"
  passes=$(track_passes "$mnt")
  bench_note tracks "checked: \`ls tracks/*/\` ran no pass; copying legible/ ran $passes pass; legible/ holds $(ls "$tracks/legible" | wc -l) files for $subs streams (SubRip and WebVTT each, ASS also as it is)"

  local -a ref_subs=(bash -c 'rm -rf "$2" && mkdir -p "$2" && for ((n = 0; n < $3; n++)); do ffmpeg -nostdin -v error -y -i "$1" -map "0:s:$n" -c:s srt "$2/$n.srt" || exit; done' sh "$src" "$out/ref-subs" "$subs")
  local -a mnt_subs=(bash -c 'rm -rf "$2" && mkdir -p "$2" && cp "$1"/legible/* "$2"/' sh "$tracks" "$out/mnt-subs")
  bench_compare --section tracks --label "all subtitles, cold" --runs "$RUNS" --warmup 1 \
    --ref-name "ffmpeg -map 0:s:N -c:s srt, once per stream" --mnt-name "cp tracks/legible/*" --ratio time --goal-max 0.7 \
    --mnt-prepare "$(printf '%q ' "${setup[@]}") cold" -- "${ref_subs[@]}" ::: "${mnt_subs[@]}"
  bench_compare --section tracks --label "all subtitles, cached (remount)" --runs "$RUNS" --warmup 1 \
    --ref-name "ffmpeg -map 0:s:N -c:s srt, once per stream" --mnt-name "cp tracks/legible/*" --ratio time \
    --mnt-prepare "$(printf '%q ' "${setup[@]}") cached" -- "${ref_subs[@]}" ::: "${mnt_subs[@]}"

  audio_name=$(cd "$tracks/audible" && ls -U | grep '^fra ' | head -1)
  [[ -n $audio_name ]] || die "no French audio track in $tracks/audible"
  local -a ref_audio=(ffmpeg -nostdin -v error -y -i "$src" -map 0:a:1 -c copy "$out/ref.mka")
  local -a mnt_audio=(cp "$tracks/audible/$audio_name" "$out/mnt.mka")
  bench_compare --section tracks --label "one audio track (AC-3), cold" --runs "$RUNS" --warmup 1 \
    --ref-name "ffmpeg -map 0:a:1 -c copy" --mnt-name "cp tracks/audible/fra…" --ratio time --goal-max 1.0 \
    --mnt-prepare "$(printf '%q ' "${setup[@]}") cold" -- "${ref_audio[@]}" ::: "${mnt_audio[@]}"
  bench_compare --section tracks --label "one audio track (AC-3), cached (remount)" --runs "$RUNS" --warmup 1 \
    --ref-name "ffmpeg -map 0:a:1 -c copy" --mnt-name "cp tracks/audible/fra…" --ratio time --goal-max 1.0 \
    --mnt-prepare "$(printf '%q ' "${setup[@]}") cached" -- "${ref_audio[@]}" ::: "${mnt_audio[@]}"
  bench_note tracks "the cold pass makes every audio and subtitle file of the film at once (the issue's one pass per file), so a cold copy of one audio track also writes the other audio tracks and the subtitles; the cached row is a copy from the cache folder"

  DAEMON[$mnt]=$(<"$state/pid")
  CONN[$mnt]=$(mountpoint -d "$mnt" | cut -d: -f2)
  record_peak_rss "$mnt" "daemon after the tracks section (one pass over the film)"
  unmount_mediafs "$mnt"
}

# ---------------------------------------------------------------------------------------------
# Section: library — `ls -lR` of a 10,000-entry library: first mount, and a remount over the same
# cache folder, against the source and against ffprobe of every file

section_library() {
  local size=${BENCH_LIBRARY_SIZE:-10000}
  local lib=$WORK/library-big mnt=$WORK/mnt-library n=0 i src
  mkdir -p "$lib"
  for ((i = 0; i < size; i++, n++)); do
    src=${LIBRARY_MEDIA[n % ${#LIBRARY_MEDIA[@]}]}
    ((i % 100)) || mkdir -p "$lib/shelf-$((i / 100))"
    ln "$MEDIA/$src" "$lib/shelf-$((i / 100))/$(printf '%05d %s' "$i" "$(basename "$src")")"
  done
  bench_section library "Library: \`ls -lR\` of $size media files, first mount and remount" \
    "$size media files (hard links to the ${#LIBRARY_MEDIA[@]} distinct $MODE test files) in $((size / 100)) folders of 100. First mount: \`ls -lR\` of a fresh mount with an empty cache folder, which probes every file (and lists every thumbs/ and chapters/ folder; $( ((CAN_DROP)) && echo 'page cache emptied first' || echo 'page cache not emptied')). Remount: the same cache folder, a new daemon; \`ls -lR\` then answers from the probe database without opening a media file. Against \`ls -lR\` of the source and, for the first mount, \`ffprobe\` of every file (run $(nproc) at a time on a sample of at most 1,000 files). The mount lists far more than the source: each media file is a folder with the original, info.json, thumbs/ (a few dozen names), chapters/ and tracks/. So the remount is also timed against its own tree copied as empty folders and files onto the source's file system (after a second remount): what \`ls -lR\` of that many entries costs without FUSE."
  local -a drop=()
  ((CAN_DROP)) && drop=(--drop-caches)
  mount_mediafs "$lib" "$mnt" library
  bench_time --section library --label "mount, first ls -lR (probing, empty cache folder)" --runs 1 "${drop[@]}" -- ls -lR "$mnt"
  local entries replica=$WORK/library-replica
  entries=$(find "$mnt" -mindepth 1 | wc -l)
  bench_note library "the mount shows $entries entries, the source $(find "$lib" -mindepth 1 | wc -l)"
  # The mount's tree copied as empty folders and files onto the source's file system: what
  # `ls -lR` of that many entries costs without FUSE, the floor for the remount's figure.
  rm -rf "$replica" && mkdir -p "$replica"
  (cd "$mnt" && find . -mindepth 1 -printf '%y %p\0') | python3 -c '
import os, sys
for record in sys.stdin.buffer.read().split(b"\0")[:-1]:
    kind, path = record[:1], os.path.join(sys.argv[1].encode(), record[2:])
    if kind == b"d":
        os.mkdir(path)
    else:
        open(path, "wb").close()
' "$replica"
  record_peak_rss "$mnt" "daemon after the first ls -lR of $size media files"
  unmount_mediafs "$mnt"
  mount_mediafs "$lib" "$mnt" library keep
  bench_compare --section library --label "remount, ls -lR" --runs "$(( RUNS < 3 ? RUNS : 3 ))" --warmup 0 \
    --ref-name "direct" --mnt-name "mount" --ratio time --goal-max 3 -- ls -lR "$lib" ::: ls -lR "$mnt"
  unmount_mediafs "$mnt"
  mount_mediafs "$lib" "$mnt" library keep
  bench_compare --section library --label "remount, ls -lR, against the mount's tree copied to $(df --output=fstype "$WORK" | tail -1) (empty files)" \
    --runs "$(( RUNS < 3 ? RUNS : 3 ))" --warmup 0 \
    --ref-name "copy of the mount's tree" --mnt-name "mount" --ratio time -- ls -lR "$replica" ::: ls -lR "$mnt"
  local probes
  probes=$(getfattr -n user.mediafs.stats --only-values "$mnt" 2>/dev/null | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["probes"], d["probes_from_database"])' || echo "? ?")
  bench_note library "after the remount's listings: probes made / answered from the database: ${probes/ / \/ }"
  record_peak_rss "$mnt" "daemon after ls -lR of $size media files, remounted"
  unmount_mediafs "$mnt"
  local sample=$(( size < 1000 ? size : 1000 ))
  bench_time --section library --label "ffprobe of $sample of the files, $(nproc) at a time (x$((size / sample)) for all)" --runs 1 "${drop[@]}" -- \
    bash -c 'find "$1" -type f | head -"$3" | xargs -d "\n" -P "$2" -n 1 ffprobe -v error -show_format -show_streams >/dev/null 2>&1; true' sh "$lib" "$(nproc)" "$sample"
  bench_note library "the files are hard links to ${#LIBRARY_MEDIA[@]} distinct files, so the first mount probes only those (its probe cache is keyed by device, inode, size and mtime); ffprobe opens every name"
  rm -rf "$lib" "$replica"
}

# ---------------------------------------------------------------------------------------------
# The run

cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)
commit=$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo "no commit")
[[ -z $(git -C "$ROOT" status --porcelain -- Sources Package.swift 2>/dev/null) ]] || commit+=" (with uncommitted changes)"
meta date "$(date -u '+%Y-%m-%d %H:%M UTC')"
meta mode "$MODE"
meta nproc "$(nproc)"
meta cpu "${cpu:-unknown CPU}"
meta memory "$(awk '/^MemTotal:/ { printf "%.1f GB", $2 / 1048576 }' /proc/meminfo)"
meta kernel "$(uname -r)"
meta os "$(. /etc/os-release 2>/dev/null && echo "${PRETTY_NAME:-Linux}")"
meta storage "$(stat -f -c %T "$MEDIA") ($(df --output=source "$MEDIA" | tail -1))"
meta ffmpeg "$(ffmpeg -version | awk 'NR == 1 { print $3 }')"
meta libfuse "$(fusermount3 --version 2>&1 | awk '{ print $NF }')"
meta swift "$( (swift --version 2>/dev/null || true) | grep -o 'Swift version [0-9.]*' | head -1 || true)"
meta mediafs "commit $commit, $BIN"
meta page_cache "$PAGE_CACHE"

say "mediafs: $BIN"
say "runs per figure: $RUNS; work directory: $WORK"
for section in "${SECTIONS[@]}"; do
  "section_$section"
done

# The memory section collects the rows the other sections recorded; give it a title and place it last.
"${PY[@]}" section --id memory --title "Memory: the daemon's peak resident set" --intro \
  "VmHWM from /proc/PID/status of the mediafs daemon (pid from --pid-file), read just before each section unmounts."

say ""
mkdir -p "$(dirname "$OUT")"
"${PY[@]}" report --markdown "$OUT"
