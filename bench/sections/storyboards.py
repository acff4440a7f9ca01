"""storyboards: a film's whole storyboard and its contact sheet, made cold through the mount,
against Jellyfin's trickplay commands and vcsi."""

import glob
import math
import os
import shutil
import subprocess

import media
from measure import BenchError, Peer

ID = "storyboards"
FILM = "feature-1080p.mp4"
INTERVAL, COLUMNS, ROWS, WIDTH = 10, 10, 10, 320
TILE = f"fps=1/{INTERVAL},scale={WIDTH}:-2,tile={COLUMNS}x{ROWS}"
NOKEY = "ffmpeg -skip_frame nokey (Jellyfin's keyframe-only trickplay)"
FULL = "ffmpeg (Jellyfin's default trickplay, every frame decoded)"
VCSI = "vcsi -g 4x4"
MOUNT_BOARD = "mount: every sheet of storyboard/"
MOUNT_SHEET = "mount: contact-sheet.jpg"
MOUNT_SHEET_AFTER = "mount: contact-sheet.jpg after storyboard/ was read"
MOUNT_FIRST = "mount: storyboard/0001.jpg alone"


def run(bench):
    src = os.path.join(bench.media, FILM)
    length = media.duration(src)
    tiles = math.ceil(length / INTERVAL)
    sheets = math.ceil(tiles / (COLUMNS * ROWS))
    out = os.path.join(bench.work, "storyboard-out")
    dropped = "; page cache emptied before every run of every side" if bench.can_drop else ""
    bench.section(ID, "Storyboards and contact sheets",
                  f"`{FILM}` ({media.video_description(src)}, {length:.0f} s, a keyframe every 10 s): its whole "
                  f"storyboard ({tiles} frames, one every {INTERVAL} s, {COLUMNS}x{ROWS} tiles {WIDTH} wide: {sheets} "
                  "sheet(s)) read cold through the mount (`cat` of every `storyboard/*.jpg`: a fresh daemon with an empty "
                  "cache before every run, not timed, so the run probes the film, finds its keyframes and makes every "
                  "sheet), against the commands Jellyfin runs for the same sprite sheets: "
                  f"`ffmpeg -skip_frame nokey -i F -an -sn -vf \"{TILE}\" -c:v mjpeg -q:v 4 out%d.jpg` (its "
                  "keyframe-only mode) and the same without `-skip_frame nokey` (its default, which decodes every "
                  "frame). Then `contact-sheet.jpg` read cold (4x4 frames, 1500 wide) against vcsi making the same grid "
                  f"(`vcsi F -g 4x4 -w 1500 -o out.jpg`){dropped}. Runs alternate between the sides.")
    os.makedirs(out, exist_ok=True)

    def jellyfin(keyframes_only):
        def argv():
            folder = os.path.join(out, "nokey" if keyframes_only else "full")
            shutil.rmtree(folder, ignore_errors=True)
            os.makedirs(folder)
            skip = ["-skip_frame", "nokey"] if keyframes_only else []
            return ["ffmpeg", "-nostdin", "-v", "error", "-y"] + skip + ["-i", src, "-an", "-sn", "-vf", TILE,
                                                                         "-c:v", "mjpeg", "-q:v", "4",
                                                                         os.path.join(folder, "out%d.jpg")]
        return argv

    has_vcsi = shutil.which("vcsi") is not None
    if not has_vcsi:
        bench.note(ID, "vcsi is not installed (pip install vcsi): the contact sheet comparison is skipped")
    vcsi = ["vcsi", src, "-g", "4x4", "-w", "1500", "-o", os.path.join(out, "vcsi.jpg")]

    with bench.mount(bench.media, ID) as m:
        board = m.path(FILM, "storyboard")
        sheet = m.path(FILM, "contact-sheet.jpg")
        if not os.path.isdir(board):
            bench.note(ID, f"{FILM}/storyboard/ is not in the mount (the tree side of storyboards is not built): only "
                           "the other sides are timed")
            bench.compare(ID, "whole storyboard", [Peer(NOKEY, jellyfin(True)), Peer(FULL, jellyfin(False))],
                          bench.runs, warmup=1, drop=bench.can_drop)
            if has_vcsi:
                bench.compare(ID, "contact sheet", [Peer(VCSI, vcsi)], bench.runs, warmup=1, drop=bench.can_drop)
            return

        check_storyboard(bench, board, sheets, tiles)
        read_board = ["sh", "-c", 'cat "$0"/*.jpg > /dev/null', board]
        fresh = lambda: m.remount(fresh=True)  # noqa: E731
        t = bench.compare(ID, "whole storyboard, cold", [
            Peer(NOKEY, jellyfin(True)),
            Peer(FULL, jellyfin(False)),
            Peer(MOUNT_BOARD, read_board, prepare=fresh),
        ], bench.runs, warmup=0, drop=bench.can_drop)
        bench.ratio(ID, "whole storyboard, cold", ("mount", t[MOUNT_BOARD]), (NOKEY, t[NOKEY]), goal_max=0.7)
        bench.ratio(ID, "whole storyboard, cold", ("mount", t[MOUNT_BOARD]), (FULL, t[FULL]), goal_max=0.1)
        # Where the time of a cold storyboard goes (what Tests' StoryboardMeasurement printed): the
        # first sheet alone (the probe, the keyframe scan and one sheet), and the contact sheet once
        # the storyboard has been read (the keyframes known) against made alone, cold.
        first = os.path.join(board, "0001.jpg")
        bench.compare(ID, "first sheet, cold", [Peer(MOUNT_FIRST, ["cat", first], prepare=fresh)],
                      bench.runs, warmup=0, drop=bench.can_drop)

        made = sorted(glob.glob(os.path.join(out, "nokey", "out*.jpg")))
        bench.note(ID, f"the keyframe-only command wrote {len(made)} sheet(s) of {picture_size(made[0]) if made else '?'} "
                       "pixels (ffmpeg's tile filter pads a last sheet to the full grid); the mount's last sheet is "
                       f"{picture_size(os.path.join(board, f'{sheets:04d}.jpg'))}, as high as the rows it holds")

        if os.path.exists(sheet):
            size = os.path.getsize(sheet)
            with open(sheet, "rb") as f:
                if len(f.read()) != size:
                    raise BenchError(f"{sheet}: stat says {size} bytes, a read gives another count")
            bench.note(ID, f"checked: contact-sheet.jpg reads exactly the {size} bytes stat gives "
                           f"({picture_size(sheet)} pixels)")
            def after_the_board():
                fresh()
                subprocess.run(read_board, check=True, timeout=bench.timeout)
            peers = [Peer(MOUNT_SHEET, ["cat", sheet], prepare=fresh),
                     Peer(MOUNT_SHEET_AFTER, ["cat", sheet], prepare=after_the_board)]
            if has_vcsi:
                peers.insert(0, Peer(VCSI, vcsi))
            t = bench.compare(ID, "contact sheet, cold", peers, bench.runs, warmup=0, drop=bench.can_drop)
            if has_vcsi:
                bench.ratio(ID, "contact sheet, cold", ("mount", t[MOUNT_SHEET]), (VCSI, t[VCSI]), goal_max=0.3)
        else:
            bench.note(ID, f"{FILM}/contact-sheet.jpg is not in the mount: the contact sheet comparison is skipped")
        bench.peak_rss(m, "daemon after the storyboards section")


