"""thumbs: frames on demand against the ffmpeg command and ffmpegthumbnailer; the daemon's peak
memory under the tests' concurrent thumbnail load."""

import os
import random
import re
import shutil
import statistics
import subprocess
import threading
import time

import media
from measure import BenchError, Cycle, Peer, run_timed

ID = "thumbs"
FILM = "feature-1080p.mp4"
FFMPEG_AT = "ffmpeg -ss T -frames:v 1 -vf scale=320:-1"


def run(bench):
    src = os.path.join(bench.media, FILM)
    length = media.duration(src)
    out = os.path.join(bench.work, "thumb-out")
    os.makedirs(out, exist_ok=True)
    bench.section(ID, "Thumbnails: frames on demand",
                  f"`{FILM}` ({media.video_description(src)}, {length:.0f} s, a keyframe every 10 s). Each timed run asks "
                  "for a time no earlier run asked for, in the middle of a GOP, so neither side has it cached (every side "
                  "takes the times of one list in turn); the daemon runs and the file is probed. The mount side is "
                  "`cp NAME`, a whole first read of the PNG. Runs alternate between the sides.")
    has_thumbnailer = shutil.which("ffmpegthumbnailer") is not None
    if not has_thumbnailer:
        bench.note(ID, "ffmpegthumbnailer is not installed (apt-get install ffmpegthumbnailer): the near- comparison is skipped")
    count = bench.runs * 2 + 4

    with bench.mount(bench.media, ID) as m:
        thumbs = m.path(FILM, "thumbs")
        os.listdir(thumbs)
        at_t(bench, m, src, thumbs, out, media.gop_times(5.3, count, length))

        # The same on keyframes: what remains once no side decodes a run of frames to the time.
        times = media.keyframe_times(count, length)
        ref, mnt = Cycle(times), Cycle(times)
        t = bench.compare(ID, "first read of at-T.png, T on a keyframe", [
            Peer(FFMPEG_AT, lambda: ffmpeg_at(src, ref.next(), out)),
            Peer("mount", lambda: ["cp", f"{thumbs}/at-{mnt.next()}s.png", f"{out}/mnt.png"]),
        ], bench.runs, warmup=1)
        bench.ratio(ID, "first read of at-T.png, T on a keyframe", ("mount", t["mount"]), (FFMPEG_AT, t[FFMPEG_AT]))
        bench.note(ID, "a frame-accurate thumbnail inside a GOP costs the decoding of every frame from the keyframe before "
                       "it (about 1.7 ms a 1080p frame here, up to 250 frames with a keyframe every 10 s), and the ffmpeg "
                       "command must decode the same frames: the ratio is bounded by that shared work; what mediafs saves "
                       "is the process start, the probe and the seek (see the keyframe row)")

        if has_thumbnailer:
            times = media.gop_times(3.7, count, length)
            ref, mnt = Cycle(times), Cycle(times)
            name = "ffmpegthumbnailer -t T -s 320"
            t = bench.compare(ID, "first read of near-T.png", [
                Peer(name, lambda: ["ffmpegthumbnailer", "-t", ref.next(), "-s", "320", "-i", src, "-o", f"{out}/ref.png"]),
                Peer("mount", lambda: ["cp", f"{thumbs}/near-{mnt.next()}s.png", f"{out}/mnt.png"]),
            ], bench.runs, warmup=1)
            bench.ratio(ID, "first read of near-T.png", ("mount", t["mount"]), (name, t[name]), goal_max=0.5)

        cached_reread(bench, os.path.join(thumbs, "at-12.5s.png"))

    whole_folder(bench, src, out)
    load(bench)


def ffmpeg_at(src, at, out):
    return ["ffmpeg", "-nostdin", "-v", "error", "-y", "-ss", at, "-i", src, "-frames:v", "1", "-vf", "scale=320:-1",
            f"{out}/ref.png"]


def at_t(bench, m, src, thumbs, out, times):
    """A first read of at-T.png inside a GOP, against the ffmpeg command."""
    ref, mnt = Cycle(times), Cycle(times)
    label = "first read of at-T.png"
    t = bench.compare(ID, label, [
        Peer(FFMPEG_AT, lambda: ffmpeg_at(src, ref.next(), out)),
        Peer("mount", lambda: ["cp", f"{thumbs}/at-{mnt.next()}s.png", f"{out}/mnt.png"]),
    ], bench.runs, warmup=1)
    bench.ratio(ID, label, ("mount", t["mount"]), (FFMPEG_AT, t[FFMPEG_AT]), goal_max=0.5)


