"""library: `ls -lR` of a 10,000-file library: a first mount, and a remount over the same cache
folder against the source, against the mount's own tree copied to the source's file system (the
floor: that many entries listed without FUSE), and the first mount against ffprobe of every file."""

import os
import resource
import shutil
import subprocess

import floor
import media
from measure import BenchError, Peer

ID = "library"
REMOUNT_GOAL = 2.0


def run(bench):
    size = bench.library_size
    lib = os.path.join(bench.work, "library-big")
    replica = os.path.join(bench.work, "library-replica")
    media.build_big_library(lib, bench.media, size)
    fstype = media.filesystem_type(bench.work)
    dropped = "page cache emptied first" if bench.can_drop else "page cache not emptied"
    cpus = os.cpu_count()
    bench.section(ID, f"Library: `ls -lR` of {size} media files, first mount and remount",
                  f"{size} media files (hard links to the {len(media.LIBRARY_MEDIA)} distinct {bench.mode} test files) in "
                  f"{(size + 99) // 100} folders of 100. First mount: `ls -lR` of a fresh mount with an empty cache folder, "
                  f"which probes every file (and lists every thumbs/ and chapters/ folder; {dropped}). Remount: the same "
                  "cache folder, a new daemon; `ls -lR` then answers from the probe database without opening a media "
                  "file. The mount lists far more than the source: each media file is a folder with the original, "
                  "info.json, thumbs/ (a few dozen names), chapters/ and tracks/. So the remount is timed against its "
                  f"own tree copied as empty folders and files onto the source's file system ({fstype}): what `ls -lR` of "
                  "that many entries costs without FUSE; and, beside it, against `ls -lR` of the source. The three "
                  f"alternate. The first mount is set against `ffprobe` of every file (run {cpus} at a time on a sample "
                  "of at most 1,000 files).")

    with bench.mount(lib, ID) as m:
        bench.time(ID, "mount, first ls -lR (probing, empty cache folder)", ["ls", "-lR", m.mount_point], 1,
                   drop=bench.can_drop)
        # The mount's tree copied as empty folders and files onto the source's file system.
        shutil.rmtree(replica, ignore_errors=True)
        entries = media.copy_tree_empty(m.mount_point, replica)
        source_entries = media.count_entries(lib)
        bench.note(ID, f"the mount shows {entries} entries, the source {source_entries}")
        bench.peak_rss(m, f"daemon after the first ls -lR of {size} media files")

    # The FUSE floor: the same copy through libfuse's passthrough_ll example (attributes and
    # names cached as long as ours are kept), what any FUSE file system pays for the listing.
    passthrough = None
    try:
        passthrough_bin = floor.compile_fuse_passthrough(bench.work)
    except BenchError as error:
        passthrough_bin = None
        bench.note(ID, f"libfuse's passthrough_ll could not be compiled ({error}): no FUSE floor")
    fuse_name = "the copy through libfuse's passthrough_ll example (the FUSE floor)"
    # passthrough_ll keeps a descriptor open per inode it knows: one per entry of the tree, which
    # the machine's limit on descriptors must allow.
    limit = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    if passthrough_bin and entries + 1000 > limit:
        bench.note(ID, f"no FUSE floor: libfuse's passthrough_ll keeps a descriptor per inode, and this machine "
                       f"allows {limit} (hard limit), fewer than the tree's {entries} entries")
        passthrough_bin = None
    if passthrough_bin:
        passthrough = os.path.join(bench.work, "mnt-passthrough")
        os.makedirs(passthrough, exist_ok=True)

        def more_descriptors():
            resource.setrlimit(resource.RLIMIT_NOFILE, (limit, limit))
        subprocess.run([passthrough_bin, "-o", f"source={replica}", "-o", "cache=always", "-o", "timeout=86400",
                        passthrough], check=True, timeout=60, preexec_fn=more_descriptors)

    try:
        remount(bench, lib, replica, passthrough, fuse_name, entries, source_entries, fstype, size)
    finally:
        if passthrough:
            subprocess.run(["fusermount3", "-u", passthrough], timeout=60)
    ffprobe_sample(bench, lib, replica, size, cpus)


def remount(bench, lib, replica, passthrough, fuse_name, entries, source_entries, fstype, size):
    with bench.mount(lib, ID, keep=True) as m:
        label = "remount, ls -lR"
        copy_name = f"copy of the mount's tree on {fstype} (empty files)"
        peers = [Peer("direct", ["ls", "-lR", lib]), Peer(copy_name, ["ls", "-lR", replica]),
                 Peer("mount", ["ls", "-lR", m.mount_point])]
        if passthrough:
            peers.append(Peer(fuse_name, ["ls", "-lR", passthrough]))
        t = bench.compare(ID, label, peers, min(bench.runs, 3), warmup=0)
        bench.ratio(ID, label, ("mount", t["mount"]), (copy_name, t[copy_name]), goal_max=REMOUNT_GOAL)
        if passthrough:
            bench.ratio(ID, label, ("mount", t["mount"]), (fuse_name, t[fuse_name]))
            bench.ratio(ID, label, (fuse_name, t[fuse_name]), (copy_name, t[copy_name]))
        bench.ratio(ID, label, ("mount", t["mount"]), ("direct", t["direct"]))
        bench.retired(ID, f"mount/direct time, {label}", "<= 3",
                      f"It compared the mount against a tree with {entries / source_entries:.0f} times fewer entries (the "
                      "source has one entry per film, the mount a folder of a few dozen); the remount is now set "
                      f"against the same tree as the mount's, copied to {fstype}, <= {REMOUNT_GOAL:g}x.")
        stats = m.stats()
        bench.note(ID, f"after the remount's listings: probes made / answered from the database: "
                       f"{stats.get('probes', '?')} / {stats.get('probes_from_database', '?')}")
        bench.peak_rss(m, f"daemon after ls -lR of {size} media files, remounted")


def ffprobe_sample(bench, lib, replica, size, cpus):
    sample = min(size, 1000)
    bench.time(ID, f"ffprobe of {sample} of the files, {cpus} at a time (x{size // sample} for all)",
               ["bash", "-c", 'find "$1" -type f | head -"$3" | xargs -d "\\n" -P "$2" -n 1 '
                              'ffprobe -v error -show_format -show_streams >/dev/null 2>&1; true',
                "sh", lib, str(cpus), str(sample)], 1, drop=bench.can_drop)
    bench.note(ID, f"the files are hard links to {len(media.LIBRARY_MEDIA)} distinct files, so the first mount probes "
                   "only those (its probe cache is keyed by device, inode, size and mtime); ffprobe opens every name")
    shutil.rmtree(lib, ignore_errors=True)
    shutil.rmtree(replica, ignore_errors=True)
