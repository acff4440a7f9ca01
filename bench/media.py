"""media.py: the media the bench measures, and the libraries it builds from it.

The test media is made once by scripts/make-media.sh (full or --small) and kept between runs;
the libraries are hard links to it, made in the run's work folder (beside the media, on the same
file system) and removed with it; the library of distinct films (`distinct_films`) is made once
beside the media and kept between runs too, a smaller one as hard links to a larger."""

import concurrent.futures
import os
import shutil
import subprocess

from measure import BenchError, output

# The distinct files the libraries link to, in turn.
LIBRARY_MEDIA = ["feature-1080p.mp4", "movie-1080p.mkv", "clips/clip-vp9.webm", "clips/clip-hevc10.mkv",
                 "clips/uhd-4k.mp4", "clips/Holiday Café 2021.mp4", "clips/portrait-rotated.mp4",
                 "clips/anamorphic-pal.mpg", "audio/audiobook.m4a"]
LIBRARY_PLAIN = ["notes.txt", "poster.jpg"]


def make(root, cache, mode):
    """Makes (or finds complete) the media set of `mode` in CACHE/MODE; returns that folder."""
    media = os.path.join(cache, mode)
    os.makedirs(cache, exist_ok=True)
    log_path = os.path.join(cache, f"make-media-{mode}.log")
    argv = ["bash", os.path.join(root, "scripts", "make-media.sh")] + (["--small"] if mode == "small" else []) + [media]
    with open(log_path, "wb") as log:
        rc = subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=log, stderr=log, check=False).returncode
    if rc != 0:
        with open(log_path, encoding="utf-8", errors="replace") as f:
            tail = "".join(f.readlines()[-20:])
        raise BenchError(f"scripts/make-media.sh failed (log: {log_path})\n{tail}")
    return media



# The 4K PQ HEVC clip of the pictures section: made with the ffmpeg command at bench time, once,
# and kept beside the media set (CACHE/MODE-hdr/, not in the media folder the other sections mount),
# the way scripts/make-media.sh keeps its files: written under a temporary name and renamed when
# complete; a stamp holding the command makes it again when the command changes.
HDR_PQ_4K = "hdr-pq-4k.mkv"
HDR_PQ_4K_GOP = 2.0  # seconds between keyframes (50 frames at 25 fps)


def hdr_pq_4k_command(seconds, out):
    """testsrc2 at 3840x2160, its BT.709 values taken to PQ and BT.2020 with SDR white at 1000 nits
    (zscale), as 10-bit HEVC (libx265) tagged as HDR10 in the bitstream and the container."""
    source = (f"testsrc2=s=3840x2160:r=25:d={seconds},format=yuv420p,"
              "zscale=tin=bt709:min=bt709:pin=bt709:rin=tv:t=smpte2084:m=bt2020nc:p=bt2020:r=tv:npl=1000,"
              "format=yuv420p10le")
    return ["ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i", source,
            "-c:v", "libx265", "-preset", "ultrafast", "-crf", "22", "-g", str(int(HDR_PQ_4K_GOP * 25)),
            "-x265-params", "hdr-opt=1:repeat-headers=1:colorprim=bt2020:transfer=smpte2084:colormatrix=bt2020nc:"
                            "range=limited:log-level=error",
            "-color_primaries", "bt2020", "-color_trc", "smpte2084", "-colorspace", "bt2020nc", "-color_range", "tv",
            out]


def make_hdr_pq_4k(cache, mode):
    """Makes (or finds) CACHE/MODE-hdr/hdr-pq-4k.mkv: 20 s (4 s with the small media); returns its path."""
    folder = os.path.join(cache, f"{mode}-hdr")
    dest = os.path.join(folder, HDR_PQ_4K)
    partial = os.path.join(folder, ".partial-" + HDR_PQ_4K)
    stamp_path = os.path.join(folder, ".stamp")
    argv = hdr_pq_4k_command(4 if mode == "small" else 20, partial)
    stamp = " ".join(argv)
    try:
        with open(stamp_path, encoding="utf-8") as f:
            if f.read() == stamp and os.path.exists(dest):
                return dest
    except OSError:
        pass
    os.makedirs(folder, exist_ok=True)
    for stale in (dest, partial, stamp_path):
        if os.path.exists(stale):
            os.remove(stale)
    print(f"making {dest} (4K PQ HEVC, libx265; minutes on a loaded machine) ...", flush=True)
    output(argv, timeout=7200)
    os.rename(partial, dest)
    with open(stamp_path, "w", encoding="utf-8") as f:
        f.write(stamp)
    return dest


