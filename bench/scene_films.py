#!/usr/bin/env python3
"""scene_films.py: films made of shots joined at known frames, for the scene tests and the bench's
scenes section. Standard library and the ffmpeg command only.

A film is a list of shots, each a stretch of frames of a source: a real clip of a Debian package
(footage.py fetches them) or a lavfi test pattern. Every shot is taken to one size and 25 fps
(scaled and cropped, frames repeated or dropped by `fps`), then the shots are joined: most by a
hard cut, one by a dissolve (xfade) and one through black (fade out, fade in), which are not hard
cuts. Two shots of one source far apart make a jump cut, which is one. The film is made once,
lossless (FFV1), and encoded twice from it: with libx264's defaults (keyframes where its scene-cut
detection puts them) and with a fixed GOP (a keyframe every 50 frames, scene-cut detection off).
The films are made side by side, one a core (at most four): an ffmpeg at this size keeps about one
core busy.

Usage:  python3 bench/scene_films.py OUT [--bench]
        writes OUT/NAME-default.mkv, OUT/NAME-fixed.mkv for each film and OUT/films.json:
        {"films": [{"name", "files": [..], "frames", "cuts": [frame, ...]}]}, or
        {"missing": "why"} where the real clips cannot be fetched (the test-pattern film is
        still made). Files already there with the same recipe are kept."""

import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import footage  # noqa: E402

RATE = 25
RECIPE = "scene-films 3"
DISSOLVE = 25  # frames a dissolve lasts (1 s)
FADE = 12  # frames of a fade out, and again of the fade in

# A shot: (source, first second, frames); a source is a clip's name or "lavfi:GRAPH".
# The join before each shot after the first: "cut", "dissolve" or "black".
REAL = [
    (None, ("cityCC0.mpg", 0.0, 75)),
    ("cut", ("tree.avi", 2.0, 90)),
    ("cut", ("vtest.avi", 4.0, 100)),
    ("cut", ("vtest.avi", 52.0, 90)),  # a jump cut: the same fixed camera, 48 s later
    ("cut", ("cockatoo.mp4", 0.5, 80)),
    ("cut", ("cockatoo.mp4", 8.5, 70)),  # a jump cut of a hand-held camera
    ("dissolve", ("tree.avi", 14.0, 100)),
    ("cut", ("cityCC0.mpg", 4.72, 72)),  # after the clip's own cut at 4.1 s
    ("black", ("vtest.avi", 25.0, 110)),
    ("cut", ("tree.avi", 20.0, 70)),
    ("cut", ("vtest.avi", 70.0, 95)),
    ("cut", ("cockatoo.mp4", 4.5, 75)),
]
PATTERNS = [
    (None, ("lavfi:testsrc2=s=640x360:r=25", 0.0, 50)),
    ("cut", ("lavfi:mandelbrot=s=640x360:r=25", 0.0, 60)),
    ("cut", ("lavfi:smptehdbars=s=640x360:r=25,hue=H=2*PI*t/3", 0.0, 45)),
    ("dissolve", ("lavfi:testsrc=s=640x360:r=25", 0.0, 60)),
    ("cut", ("lavfi:mandelbrot=s=640x360:r=25", 6.0, 55)),  # a jump cut into the zoom
    ("black", ("lavfi:cellauto=s=640x360:r=25:rule=110", 0.0, 60)),
    ("cut", ("lavfi:testsrc2=s=640x360:r=25", 0.0, 40)),
]


def plan(shots):
    """The film's frames and its hard cuts (the first frame of each new shot) from its shots:
    a dissolve overlaps two shots by DISSOLVE frames and is no cut; a fade through black is none."""
    frames, cuts = 0, []
    for join, (_, _, count) in shots:
        if join == "dissolve":
            frames -= DISSOLVE
        elif join == "cut":
            cuts.append(frames)
        frames += count
    return frames, cuts


