"""thumbs: frames on demand against the ffmpeg command, ffmpegthumbnailer and the decode floor;
the daemon's peak memory under the tests' concurrent thumbnail load."""

import os
import random
import re
import shutil
import statistics
import subprocess
import threading
import time

import floor
import media
from measure import BenchError, Cycle, Peer, run_timed

ID = "thumbs"
FILM = "feature-1080p.mp4"
FFMPEG_AT = "ffmpeg -ss T -frames:v 1 -vf scale=320:-1"
LOAD_GOAL_MIB = 200
NEAR_AT_GOAL = 1.2
NEAR_THUMBNAILER_GOAL = 0.25
WHOLE_THUMBS_GOAL = 0.35  # the whole thumbs/ against one ffmpeg pass


def run(bench):
    src = os.path.join(bench.media, FILM)
    length = media.duration(src)
    out = os.path.join(bench.work, "thumb-out")
    os.makedirs(out, exist_ok=True)
    bench.section(ID, "Thumbnails: frames on demand",
                  f"`{FILM}` ({media.video_description(src)}, {length:.0f} s, a keyframe every 10 s). Each timed run asks "
                  "for a time no earlier run asked for, in the middle of a GOP, so neither side has it cached (every side "
                  "takes the times of one list in turn); the daemon runs and the file is probed. The mount side is "
                  "`cp NAME`, a whole first read of the PNG. Runs alternate between the sides. The decode floor is "
                  "`bench/decode-floor.c`, compiled at bench time against the same libav* libraries: for each time it "
                  "seeks to the keyframe before it and decodes the frames an exact answer needs with the daemon's "
                  "settings (frame threads, disposable frames presented two frames or more before the time skipped: "
                  "AVDISCARD_NONREF, or for AV1 the packets whose frames refresh no reference slot left out), and nothing else "
                  "(no scaling, no PNG, no FUSE, no process start: it times itself).")
    has_thumbnailer = shutil.which("ffmpegthumbnailer") is not None
    if not has_thumbnailer:
        bench.note(ID, "ffmpegthumbnailer is not installed (apt-get install ffmpegthumbnailer): near-T.png is compared with at-T.png only")
    floor_binary = bench.decode_floor()
    count = bench.runs * 2 + 4

    with bench.mount(bench.media, ID) as m:
        thumbs = m.path(FILM, "thumbs")
        os.listdir(thumbs)
        at_t(bench, m, src, thumbs, out, floor_binary, media.gop_times(5.3, count, length))

        keyframes_and_near(bench, src, thumbs, out, length, count, has_thumbnailer)

        cached_reread(bench, os.path.join(thumbs, "at-12.5s.png"))

    whole_folder(bench, src, out)
    load(bench)


def keyframes_and_near(bench, src, thumbs, out, length, count, has_thumbnailer):
    """at-T.png with T on a keyframe against the ffmpeg command, and near-T.png (T inside a GOP)
    against ffmpegthumbnailer and against that at-T: both decode one keyframe. The four alternate."""
    on_keyframes = media.keyframe_times(count, length)
    inside = media.gop_times(3.7, count, length)
    ref_at, mnt_at, ref_near, mnt_near = Cycle(on_keyframes), Cycle(on_keyframes), Cycle(inside), Cycle(inside)
    at_label, near_label = "first read of at-T.png, T on a keyframe", "first read of near-T.png"
    thumbnailer = "ffmpegthumbnailer -t T -s 320"
    peers = [
        Peer(FFMPEG_AT, lambda: ffmpeg_at(src, ref_at.next(), out), row=f"{FFMPEG_AT}, {at_label}"),
        Peer("mount at-T", lambda: ["cp", f"{thumbs}/at-{mnt_at.next()}s.png", f"{out}/mnt.png"],
             row=f"mount, {at_label}"),
        Peer("mount near-T", lambda: ["cp", f"{thumbs}/near-{mnt_near.next()}s.png", f"{out}/mnt.png"],
             row=f"mount, {near_label}"),
    ]
    if has_thumbnailer:
        peers.append(Peer(thumbnailer, lambda: ["ffmpegthumbnailer", "-t", ref_near.next(), "-s", "320", "-i", src,
                                                "-o", f"{out}/ref.png"], row=f"{thumbnailer}, {near_label}"))
    t = bench.compare(ID, "keyframes", peers, bench.runs, warmup=1)
    bench.ratio(ID, at_label, ("mount", t["mount at-T"]), (FFMPEG_AT, t[FFMPEG_AT]))
    bench.note(ID, "a frame-accurate thumbnail inside a GOP costs the decoding of every frame from the keyframe before "
                   "it (up to 250 frames with a keyframe every 10 s), and the ffmpeg command must decode the same "
                   "frames: what mediafs saves against the command is the process start, the probe and the seek (see "
                   "the keyframe row), so the goal is set against the decode floor instead")
    bench.ratio(ID, "first read, T inside a GOP (near-) and on a keyframe (at-)",
                ("mount near-T", t["mount near-T"]), ("mount at-T", t["mount at-T"]), goal_max=NEAR_AT_GOAL)
    if has_thumbnailer:
        bench.ratio(ID, near_label, ("mount", t["mount near-T"]), (thumbnailer, t[thumbnailer]),
                    goal_max=NEAR_THUMBNAILER_GOAL)
    bench.note(ID, "near-T.png and at-T.png on a keyframe each decode one keyframe: near- reads the keyframe's packet "
                   "on each side of the time (the index names them), and decodes the nearer alone")