# The 4K 10-bit AV1 clip of the pictures section, made and kept as the PQ clip is (CACHE/MODE-av1/).
AV1_4K = "av1-4k.mkv"
AV1_4K_GOP = 1.0  # seconds between keyframes (25 frames at 25 fps)


def av1_4k_command(seconds, out):
    """testsrc2 at 3840x2160, 10-bit, as AV1 (SVT-AV1, its fastest preset; random access, so that
    frames are reordered and many are not references, as in real AV1 releases) in Matroska."""
    return ["ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i",
            f"testsrc2=s=3840x2160:r=25:d={seconds},format=yuv420p10le",
            "-c:v", "libsvtav1", "-preset", "12", "-crf", "35", "-g", str(int(AV1_4K_GOP * 25)),
            "-svtav1-params", f"keyint={int(AV1_4K_GOP * 25)}", out]


def make_av1_4k(cache, mode):
    """Makes (or finds) CACHE/MODE-av1/av1-4k.mkv: 8 s (3 s with the small media); returns its path."""
    return make_kept(os.path.join(cache, f"{mode}-av1"), AV1_4K,
                     lambda partial: av1_4k_command(3 if mode == "small" else 8, partial))


def make_kept(folder, name, command):
    """Makes FOLDER/NAME with the argv `command(partial path)` gives, unless it is there from the same
    command (a stamp beside it holds the command): written under a temporary name, renamed when
    complete. Returns its path."""
    dest = os.path.join(folder, name)
    partial = os.path.join(folder, ".partial-" + name)
    stamp_path = os.path.join(folder, f".stamp-{name}")
    argv = command(partial)
    stamp = " ".join(argv)
    try:
        with open(stamp_path, encoding="utf-8") as f:
            if f.read() == stamp and os.path.exists(dest):
                return dest
    except OSError:
        pass
    os.makedirs(folder, exist_ok=True)
    for stale in (dest, partial, stamp_path):
        if os.path.exists(stale):
            os.remove(stale)
    print(f"making {dest} (minutes on a loaded machine) ...", flush=True)
    output(argv, timeout=7200)
    os.rename(partial, dest)
    with open(stamp_path, "w", encoding="utf-8") as f:
        f.write(stamp)
    return dest


# ---------------------------------------------------------------------------------------------
# What ffprobe says

def ffprobe(path, *args):
    return output(["ffprobe", "-v", "error", *args, path], timeout=60).strip()


def duration(path):
    return float(ffprobe(path, "-show_entries", "format=duration", "-of", "csv=p=0"))


def stream_count(path, kind):
    """Streams of a kind: "v", "a" or "s"."""
    return len(ffprobe(path, "-select_streams", kind, "-show_entries", "stream=index", "-of", "csv=p=0").split())


def video_description(path):
    """codec x width x height of the first video stream, e.g. h264x1920x1080."""
    return ffprobe(path, "-select_streams", "v:0", "-show_entries", "stream=width,height,codec_name",
                   "-of", "csv=p=0:s=x")


def chapter_count(path):
    return len([line for line in ffprobe(path, "-show_chapters", "-of", "csv=p=0").splitlines() if line])


# ---------------------------------------------------------------------------------------------
# Times to ask for

def gop_times(first, count, length):
    """`count` times from `first`, spread over a film of `length` seconds; with `first` and the
    step off the 10 s keyframe grid, most fall inside a GOP (decoding from the keyframe before
    them, the usual case)."""
    step = (length - 20) / count
    return [f"{first + i * step:.1f}" for i in range(count)]


def keyframe_times(count, length):
    """`count` times on the 10 s keyframe grid, spread over the film in a scrambled order."""
    slots = int(length / 10 - 1)
    return [str((i * 37 % slots + 1) * 10) for i in range(1, count + 1)]


# ---------------------------------------------------------------------------------------------
# Libraries of hard links