def graph(shots, width, height):
    """The ffmpeg inputs and filter graph joining `shots` at `width` × `height`, 25 fps."""
    inputs, parts = [], []
    for i, (join, (source, start, count)) in enumerate(shots):
        if source.startswith("lavfi:"):
            inputs += ["-f", "lavfi", "-i", source[len("lavfi:"):]]
        else:
            inputs += ["-i", source]
        chain = (f"[{i}:v]setpts=PTS-STARTPTS,fps={RATE},trim=start_frame={int(start * RATE)}:end_frame="
                 f"{int(start * RATE) + count},setpts=PTS-STARTPTS,scale={width}:{height}:force_original_aspect_ratio=increase,"
                 f"crop={width}:{height},setsar=1,format=yuv420p")
        following = shots[i + 1][0] if i + 1 < len(shots) else None
        if join == "black":
            chain += f",fade=t=in:start_frame=0:nb_frames={FADE}"
        if following == "black":
            chain += f",fade=t=out:start_frame={count - FADE}:nb_frames={FADE}"
        parts.append(chain + f"[s{i}]")
    # Dissolves first (each joins a shot to the one before), then one concat of what is left.
    pieces = []
    for i, (join, (_, _, count)) in enumerate(shots):
        if join == "dissolve":
            previous_label, previous_frames = pieces.pop()
            offset = (previous_frames - DISSOLVE) / RATE
            label = f"d{i}"
            parts.append(f"[{previous_label}][s{i}]xfade=transition=fade:duration={DISSOLVE / RATE}:offset={offset}[{label}]")
            pieces.append((label, previous_frames + count - DISSOLVE))
        else:
            pieces.append((f"s{i}", count))
    parts.append("".join(f"[{label}]" for label, _ in pieces) + f"concat=n={len(pieces)}:v=1:a=0[out]")
    return inputs, ";".join(parts)


def run(argv):
    done = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(argv[:12])} ...: {done.stderr.strip()[-2000:]}")


ENCODINGS = {
    # libx264 as people run it: keyframes where its scene-cut detection puts them.
    "default": ["-c:v", "libx264", "-preset", "medium"],
    # A keyframe every 2 s whatever the picture, as streaming encodes are made.
    "fixed": ["-c:v", "libx264", "-preset", "medium", "-g", "50", "-keyint_min", "50", "-sc_threshold", "0",
              "-x264-params", "scenecut=0"],
}


def encode(lossless, out, name):
    """OUT/NAME-ENCODING.mkv for each of ENCODINGS, from the LOSSLESS film, which is then removed."""
    for encoding, options in ENCODINGS.items():
        target = os.path.join(out, f"{name}-{encoding}.mkv")
        run(["ffmpeg", "-nostdin", "-v", "error", "-y", "-i", lossless] + options + ["-pix_fmt", "yuv420p",
             "-an", target + ".part.mkv"])
        os.replace(target + ".part.mkv", target)
    os.remove(lossless)


def make_film(out, name, shots, width, height, clips):
    """NAME-default.mkv and NAME-fixed.mkv in OUT (kept when made by this recipe); its entry."""
    frames, cuts = plan(shots)
    resolved = [(join, ((s if s.startswith("lavfi:") else os.path.join(clips, s)), start, count))
                for join, (s, start, count) in shots]
    stamp = os.path.join(out, f"{name}.recipe")
    recipe = json.dumps([RECIPE, width, height, shots])
    files = [f"{name}-{encoding}.mkv" for encoding in ENCODINGS]
    fresh = (os.path.exists(stamp) and open(stamp, encoding="utf-8").read() == recipe
             and all(os.path.exists(os.path.join(out, f)) for f in files))
    if not fresh:
        lossless = os.path.join(out, f"{name}-lossless.nut")
        inputs, filters = graph(resolved, width, height)
        run(["ffmpeg", "-nostdin", "-v", "error", "-y"] + inputs + ["-filter_complex", filters, "-map", "[out]",
             "-frames:v", str(frames), "-c:v", "ffv1", lossless])
        encode(lossless, out, name)
        with open(stamp, "w", encoding="utf-8") as f:
            f.write(recipe)
    return {"name": name, "files": files, "frames": frames, "cuts": cuts, "rate": RATE}


def make(out, bench=False, cache=None):
    """Makes the films in OUT (the real clips fetched into CACHE/footage/, CACHE defaulting to
    OUT's parent); returns what films.json holds."""
    os.makedirs(out, exist_ok=True)
    width, height = (640, 360) if bench else (384, 216)
    clips, missing = footage.fetch(cache or os.path.dirname(os.path.abspath(out)))
    plans = [("patterns", PATTERNS, None)]
    if clips is not None:
        plans.append(("real", REAL, clips))
        if bench:
            # A longer one: the real shots twice over, the second time from other seconds.
            later = [(join, (s, start + (0 if s.startswith("city") else 1.0), count)) for join, (s, start, count) in REAL]
            plans.append(("real-long", REAL + [("cut", later[0][1])] + later[1:], clips))
    with ThreadPoolExecutor(max_workers=min(4, os.cpu_count() or 1)) as pool:
        films = list(pool.map(lambda plan: make_film(out, plan[0], plan[1], width, height, plan[2]), plans))
    result = {"films": films}
    if missing:
        result["missing"] = missing
    with open(os.path.join(out, "films.json"), "w", encoding="utf-8") as f:
        json.dump(result, f, indent=1)
    return result


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    print(json.dumps(make(sys.argv[1], bench="--bench" in sys.argv[2:])))
