#!/usr/bin/env python3
"""bench.py: the benchmark that `make bench` runs. It measures mediafs against the plain file
system under it and against the commands people would otherwise run (ffmpeg, ffprobe,
ffmpegthumbnailer), and against floors (decoding alone, the same tree without FUSE), and writes
Docs/PERFORMANCE.md. Standard library only; bench/README.md describes the program.

Usage:  python3 bench/bench.py                 (as root, for the cold-cache figures)
        python3 bench/bench.py report RESULTS [--markdown FILE]
                                               (the report again, from a kept results file)

Environment:
  MEDIAFS_BIN        the mediafs binary to measure; without it, `swift build -c release` builds one
  BENCH_SMALL=1      a quick smoke run on the small media set (written to .bench-media/PERFORMANCE-small.md)
  BENCH_RUNS         runs per figure (default 7; 3 with BENCH_SMALL)
  BENCH_PROBE_RUNS   fresh mounts timed for the first, probing listing (default 3; 1 with BENCH_SMALL)
  BENCH_LIBRARY_SIZE media files in the library section (default 10000)
  BENCH_FILMS        distinct films in the films section (default 2000; 200 with BENCH_SMALL)
  BENCH_ANALYSIS_FILMS  distinct films in the analysis section's library (default 10000; 200
                     with BENCH_SMALL); the smaller of the two libraries is hard links to the larger
  BENCH_MEDIA_DIR    where the media is made and kept between runs (default .bench-media)
  BENCH_MOUNT_OPTS   passed to `mediafs mount -o`
  BENCH_TIMEOUT      bound, in seconds, on any one command run against a mount (default 600)
  BENCH_OUT          the report to write (default Docs/PERFORMANCE.md)
  BENCH_SECTIONS     the sections to run, space-separated (default: all, in the order of
                     sections.SECTIONS)
"""

import datetime
import os
import platform
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import traceback

sys.dont_write_bytecode = True  # no __pycache__ in the source tree

import floor
import media
import report
import sections
from measure import BenchError, Results, can_drop_caches, output, warn
from mounts import MediafsMount, mounts_under

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class Bench(Results):
    """What a section is given: the run's settings, the recording functions of `Results`
    (section, note, value, timing, ratio, time, compare, retired) and mounting.

    root        the repository          bin        the mediafs binary measured
    mode        "full" or "small"       media      the media folder (made by scripts/make-media.sh)
    runs        runs per figure         probe_runs fresh mounts for a first, probing listing
    library_size  media files in the library section    films  distinct films in the films section
    analysis_films  distinct films in the analysis section
    work        this run's folder, beside the media (same file system), removed at the end
    can_drop    whether the page cache can be emptied (root)
    timeout     bound on any one command
    """

    def __init__(self, results_path, **settings):
        super().__init__(results_path, settings["timeout"])
        self.__dict__.update(settings)
        self._floor = None

    def mount(self, source, name, keep=False, args=(), env=None):
        """A mount of `source` on WORK/mnt-NAME with its own state folder WORK/state-NAME (fresh
        unless `keep`: then an earlier mount's cache folder is used again), with `mediafs mount`
        options `args` (say `["--layout", "server"]`) and the variables of `env` added to the
        daemon's environment (say `{"MEDIAFS_OCR_DUMP": folder}`). Use it as
        `with bench.mount(...) as m:`; it mounts on entering and always unmounts on leaving."""
        m = MediafsMount(self.bin, source, os.path.join(self.work, f"mnt-{name}"),
                         os.path.join(self.work, f"state-{name}"), options=self.mount_opts, args=args, env=env)
        return _Mounting(m, keep)

    def decode_floor(self):
        """The compiled bench/decode-floor.c (compiled on first use)."""
        if self._floor is None:
            self._floor = floor.compile_floor(self.work)
        return self._floor

    def peak_rss(self, m, label, goal_mib=None, now=False):
        """The daemon's peak resident set (VmHWM), or with `now` its resident set at this moment
        (VmRSS), as a row of the memory section."""
        kib = m.rss_kib() if now else m.peak_rss_kib()
        if kib is None:
            self.note("memory", f"{label}: RSS not readable (no /proc/{m.pid}/status)")
            return None
        mib = round(kib / 1024, 1)
        if goal_mib is None:
            self.value("memory", label, mib, "MiB")
        else:
            self.value("memory", label, mib, "MiB", goal=f"<= {goal_mib} MiB", met=mib <= goal_mib)
        return mib


