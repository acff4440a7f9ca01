#!/usr/bin/env python3
"""credits_films.py: films that end, or do not, in credits of text on black, for the tests of a
film's own credits (mediafs's `EndCredits`). Standard library and the ffmpeg command only.

Each film is shots of the real clips of footage.py (Debian packages' sample videos) and of made
pictures, joined by hard cuts or through black (a fade out, then in), made once lossless (FFV1)
and encoded twice as scene_films.py does: libx264's defaults and a fixed GOP (a keyframe every
50 frames), side by side, one a core (at most four). The films with credits:
  roll    shots, then through black a roll of names rising on black to the end;
  cards   shots, a hard cut to cards of names on black (black between), a hard cut to a scene
          after the credits, then a short card on black (not long enough to be credits);
and the films without (what could be taken for credits and is not):
  night   shots, then a lit city at night crushed towards black (rows of lit windows), through
          black to black;
  stars   shots, then white specks on black;
  title   a title card on black first, then shots, ending on a picture.

Usage:  python3 bench/credits_films.py OUT
        writes OUT/NAME-default.mkv, OUT/NAME-fixed.mkv and OUT/credits.json:
        {"films": [{"name", "files", "frames", "credits": [first frame, first frame after] or
        null, "other_text": [[first frame, first frame after], ...]}]} (the frame after is the
        film's frame count where they last to the end; other text: cards on black that are not
        credits), or
        {"missing": "why"} where the real clips cannot be fetched. Kept while the recipe holds."""

import json
import os
import sys
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import footage  # noqa: E402
from scene_films import ENCODINGS, encode, run  # noqa: E402

RATE = 25
WIDTH, HEIGHT = 384, 216
RECIPE = "credits-films 3"
FADE = 12  # frames of a fade out, and again of the fade in
FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
NAMES = ["Directed by", "ANNA LINDQVIST", "", "Written by", "Marc Dubois and Jo Park", "",
         "Director of Photography", "Kenji Watanabe", "", "Music", "The Quiet Hours Ensemble", "",
         "CAST", "Elena ..... Maria Santos", "Tom ..... David Okafor", "The Driver ..... Lukas Brandt", "",
         "Produced by", "Northern Light Films", ""]
BLACK = f"color=black:s={WIDTH}x{HEIGHT}:r={RATE}"


def roll(text):
    """Names rising on black, 20 pixels a second, from below the picture."""
    return (f"lavfi:{BLACK},drawtext=fontfile={FONT}:textfile={text}:fontcolor=white:fontsize=11:line_spacing=4:"
            "x=(w-tw)/2:y=h-20*t")


def cards(texts, seconds):
    """Cards of names on black, each `seconds` long with half a second of black after it."""
    graph = f"lavfi:{BLACK}"
    for i, text in enumerate(texts):
        start = i * (seconds + 0.5)
        graph += (f",drawtext=fontfile={FONT}:textfile={text}:fontcolor=white:fontsize=13:line_spacing=6:"
                  f"x=(w-tw)/2:y=(h-th)/2:enable='between(t,{start},{start + seconds - 0.04})'")
    return graph


STARS = f"lavfi:{BLACK},format=gray,geq=lum='if(lt(random(1),0.004),235,16)'"
NIGHT = ("cityCC0.mpg", "curves=all='0/0 0.75/0 1/1'")


def films(text_folder):
    """Each film: its name, its shots ((join, source, first second, frames, extra filter)), where
    its credits are, as (index of the first shot of them, index of the first shot after, or None
    for the end), or None, and the indices of its shots of text on black that are not credits."""
    names = os.path.join(text_folder, "names.txt")
    card_files = [os.path.join(text_folder, f"card{i}.txt") for i in range(5)]
    shots = [("cut", "cockatoo.mp4", 0.5, 150, None), ("cut", "tree.avi", 2.0, 225, None),
             ("cut", "vtest.avi", 10.0, 275, None)]
    return {
        "roll": (shots + [("black", roll(names), 0, 550, None)], (3, None), []),
        "cards": (shots + [("cut", cards(card_files[:4], 4), 0, 450, None), ("cut", "cityCC0.mpg", 0, 100, None),
                           ("cut", cards(card_files[4:], 3), 0, 75, None)], (3, 4), [5]),
        "night": (shots + [("cut", NIGHT[0], 0, 190, NIGHT[1]), ("black", f"lavfi:{BLACK}", 0, 125, None)], None, []),
        "stars": (shots + [("cut", STARS, 0, 300, None)], None, []),
        "title": ([("cut", cards(card_files[:1], 8), 0, 200, None)] + shots, None, [0]),
    }


