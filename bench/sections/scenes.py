"""scenes: every hard cut of a film, through the mount (`--analysis on-demand`, the attribute
user.mediafs.analysis, info.json's "scenes"), against PySceneDetect's content detector and
ffmpeg's scdet filter, which both decode every frame; with each side's precision and recall
against the cuts the films were made with (bench/scene_films.py), and the floor of an exact answer:
decoding every reference frame."""

import json
import os
import re
import shutil
import subprocess
import time

import credits_films
import scene_films
from measure import BenchError, Peer
from mounts import MountError

ID = "scenes"
ATTRIBUTE = "user.mediafs.analysis"
ANALYSIS = ["--analysis", "on-demand"]
SCENEDETECT = "scenedetect detect-content"
SCDET = "ffmpeg -vf scdet"
FLOOR = "reference frames floor"
# Ours against each peer, at most: keyframes at the cuts (libx264's defaults), and a fixed GOP.
GOALS = {"default": {SCENEDETECT: 0.1, SCDET: 0.3}, "fixed": {SCENEDETECT: 0.5, SCDET: 0.5}}


def run(bench):
    bench.section(ID, "Scenes: every hard cut, to the frame",
                  "Films made by `bench/scene_films.py` of shots of real clips (Debian packages' sample videos, "
                  "fetched at bench time) and of test patterns, joined at known frames by hard cuts (jump cuts of one "
                  "camera among them), a dissolve and a fade through black (not cuts), each encoded with libx264's "
                  "defaults (`-default`: keyframes where its scene-cut detection puts them) and with a fixed GOP "
                  "(`-fixed`: a keyframe every 50 frames, scene-cut detection off). The mount side is a fresh mount "
                  f"with `{' '.join(ANALYSIS)}` and `getfattr -n {ATTRIBUTE}` of the film's folder, which returns "
                  "once the analysis is done (the file's probe included); its cuts are info.json's `scenes`. "
                  f"`{SCENEDETECT}` is `scenedetect -i F detect-content list-scenes`; `{SCDET}` is "
                  "`ffmpeg -i F -vf scdet=threshold=10,metadata=print -f null -`. A cut found within one frame of a "
                  f"known one is a hit. The {FLOOR} is `ffmpeg -skip_frame noref -skip_loop_filter all -i F -f null -`: "
                  "every reference frame decoded and nothing else, what proving each cut takes where every group of "
                  "pictures holds one, as in these films (shots of 3 to 4 s; libx264 puts a keyframe at most every "
                  "10 s): the frame before a keyframe is the last of its group's chain of reference frames.")
    missing = [tool for tool in ("scenedetect", "getfattr") if shutil.which(tool) is None]
    if "scenedetect" in missing:
        bench.note(ID, "scenedetect is not installed (pip install scenedetect opencv-python-headless): its rows are left out")
    folder = os.path.join(os.path.dirname(bench.media), f"{bench.mode}-scene-films")
    made = scene_films.make(folder, bench=bench.mode == "full", cache=os.path.dirname(bench.media))
    if made.get("missing"):
        bench.note(ID, f"only the test-pattern film: the real clips could not be fetched: {made['missing']}")
    ours_missing = "getfattr is missing (Debian attr)" if "getfattr" in missing else ours_unavailable(bench, folder, made)
    if ours_missing:
        bench.note(ID, f"the mount's side is left out: {ours_missing}; only the peers are reported")
    runs = max(1, min(bench.runs, 3))
    for film in made["films"]:
        for name in film["files"]:
            path = os.path.join(folder, name)
            encoding = name.rsplit("-", 1)[1].split(".")[0]
            found = {}
            peers = [Peer(SCDET, measure=lambda p=path: timed(found, SCDET, scdet, p, bench.timeout)),
                     Peer(FLOOR, argv=["ffmpeg", "-nostdin", "-v", "error", "-skip_frame", "noref", "-skip_loop_filter",
                                       "all", "-i", path, "-f", "null", "-"])]
            if "scenedetect" not in missing:
                peers.append(Peer(SCENEDETECT, measure=lambda p=path: timed(found, SCENEDETECT, scenedetect, p, bench.timeout,
                                                                            bench.work)))
            if not ours_missing:
                peers.append(Peer("mount", measure=lambda n=name: ours(bench, folder, n, found)))
            samples = bench.compare(ID, name, peers, runs, warmup=0)
            if "mount" in samples:
                bench.ratio(ID, f"{name}: mount against the {FLOOR}", ("mount", samples["mount"]), (FLOOR, samples[FLOOR]))
            for peer, cuts in found.items():
                precision, recall = score(cuts, film["cuts"])
                bench.value(ID, f"{peer}, {name}: precision", round(precision, 3), "")
                bench.value(ID, f"{peer}, {name}: recall", round(recall, 3), "")
            if "mount" in samples:
                for peer, goal in GOALS[encoding].items():
                    if peer in samples:
                        bench.ratio(ID, f"{name}: mount against {peer}", ("mount", samples["mount"]),
                                    (peer, samples[peer]), goal_max=goal)
                        # Where the goal lies below what an exact answer must decode.
                        bench.ratio(ID, f"{name}: the {FLOOR} against {peer}", (FLOOR, samples[FLOOR]), (peer, samples[peer]))
    if not ours_missing:
        credits(bench)


def timed(found, peer, command, path, timeout, *extra):
    started = time.monotonic()
    found[peer] = command(path, timeout, *extra)
    return time.monotonic() - started