def cached_reread(bench, path):
    """A cached re-read, timed inside this process (a process start alone costs about a millisecond)."""
    with open(path, "rb") as f:
        f.read()
    samples = []
    for _ in range(200):
        started = time.perf_counter()
        with open(path, "rb") as f:
            while f.read(1 << 20):
                pass
        samples.append(time.perf_counter() - started)
    ms = statistics.median(samples) * 1000
    bench.value(ID, "cached re-read of at-12.5s.png (open, read whole, close; median of 200)", round(ms, 3), "ms",
                goal="< 1 ms", met=ms < 1)


def seconds_of(name):
    """The time of a listed periodic thumbnail name (at-1m15s.png), or None."""
    found = re.fullmatch(r"at-(?:(\d+)h)?(?:(\d+)m)?(\d+(?:\.\d+)?)s\.png", name)
    if not found:
        return None
    h, mi, s = found.groups()
    return int(h or 0) * 3600 + int(mi or 0) * 60 + float(s)


def whole_folder(bench, src, out):
    """The whole listed thumbs/ of the film copied from a fresh mount, against one ffmpeg pass
    with the fps filter making the same periodic frames."""
    with bench.mount(bench.media, "thumbs-all") as m:
        names = os.listdir(m.path(FILM, "thumbs"))
    listed = len(names)
    periodic = sorted(t for t in map(seconds_of, names) if t is not None)
    interval = periodic[1] - periodic[0]
    bench.note(ID, f"the film's thumbs/ lists {listed} names: {listed - 3} every {interval:g} s and the three quarters")

    def fresh_copy():
        target = os.path.join(out, "all")
        shutil.rmtree(target, ignore_errors=True)
        os.makedirs(target)
        started = time.perf_counter()
        m.mount(fresh=True)
        folder = m.path(FILM, "thumbs")
        run_timed(["cp", *sorted(os.path.join(folder, n) for n in os.listdir(folder) if n.endswith(".png")), target],
                  bench.timeout)
        m.detach()
        elapsed = time.perf_counter() - started
        m.reap()
        return elapsed

    ref_name = f"ffmpeg -vf fps=1/{interval:g},scale=320:-1 (one pass)"
    ref_out = os.path.join(out, "ref-all")
    t = bench.compare(ID, "whole thumbs/ of the film", [
        Peer(ref_name, ["bash", "-c", 'rm -rf "$3" && mkdir -p "$3" && ffmpeg -nostdin -v error -i "$1" '
                                      '-vf "fps=1/$2:round=down,scale=320:-1" "$3/%03d.png"',
                        "sh", src, f"{interval:g}", ref_out]),
        Peer("cp from a fresh mount", measure=fresh_copy),
    ], min(bench.runs, 3), warmup=0)
    bench.ratio(ID, "whole thumbs/ of the film", ("cp from a fresh mount", t["cp from a fresh mount"]),
                (ref_name, t[ref_name]), goal_max=1.0)
    bench.note(ID, "the mount side includes mounting and unmounting (about 0.1 s): the copy must start from an empty "
                   "memory cache")


def load(bench):
    """Peak memory under the concurrency load of the tests: 8 readers x 200 random names of two
    films, with `ls -lR` of the mount running beside them all along."""
    films = ["feature-1080p.mp4", "movie-1080p.mkv"]
    length = min(media.duration(os.path.join(bench.media, f)) for f in films)
    rng = random.Random(42)
    names = []
    for i in range(240):
        t = rng.randrange(0, int(length * 100) - 200) / 100
        names.append(f"{films[i % 2]}/thumbs/" + rng.choice([f"at-{t}s.png", f"near-{t}s.png", f"at-{t}s@180h.png"]))
    failures = []

    with bench.mount(bench.media, "thumbs-load") as m:
        def reader(seed):
            r = random.Random(seed)
            try:
                for _ in range(200):
                    with open(m.path(r.choice(names)), "rb") as f:
                        f.read()
            except OSError as e:
                failures.append(str(e))

        lister = subprocess.Popen(["sh", "-c", 'while :; do ls -lR "$1" >/dev/null; done', "sh", m.mount_point],
                                  stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                  start_new_session=True)
        readers = [threading.Thread(target=reader, args=(i,), daemon=True) for i in range(8)]
        try:
            for r in readers:
                r.start()
            deadline = time.monotonic() + bench.timeout
            for r in readers:
                r.join(max(0.0, deadline - time.monotonic()))
            if any(r.is_alive() for r in readers):
                m.abort()  # frees the readers stuck on the mount
                raise BenchError(f"8 readers x 200 thumbnails took more than {bench.timeout:.0f} s")
        finally:
            os.killpg(lister.pid, 9)
            lister.wait()
        if failures:
            raise BenchError(f"{len(failures)} reader(s) of the thumbnail load failed: {failures[0]}")
        bench.peak_rss(m, "daemon after 8 readers x 200 random thumbnails (240 names, 2 films) with ls -lR")
