"""segments: a season's shared intro and credits found by Chromaprint, against fpcalc's raw
fingerprints of each episode (the fingerprint floor), and the ends found against where the
episodes were cut."""

import array
import json
import math
import os
import random
import statistics
import subprocess
import time

from measure import BenchError, Peer
from mounts import MountError

ID = "segments"
FPCALC = "fpcalc -raw -length 600"
GOAL = 1.2  # ours per episode (its fingerprints and its share of the comparison) against fpcalc's
ENDS_GOAL = 0.5  # seconds between an end found and where the episode was cut
RATE = 16000  # the sound's rate as made (AAC then carries it at 48 kHz, stereo)
NOTE = RATE // 4
INTRO, CREDITS = 40.0, 60.0
# name, cold open (s), seconds after the credits (a tag), seed of the episode's own sound
EPISODES = [("Show S01E01.mkv", 0.0, 0.0, 1), ("Show S01E02.mkv", 37.3, 12.4, 2),
            ("Show S01E03.mkv", 61.7, 0.0, 3), ("Show S01E04.mkv", 95.2, 30.0, 4)]
RECIPE = "segments-season 1"
SEASON = ("Show", "Season 1")  # the season's folder under the mounted source


def run(bench):
    seconds = 480 if bench.mode == "small" else 1200
    root = os.path.join(os.path.dirname(bench.media), f"{bench.mode}-season")
    folder = make_season(root, seconds)
    paths = [os.path.join(folder, name) for name, *_ in EPISODES]
    bench.section(ID, "Segments: a season's shared intro and credits",
                  f"{len(EPISODES)} episodes of {seconds / 60:.0f} min (160x90 video; stereo AAC at 48 kHz of a music-like "
                  f"sound, a note every quarter second, made by the section), sharing a {INTRO:.0f} s intro after cold opens "
                  f"of {', '.join(f'{c:g}' for _, c, _, _ in EPISODES)} s and {CREDITS:.0f} s of credits, followed in two by a "
                  "scene of their own. The floor is fpcalc's raw fingerprint of each episode's first 600 s (the intro "
                  "window mediafs reads is the first quarter, at most 600 s; its tail window the last quarter, at most "
                  "240 s), run on every episode in turn. The mount side is a fresh mount with `--analysis on-demand` "
                  "and `getfattr -n user.mediafs.analysis` of every episode in turn, which returns once the episode's "
                  "fingerprints and its season's comparison are done; both sides are timed for the whole season and "
                  "divided by its episodes.")
    runs = max(3, min(bench.runs, 5))
    floor = Peer(FPCALC, measure=lambda: fpcalc_season(paths, bench.timeout), row=f"{FPCALC}, every episode in turn")
    held = {}

    def fresh_mount():
        if "mounting" in held:
            held.pop("mounting").__exit__(None, None, None)
        mounting = bench.mount(root, ID, args=["--analysis", "on-demand"])
        held["m"] = mounting.__enter__()
        held["mounting"] = mounting

    try:
        try:
            fresh_mount()
            first = analysis(held["m"], folder, EPISODES[0][0], bench.timeout)
        except (MountError, BenchError) as e:
            first = None
            bench.note(ID, f"the mount does not answer user.mediafs.analysis yet ({str(e).splitlines()[0]}): only the floor "
                           "is measured")
        if first is None:
            t = bench.compare(ID, "season", [floor], runs, warmup=1)
            per_episode(bench, t[FPCALC])
            return
        ours = Peer("mount", measure=lambda: analysis_season(held["m"], folder, bench.timeout), prepare=fresh_mount,
                    row="mount, getfattr user.mediafs.analysis of every episode in turn")
        t = bench.compare(ID, "season", [floor, ours], runs, warmup=1)
        per_episode(bench, t[FPCALC], t["mount"])
        ends(bench, held["m"], folder, seconds)
    finally:
        if "mounting" in held:
            held.pop("mounting").__exit__(None, None, None)


def per_episode(bench, floor, ours=None):
    """The season's times as per-episode figures, and ours against the floor."""
    count = len(EPISODES)
    bench.value(ID, f"{FPCALC}, median per episode", statistics.median(floor) / count, "s")
    if ours is not None:
        bench.value(ID, "mount, median per episode (fingerprints and comparison)", statistics.median(ours) / count, "s")
        bench.ratio(ID, "per episode, fingerprints and the season's comparison", ("mount", ours), (FPCALC, floor),
                    goal_max=GOAL)


def fpcalc_season(paths, timeout):
    """fpcalc -raw -length 600 of every episode in turn: seconds. fpcalc 1.5.1 exits 3 after printing
    a valid fingerprint (a known bug): a fingerprint printed is success."""
    start = time.perf_counter()
    for path in paths:
        done = subprocess.run(["fpcalc", "-raw", "-length", "600", path], stdin=subprocess.DEVNULL,
                              capture_output=True, text=True, timeout=timeout, check=False)
        if done.returncode not in (0, 3) or "FINGERPRINT=" not in done.stdout:
            raise BenchError(f"fpcalc {path}: exit status {done.returncode}\n  {done.stderr.strip()[:500]}")
    return time.perf_counter() - start


