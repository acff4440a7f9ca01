"""floor.py: bench/decode-floor.c, compiled at bench time, and one run of it as a bench peer.

The floor is what a frame-accurate thumbnail cannot cost less than: the seek and the decoding of
the frames an exact answer needs, with the daemon's decoder settings, and nothing else (the C
file says what it does, step by step). It is compiled with gcc against the system's
libavformat/libavcodec/libavutil (pkg-config), the libraries mediafs links, at every run: only
its source is in the repository."""

import os
import shutil

from measure import BenchError, output

SOURCE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "decode-floor.c")
LIBRARIES = ["libavformat", "libavcodec", "libavutil"]


def compile_floor(work):
    """Compiles decode-floor.c into WORK/decode-floor; returns its path. Raises BenchError with
    what is missing (gcc, pkg-config, the libav* development packages)."""
    for tool in ("gcc", "pkg-config"):
        if shutil.which(tool) is None:
            raise BenchError(f"{tool} not found: the decode floor is compiled at bench time "
                             "(apt-get install gcc pkg-config libavformat-dev libavcodec-dev libavutil-dev)")
    flags = output(["pkg-config", "--cflags", "--libs", *LIBRARIES], timeout=30).split()
    binary = os.path.join(work, "decode-floor")
    output(["gcc", "-O2", "-o", binary, SOURCE, *flags, "-lm"], timeout=300)
    return binary


class Answer:
    """One time's line of decode-floor's output."""

    def __init__(self, line):
        fields = line.split("\t")
        self.time, self.seconds, self.open_seconds = fields[0], float(fields[1]), float(fields[2])
        self.frames, self.answer = int(fields[3]), float(fields[4])


def decode(binary, film, times, timeout):
    """Runs the floor for `times` (strings, seconds); one Answer per time."""
    out = output([binary, film, *times], timeout=timeout)
    answers = [Answer(line) for line in out.splitlines() if line.strip()]
    if len(answers) != len(times):
        raise BenchError(f"decode-floor gave {len(answers)} answers for {len(times)} times")
    return answers


FUSE_FLOOR_SOURCE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fuse-floor.c")


def compile_fuse_floor(work):
    """Compiles bench/fuse-floor.c into WORK/fuse-floor: a read-only FUSE file system that serves a
    tree from memory, speaking to the kernel as mediafs does (the C file says how): the FUSE floor
    of a listing. Returns its path. Raises BenchError with what is missing."""
    for tool in ("gcc", "pkg-config"):
        if shutil.which(tool) is None:
            raise BenchError(f"{tool} not found: the FUSE floor is compiled at bench time "
                             "(apt-get install gcc pkg-config libfuse3-dev)")
    flags = output(["pkg-config", "--cflags", "--libs", "fuse3"], timeout=30).split()
    binary = os.path.join(work, "fuse-floor")
    output(["gcc", "-O2", "-o", binary, FUSE_FLOOR_SOURCE, *flags], timeout=300)
    return binary
