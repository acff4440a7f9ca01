"""listing: `ls -lR` of a 1,000-entry library, through the mount against the source."""

import os

import media
from measure import Peer

ID = "listing"


def run(bench):
    lib = os.path.join(bench.work, "library")
    media.build_listing_library(lib, bench.media)
    entries = media.count_entries(lib)
    files = [f for _, _, names in os.walk(lib) for f in names]
    plain_count = sum(1 for f in files if f.startswith("extra-"))
    media_count = len(files) - plain_count
    bench.section(ID, "Listing: `ls -lR` of a 1,000-entry library",
                  f"A library of {media_count} media files (hard links to the {bench.mode} test media, "
                  f"{len(media.LIBRARY_MEDIA)} distinct files, in 20 folders nested two deep) and {plain_count} plain "
                  f"files; {entries} entries in the source. First pass: `ls -lR` of a fresh mount (fresh cache "
                  "directory, page cache emptied), which probes every media file; timed on "
                  f"{bench.probe_runs} fresh mount(s). Then `ls -lR` of the source (direct) and of the mount after that "
                  "first pass, alternating. The mount lists much more: each media file is a folder holding the "
                  "original, `info.json` and, for a video, `thumbs/` with its listed names (a few dozen per film; their "
                  "sizes come from the probe, no image is made), so `ls -lR` of the mount stats about 25 times as many "
                  "entries as of the source.")

    for run_number in range(1, bench.probe_runs + 1):
        with bench.mount(lib, ID) as m:
            bench.time(ID, "mount, first pass (probing)", ["ls", "-lR", m.mount_point], 1, drop=bench.can_drop)
            if run_number < bench.probe_runs:
                continue
            folders = sum(1 for folder, _, names in os.walk(m.mount_point)
                          if "info.json" in names and folder.count(os.sep) - m.mount_point.count(os.sep) == 3)
            bench.note(ID, f"checked: {folders} of {media_count} media files appear as folders holding info.json; "
                           f"the mount shows {media.count_entries(m.mount_point)} entries, the source {entries}")
            t = bench.compare(ID, "after the first pass",
                              [Peer("direct", ["ls", "-lR", lib]), Peer("mount", ["ls", "-lR", m.mount_point])],
                              bench.runs, warmup=1)
            bench.ratio(ID, "after the first pass", ("mount", t["mount"]), ("direct", t["direct"]))
            bench.note(ID, f"the files are hard links: {len(media.LIBRARY_MEDIA)} distinct inodes, so a probe cache "
                           "keyed by inode would make the first pass cheaper than it would be over "
                           f"{media_count} distinct files")
            bench.peak_rss(m, "daemon after the listing section")
