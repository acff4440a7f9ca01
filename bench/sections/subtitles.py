"""subtitles: a film's picture subtitle track (PGS) read into text, through the mount (the
`... (read from pictures).srt` beside the track's `.sup` in FILM/tracks/legible/, read cold from a
fresh mount) against pgsrip (`pgsrip rip`, which extracts the track with mkvextract and runs the
tesseract command on its pictures) and against the OCR floor (bench/ocr-floor.c: libtesseract
alone, replaying the very calls the daemon made, which it writes with MEDIAFS_OCR_DUMP=DIR).
Every side's text is scored against the text the pictures were drawn from
(bench/picture_subs.py's truth.json; bench/subtitle_score.py): a faster side that reads worse is
no win, so the error rates are recorded beside the times.

Why these peers: pgsrip is what people run to turn Blu-ray subtitles into SRT (the goal is
ours <= 0.5x its time: it starts a tesseract process per picture, we keep one engine); the floor
is what the same Tesseract work costs with nothing around it (goal: ours <= 1.2x). The plain
tesseract command on each picture laid on white is recorded once, untimed against the others,
as the baseline of what an OCR without any preparation of the pictures reads."""

import os
import shutil
import subprocess
import time

import floor
import picture_subs
import subtitle_score
from measure import BenchError, Peer
from mounts import MountError

ID = "subtitles"
ANALYSIS = ["--analysis", "on-demand"]
PGSRIP = "pgsrip rip"
FLOOR = "OCR floor (ocr-floor.c)"
TESSDATA = "/usr/share/tesseract-ocr/5/tessdata"
TESSERACT = {"eng": "eng", "ger": "deu", "fre": "fra", "spa": "spa", "ita": "ita", "por": "por", "dut": "nld"}
IETF = {"eng": "en", "ger": "de", "fre": "fr", "spa": "es", "ita": "it", "por": "pt", "dut": "nl", "jpn": "ja"}
READ = " (read from pictures).srt"
FORCED = " (forced, read from pictures).srt"


def run(bench):
    size = "full" if bench.mode == "full" else "small"
    folder = os.path.join(os.path.dirname(bench.media), f"{bench.mode}-subs")
    if picture_subs.Image is None:
        raise BenchError("Python PIL is missing (apt-get install python3-pil, or pip install Pillow): "
                         "bench/picture_subs.py draws the subtitles with it")
    truth = picture_subs.make(folder, bench=True if size == "full" else "small")
    film = truth["films"][0]
    track = next(t for t in film["tracks"] if t["codec"] == "hdmv_pgs_subtitle")
    events = len(track["events"])
    bench.section(ID, "Subtitles read from pictures (OCR)",
                  f"`{film['file']}` of `bench/picture_subs.py --bench` (kept in `.bench-media/{bench.mode}-subs/`): a "
                  f"1080p PGS track of {events} events of known English text (DejaVu Sans, white with a 3 px black "
                  "outline, antialiased; italics, two-line events, some as two objects), the film's only subtitle track (the mount's "
                  "reading pass reads every picture track of a film at once; pgsrip reads one). The mount "
                  f"side is a fresh mount with `{' '.join(ANALYSIS)}` and `cp` of `tracks/legible/<track>{READ}`, the "
                  f"first read doing the OCR. `{PGSRIP}` is `pgsrip rip --engine tesseract --no-tesseract-download "
                  "-l en -f FILM` (its default workers: one per core, at most 4). The OCR floor replays, in one "
                  "process and one thread, the Tesseract calls the daemon made (the images it gave Tesseract, dumped "
                  "by a separate untimed mount run with MEDIAFS_OCR_DUMP), timed inside the process, its engines "
                  "initialised before. Each side's character error rate (CER: Levenshtein distance over the track's "
                  "text, events matched by time, over the truth's characters) is recorded beside its time.")
    runs = max(1, min(bench.runs, 3))
    path = os.path.join(folder, film["file"])
    found = {}
    peers = []
    if shutil.which("pgsrip") is None or shutil.which("mkvextract") is None:
        bench.note(ID, "pgsrip is not installed (pip install pgsrip; it needs mkvtoolnix and tesseract-ocr): its row is left out")
    else:
        peers.append(Peer(PGSRIP, measure=lambda: pgsrip_timed(found, path, track["language"], bench.work, bench.timeout)))
    ours_missing = ours_unavailable(bench, folder, film["file"])
    if ours_missing:
        bench.note(ID, f"the mount's side and the OCR floor are left out: {ours_missing}; only the peers are reported")
    else:
        peers.append(Peer("mount", measure=lambda: ours(bench, folder, film["file"], found)))
    label = f"{film['file']}: the PGS track's {events} events into text"
    samples = bench.compare(ID, label, peers, runs, warmup=0) if peers else {}
    for peer, srt in found.items():
        if peer != "mount forced":  # scored against the forced events below
            record_score(bench, peer, subtitle_score.score(track["events"], subtitle_score.parse_srt(srt)))
    if "mount" in samples and PGSRIP in samples:
        bench.ratio(ID, label, ("mount", samples["mount"]), (PGSRIP, samples[PGSRIP]), goal_max=0.5)
    if not ours_missing:
        forced = found.get("mount forced")
        if forced is not None:
            record_score(bench, "mount, forced events", subtitle_score.score(track["events"],
                                                                             subtitle_score.parse_srt(forced), forced=True))
        floor_samples = ocr_floor(bench, folder, film["file"], runs)
        if floor_samples and "mount" in samples:
            bench.ratio(ID, f"{label}: mount against the OCR floor", ("mount", samples["mount"]), (FLOOR, floor_samples),
                        goal_max=1.2)
    variant_scores(bench)
    if shutil.which("tesseract") is not None and TESSERACT.get(track["language"]):
        seconds, srt = plain_tesseract(path, track["index"], TESSERACT[track["language"]], bench.work, bench.timeout)
        bench.timing(ID, f"tesseract --psm 6 per picture laid on white (baseline, one run), {label}", [seconds])
        record_score(bench, "tesseract per picture (baseline)", subtitle_score.score(track["events"],
                                                                                     subtitle_score.parse_srt(srt)))


