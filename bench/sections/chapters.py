"""chapters: `ls -l chapters/` of the film against `ffprobe -show_chapters`."""

import os

import media
from measure import BenchError, Peer

ID = "chapters"
FILM = "feature-1080p.mp4"
FFPROBE = "ffprobe -show_chapters"
LS = "ls -l chapters/"


def run(bench):
    src = os.path.join(bench.media, FILM)
    count = media.chapter_count(src)
    dropped = "; page cache emptied before every run of either side" if bench.can_drop else ""
    bench.section(ID, "Chapters: `ls -l chapters/` of a film",
                  f"`ls -l {FILM}/chapters/` ({media.duration(src):.0f} s, {count} chapters, each listed as a PNG whose "
                  "exact size is known without decoding, plus chapters.json and chapters.txt) against "
                  f"`ffprobe -v error -show_chapters {FILM}` (a process that opens the file and prints its chapters). "
                  "Cold: a fresh daemon before each mount run (a new mount with a fresh state folder, not timed), so "
                  "the first `ls -l` looks the film up (probe), reads its chapters and plans each image"
                  f"{dropped}. Warm: the same daemon after one unmeasured listing. Runs alternate between the two sides.")

    with bench.mount(bench.media, ID) as m:
        chapters = m.path(FILM, "chapters")
        names = os.listdir(chapters)
        for name in names:  # what `ls -l` does: a stat of each
            os.stat(os.path.join(chapters, name))
        listed = sum(1 for name in names if name.endswith(".png"))
        if listed != count:
            raise BenchError(f"{chapters} lists {listed} images where ffprobe shows {count} chapters")
        made = m.counter("chapter_images_made")
        if made != 0:
            raise BenchError(f"listing {chapters} made {made} images")
        bench.note(ID, f"checked: `ls -l` lists {listed} images, one per chapter ffprobe shows, and made none of them "
                       "(user.mediafs.stats)")

        ffprobe = ["ffprobe", "-v", "error", "-show_chapters", src]
        ls = ["ls", "-l", chapters]
        t = bench.compare(ID, "cold", [Peer(FFPROBE, ffprobe), Peer(LS, ls, prepare=lambda: m.remount(fresh=True))],
                          bench.runs, warmup=0, drop=bench.can_drop)
        bench.ratio(ID, "cold", (LS, t[LS]), (FFPROBE, t[FFPROBE]))
        t = bench.compare(ID, "warm", [Peer(FFPROBE, ffprobe), Peer(LS, ls)], bench.runs, warmup=1)
        bench.ratio(ID, "warm", (LS, t[LS]), (FFPROBE, t[FFPROBE]))

        bench.note(ID, f"the warm daemon read the film's chapters {m.counter('chapter_lists_read')} time(s) and made "
                       f"{m.counter('chapter_images_made')} chapter image(s) over all its listings")
        bench.peak_rss(m, "daemon after the chapters section")