def picture_size(path):
    """WIDTHxHEIGHT of a picture, as ffprobe reads it."""
    return media.ffprobe(path, "-show_entries", "stream=width,height", "-of", "csv=p=0:s=x")


def check_storyboard(bench, board, sheets, tiles):
    """The listing names the sheets and the text files; every file reads as many bytes as stat gave."""
    names = sorted(os.listdir(board))
    jpgs = [n for n in names if n.endswith(".jpg")]
    want = [f"{i:04d}.jpg" for i in range(1, sheets + 1)]
    if jpgs != want:
        raise BenchError(f"{board} lists {jpgs}, not {want}")
    for name in names:
        path = os.path.join(board, name)
        size = os.path.getsize(path)
        with open(path, "rb") as f:
            got = len(f.read())
        if got != size:
            raise BenchError(f"{path}: stat gave {size} bytes, a read gave {got}")
    for text in ("storyboard.vtt", "storyboard.m3u8"):
        if text not in names:
            raise BenchError(f"{board} has no {text}")
    with open(os.path.join(board, "storyboard.vtt"), encoding="utf-8") as f:
        cues = sum(1 for line in f if " --> " in line)
    if cues != tiles:
        raise BenchError(f"storyboard.vtt has {cues} cues, not {tiles}")
    bench.note(ID, f"checked: storyboard/ lists {sheets} sheet(s), storyboard.vtt and storyboard.m3u8, each read "
                   f"whole in exactly the bytes stat gave; the VTT has one cue per frame ({tiles})")