def record_score(bench, peer, result):
    bench.value(ID, f"{peer}: CER", round(result["cer"] * 100, 2), "%")
    bench.value(ID, f"{peer}: events lost / doubled / extra", f"{result['lost']} / {result['doubled']} / {result['extra']}", "")
    bench.value(ID, f"{peer}: events whose times differ by > 1 ms", result["time_mismatches"]["count"], "")
    i = result["italic"]
    bench.value(ID, f"{peer}: italic lines found / wrongly / missed",
                f"{i['true_positive']} / {i['false_positive']} / {i['false_negative']}", "")


def variant_scores(bench):
    """Accuracy on every variant: the test films of bench/picture_subs.py (PGS clean, yellow, thin
    outline, translucent box, small type; DVD four-colour white, yellow, small; English, German,
    French), each track's text read through one mount and scored, beside pgsrip's on each PGS
    track (run on a copy of the film holding that track alone: with several tracks of a language
    it writes one file). Untimed: the speed is the bench film's above."""
    folder = os.path.join(os.path.dirname(bench.media), f"{bench.mode}-subs-variants")
    truth = picture_subs.make(folder, bench=False)
    rows = []
    with bench.mount(folder, f"{ID}-variants", args=ANALYSIS) as m:
        for film in truth["films"]:
            legible_folder = m.path(film["file"], "tracks", "legible")
            names = os.listdir(legible_folder)
            for track in film["tracks"]:
                if track["language"] not in TESSERACT:
                    continue
                base = next((n[:-len(".sup")] for n in names if f"[{track['name']}]" in n and n.endswith(".sup")), None) \
                    or next((n[:-len(".idx")] for n in names if f"[{track['name']}]" in n and n.endswith(".idx")), None) \
                    or next((n[:-len(".mks")] for n in names if f"[{track['name']}]" in n and n.endswith(".mks")), None)
                if base is None:
                    raise BenchError(f"{legible_folder} has no file of the track {track['name']}: {names}")
                with open(os.path.join(legible_folder, base + READ), encoding="utf-8") as f:
                    ours = subtitle_score.score(track["events"], subtitle_score.parse_srt(f.read()))
                theirs = None
                if track["codec"] == "hdmv_pgs_subtitle" and shutil.which("pgsrip") and shutil.which("mkvmerge"):
                    alone = os.path.join(bench.work, "pgsrip-variants", f"{film['file'][:-4]}-{track['index']}.mkv")
                    os.makedirs(os.path.dirname(alone), exist_ok=True)
                    subprocess.run(["mkvmerge", "-q", "-o", alone, "--subtitle-tracks", str(track["index"]),
                                    os.path.join(folder, film["file"])], check=True, timeout=bench.timeout,
                                   env=dict(os.environ, LC_ALL="C.UTF-8"))
                    _, srt = pgsrip(alone, track["language"], bench.work, bench.timeout)
                    theirs = subtitle_score.score(track["events"], subtitle_score.parse_srt(srt))
                rows.append((film["file"], track, ours, theirs))
    for file, track, ours, theirs in rows:
        label = f"{track['variant']} ({track['language']}, {len(track['events'])} events, {file})"
        bench.value(ID, f"{label}: mount CER", round(ours["cer"] * 100, 2), "%")
        bench.value(ID, f"{label}: mount events lost / doubled / extra / times off",
                    f"{ours['lost']} / {ours['doubled']} / {ours['extra']} / {ours['time_mismatches']['count']}", "")
        if theirs is not None:
            bench.value(ID, f"{label}: pgsrip CER", round(theirs["cer"] * 100, 2), "%")
            if ours["cer"] > theirs["cer"]:
                raise BenchError(f"{label}: the mount reads worse than pgsrip ({ours['cer']:.4f} > {theirs['cer']:.4f})")
        if ours["cer"] > 0.01:
            raise BenchError(f"{label}: the mount's CER {ours['cer']:.4f} is above 1 %")