def ffmpeg_at(src, at, out):
    return ["ffmpeg", "-nostdin", "-v", "error", "-y", "-ss", at, "-i", src, "-frames:v", "1", "-vf", "scale=320:-1",
            f"{out}/ref.png"]


def at_t(bench, m, src, thumbs, out, floor_binary, times):
    """A first read of at-T.png inside a GOP, against the ffmpeg command and the decode floor."""
    ref, mnt, flo = Cycle(times), Cycle(times), Cycle(times)
    answers = {}

    def decode_floor():
        at = flo.next()
        answer = floor.decode(floor_binary, src, [at], bench.timeout)[0]
        answers[at] = answer
        return answer.seconds

    floor_name = "decode floor"
    label = "first read of at-T.png"
    t = bench.compare(ID, label, [
        Peer(FFMPEG_AT, lambda: ffmpeg_at(src, ref.next(), out)),
        Peer("mount", lambda: ["cp", f"{thumbs}/at-{mnt.next()}s.png", f"{out}/mnt.png"]),
        Peer(floor_name, measure=decode_floor, row="decode floor (seek and decode only), at the same times"),
    ], bench.runs, warmup=1)
    bench.ratio(ID, label, ("mount", t["mount"]), (FFMPEG_AT, t[FFMPEG_AT]))
    bench.ratio(ID, label, ("mount", t["mount"]), (floor_name, t[floor_name]), goal_max=1.1)
    share = bench.ratio(ID, "the frames of at-T.png", (floor_name, t[floor_name]), (FFMPEG_AT, t[FFMPEG_AT]))
    bench.retired(ID, f"mount/{FFMPEG_AT} time, {label}", "<= 0.5",
                  "It is below the decoding floor: decoding alone the frames an exact answer needs takes "
                  f"{share:.2f}x of the command in this run (the decode floor/ffmpeg row; 0.55x when first measured), "
                  "so no exact answer could meet it; the goal is now the mount against that floor, <= 1.1x.")

    # The floor must have decoded to the frame the mount answered with.
    differ = []
    for at, answer in answers.items():
        try:
            shown = float(os.getxattr(f"{thumbs}/at-{at}s.png", "user.mediafs.time"))
        except (OSError, ValueError) as e:
            raise BenchError(f"user.mediafs.time of at-{at}s.png: {e}") from e
        if abs(shown - answer.answer) > 0.0005:
            differ.append(f"{at} s (floor {answer.answer:.3f}, mount {shown:.3f})")
    if differ:
        bench.note(ID, f"the floor's frame differs from the mount's at {len(differ)} time(s): {', '.join(differ)}")
    else:
        bench.note(ID, f"checked: at each of the {len(answers)} times the floor decoded to the frame the mount "
                       "answered with (user.mediafs.time)")
    bench.note(ID, f"the floor decoded a median {statistics.median(a.frames for a in answers.values()):.0f} frames a "
                   "time; opening the file and the decoder (the daemon keeps both open between requests) took it a "
                   f"median {statistics.median(a.open_seconds for a in answers.values()):.3f} s more, not counted")


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
        # The thumbnails; not the scanner markers (.ignore, ...).
        names = [n for n in os.listdir(m.path(FILM, "thumbs")) if not n.startswith(".")]
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
                (ref_name, t[ref_name]), goal_max=WHOLE_THUMBS_GOAL)
    bench.note(ID, f"goal raised (issue 28) from 1x to {WHOLE_THUMBS_GOAL:g}x: it had been met at about a fifth; one "
                   "ffmpeg pass decodes every frame of the film, the mount only what each listed time needs")
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
        started = time.perf_counter()
        try:
            for r in readers:
                r.start()
            deadline = time.monotonic() + bench.timeout
            for r in readers:
                r.join(max(0.0, deadline - time.monotonic()))
            if any(r.is_alive() for r in readers):
                m.abort()  # frees the readers stuck on the mount
                raise BenchError(f"8 readers x 200 thumbnails took more than {bench.timeout:.0f} s")
            elapsed = time.perf_counter() - started
        finally:
            os.killpg(lister.pid, 9)
            try:
                lister.wait(30)
            except subprocess.TimeoutExpired:  # stuck on the mount: free it
                m.abort()
                lister.wait(30)
        if failures:
            raise BenchError(f"{len(failures)} reader(s) of the thumbnail load failed: {failures[0]}")
        bench.value(ID, "8 readers x 200 random thumbnails (240 names, 2 films) with ls -lR beside them: wall time",
                    round(elapsed, 2), "s")
        bench.peak_rss(m, "daemon peak RSS, 8 readers x 200 random thumbnails (240 names, 2 films) with ls -lR beside them",
                       goal_mib=LOAD_GOAL_MIB)