class _Mounting:
    def __init__(self, m, keep):
        self.m, self.keep = m, keep

    def __enter__(self):
        return self.m.mount(fresh=not self.keep)

    def __exit__(self, *exc):
        self.m.unmount()
        return False


# ---------------------------------------------------------------------------------------------

def die(text):
    warn(text)
    sys.exit(1)


def env_int(name, default):
    value = os.environ.get(name, "")
    return int(value) if value.strip() else default


def binary():
    path = os.environ.get("MEDIAFS_BIN", "")
    if not path:
        # The toolchain may be installed outside PATH (as in /opt/swift on the project's machine).
        if shutil.which("swift") is None and os.access("/opt/swift/usr/bin/swift", os.X_OK):
            os.environ["PATH"] = "/opt/swift/usr/bin:" + os.environ["PATH"]
        if shutil.which("swift") is None:
            die("swift not found: install the toolchain or set MEDIAFS_BIN")
        print("building mediafs (swift build -c release) ...", flush=True)
        if subprocess.run(["swift", "build", "-c", "release"], cwd=ROOT, check=False).returncode != 0:
            die("the release build failed")
        path = os.path.join(output(["swift", "build", "-c", "release", "--show-bin-path"], 120, cwd=ROOT).strip(), "mediafs")
    if not os.access(path, os.X_OK):
        die(f"no mediafs binary at {path}")
    return os.path.abspath(path)


def first_line(argv, pattern=None):
    try:
        out = subprocess.run(argv, capture_output=True, text=True, timeout=60, check=False)
        text = out.stdout + out.stderr
    except OSError:
        return "?"
    if pattern:
        found = re.search(pattern, text)
        return found.group(0) if found else "?"
    return text.splitlines()[0] if text else "?"


