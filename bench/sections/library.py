"""library: `ls -lR` of a 10,000-file library: a first mount, and a remount over the same cache
folder against the source, against the mount's own tree copied to the source's file system (that
many entries listed without FUSE) and against that copy served from memory through FUSE (the FUSE
floor: bench/fuse-floor.c), and the first mount against ffprobe of every file."""

import os
import shutil
import subprocess

import floor
import media
import mounts
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
                  "that many entries costs without FUSE; against the same copy served from memory by a minimal FUSE "
                  "file system (bench/fuse-floor.c: every answer from a table, the kernel spoken to as mediafs does), "
                  "what any FUSE file system pays for this listing; and against `ls -lR` of the source. The four "
                  "alternate, five rounds; the mount's first run is the first listing after the remount (its "
                  f"maximum). The first mount is set against `ffprobe` of every file (run {cpus} at a time on a sample "
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

    # The FUSE floor: the same copy served from memory by bench/fuse-floor.c, which answers
    # every request from a table and speaks to the kernel as mediafs does: what any FUSE file
    # system pays for this listing.
    fuse_name = "the copy served from memory through FUSE (the FUSE floor, bench/fuse-floor.c)"
    served = None
    try:
        served = FuseFloor(floor.compile_fuse_floor(bench.work), replica, os.path.join(bench.work, "mnt-fuse-floor"))
    except BenchError as error:
        bench.note(ID, f"no FUSE floor: {error}")
    try:
        remount(bench, lib, replica, served.mount_point if served else None, fuse_name, entries, source_entries,
                fstype, size)
    finally:
        if served:
            served.close()
    ffprobe_sample(bench, lib, replica, size, cpus)


class FuseFloor:
    """bench/fuse-floor.c serving `tree` on `mount_point` until `close`."""

    def __init__(self, binary, tree, mount_point):
        os.makedirs(mount_point, exist_ok=True)
        self.mount_point = mount_point
        self.process = subprocess.Popen([binary, tree, mount_point], stdout=subprocess.DEVNULL,
                                        stderr=subprocess.PIPE)
        # It reads the whole tree (400,000 entries) into memory before it mounts.
        mounts.wait_until(lambda: mounts.is_mounted(mount_point) or self.process.poll() is not None, 120, 0.2)
        if not mounts.is_mounted(mount_point):
            self.close()
            raise BenchError(f"fuse-floor did not mount: {self.process.stderr.read().decode(errors='replace')}")

    def close(self):
        mounts.detach(self.mount_point)
        try:
            self.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def remount(bench, lib, replica, fuse_floor, fuse_name, entries, source_entries, fstype, size):
    with bench.mount(lib, ID, keep=True) as m:
        label = "remount, ls -lR"
        copy_name = f"copy of the mount's tree on {fstype} (empty files)"
        peers = [Peer("direct", ["ls", "-lR", lib]), Peer(copy_name, ["ls", "-lR", replica]),
                 Peer("mount", ["ls", "-lR", m.mount_point])]
        if fuse_floor:
            peers.append(Peer(fuse_name, ["ls", "-lR", fuse_floor]))
        # Five rounds: the first listing after the remount (which makes every listing) is one of the
        # mount's runs, and with three the median was the slower of the other two.
        t = bench.compare(ID, label, peers, min(bench.runs, 5), warmup=0)
        bench.ratio(ID, label, ("mount", t["mount"]), (copy_name, t[copy_name]), goal_max=REMOUNT_GOAL)
        if fuse_floor:
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
