"""footage: the JPEGs mediafs makes of real footage (clips from Debian packages, fetched at bench
time by bench/footage.py, and the bench film): per clip, the libjpeg quality the exact-size
budget reached for the listed thumbnails, the chapter images, the storyboard sheets and the
contact sheet, their bytes against PNG, the padding, and the bytes libjpeg itself needs for the
thumbnails at qualities 80 and 90 (what the budget's constants come from)."""

import os
import shutil
import statistics
import subprocess

import footage
import media
from measure import BenchError
from sections.pictures import estimate_quality, parse_jpeg, psnr, read_exact

ID = "footage"
FILM = "feature-1080p.mp4"
WORST_GOAL, MEDIAN_GOAL, SIZE_GOAL = 80, 90, 4.0
KINDS = ["thumbnails", "chapter images", "storyboard sheets", "contact sheet"]


def run(bench):
    bench.section(ID, "Real footage: JPEG quality and bytes",
                  "Clips from Debian packages that ship sample videos, fetched at bench time with `apt-get download` "
                  "into `.bench-media/footage/` (never committed), and the bench film. Each is mounted as it is, and "
                  "a copy remuxed into Matroska with 3 chapters (streams copied) gives its chapter images. Read "
                  "through the mount: every listed thumbnail (`thumbs/`, 320 wide) and chapter image as `.jpg` and "
                  "as `.png`, every storyboard sheet (`storyboard/*.jpg`, 10 s a tile), `contact-sheet.jpg` and "
                  "`.png`; each file read whole in exactly the bytes `stat` gave. Quality is libjpeg's, estimated "
                  "from the luminance quantization table (as in the pictures section); padding is the payload of "
                  "the COM segments; PSNR is of a thumbnail's JPEG against its PNG (ffmpeg). *Needs* is what "
                  "`cjpeg -sample 1x1 -optimize` (libjpeg-turbo, the encoder mediafs links) writes for the "
                  "thumbnails' PNGs at a quality: the bytes a budget must hold to reach it. Bits per pixel: the "
                  "video's bit rate over width × height × frame rate, what the budget follows.")
    folder, reason = footage.fetch(os.path.dirname(bench.media))
    if folder is None:
        bench.note(ID, f"skipped: the clips could not be fetched: {reason}")
        return
    source = os.path.join(bench.work, "footage-src")
    os.makedirs(os.path.join(source, "chapters"), exist_ok=True)
    clips = [(name, what) for name, _, _, what in footage.CLIPS] + [(FILM, "the bench film: testsrc2, burnt-in text (H.264)")]
    for name, _ in clips:
        original = os.path.join(bench.media if name == FILM else folder, name)
        os.link(original, os.path.join(source, name))
    no_chapters = [name for name, _ in clips if name != FILM
                   and not footage.with_chapters(os.path.join(folder, name), os.path.join(folder, name + ".mkv"))]
    for name, _ in clips:
        if name != FILM and name not in no_chapters:
            os.link(os.path.join(folder, name + ".mkv"), os.path.join(source, "chapters", name + ".mkv"))
    versions = footage.package_versions()
    bench.note(ID, "the clips: " + "; ".join(f"`{name}` ({pkg} {versions.get(pkg, '?')}: {what})"
                                             for name, pkg, _, what in footage.CLIPS)
               + (f"; no chapter copy of {', '.join(no_chapters)} (Matroska refused the stream)" if no_chapters else ""))
    cjpeg = shutil.which("cjpeg")
    if cjpeg is None:
        bench.note(ID, "cjpeg is missing (Debian libjpeg-turbo-progs): the Needs columns are left out")

    found = {}
    with bench.mount(source, ID) as m:
        for name, what in clips:
            film = m.path(name)
            chapters = film if name == FILM else m.path("chapters", name + ".mkv")
            found[name] = measure(film, chapters, cjpeg)
        bench.peak_rss(m, "daemon after the real footage section")
    record(bench, clips, source, found, cjpeg)


def measure(film, chapter_film, cjpeg):
    """{kind: [image, ...]} of one clip; each image a dict of its JPEG's quality, bytes, padding,
    its PNG twin's bytes (None where there is none), and for thumbnails the PSNR and needs."""
    kinds = {kind: [] for kind in KINDS}
    thumbs = os.path.join(film, "thumbs")
    for name in sorted(n for n in os.listdir(thumbs) if n.endswith(".png")):
        image = pair(os.path.join(thumbs, name[:-4]))
        image["psnr"] = psnr(os.path.join(thumbs, name[:-4] + ".jpg"), os.path.join(thumbs, name))
        if cjpeg:
            image["needs"] = {q: needs(cjpeg, os.path.join(thumbs, name), q) for q in (80, 90)}
        kinds["thumbnails"].append(image)
    listed = os.path.join(chapter_film, "chapters")
    if os.path.isdir(listed):
        kinds["chapter images"] = [pair(os.path.join(listed, n[:-4])) for n in sorted(os.listdir(listed))
                                   if n[:1].isdigit() and n.endswith(".png")]
    board = os.path.join(film, "storyboard")
    kinds["storyboard sheets"] = [jpeg(os.path.join(board, n)) for n in sorted(os.listdir(board)) if n.endswith(".jpg")]
    kinds["contact sheet"] = [pair(os.path.join(film, "contact-sheet"))]
    return kinds


