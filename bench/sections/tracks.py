"""tracks: subtitles and audio of the MKV extracted through the mount against the ffmpeg command,
and the daemon's one pass over the file on its own (from its log), as TrackExtractionFigures
measured it in-process."""

import filecmp
import os
import re

import media
from measure import BenchError, Peer, output, run_timed

ID = "tracks"
FILM = "movie-1080p.mkv"
PASS_LINE = re.compile(r"extracted the tracks of (.*): (\d+) of (\d+) files in ([0-9.]+) s")


def passes_logged(m):
    """(files made, files planned, seconds) of each pass the daemon logged, in order."""
    return [(int(g[1]), int(g[2]), float(g[3])) for g in PASS_LINE.findall(m.log_text())]


def run(bench):
    src = os.path.join(bench.media, FILM)
    out = os.path.join(bench.work, "track-out")
    os.makedirs(out, exist_ok=True)
    subtitle_codecs = media.ffprobe(src, "-select_streams", "s", "-show_entries", "stream=codec_name",
                                    "-of", "csv=p=0").split()
    audio = media.stream_count(src, "a")
    subs = len(subtitle_codecs)
    bench.section(ID, "Tracks: subtitles and audio extracted through the mount",
                  f"`{FILM}` ({media.duration(src):.0f} s, {os.path.getsize(src) / 1e6:.0f} MB, {audio} audio and {subs} "
                  "subtitle streams). Cold: each mount-side run starts from a fresh mount with an empty cache folder "
                  "(mounting is not timed), so the copy's first `stat` runs the file's one pass, which makes every audio "
                  "and subtitle file at once. Cached: a fresh mount on the cache folder the cold runs filled, so the "
                  "files come from disk. The page cache is warm for both sides (the source was read by the runs "
                  "before). Runs alternate between the two sides. The pass alone is the time the daemon logs for its "
                  "pass over the file (demuxing once, writing every track; no FUSE, no copy).")

    with bench.mount(bench.media, ID) as m:
        tracks = m.path(FILM, "tracks")
        for group in os.listdir(tracks):
            os.listdir(os.path.join(tracks, group))
        if m.counter("track_sets_made") != 0:
            raise BenchError(f"ls of tracks/*/ ran {m.counter('track_sets_made')} track pass(es); it must run none")
        legible = os.path.join(tracks, "legible")
        output(["sh", "-c", 'cp "$1"/* "$2"/', "sh", legible, out], bench.timeout)
        output(["ffmpeg", "-nostdin", "-v", "error", "-y", "-i", src, "-map", "0:s:0", "-c:s", "srt", f"{out}/ref.srt"],
            bench.timeout)
        if not filecmp.cmp(f"{out}/ref.srt", os.path.join(legible, "eng English SRT.srt"), shallow=False):
            bench.note(ID, "the first SubRip file differs from ffmpeg's conversion (timings and texts are checked by the tests)")
        bench.note(ID, f"checked: `ls tracks/*/` ran no pass; copying legible/ ran {m.counter('track_sets_made')} pass; "
                       f"legible/ holds {len(os.listdir(legible))} files for {subs} streams (SubRip and WebVTT each, ASS "
                       "also as it is)")

        cold = lambda: m.remount(clear_cache=True)   # noqa: E731 (a fresh daemon, an empty cache folder)
        cached = lambda: m.remount()                 # noqa: E731 (a fresh daemon on the filled cache folder)

        ref_subs = ["bash", "-c", 'rm -rf "$2" && mkdir -p "$2" && for ((n = 0; n < $3; n++)); do '
                                  'ffmpeg -nostdin -v error -y -i "$1" -map "0:s:$n" -c:s srt "$2/$n.srt" || exit; done',
                    "sh", src, f"{out}/ref-subs", str(subs)]
        mnt_subs = ["bash", "-c", 'rm -rf "$2" && mkdir -p "$2" && cp "$1"/legible/* "$2"/', "sh", tracks, f"{out}/mnt-subs"]
        ref_name, mnt_name = "ffmpeg -map 0:s:N -c:s srt, once per stream", "cp tracks/legible/*"
        for label, prepare, goal in (("all subtitles, cold", cold, 0.7), ("all subtitles, cached (remount)", cached, None)):
            t = bench.compare(ID, label, [Peer(ref_name, ref_subs), Peer(mnt_name, mnt_subs, prepare=prepare)],
                              bench.runs, warmup=1)
            bench.ratio(ID, label, (mnt_name, t[mnt_name]), (ref_name, t[ref_name]), goal_max=goal)

        french = sorted(n for n in os.listdir(os.path.join(tracks, "audible")) if n.startswith("fra "))
        if not french:
            raise BenchError(f"no French audio track in {tracks}/audible")
        ref_audio = ["ffmpeg", "-nostdin", "-v", "error", "-y", "-i", src, "-map", "0:a:1", "-c", "copy", f"{out}/ref.mka"]
        mnt_audio = ["cp", os.path.join(tracks, "audible", french[0]), f"{out}/mnt.mka"]
        ref_name, mnt_name = "ffmpeg -map 0:a:1 -c copy", "cp tracks/audible/fra…"
        for label, prepare in (("one audio track (AC-3), cold", cold), ("one audio track (AC-3), cached (remount)", cached)):
            t = bench.compare(ID, label, [Peer(ref_name, ref_audio), Peer(mnt_name, mnt_audio, prepare=prepare)],
                              bench.runs, warmup=1)
            bench.ratio(ID, label, (mnt_name, t[mnt_name]), (ref_name, t[ref_name]), goal_max=1.0)
        bench.note(ID, "the cold pass makes every audio and subtitle file of the film at once (the issue's one pass per "
                       "file), so a cold copy of one audio track also writes the other audio tracks and the subtitles; "
                       "the cached row is a copy from the cache folder")

        every_track(bench, m, src, out, audio, subtitle_codecs, cold)
        bench.peak_rss(m, "daemon after the tracks section (one pass over the film)")


