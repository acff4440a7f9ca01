"""floor.py: the floors, C programs compiled at bench time: bench/decode-floor.c and one run of it
as a bench peer, bench/fuse-floor.c (the FUSE floor under a listing; sections/library.py runs it),
bench/probe-floor.c (the probing floor under a first mount of distinct films; sections/films.py),
bench/demux-floor.c (the demuxing floor under a film's tracks; sections/tracks.py) and
bench/ocr-floor.c (libtesseract alone under a subtitle file read from pictures; sections/subtitles.py).

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


def compile_c(work, source, packages, missing, extra=()):
    """Compiles `source` with gcc against the pkg-config `packages` into WORK/<its name without .c>;
    returns its path. Raises BenchError naming the tool that is missing and `missing`, the apt
    packages to install."""
    for tool in ("gcc", "pkg-config"):
        if shutil.which(tool) is None:
            raise BenchError(f"{tool} not found: {os.path.basename(source)} is compiled at bench time "
                             f"(apt-get install gcc pkg-config {missing})")
    flags = output(["pkg-config", "--cflags", "--libs", *packages], timeout=30).split()
    binary = os.path.join(work, os.path.basename(source)[:-len(".c")])
    output(["gcc", "-O2", "-o", binary, source, *flags, *extra], timeout=300)
    return binary


def compile_floor(work):
    """Compiles decode-floor.c into WORK/decode-floor; returns its path. Raises BenchError with
    what is missing (gcc, pkg-config, the libav* development packages)."""
    return compile_c(work, SOURCE, LIBRARIES, "libavformat-dev libavcodec-dev libavutil-dev", ["-lm"])


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
    return compile_c(work, FUSE_FLOOR_SOURCE, ["fuse3"], "libfuse3-dev")


PROBE_FLOOR_SOURCE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "probe-floor.c")
DEMUX_FLOOR_SOURCE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "demux-floor.c")


def compile_probe_floor(work):
    """Compiles bench/probe-floor.c into WORK/probe-floor: avformat_open_input and
    avformat_find_stream_info of every file of a list, over THREADS threads of one process (the C
    file says how). Returns its path. Raises BenchError with what is missing."""
    return compile_c(work, PROBE_FLOOR_SOURCE, ["libavformat", "libavutil"], "libavformat-dev libavutil-dev",
                     ["-lpthread"])


def probe(binary, threads, list_path, timeout):
    """Runs the probe floor over the files listed in `list_path`: (files, failed, seconds), the
    seconds timed by the floor itself from its first open to its last close."""
    fields = output([binary, str(threads), list_path], timeout=timeout).split("\t")
    return int(fields[0]), int(fields[1]), float(fields[2])


def compile_demux_floor(work):
    """Compiles bench/demux-floor.c into WORK/demux-floor: a file opened and every packet of it read
    once by libavformat, nothing else (the C file says what). Returns its path. Raises BenchError
    with what is missing."""
    return compile_c(work, DEMUX_FLOOR_SOURCE, LIBRARIES, "libavformat-dev libavcodec-dev libavutil-dev")


OCR_FLOOR_SOURCE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "ocr-floor.c")


def compile_ocr_floor(work):
    """Compiles bench/ocr-floor.c into WORK/ocr-floor: the Tesseract calls a mount made (dumped with
    MEDIAFS_OCR_DUMP=DIR) replayed through libtesseract's C API, nothing else (the C file says
    what). Returns its path. Raises BenchError with what is missing."""
    return compile_c(work, OCR_FLOOR_SOURCE, ["tesseract", "lept"], "libtesseract-dev libleptonica-dev", ["-lgomp"])


def ocr(binary, dump, timeout):
    """Runs the OCR floor over the dump folder DUMP: (calls, loop seconds, init seconds, text bytes),
    the loop timed by the floor itself."""
    fields = output([binary, dump], timeout=timeout).split("\t")
    return int(fields[0]), float(fields[1]), float(fields[2]), int(fields[3])
