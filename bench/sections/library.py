"""library: `ls -lR` of a 10,000-file library and of a 300-file one: a first mount, the first
listing after a remount over the same cache folder and later listings, against the mount's own
tree copied to the source's file system and served from memory through FUSE (the FUSE floor:
bench/fuse-floor.c), beside that copy without FUSE and the source; the first mount against ffprobe
of every file; then one film changed while the kernel holds the whole listing: what the daemon does
to find what the change made stale, and the listing after it."""

import os
import shutil
import statistics
import subprocess
import time

import floor
import media
import mounts
from measure import BenchError, Peer

ID = "library"
REMOUNT_GOAL = 2.0  # retired: against the copy without FUSE
FIRST_GOAL = 1.3  # the first ls -lR after a remount, against the FUSE floor
LATER_GOAL = 1.15  # later listings, against the FUSE floor
MEMORY_GOAL_MIB = 150  # the daemon's resident set after listing the 10,000-file library
SMALL_LIBRARY = 300  # the library a new user lists once
FIRST_RUNS = 3
# Later listings: a round lists the library through the mount, the floor, the copy and the source.
# A listing of the small library is short, and on two cores its time moves with where the scheduler
# puts `ls` and the daemon's thread (the same core or the other), so it gets three times the rounds.
LATER_RUNS_BIG = 7
LATER_ROUNDS_SMALL = 3  # times the other figures' runs
# The film changed: a copy of its own (the others are hard links, which one change would change
# together), whose folder and everything in it the kernel holds once the library is listed.
CHANGED_MEDIA = "clips/clip-vp9.webm"
CHANGE_FIGURES = ("source_changes", "source_change_entries", "source_change_microseconds")


def run(bench):
    # The bench's library, and one of the size a new user lists once.
    for size in sorted({bench.library_size, SMALL_LIBRARY}, reverse=True):
        run_library(bench, size)


def run_library(bench, size):
    name = f"{ID}-{size}"
    lib = os.path.join(bench.work, f"library-{size}")
    replica = os.path.join(bench.work, f"library-{size}-replica")
    media.build_big_library(lib, bench.media, size)
    changed = own_copy(lib, CHANGED_MEDIA)
    fstype = media.filesystem_type(bench.work)
    dropped = "page cache emptied first" if bench.can_drop else "page cache not emptied"
    cpus = os.cpu_count()
    bench.section(name, f"Library: `ls -lR` of {size} media files, first mount and remount",
                  f"{size} media files (hard links to the {len(media.LIBRARY_MEDIA)} distinct {bench.mode} test files) in "
                  f"{(size + 99) // 100} folders of 100. First mount: `ls -lR` of a fresh mount with an empty cache folder, "
                  f"which probes every file (and lists every thumbs/ and chapters/ folder; {dropped}). Remount: the same "
                  "cache folder, a new daemon; `ls -lR` then answers from the probe database and its listing facts "
                  "without opening a media file or rendering a document. The mount lists far more than the source: "
                  "each media file is a folder with the original, info.json, thumbs/ (a few dozen names), chapters/ "
                  "and tracks/. So the remount is timed against the FUSE floor: the mount's own tree copied as empty "
                  f"folders and files onto the source's file system ({fstype}) and served from memory by a minimal "
                  "FUSE file system (bench/fuse-floor.c: every answer from a table, the kernel spoken to as mediafs "
                  "does), what any FUSE file system pays for this listing; beside it the copy itself (without FUSE) "
                  "and the source. The first listing after a remount: a new daemon (and a new floor) before each "
                  f"run, alternating ({FIRST_RUNS} runs for 10,000 files or more, else as many as the other figures). Later "
                  f"listings: the same daemon, alternating ({LATER_RUNS_BIG} rounds for 10,000 files or more, else "
                  f"{LATER_ROUNDS_SMALL} times as many as the other figures). "
                  f"The first mount is set against `ffprobe` of every file (run {cpus} at a time on a sample of at "
                  "most 1,000 files).")

    with bench.mount(lib, name) as m:
        bench.time(name, "mount, first ls -lR (probing, empty cache folder)", ["ls", "-lR", m.mount_point], 1,
                   drop=bench.can_drop)
        # The mount's tree copied as empty folders and files onto the source's file system.
        shutil.rmtree(replica, ignore_errors=True)
        entries = media.copy_tree_empty(m.mount_point, replica)
        source_entries = media.count_entries(lib)
        bench.note(name, f"the mount shows {entries} entries, the source {source_entries}")
        bench.peak_rss(m, f"daemon after the first ls -lR of {size} media files")

    try:
        floor_binary = floor.compile_fuse_floor(bench.work)
    except BenchError as error:
        floor_binary = None
        bench.note(name, f"no FUSE floor: {error}")
    remount(bench, name, lib, replica, floor_binary, size, fstype, changed)
    if size >= 1000:
        ffprobe_sample(bench, name, lib, size, cpus)
    shutil.rmtree(lib, ignore_errors=True)
    shutil.rmtree(replica, ignore_errors=True)


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