def build_listing_library(lib, media):
    """1,000 media entries (hard links to the test media, cycling through LIBRARY_MEDIA) in
    4 x 5 nested folders of 50 each, plus 5 plain files per folder."""
    n = 0
    for shelf in ("Films", "Series", "Documentaries", "Home"):
        for year in range(2019, 2024):
            folder = os.path.join(lib, shelf, str(year))
            os.makedirs(folder)
            for _ in range(50):
                src = LIBRARY_MEDIA[n % len(LIBRARY_MEDIA)]
                os.link(os.path.join(media, src), os.path.join(folder, f"{n:04d} {os.path.basename(src)}"))
                n += 1
            for i in range(5):
                src = LIBRARY_PLAIN[i % len(LIBRARY_PLAIN)]
                os.link(os.path.join(media, src), os.path.join(folder, f"extra-{i} {os.path.basename(src)}"))


def build_big_library(lib, media, size):
    """`size` media files (hard links, cycling through LIBRARY_MEDIA) in folders of 100."""
    for i in range(size):
        folder = os.path.join(lib, f"shelf-{i // 100}")
        if i % 100 == 0:
            os.makedirs(folder)
        src = LIBRARY_MEDIA[i % len(LIBRARY_MEDIA)]
        os.link(os.path.join(media, src), os.path.join(folder, f"{i:05d} {os.path.basename(src)}"))


# ---------------------------------------------------------------------------------------------
# A library of distinct films

# What each film is remuxed from: a film of the media set and the seconds kept from its start
# (short, so that ten thousand films fit beside the media and are written in minutes: probing
# reads a file's header and its first seconds, whatever its length). Film N is seed
# N mod len(FILM_SEEDS), copied with `ffmpeg -c copy -metadata title=…`: every film is a file of its
# own with bytes of its own, to be probed (hard links would be one file probed once).
FILM_SEEDS = [("feature-1080p.mp4", 8), ("movie-1080p.mkv", 8), ("clips/clip-vp9.webm", 8),
              ("clips/clip-hevc10.mkv", 8), ("clips/Holiday Café 2021.mp4", 8), ("clips/portrait-rotated.mp4", 8),
              ("clips/anamorphic-pal.mpg", 8), ("clips/hdr-pq.mkv", 8)]
FILMS_PER_SHELF = 100
FILMS_PER_PROCESS = 50  # outputs of one ffmpeg process (the seed is read once for all of them)
FILMS_RECIPE = 1        # bumped when the films are made differently: the library is made anew


def film_name(i, seed):
    """The path of film `i` (made from the seed `seed`) in the library: shelf-S/NNNNN Film NNNNN.ext."""
    extension = os.path.splitext(seed)[1]
    return os.path.join(f"shelf-{i // FILMS_PER_SHELF:02d}", f"{i:05d} Film {i:05d}{extension}")


def _remux_command(seed_path, outputs):
    argv = ["ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error", "-y", "-i", seed_path]
    for title, path in outputs:
        # The MP4 muxer writes the chapters as a text track of its own: the seed's is not copied.
        argv += ["-map", "0", "-map", "-0:d", "-c", "copy", "-metadata", f"title={title}"]
        if path.endswith(".mp4"):
            argv += ["-movflags", "+faststart"]
        argv.append(path)
    return argv


def distinct_films(cache, media, mode, count, largest=0):
    """Makes (or finds complete) CACHE/MODE-films/COUNT/: `count` distinct films in folders of
    FILMS_PER_SHELF, remuxed from the seeds in turn, each with a title of its own. Returns
    (that folder, [relative paths of the films]). Where another section wants a larger library
    (`largest`), or one was made before, that one is made (or kept) and this one holds hard links
    to its first `count` films (the same shelves, no second copy of the bytes). Kept between runs;
    made anew when the recipe changes."""
    top = os.path.join(cache, f"{mode}-films")
    # A larger library made before serves as well (no films made again for a smaller run).
    largest = max([count, largest] + _complete_libraries(top))
    whole, names = _films_library(media, top, largest)
    if count == largest:
        return whole, names
    folder = os.path.join(top, str(count))
    stamp = f"links to {largest} v{FILMS_RECIPE} {count} {FILM_SEEDS!r}"
    names = names[:count]
    if _stamped(folder, stamp):
        return folder, names
    shutil.rmtree(folder, ignore_errors=True)
    for name in names:
        os.makedirs(os.path.join(folder, os.path.dirname(name)), exist_ok=True)
        os.link(os.path.join(whole, name), os.path.join(folder, name))
    with open(os.path.join(folder, ".stamp"), "w", encoding="utf-8") as f:
        f.write(stamp)
    return folder, names