def write_texts(folder):
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "names.txt"), "w", encoding="utf-8") as f:
        f.write("\n".join(NAMES * 3))
    for i in range(5):
        with open(os.path.join(folder, f"card{i}.txt"), "w", encoding="utf-8") as f:
            f.write("\n".join(NAMES[i * 3:i * 3 + 2] or ["Thanks to"]))


def graph(shots, clips):
    """The ffmpeg inputs and filter graph joining `shots`, at WIDTH × HEIGHT, RATE fps."""
    inputs, parts = [], []
    for i, (join, source, start, count, extra) in enumerate(shots):
        if source.startswith("lavfi:"):
            inputs += ["-f", "lavfi", "-i", source[len("lavfi:"):]]
        else:
            inputs += ["-i", os.path.join(clips, source)]
        chain = (f"[{i}:v]setpts=PTS-STARTPTS,fps={RATE},trim=start_frame={int(start * RATE)}:end_frame="
                 f"{int(start * RATE) + count},setpts=PTS-STARTPTS,scale={WIDTH}:{HEIGHT}:force_original_aspect_ratio=increase,"
                 f"crop={WIDTH}:{HEIGHT},setsar=1,format=yuv420p")
        if extra:
            chain += "," + extra
        following = shots[i + 1][0] if i + 1 < len(shots) else None
        if join == "black" and i > 0:
            chain += f",fade=t=in:start_frame=0:nb_frames={FADE}"
        if following == "black":
            chain += f",fade=t=out:start_frame={count - FADE}:nb_frames={FADE}"
        parts.append(chain + f"[s{i}]")
    parts.append("".join(f"[s{i}]" for i in range(len(shots))) + f"concat=n={len(shots)}:v=1:a=0[out]")
    return inputs, ";".join(parts)


def make(out, cache=None):
    """Makes the films in OUT (the real clips fetched into CACHE/footage/, CACHE defaulting to
    OUT's parent); returns what credits.json holds."""
    os.makedirs(out, exist_ok=True)
    clips, missing = footage.fetch(cache or os.path.dirname(os.path.abspath(out)))
    if clips is None:
        result = {"missing": missing, "films": []}
    else:
        texts = os.path.join(out, "texts")
        write_texts(texts)
        with ThreadPoolExecutor(max_workers=min(4, os.cpu_count() or 1)) as pool:
            made = pool.map(lambda item: make_film(out, item[0], *item[1], clips), films(texts).items())
            result = {"films": list(made)}
    with open(os.path.join(out, "credits.json"), "w", encoding="utf-8") as f:
        json.dump(result, f, indent=1)
    return result


def make_film(out, name, shots, credits, text, clips):
    starts = [sum(shot[3] for shot in shots[:i]) for i in range(len(shots) + 1)]
    files = [f"{name}-{encoding}.mkv" for encoding in ENCODINGS]
    stamp = os.path.join(out, f"{name}.recipe")
    recipe = json.dumps([RECIPE, WIDTH, HEIGHT, shots])
    fresh = (os.path.exists(stamp) and open(stamp, encoding="utf-8").read() == recipe
             and all(os.path.exists(os.path.join(out, f)) for f in files))
    if not fresh:
        lossless = os.path.join(out, f"{name}-lossless.nut")
        inputs, filters = graph(shots, clips)
        run(["ffmpeg", "-nostdin", "-v", "error", "-y"] + inputs + ["-filter_complex", filters, "-map", "[out]",
             "-frames:v", str(starts[-1]), "-c:v", "ffv1", lossless])
        encode(lossless, out, name)
        with open(stamp, "w", encoding="utf-8") as f:
            f.write(recipe)
    found = None if credits is None else [starts[credits[0]], starts[credits[1]] if credits[1] is not None else starts[-1]]
    return {"name": name, "files": files, "frames": starts[-1], "credits": found,
            "other_text": [[starts[i], starts[i + 1]] for i in text]}


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    print(json.dumps(make(sys.argv[1])))
