"""originals: reading the original bytes through the mount against the source file."""

import filecmp
import os
import platform

from measure import BenchError, Peer

ID = "originals"


def run(bench):
    name = "feature-1080p.mp4"
    src = os.path.join(bench.media, name)
    size = os.path.getsize(src)
    bench.section(ID, "Originals: reading a file through the mount",
                  f"`cat` of `{name}` ({size / 1e6:.1f} MB) read from the source directory (direct) and as "
                  f"`{name}/{name}` through the mount; direct and mount runs alternate. Cold: page cache emptied "
                  "before every run. Warm: after one unmeasured read of each. Goal: mount throughput at least 0.8x direct.")
    with bench.mount(bench.media, ID) as m:
        inside = m.path(name, name)
        if os.path.getsize(inside) != size:
            raise BenchError(f"{inside}: size {os.path.getsize(inside)} through the mount, {size} in the source")
        if not filecmp.cmp(src, inside, shallow=False):
            raise BenchError(f"{inside}: bytes differ from {src}")
        bench.note(ID, "checked: same size and same bytes through the mount as in the source")

        peers = [Peer("direct", ["cat", src]), Peer("mount", ["cat", inside])]
        for label, warmup, drop in (("cold", 0, True), ("warm", 1, False)):
            if drop and not bench.can_drop:
                bench.note(ID, "cold page cache not measured: /proc/sys/vm/drop_caches is not writable (run as root)")
                continue
            t = bench.compare(ID, label, peers, bench.runs, warmup=warmup, drop=drop, nbytes=size)
            bench.ratio(ID, label, ("mount", t["mount"]), ("direct", t["direct"]), kind="throughput", goal_min=0.8)

        if "FUSE passthrough)" in m.log_text():
            bench.note(ID, f"the original was passed through (FUSE passthrough, kernel {platform.release()}): the kernel "
                           "reads the source file itself and no read reaches the daemon, cold or warm; without it "
                           "(`--no-passthrough`, a kernel before 6.9, or not root) cold reads are spliced from the source "
                           "to /dev/fuse by the daemon and warm ones come from the mount's own page cache (keep_cache)")
        else:
            bench.note(ID, "no FUSE passthrough here (it needs Linux 6.9 or later and root): cold reads are spliced from "
                           "the source file to /dev/fuse by the daemon; warm reads of an unchanged file come from the "
                           "kernel's page cache (keep_cache) and never reach the daemon, so the gap left is the kernel's "
                           "FUSE read path itself")
        bench.peak_rss(m, "daemon after the originals section")
