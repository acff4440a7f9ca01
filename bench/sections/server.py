"""server: the server layout (`--layout server`): the first `ls -lR` after a remount of the
10,000-film library against the FUSE floor serving the same tree, and a film's Jellyfin trickplay
and BIF made cold against Jellyfin's keyframe-only command (and, for the BIF, that command
followed by writing the BIF)."""

import glob
import math
import os
import shutil
import struct

import floor
import media
from measure import BenchError, Peer
from sections import storyboards
from sections.library import FuseFloor

ID = "server"
LAYOUT = ["--layout", "server"]
FILM = storyboards.FILM
INTERVAL, WIDTH = storyboards.INTERVAL, storyboards.WIDTH
NOKEY = storyboards.NOKEY
FRAMES = f"fps=1/{INTERVAL},scale={WIDTH}:-2"
BIF_PEER = "ffmpeg -skip_frame nokey, one JPEG per frame, then the BIF written (what Emby's tools do)"
LISTING_GOAL = 1.3
COLD_GOAL = 0.7


def run(bench):
    src = os.path.join(bench.media, FILM)
    length = media.duration(src)
    tiles = math.ceil(length / INTERVAL)
    bench.section(ID, "Server layout: a library's listing, trickplay and BIF",
                  f"`mediafs mount --layout server`. First, `ls -lR` of {bench.library_size} media files (the library "
                  "section's hard links, in folders of 100) after a remount over the cache folder a first `ls -lR` filled "
                  "(its probes, and its sidecars' passes: `ls -l` stats every sidecar), against the mount's own tree "
                  "copied as empty folders and files and served from memory by the FUSE floor (bench/fuse-floor.c): "
                  "beside each film its poster where it has a cover, sidecars, fanart and thumb, a trickplay folder "
                  "and a BIF. The two alternate, five rounds; the mount's first run is the first listing after the "
                  f"remount. Then `{FILM}` ({media.video_description(src)}, {length:.0f} s): its whole Jellyfin trickplay "
                  f"(`{FILM[:-4]}.trickplay/320 - 10x10/*.jpg`, {tiles} tiles) and its BIF (`{FILM[:-4]}-320-10.bif`, "
                  "read whole with `cat`) read cold (a fresh daemon with an empty cache before every run, not timed), "
                  f"against Jellyfin's keyframe-only trickplay command (`ffmpeg -skip_frame nokey … -vf "
                  f"\"{storyboards.TILE}\" -c:v mjpeg -q:v 4`), and for the BIF against the same command writing one JPEG "
                  f"per frame (`-vf \"{FRAMES}\"`) followed by writing the BIF from them.")
    library(bench)
    trickplay_and_bif(bench, src, tiles)


def library(bench):
    size = bench.library_size
    lib = os.path.join(bench.work, "server-library")
    replica = os.path.join(bench.work, "server-replica")
    media.build_big_library(lib, bench.media, size)
    with bench.mount(lib, ID + "-library", args=LAYOUT) as m:
        bench.time(ID, "mount, first ls -lR (probing, passes, empty cache folder)", ["ls", "-lR", m.mount_point], 1,
                   drop=bench.can_drop)
        shutil.rmtree(replica, ignore_errors=True)
        entries = media.copy_tree_empty(m.mount_point, replica)
        stats = m.stats()
        made = {k: v for k, v in stats.items() if k.endswith("_made") and v}
        if any(k not in ("sidecar_sets_made", "tracks_made") for k in made):
            raise BenchError(f"ls -lR of the server layout made more than the sidecars' passes: {made}")
        bench.note(ID, f"the server layout shows {entries} entries for {size} media files; the first ls -lR made only "
                       f"the sidecars' passes ({made})")
    fuse_name = "the copy served from memory through FUSE (the FUSE floor, bench/fuse-floor.c)"
    try:
        served = FuseFloor(floor.compile_fuse_floor(bench.work), replica, os.path.join(bench.work, "mnt-server-floor"))
    except BenchError as error:
        bench.note(ID, f"no FUSE floor: {error}")
        served = None
    try:
        with bench.mount(lib, ID + "-library", keep=True, args=LAYOUT) as m:
            label = "remount, ls -lR"
            peers = [Peer("mount", ["ls", "-lR", m.mount_point])]
            if served:
                peers.append(Peer(fuse_name, ["ls", "-lR", served.mount_point]))
            t = bench.compare(ID, label, peers, min(bench.runs, 5), warmup=0)
            if served:
                bench.ratio(ID, label, ("mount", t["mount"]), (fuse_name, t[fuse_name]), goal_max=LISTING_GOAL)
            stats = m.stats()
            bench.note(ID, f"after the remount's listings: probes made / from the database: {stats.get('probes')} / "
                           f"{stats.get('probes_from_database')}; sidecar passes made / found in the cache folder: "
                           f"{stats.get('sidecar_sets_made')} / {stats.get('sidecar_sets_from_disk')}")
            bench.peak_rss(m, f"daemon after ls -lR of {size} media files in the server layout, remounted")
    finally:
        if served:
            served.close()
        shutil.rmtree(lib, ignore_errors=True)
        shutil.rmtree(replica, ignore_errors=True)