def analysis(m, folder, name, timeout):
    """getfattr -n user.mediafs.analysis of one episode in the mount: its value (once the analysis is done)."""
    path = m.path(*SEASON, name)
    done = subprocess.run(["getfattr", "-n", "user.mediafs.analysis", "--only-values", path], stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=timeout, check=False)
    if done.returncode != 0:
        raise BenchError(f"getfattr user.mediafs.analysis: exit status {done.returncode}: {done.stderr.strip()[:300]}")
    return done.stdout


def analysis_season(m, folder, timeout):
    start = time.perf_counter()
    for name, *_ in EPISODES:
        analysis(m, folder, name, timeout)
    return time.perf_counter() - start


def ends(bench, m, folder, seconds):
    """The segments info.json lists against where each episode was cut."""
    rows, worst = [], 0.0
    for name, cold, tag, _ in EPISODES:
        path = m.path(*SEASON, name, "info.json")
        with open(path, encoding="utf-8") as f:
            segments = {s.get("kind"): s for s in json.load(f).get("segments", [])}
        for kind, (start, end) in (("intro", (cold, cold + INTRO)), ("credits", (seconds - tag - CREDITS, seconds - tag))):
            found = segments.get(kind)
            if found is None:
                rows.append([name, kind, f"{start:g}-{end:g}", "not found", "", ""])
                worst = math.inf
                continue
            off = (found["start"] - start, found["end"] - end)
            worst = max(worst, abs(off[0]), abs(off[1]))
            rows.append([name, kind, f"{start:g}-{end:g}", f"{found['start']:.3f}-{found['end']:.3f}",
                         f"{off[0]:+.3f}", f"{off[1]:+.3f}"])
    bench.table(ID, "Segments found (info.json) against where the episodes were cut, seconds",
                ["episode", "kind", "cut at", "found", "start off by", "end off by"], rows)
    bench.value(ID, "worst end, off by", worst, "s", goal=f"<= {ENDS_GOAL:g}", met=worst <= ENDS_GOAL)


# ---------------------------------------------------------------------------------------------
# The season, made once and kept (a stamp holds the recipe)

def make_season(root, seconds):
    """Makes (or finds) ROOT/Show/Season 1 and its episodes; returns that folder."""
    folder = os.path.join(root, *SEASON)
    stamp = os.path.join(folder, ".stamp")
    recipe = f"{RECIPE} {seconds}"
    paths = [os.path.join(folder, name) for name, *_ in EPISODES]
    try:
        with open(stamp, encoding="utf-8") as f:
            if f.read() == recipe and all(os.path.exists(p) for p in paths):
                return folder
    except OSError:
        pass
    os.makedirs(folder, exist_ok=True)
    print(f"making the season in {folder} (a minute or two) ...", flush=True)
    notes = {}
    for (name, cold, tag, seed), path in zip(EPISODES, paths):
        own = melody(seed * 10 + 2, seconds, notes)
        sound = melody(seed * 10 + 1, cold, notes) + melody(777, INTRO, notes)
        credits_at = int((seconds - tag - CREDITS) * RATE)
        sound += own[len(sound):credits_at] + melody(999, CREDITS, notes) + melody(seed * 10 + 3, tag, notes)
        wav = path + ".wav"
        write_wav(wav, sound[:int(seconds * RATE)])
        partial = os.path.join(folder, ".partial-" + name)
        try:
            subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i",
                            f"color=c=gray:s=160x90:r=5:d={seconds}", "-i", wav, "-map", "0:v", "-map", "1:a",
                            "-c:v", "libx264", "-preset", "ultrafast", "-g", "50",
                            "-c:a", "aac", "-b:a", "128k", "-ar", "48000", "-ac", "2", "-f", "matroska", partial],
                           check=True, timeout=3600)
        finally:
            os.remove(wav)
        os.rename(partial, path)
    with open(stamp, "w", encoding="utf-8") as f:
        f.write(recipe)
    return folder


def melody(seed, seconds, notes):
    """`seconds` of two voices, a note each quarter second, pitches drawn from `seed`: 16-bit samples."""
    rng = random.Random(seed)
    out = array.array("h")
    count = int(round(seconds * RATE))
    while len(out) < count:
        key = (rng.randrange(24), rng.randrange(12))
        if key not in notes:
            low, high = 220 * 2 ** (key[0] / 12), 330 * 2 ** (key[1] / 12)
            step = 2 * math.pi / RATE
            notes[key] = array.array("h", (int(20000 * (0.35 * math.sin(step * low * n) + 0.25 * math.sin(step * high * n)))
                                           for n in range(NOTE)))
        out.extend(notes[key])
    del out[count:]
    return out


def write_wav(path, samples):
    import wave
    with wave.open(path, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(samples.tobytes())