def pair(stem):
    image = jpeg(stem + ".jpg")
    image["png"] = len(read_exact(stem + ".png"))
    return image


def jpeg(path):
    data = read_exact(path)
    info = parse_jpeg(data, path)
    if 0 not in info["tables"]:
        raise BenchError(f"{path} has no quantization table 0")
    return {"quality": estimate_quality(info["tables"][0])[0], "bytes": len(data), "padding": info["comment_bytes"],
            "png": None}


def needs(cjpeg, png, quality):
    """Bytes of `png` as libjpeg-turbo writes it at `quality`, 4:4:4, optimized Huffman tables."""
    ppm = subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-i", png, "-f", "image2pipe", "-vcodec", "ppm", "-"],
                         stdin=subprocess.DEVNULL, capture_output=True, check=True).stdout
    out = subprocess.run([cjpeg, "-quality", str(quality), "-sample", "1x1", "-optimize"], input=ppm,
                         capture_output=True, check=True).stdout
    return len(out)


def qualities(images):
    q = [i["quality"] for i in images]
    return (statistics.median(q), min(q)) if q else None


def record(bench, clips, source, found, cjpeg):
    rows, bytes_rows = [], []
    worst, lowest_median, lowest_ratio, padding, total = 101, 101, None, 0, 0
    for name, _ in clips:
        kinds = found[name]
        bpp = footage.bits_per_pixel(os.path.join(source, name))
        cells = [f"`{name}`", media.video_description(os.path.join(source, name)).strip("x").replace("x", " ", 1),
                 "?" if bpp is None else f"{bpp:.3f}"]
        for kind in KINDS:
            q = qualities(kinds[kind])
            cells.append("—" if q is None else (f"{q[0]:g}, {q[1]}" if len(kinds[kind]) > 1 else f"{q[1]}"))
            if q is not None:
                worst, lowest_median = min(worst, q[1]), min(lowest_median, q[0])
        thumbs = kinds["thumbnails"]
        ratio = sum(i["png"] for i in thumbs) / sum(i["bytes"] for i in thumbs)
        lowest_ratio = ratio if lowest_ratio is None else min(lowest_ratio, ratio)
        every = [i for kind in KINDS for i in kinds[kind]]
        clip_padding, clip_total = sum(i["padding"] for i in every), sum(i["bytes"] for i in every)
        padding, total = padding + clip_padding, total + clip_total
        psnrs = [i["psnr"] for i in thumbs]
        cells += [f"{ratio:.1f}x", f"{100 * clip_padding / clip_total:.1f}%",
                  f"{statistics.median(psnrs):.1f}, {min(psnrs):.1f}"]
        rows.append(cells)
        sizes = [f"`{name}`", f"{len(thumbs)} × {thumbs[0]['bytes']:,}"]
        if cjpeg:
            sizes += [f"{statistics.median(i['needs'][q] for i in thumbs):,.0f}, {max(i['needs'][q] for i in thumbs):,}"
                      for q in (80, 90)]
        for kind in KINDS[1:]:
            images = kinds[kind]
            jpg = sum(i["bytes"] for i in images)
            png = sum(i["png"] for i in images) if images and all(i["png"] for i in images) else None
            sizes.append("—" if not images else f"{jpg:,}" + (f" ({png / jpg:.1f}x)" if png else ""))
        bytes_rows.append(sizes)
    bench.table(ID, "Quality per clip (median, worst; one figure where there is one image), thumbnails' PNG/JPEG "
                    "bytes, the share of all its JPEG bytes that is padding, and the thumbnails' PSNR (median, worst, dB):",
                ["Clip", "Video", "Bits per pixel", *[k.capitalize() for k in KINDS], "Thumbnails PNG/JPEG", "Padding",
                 "Thumbnails PSNR"], rows)
    bench.table(ID, "Bytes per clip: each thumbnail's exact size, what libjpeg needs for them (median, most), and the "
                    "JPEG bytes of the other images in total (PNG/JPEG where a PNG name resolves):",
                ["Clip", "Thumbnails"] + (["Needs at quality 80", "Needs at quality 90"] if cjpeg else [])
                + ["Chapter images", "Storyboard sheets", "Contact sheet"], bytes_rows)
    bench.value(ID, "worst libjpeg quality, every image of every clip", worst, "",
                goal=f">= {WORST_GOAL}", met=worst >= WORST_GOAL)
    bench.value(ID, "lowest median libjpeg quality of a clip's kind of image", lowest_median, "",
                goal=f">= {MEDIAN_GOAL}", met=lowest_median >= MEDIAN_GOAL)
    bench.value(ID, "listed thumbnails, PNG bytes / JPEG bytes, lowest of the clips", round(lowest_ratio, 2), "x",
                goal=f">= {SIZE_GOAL:g}x", met=lowest_ratio >= SIZE_GOAL)
    bench.value(ID, "padding (COM payload), share of all the JPEG bytes", round(100 * padding / total, 1), "%")