def trickplay_and_bif(bench, src, tiles):
    out = os.path.join(bench.work, "server-out")
    os.makedirs(out, exist_ok=True)
    base = FILM.rsplit(".", 1)[0]
    source = os.path.join(bench.work, "server-film")
    os.makedirs(source, exist_ok=True)
    film = os.path.join(source, FILM)
    if not os.path.exists(film):
        os.link(src, film)

    def nokey_sheets():
        folder = os.path.join(out, "nokey")
        shutil.rmtree(folder, ignore_errors=True)
        os.makedirs(folder)
        return ["ffmpeg", "-nostdin", "-v", "error", "-y", "-skip_frame", "nokey", "-i", src, "-an", "-sn", "-vf",
                storyboards.TILE, "-c:v", "mjpeg", "-q:v", "4", os.path.join(folder, "out%d.jpg")]

    def nokey_bif():
        folder = os.path.join(out, "frames")
        shutil.rmtree(folder, ignore_errors=True)
        os.makedirs(folder)
        ffmpeg = ["ffmpeg", "-nostdin", "-v", "error", "-y", "-skip_frame", "nokey", "-i", src, "-an", "-sn", "-vf",
                  FRAMES, "-c:v", "mjpeg", "-q:v", "4", os.path.join(folder, "%05d.jpg")]
        return ["sh", "-c", 'folder=$1 out=$2; shift 2; "$@" && python3 -c "$0" "$folder" "$out"', WRITE_BIF, folder,
                os.path.join(out, "out.bif")] + ffmpeg

    with bench.mount(source, ID + "-film", args=LAYOUT) as m:
        grid = m.path(f"{base}.trickplay", f"{WIDTH} - 10x10")
        bif = m.path(f"{base}-{WIDTH}-{INTERVAL}.bif")
        check(bench, grid, bif, tiles)
        fresh = lambda: m.remount(fresh=True)  # noqa: E731
        read_sheets = ["sh", "-c", 'cat "$0"/*.jpg > /dev/null', grid]
        trick = "mount: every sheet of the trickplay"
        t = bench.compare(ID, "whole trickplay, cold", [
            Peer(NOKEY, nokey_sheets),
            Peer(trick, read_sheets, prepare=fresh),
        ], bench.runs, warmup=0, drop=bench.can_drop)
        bench.ratio(ID, "whole trickplay, cold", ("mount", t[trick]), (NOKEY, t[NOKEY]), goal_max=COLD_GOAL)
        bif_mount = "mount: the BIF"
        t = bench.compare(ID, "BIF, cold", [
            Peer(BIF_PEER, nokey_bif),
            Peer(bif_mount, ["cat", bif], prepare=fresh),
        ], bench.runs, warmup=0, drop=bench.can_drop)
        bench.ratio(ID, "BIF, cold", ("mount", t[bif_mount]), (BIF_PEER, t[BIF_PEER]), goal_max=COLD_GOAL)
        frames = len(glob.glob(os.path.join(out, "frames", "*.jpg")))
        bench.note(ID, f"the keyframe-only command wrote {frames} frames for its BIF; the mount's BIF holds {tiles}")
        bench.peak_rss(m, "daemon after the server layout's trickplay and BIF")


def check(bench, grid, bif, tiles):
    """The trickplay lists its sheets, each read whole in the bytes stat gave; the BIF is as long as
    stat says and holds one frame per tile."""
    sheets = math.ceil(tiles / 100)
    names = sorted(os.listdir(grid), key=lambda n: int(n.split(".")[0]))
    if names != [f"{i}.jpg" for i in range(sheets)]:
        raise BenchError(f"{grid} lists {names}")
    for name in names + [bif]:
        path = os.path.join(grid, name)
        size = os.path.getsize(path)
        with open(path, "rb") as f:
            data = f.read()
        if len(data) != size:
            raise BenchError(f"{path}: stat gave {size} bytes, a read gave {len(data)}")
    if data[:8] != b"\x89BIF\r\n\x1a\n" or struct.unpack("<I", data[12:16])[0] != tiles:
        raise BenchError(f"{bif} is no BIF of {tiles} frames")
    bench.note(ID, f"checked: the trickplay lists {sheets} sheet(s) and the BIF {tiles} frames, each file read whole "
                   "in exactly the bytes stat gave")


# Writes a BIF (Roku's format: header, index, the JPEGs back to back) of the frames in argv[1],
# frame i at i x the interval, to argv[2]: what a BIF tool does after ffmpeg.
WRITE_BIF = f"""
import os, struct, sys
folder, out = sys.argv[1:3]
frames = [open(os.path.join(folder, n), "rb").read() for n in sorted(os.listdir(folder))]
offset = 64 + 8 * (len(frames) + 1)
index = b""
for i, frame in enumerate(frames):
    index += struct.pack("<II", i, offset)
    offset += len(frame)
index += struct.pack("<II", 0xFFFFFFFF, offset)
header = b"\\x89BIF\\r\\n\\x1a\\n" + struct.pack("<III", 0, len(frames), {INTERVAL * 1000}) + bytes(44)
with open(out, "wb") as f:
    f.write(header + index + b"".join(frames))
"""