def _library_stamp(count):
    return f"films v{FILMS_RECIPE} {count} {FILM_SEEDS!r}"


def _stamped(folder, stamp):
    """Whether `folder` was made whole as `stamp` says (its .stamp, written last, holds it)."""
    try:
        with open(os.path.join(folder, ".stamp"), encoding="utf-8") as f:
            return f.read() == stamp
    except OSError:
        return False


def _complete_libraries(top):
    """The counts of the libraries under `top` made whole by this recipe."""
    entries = os.listdir(top) if os.path.isdir(top) else []
    return [int(e) for e in entries if e.isdigit() and _stamped(os.path.join(top, e), _library_stamp(int(e)))]


def _films_library(media, top, count):
    """Makes (or finds complete) TOP/COUNT/, the films of `distinct_films`. Each batch is written
    under temporary names and renamed when its ffmpeg process succeeded, so an interrupted run
    leaves no half-written film."""
    folder = os.path.join(top, str(count))
    stamp_path = os.path.join(folder, ".stamp")
    stamp = _library_stamp(count)
    names = [film_name(i, FILM_SEEDS[i % len(FILM_SEEDS)][0]) for i in range(count)]
    if _stamped(folder, stamp):
        return folder, names
    # One library at a time is kept (with its views): another count or recipe replaces it.
    shutil.rmtree(top, ignore_errors=True)
    seeds_folder = os.path.join(top, "seeds")
    os.makedirs(seeds_folder)
    for shelf in {os.path.dirname(n) for n in names}:
        os.makedirs(os.path.join(folder, shelf))
    print(f"making {count} distinct films in {folder} (once; kept for later runs) ...", flush=True)

    seeds = []
    for n, (source, seconds) in enumerate(FILM_SEEDS):
        seed = os.path.join(seeds_folder, f"seed-{n}{os.path.splitext(source)[1]}")
        output(["ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error", "-y", "-t", str(seconds),
                "-i", os.path.join(media, source), "-map", "0", "-map", "-0:d", "-c", "copy", seed], timeout=600)
        seeds.append(seed)

    batches = []
    for n, seed in enumerate(seeds):
        mine = [i for i in range(n, count, len(seeds))]
        for start in range(0, len(mine), FILMS_PER_PROCESS):
            batch = [(f"Film {i:05d}", names[i]) for i in mine[start:start + FILMS_PER_PROCESS]]
            batches.append((seed, batch))

    def make_batch(work):
        seed, batch = work
        partial = [(title, os.path.join(folder, os.path.dirname(name), ".partial-" + os.path.basename(name)))
                   for title, name in batch]
        output(_remux_command(seed, partial), timeout=1800)
        for (_, temporary), (_, name) in zip(partial, batch):
            os.rename(temporary, os.path.join(folder, name))

    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, min(4, os.cpu_count() or 1))) as pool:
        list(pool.map(make_batch, batches))
    shutil.rmtree(seeds_folder, ignore_errors=True)
    with open(stamp_path, "w", encoding="utf-8") as f:
        f.write(stamp)
    return folder, names


def count_entries(top):
    """Entries under `top` (folders and files, not `top`), as `find TOP -mindepth 1 | wc -l`."""
    n = 0
    for _, dirs, files in os.walk(top):
        n += len(dirs) + len(files)
    return n


def copy_tree_empty(source, target):
    """Copies the tree under `source` (a mount) to `target` as empty folders and files: what
    `ls -lR` of that many entries costs without FUSE. Returns the number of entries."""
    n = 0
    os.makedirs(target, exist_ok=True)
    for folder, dirs, files in os.walk(os.fsencode(source)):
        there = os.path.join(os.fsencode(target), os.path.relpath(folder, os.fsencode(source)))
        for d in dirs:
            os.mkdir(os.path.join(there, d))
        for name in files:
            open(os.path.join(there, name), "wb").close()
        n += len(dirs) + len(files)
    return n


def filesystem_type(path):
    """The file system type of `path` as df names it (ext4), for labels."""
    return output(["df", "--output=fstype", path], timeout=30).split()[-1]