def own_copy(lib, media_name):
    """The library's hard link to `media_name` made a file of its own (a copy), its path."""
    index = media.LIBRARY_MEDIA.index(media_name)
    path = os.path.join(lib, f"shelf-{index // 100}", f"{index:05d} {os.path.basename(media_name)}")
    shutil.copyfile(path, path + ".copy")
    os.replace(path + ".copy", path)
    return path


def remount(bench, name, lib, replica, floor_binary, size, fstype, changed):
    fuse_name = "FUSE floor (the copy served from memory, bench/fuse-floor.c)"
    copy_name = f"copy of the mount's tree on {fstype} (empty files)"
    floor_point = os.path.join(bench.work, "mnt-fuse-floor")
    held = {}

    def fresh_mount():
        """A new daemon over the cache folder of the first mount: a remount."""
        if "mount" in held:
            held.pop("mount").__exit__(None, None, None)
        mounting = bench.mount(lib, name, keep=True)
        held["m"] = mounting.__enter__()
        held["mount"] = mounting

    def fresh_floor():
        if "floor" in held:
            held.pop("floor").close()
        held["floor"] = FuseFloor(floor_binary, replica, floor_point)

    try:
        first = [Peer("mount", lambda: ["ls", "-lR", held["m"].mount_point], prepare=fresh_mount)]
        if floor_binary:
            first.append(Peer(fuse_name, ["ls", "-lR", floor_point], prepare=fresh_floor))
        label = "first ls -lR after a remount"
        # A big library's listings take seconds, so a few runs do; a small one's are short and vary more.
        t = bench.compare(name, label, first, FIRST_RUNS if size >= 10000 else bench.runs, warmup=0)
        if floor_binary:
            bench.ratio(name, label, ("mount", t["mount"]), (fuse_name, t[fuse_name]), goal_max=FIRST_GOAL)

        # Later listings: the daemon and the floor of the last run, listed once already.
        label = "later ls -lR"
        peers = [Peer("mount", ["ls", "-lR", held["m"].mount_point]), Peer(copy_name, ["ls", "-lR", replica]),
                 Peer("direct", ["ls", "-lR", lib])]
        if floor_binary:
            peers.append(Peer(fuse_name, ["ls", "-lR", floor_point]))
        rounds = min(bench.runs, LATER_RUNS_BIG) if size >= 10000 else bench.runs * LATER_ROUNDS_SMALL
        t = bench.compare(name, label, peers, rounds, warmup=0)
        if floor_binary:
            bench.ratio(name, label, ("mount", t["mount"]), (fuse_name, t[fuse_name]), goal_max=LATER_GOAL)
            bench.ratio(name, label, (fuse_name, t[fuse_name]), (copy_name, t[copy_name]))
        bench.ratio(name, label, ("mount", t["mount"]), (copy_name, t[copy_name]))
        bench.ratio(name, label, ("mount", t["mount"]), ("direct", t["direct"]))
        stats = held["m"].stats()
        bench.note(name, f"after the remounts' listings: probes made / answered from the database: "
                         f"{stats.get('probes', '?')} / {stats.get('probes_from_database', '?')}; documents rendered: "
                         f"{stats.get('documents_made', '?')}")
        bench.peak_rss(held["m"], f"daemon's resident set now (VmRSS), after ls -lR of {size} media files, remounted",
                       goal_mib=MEMORY_GOAL_MIB if size >= 10000 else None, now=True)
        # After the memory figure: the changed film's folder is listed again.
        source_change(bench, name, held["m"], changed, t["mount"], rounds)
    finally:
        if "mount" in held:
            held.pop("mount").__exit__(None, None, None)
        if "floor" in held:
            held.pop("floor").close()
    if size == bench.library_size:
        bench.retired(name, f"mount/{copy_name} time, remount, ls -lR", f"<= {REMOUNT_GOAL:g}",
                      "The FUSE floor itself is about twice the copy without FUSE on this kind of machine, so a goal "
                      "against the copy sat below what any FUSE file system can do; the first listing after a remount "
                      f"is now set against the floor, <= {FIRST_GOAL:g}x, and later listings <= {LATER_GOAL:g}x.")