def scdet(path, timeout):
    """The frames ffmpeg's scdet marks as cuts (its `frame:N` of each `lavfi.scd.time`)."""
    out = subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-i", path, "-vf", "scdet=threshold=10,metadata=print:file=-",
                          "-f", "null", "-"], capture_output=True, text=True, timeout=timeout, check=False)
    if out.returncode != 0:
        raise BenchError(f"ffmpeg scdet {path}: {out.stderr.strip()[-500:]}")
    cuts, frame = [], None
    for line in out.stdout.splitlines():
        at = re.match(r"frame:(\d+)", line)
        if at:
            frame = int(at.group(1))
        elif line.startswith("lavfi.scd.time") and frame is not None:
            cuts.append(frame)
    return cuts


def scenedetect(path, timeout, work):
    """The first frames (from 0) of PySceneDetect's scenes after the first."""
    out_dir = os.path.join(work, "scenedetect")
    os.makedirs(out_dir, exist_ok=True)
    done = subprocess.run(["scenedetect", "-q", "-i", path, "-o", out_dir, "detect-content", "list-scenes", "-f", "scenes.csv"],
                          capture_output=True, text=True, timeout=timeout, check=False)
    if done.returncode != 0:
        raise BenchError(f"scenedetect {path}: {done.stderr.strip()[-500:]}")
    with open(os.path.join(out_dir, "scenes.csv"), encoding="utf-8") as f:
        rows = [line.split(",") for line in f.read().splitlines()[2:] if line.strip()]
    return [int(row[1]) - 1 for row in rows[1:]]


def credits(bench):
    """The credits on black info.json lists for each film of bench/credits_films.py (through one
    mount, each analysed by the attribute), against where the films were made to have them."""
    folder = os.path.join(os.path.dirname(bench.media), f"{bench.mode}-credits-films")
    made = credits_films.make(folder, cache=os.path.dirname(bench.media))
    if made.get("missing"):
        bench.note(ID, f"no credits films: the real clips could not be fetched: {made['missing']}")
        return
    rows, worst, wrong = [], 0.0, 0
    with bench.mount(folder, ID, args=ANALYSIS) as m:
        for film in made["films"]:
            for name in film["files"]:
                subprocess.run(["getfattr", "-n", ATTRIBUTE, "--only-values", m.path(name)], capture_output=True,
                               timeout=bench.timeout, check=True)
                with open(os.path.join(m.path(name), "info.json"), encoding="utf-8") as f:
                    found = [s for s in json.load(f).get("segments", []) if s.get("found_by") == "text-on-black"]
                truth = film["credits"] and [film["credits"][0] / scene_films.RATE, film["credits"][1] / scene_films.RATE]
                shown = ", ".join(f"{s['start']:.2f}-{s['end']:.2f}" for s in found) or "none"
                if truth is None:
                    wrong += len(found)
                    rows.append([name, "none", shown, ""])
                elif len(found) != 1:
                    wrong += 1
                    rows.append([name, f"{truth[0]:g}-{truth[1]:g}", shown, ""])
                else:
                    off = max(abs(found[0]["start"] - truth[0]), abs(found[0]["end"] - truth[1]))
                    worst = max(worst, off)
                    rows.append([name, f"{truth[0]:g}-{truth[1]:g}", shown, f"{off:.3f}"])
    bench.table(ID, "Credits on black found (info.json, `found_by` text-on-black) against where the films of "
                "`bench/credits_films.py` have them, seconds (384x216; `night`, `stars` and `title` have none: a lit "
                "city crushed towards black, specks on black, a title card on black first)",
                ["film", "credits at", "found", "worst end off by"], rows)
    bench.value(ID, "credits films: credits missed, or found where there are none", wrong, "films", goal="= 0",
                met=wrong == 0)
    bench.value(ID, "credits films: worst end, off by", worst, "s", goal="<= 0.5", met=worst <= 0.5)


def ours_unavailable(bench, folder, made):
    """Why the mount cannot give scenes (the option or the attribute not there yet), or None."""
    name = made["films"][0]["files"][0]
    try:
        with bench.mount(folder, ID, args=ANALYSIS) as m:
            done = subprocess.run(["getfattr", "-n", ATTRIBUTE, "--only-values", m.path(name)], capture_output=True,
                                  text=True, timeout=bench.timeout, check=False)
            if done.returncode != 0:
                return f"`getfattr -n {ATTRIBUTE}` is not answered ({done.stderr.strip() or done.returncode})"
            with open(os.path.join(m.path(name), "info.json"), encoding="utf-8") as f:
                if "scenes" not in json.load(f):
                    return "info.json has no scenes"
    except (BenchError, MountError, OSError, ValueError, subprocess.SubprocessError) as error:
        return f"the mount with {' '.join(ANALYSIS)} failed ({str(error).strip()[:300]})"
    return None


def ours(bench, folder, name, found):
    """One analysis on a fresh mount: the seconds `getfattr` took; the cuts go to `found`."""
    with bench.mount(folder, ID, args=ANALYSIS) as m:
        started = time.monotonic()
        subprocess.run(["getfattr", "-n", ATTRIBUTE, "--only-values", m.path(name)], capture_output=True,
                       timeout=bench.timeout, check=True)
        seconds = time.monotonic() - started
        with open(os.path.join(m.path(name), "info.json"), encoding="utf-8") as f:
            found["mount"] = [scene["frame"] for scene in json.load(f)["scenes"][1:]]
    return seconds


def score(found, expected):
    """Precision and recall of `found` against `expected`, a cut within one frame a hit (each
    found cut counted for one expected cut at most)."""
    left, hits = sorted(found), 0
    for cut in expected:
        match = next((f for f in left if abs(f - cut) <= 1), None)
        if match is not None:
            left.remove(match)
            hits += 1
    return hits / max(1, len(found)), hits / max(1, len(expected))