# ---------------------------------------------------------------------------------------------
# pgsrip

def pgsrip(film, language, work, timeout, workers=None):
    """Runs pgsrip on a hard link of FILM in WORK/pgsrip (it writes NAME.LANG.srt beside the film):
    (seconds, the SRT's text). Only the system's tessdata is used (--no-tesseract-download) and
    only tesseract (--engine tesseract: its RapidOCR fallback would fetch models)."""
    folder = os.path.join(work, "pgsrip")
    os.makedirs(folder, exist_ok=True)
    copy = os.path.join(folder, os.path.basename(film))
    if not os.path.exists(copy):
        try:
            os.link(film, copy)
        except OSError:
            shutil.copyfile(film, copy)
    code = IETF.get(language, language)
    srt = copy[:-len(".mkv")] + f".{code}.srt"
    if os.path.exists(srt):
        os.remove(srt)
    argv = ["pgsrip", "rip", "--engine", "tesseract", "--no-tesseract-download", "--tesseract-dir",
            os.environ.get("TESSDATA_PREFIX", TESSDATA), "-l", code, "-f", copy]
    if workers:
        argv[2:2] = ["-w", str(workers)]
    started = time.monotonic()
    # mkvmerge's JSON, which pgsrip reads, is cut at the first non-ASCII title under the C locale
    # (the bench sets LC_ALL=C).
    done = subprocess.run(argv, capture_output=True, text=True, timeout=timeout, check=False,
                          env=dict(os.environ, LC_ALL="C.UTF-8"))
    seconds = time.monotonic() - started
    if done.returncode != 0 or not os.path.exists(srt):
        raise BenchError(f"pgsrip on {film}: {(done.stdout + done.stderr).strip()[-500:]} (no {os.path.basename(srt)})")
    with open(srt, encoding="utf-8-sig", errors="replace") as f:
        return seconds, f.read()


def pgsrip_timed(found, film, language, work, timeout):
    seconds, found[PGSRIP] = pgsrip(film, language, work, timeout)
    return seconds


# ---------------------------------------------------------------------------------------------
# The plain tesseract command, one call per picture

def plain_tesseract(film, index, language, work, timeout):
    """Every event's picture of track INDEX (taken out with mkvextract, decoded by
    picture_subs.read_sup / read_vobsub), cropped to its pixels with a 10 px margin, laid on
    white, grey, as PNG; then `tesseract PNG - --psm 6 -l LANGUAGE` for each, one after the
    other: (seconds of the tesseract calls, an SRT of their text). Nothing is done to the picture
    first: white letters laid on white leave their outline alone, which is the point of a
    baseline."""
    from PIL import Image
    folder = os.path.join(work, f"tesseract-{os.path.basename(film)}-{index}")
    source = picture_subs.extract(film, index, folder)
    if source.endswith(".sup"):
        with open(source, "rb") as f:
            events = picture_subs.read_sup(f.read())
    else:
        events = picture_subs.read_vobsub(source)
    pictures = []
    for n, (start, end, canvas) in enumerate(events):
        x0, y0, x1, y1 = canvas.getbbox()
        crop = canvas.crop((max(0, x0 - 10), max(0, y0 - 10), x1 + 10, y1 + 10))
        white = Image.new("RGBA", crop.size, (255, 255, 255, 255))
        white.alpha_composite(crop)
        png = os.path.join(folder, f"{n:06d}.png")
        white.convert("L").save(png)
        pictures.append((start, end, png))
    seconds, blocks = 0.0, []
    for n, (start, end, png) in enumerate(pictures, 1):
        started = time.monotonic()
        done = subprocess.run(["tesseract", png, "-", "--psm", "6", "-l", language], capture_output=True, text=True,
                              timeout=timeout, check=False)
        seconds += time.monotonic() - started
        if done.returncode != 0:
            raise BenchError(f"tesseract {png}: {done.stderr.strip()[-300:]}")
        text = "\n".join(line for line in done.stdout.splitlines() if line.strip())
        blocks.append(f"{n}\n{srt_time(start)} --> {srt_time(end)}\n{text}\n")
    return seconds, "\n".join(blocks)