def source_change(bench, name, m, film, later, rounds):
    """`film` given a new modification time, `rounds` times: each time, once the daemon has worked
    out what the change made stale (its `source_changes` counted it), `ls -lR` of the whole mount."""
    figures = []

    def change():
        before = m.stats()
        stamp = time.time_ns()
        os.utime(film, ns=(stamp, stamp))
        if not mounts.wait_until(lambda: m.stats().get("source_changes", 0) > before.get("source_changes", 0), 10):
            raise BenchError(f"the daemon saw no change of {film} within 10 s")
        # The notifications follow the figures: the kernel is told before the listing starts.
        time.sleep(0.2)
        after = m.stats()
        figures.append({key: after[key] - before[key] for key in CHANGE_FIGURES})

    label = "ls -lR right after one film changed"
    t = bench.compare(name, label, [Peer("mount", ["ls", "-lR", m.mount_point], prepare=change)], rounds, warmup=0)
    bench.ratio(name, "mount", (label, t["mount"]), ("later ls -lR (no change)", later))
    if any(f["source_changes"] != 1 for f in figures):
        bench.note(name, f"a change was seen as more than one batch: {figures}")
    bench.value(name, "one film changed: the daemon's time finding what it made stale (median)",
                float(statistics.median(f["source_change_microseconds"] for f in figures)), "µs")
    bench.value(name, "one film changed: the daemon's entries looked at (median)",
                int(statistics.median(f["source_change_entries"] for f in figures)), "entries")
    bench.note(name, f"the daemon held {m.stats().get('inodes', '?')} numbers after the changes; per change, entries looked "
                     f"at {[f['source_change_entries'] for f in figures]}, microseconds "
                     f"{[f['source_change_microseconds'] for f in figures]}")


def ffprobe_sample(bench, name, lib, size, cpus):
    sample = min(size, 1000)
    bench.time(name, f"ffprobe of {sample} of the files, {cpus} at a time (x{size // sample} for all)",
               ["bash", "-c", 'find "$1" -type f | head -"$3" | xargs -d "\\n" -P "$2" -n 1 '
                              'ffprobe -v error -show_format -show_streams >/dev/null 2>&1; true',
                "sh", lib, str(cpus), str(sample)], 1, drop=bench.can_drop)
    bench.note(name, f"the files are hard links to {len(media.LIBRARY_MEDIA)} distinct files, so the first mount probes "
                     "only those (its probe cache is keyed by device, inode, size and mtime); ffprobe opens every name; "
                     "the films section lists distinct films")