def record_meta(bench):
    with open("/proc/cpuinfo", encoding="utf-8") as f:
        cpu = next((line.split(": ", 1)[1].strip() for line in f if line.startswith("model name")), "unknown CPU")
    with open("/proc/meminfo", encoding="utf-8") as f:
        kib = next(int(line.split()[1]) for line in f if line.startswith("MemTotal:"))
    os_name = "Linux"
    try:
        with open("/etc/os-release", encoding="utf-8") as f:
            os_name = next((line.split("=", 1)[1].strip().strip('"') for line in f if line.startswith("PRETTY_NAME=")), os_name)
    except OSError:
        pass
    commit = first_line(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"]) or "no commit"
    dirty = subprocess.run(["git", "-C", ROOT, "status", "--porcelain", "--", "Sources", "Package.swift"],
                           capture_output=True, text=True, check=False).stdout.strip()
    if dirty:
        commit += " (with uncommitted changes)"
    fs_type = output(["stat", "-f", "-c", "%T", bench.media], 30).strip()
    device = output(["df", "--output=source", bench.media], 30).split()[-1]
    swift_bin = shutil.which("swift") or ("/opt/swift/usr/bin/swift" if os.access("/opt/swift/usr/bin/swift", os.X_OK) else None)
    swift = first_line([swift_bin, "--version"], r"Swift version [0-9.]+") if swift_bin else "?"
    for key, value in (
            ("date", datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")),
            ("mode", bench.mode), ("nproc", str(os.cpu_count())), ("cpu", cpu),
            ("memory", f"{kib / 1048576:.1f} GB"), ("kernel", platform.release()), ("os", os_name),
            ("storage", f"{fs_type} ({device})"),
            ("ffmpeg", first_line(["ffmpeg", "-version"]).split()[2]),
            ("libfuse", first_line(["fusermount3", "--version"]).split()[-1]),
            ("swift", swift), ("mediafs", f"commit {commit}, {bench.bin}"), ("page_cache", bench.page_cache)):
        bench.meta(key, value)


def main(argv):
    if argv[:1] == ["report"]:
        if len(argv) not in (2, 4) or (len(argv) == 4 and argv[2] != "--markdown"):
            die("usage: bench.py report RESULTS [--markdown FILE]")
        report.write(argv[1], argv[3] if len(argv) == 4 else None)
        return 0
    if argv:
        die(f"unknown arguments {' '.join(argv)} (settings are environment variables; see bench/README.md)")

    os.environ["LC_ALL"] = "C"  # the same sorting and number formats on every machine
    small = os.environ.get("BENCH_SMALL", "0") not in ("", "0")
    mode = "small" if small else "full"
    media_cache = os.path.abspath(os.environ.get("BENCH_MEDIA_DIR") or os.path.join(ROOT, ".bench-media"))
    out = os.environ.get("BENCH_OUT") or (os.path.join(media_cache, "PERFORMANCE-small.md") if small
                                          else os.path.join(ROOT, "Docs", "PERFORMANCE.md"))
    chosen = os.environ.get("BENCH_SECTIONS", "").split() or list(sections.SECTIONS)
    unknown = [name for name in chosen if name not in sections.SECTIONS]
    if unknown:
        die(f"unknown section(s) {' '.join(unknown)}; there are: {' '.join(sections.SECTIONS)}")

    for tool in ("ffmpeg", "ffprobe", "fusermount3", "cp", "ls"):
        if shutil.which(tool) is None:
            die(f"{tool} not found (apt-get install ffmpeg fuse3 coreutils)")
    if not os.path.exists("/dev/fuse"):
        die("/dev/fuse is missing: FUSE is not available here")

    bin_path = binary()
    os.makedirs(media_cache, exist_ok=True)
    print(f"media: {media_cache}/{mode} ({mode}; made once by scripts/make-media.sh, then reused) ...", flush=True)
    media_folder = media.make(ROOT, media_cache, mode)

    # The work folder sits beside the media, on the same file system, so that the libraries can
    # be made of hard links.
    work = tempfile.mkdtemp(prefix="run.", dir=media_cache)
    results_path = os.path.join(work, "results.jsonl")
    can_drop = can_drop_caches()
    page_cache = ("emptied before every cold run (echo 3 > /proc/sys/vm/drop_caches)" if can_drop else
                  "could not be emptied (writing /proc/sys/vm/drop_caches was refused: not root?); cold figures skipped")
    if not can_drop:
        print(f"note: {page_cache}", flush=True)
    bench = Bench(results_path, root=ROOT, bin=bin_path, mode=mode, small=small, media=media_folder, work=work,
                  runs=env_int("BENCH_RUNS", 3 if small else 7), probe_runs=env_int("BENCH_PROBE_RUNS", 1 if small else 3),
                  library_size=env_int("BENCH_LIBRARY_SIZE", 10000), films=env_int("BENCH_FILMS", 200 if small else 2000),
                  analysis_films=env_int("BENCH_ANALYSIS_FILMS", 200 if small else 10000),
                  mount_opts=os.environ.get("BENCH_MOUNT_OPTS", ""),
                  timeout=float(os.environ.get("BENCH_TIMEOUT") or 600), can_drop=can_drop, page_cache=page_cache)

    failed = []
    try:
        record_meta(bench)
        print(f"mediafs: {bin_path}\nruns per figure: {bench.runs}; work folder: {work}", flush=True)
        for name in chosen:
            try:
                sections.SECTIONS[name](bench)
            except BenchError as e:
                failed.append(name)
                warn(f"section {name} failed: {e}")
                bench.note(name, f"this section failed and its figures are incomplete: {str(e).splitlines()[0]}")
            except Exception:  # a bug in a section: the others still run
                failed.append(name)
                warn(f"section {name} failed:\n{traceback.format_exc()}")
                bench.note(name, "this section failed (a bench error; see the terminal output) and its figures are incomplete")
            finally:
                for m in list(MediafsMount.LIVE):  # a section that failed half-way
                    m.unmount()
        # The memory section collects the rows the other sections recorded; give it a title and
        # place it last.
        bench.section("memory", "Memory: the daemon's peak resident set",
                      "VmHWM from /proc/PID/status of the mediafs daemon (pid from --pid-file), read just before each "
                      "section unmounts, and under the thumbnail load of the tests.")
        print(flush=True)
        kept = os.path.join(media_cache, f"results-{mode}.jsonl")
        shutil.copyfile(results_path, kept)
        if failed:
            out = os.path.join(media_cache, f"PERFORMANCE-{mode}-failed.md")
            warn(f"sections failed: {' '.join(failed)}; the report goes to {out}, not to the documentation")
        os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
        report.write(results_path, out)
        print(f"results kept in {kept}", flush=True)
    finally:
        for m in list(MediafsMount.LIVE):
            m.unmount()
        left = mounts_under(work)
        if left:
            warn(f"something is still mounted under {work} ({left[0].mount_point}); leaving it in place")
        else:
            shutil.rmtree(work, ignore_errors=True)
    return 1 if failed else 0


def _terminate(signum, _frame):
    raise SystemExit(128 + signum)  # unwinds through every `finally`: mounts are unmounted


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, _terminate)
    signal.signal(signal.SIGHUP, _terminate)
    try:
        sys.exit(main(sys.argv[1:]))
    except BenchError as e:
        die(str(e))
    except KeyboardInterrupt:
        sys.exit(130)