def srt_time(ms):
    return "%02d:%02d:%02d,%03d" % (ms // 3600000, ms // 60000 % 60, ms // 1000 % 60, ms % 1000)


# ---------------------------------------------------------------------------------------------
# The mount, and the floor under it

def legible(m, name):
    """The mount's FILM/tracks/legible/ folder and the base name of its one .sup (the PGS track's
    own file); the text read from it is BASE + READ, its forced events BASE + FORCED."""
    folder = m.path(name, "tracks", "legible")
    sups = sorted(n for n in os.listdir(folder) if n.endswith(".sup"))
    if len(sups) != 1:
        raise BenchError(f"{folder} has {len(sups)} .sup files, not one: {sups}")
    return folder, sups[0][:-len(".sup")]


def ours_unavailable(bench, folder, name):
    """Why the mount gives no text read from pictures (not there yet), or None."""
    try:
        with bench.mount(folder, ID, args=ANALYSIS) as m:
            where, base = legible(m, name)
            if not os.path.exists(os.path.join(where, base + READ)):
                return f"tracks/legible/ has no `{base}{READ}` beside `{base}.sup`"
    except (BenchError, MountError, OSError, subprocess.SubprocessError) as error:
        return f"the mount failed or has no such track ({str(error).strip()[:300]})"
    return None


def ours(bench, folder, name, found):
    """One cold read on a fresh mount: the seconds of `cp` of the text file; its text (and the
    forced events' file, read after the timing) go to `found`."""
    out = os.path.join(bench.work, "subtitles-out")
    os.makedirs(out, exist_ok=True)
    with bench.mount(folder, ID, args=ANALYSIS) as m:
        where, base = legible(m, name)
        started = time.monotonic()
        subprocess.run(["cp", os.path.join(where, base + READ), os.path.join(out, "ours.srt")], capture_output=True,
                       timeout=bench.timeout, check=True)
        seconds = time.monotonic() - started
        forced = os.path.join(where, base + FORCED)
        if os.path.exists(forced):
            with open(forced, encoding="utf-8-sig", errors="replace") as f:
                found["mount forced"] = f.read()
    with open(os.path.join(out, "ours.srt"), encoding="utf-8-sig", errors="replace") as f:
        found["mount"] = f.read()
    return seconds


def ocr_floor(bench, folder, name, runs):
    """The dump (a separate, untimed mount with MEDIAFS_OCR_DUMP) and `runs` runs of the floor over
    it: the floor's own loop seconds, recorded as a timing row; [] with a note when it cannot run."""
    dump = os.path.join(bench.work, "ocr-dump")
    shutil.rmtree(dump, ignore_errors=True)
    os.makedirs(dump)
    try:
        with bench.mount(folder, f"{ID}-dump", args=ANALYSIS, env={"MEDIAFS_OCR_DUMP": dump}) as m:
            where, base = legible(m, name)
            with open(os.path.join(where, base + READ), "rb") as f:
                f.read()
    except (BenchError, MountError, OSError) as error:
        bench.note(ID, f"the OCR floor is left out: the dump mount failed ({str(error).strip()[:300]})")
        return []
    if not os.path.exists(os.path.join(dump, "calls.tsv")):
        bench.note(ID, "the OCR floor is left out: the daemon wrote no calls.tsv with MEDIAFS_OCR_DUMP set")
        return []
    binary = floor.compile_ocr_floor(bench.work)
    samples = []
    for _ in range(runs):
        calls, seconds, _, _ = floor.ocr(binary, dump, bench.timeout)
        samples.append(seconds)
    bench.note(ID, f"the OCR floor replays the daemon's {calls} Tesseract calls")
    bench.timing(ID, f"{FLOOR}, the same calls as the mount's (timed inside the process)", samples)
    return samples