def every_track(bench, m, src, out, audio, subtitle_codecs, cold):
    """Every track of the film: a cold `cp -r tracks/` against one ffmpeg process writing the same
    files (one output per file, each stream read once), and the daemon's pass alone."""
    outputs = []
    for n in range(audio):
        outputs += ["-map", f"0:a:{n}", "-c", "copy", f"a{n}.mka"]
    for n, codec in enumerate(subtitle_codecs):
        outputs += ["-map", f"0:s:{n}", "-c:s", "srt", f"s{n}.srt", "-map", f"0:s:{n}", "-c:s", "webvtt", f"s{n}.vtt"]
        if codec in ("ass", "ssa"):
            outputs += ["-map", f"0:s:{n}", "-c", "copy", f"s{n}.ass"]
    files = sum(1 for arg in outputs if "." in arg)
    ref_out, mnt_out = os.path.join(out, "ref-every"), os.path.join(out, "mnt-every")
    ref = ["bash", "-c", 'rm -rf "$1" && mkdir -p "$1" && cd "$1" && shift && exec ffmpeg -nostdin -v error -y "$@"',
           "sh", ref_out, "-i", src, *outputs]
    tracks = m.path(FILM, "tracks")
    pass_seconds = []

    def copy_every_track():
        before = len(passes_logged(m))
        elapsed = run_timed(["bash", "-c", 'rm -rf "$2" && cp -r "$1" "$2"', "sh", tracks, mnt_out], bench.timeout)
        logged = passes_logged(m)[before:]
        if len(logged) != 1:
            raise BenchError(f"a cold copy of tracks/ logged {len(logged)} passes in the daemon's log, not 1 "
                             "(the line \"extracted the tracks of …\")")
        pass_seconds.append(logged[0][2])
        return elapsed

    ref_name, mnt_name = "ffmpeg, one process writing every file", "cp -r tracks"
    label = f"every track ({files} files), cold"
    t = bench.compare(ID, label, [Peer(ref_name, ref), Peer(mnt_name, measure=copy_every_track, prepare=cold)],
                      bench.runs, warmup=1)
    pass_name = "the pass alone"
    timed = pass_seconds[-bench.runs:]  # the warm-up's pass is not a sample
    bench.timing(ID, f"{pass_name} (the daemon's log: one pass making every file; no FUSE, no copy), {label}", timed)
    bench.ratio(ID, label, (mnt_name, t[mnt_name]), (ref_name, t[ref_name]))
    bench.ratio(ID, label, (pass_name, timed), (ref_name, t[ref_name]))
    made = sum(len(names) for _, _, names in os.walk(mnt_out))
    bench.note(ID, f"every track: the mount's tracks/ holds {made} files, the ffmpeg command writes {files} (the same "
                   "files: each audio stream as .mka, each subtitle stream as .srt and .vtt, ASS also as it is); the "
                   "pass alone is the extraction itself, as the daemon timed it, without FUSE or the copy")
