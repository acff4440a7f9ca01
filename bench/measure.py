"""measure.py: timing commands and recording figures (standard library only).

Every figure is appended as one JSON line to a results file (`Results`); report.py turns that
file into the terminal table and Docs/PERFORMANCE.md. Records, by "kind":

  meta     key/value about the run (date, machine, versions)
  section  a section's id, title and introduction, in the order the sections ran
  timing   wall-clock samples of one command (seconds); samples with the same section and label
           are merged, so a figure may be measured in several calls
  ratio    median(numerator) / median(denominator) of two timings, with an optional goal
  value    a single figure (a peak RSS, a cached re-read), with an optional goal
  note     a sentence under a section (a caveat, a skipped measurement, a sanity check)
  retired  a goal no longer set, with the reason (listed under the goals in the report)

`compare` runs the peers of a figure alternately, one run of each in turn, so that drift in the
machine's state affects them alike; `ratio` records a ratio of their medians.
"""

import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time

from mounts import MediafsMount


class BenchError(Exception):
    """A failure that ends the run (after every mount is unmounted)."""


def drop_caches():
    """Empties the page cache, dentries and inodes (root only). Raises OSError when not allowed."""
    os.sync()
    with open("/proc/sys/vm/drop_caches", "w") as f:
        f.write("3\n")


def can_drop_caches():
    try:
        drop_caches()
        return True
    except OSError:
        return False


def run_timed(argv, timeout, env=None):
    """Runs argv (stdin and stdout discarded), returns its wall-clock seconds.

    Raises BenchError when it fails (with the first lines of its stderr) or outlives `timeout`.
    On timeout its process group is killed; a command stuck on a hung mount may not die (state
    D), so after 10 s more every live mount's FUSE connection is aborted, which frees it.

    The wait blocks in waitpid while a watchdog thread enforces the bound: Popen.wait(timeout=)
    polls with sleeps of up to 50 ms, which rounded every time up to the next poll."""
    with tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err,
                                env=env, start_new_session=True)
        expired = threading.Event()

        def kill_group():
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

        def expire():
            expired.set()
            kill_group()
            if not done.wait(10):
                MediafsMount.abort_all()

        done = threading.Event()
        watchdog = threading.Timer(timeout, expire)
        watchdog.daemon = True
        watchdog.start()
        try:
            rc = proc.wait()
        except BaseException:
            kill_group()
            raise
        finally:
            done.set()
            watchdog.cancel()
        elapsed = time.perf_counter() - start
        if expired.is_set():
            raise BenchError(f"timed out after {timeout:.0f} s: {' '.join(argv)}")
        if rc != 0:
            err.seek(0)
            lines = err.read().decode(errors="replace").splitlines()
            shown = "\n  ".join(lines[:10]) + (f"\n  ... ({len(lines)} lines)" if len(lines) > 10 else "")
            raise BenchError(f"exit status {rc}: {' '.join(argv)}\n  {shown}")
    return elapsed


def output(argv, timeout, **kwargs):
    """Runs an untimed command (output captured as text); raises BenchError when it fails."""
    try:
        done = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                              timeout=timeout, check=False, **kwargs)
    except subprocess.TimeoutExpired as e:
        raise BenchError(f"timed out after {timeout:.0f} s: {' '.join(argv)}") from e
    if done.returncode != 0:
        raise BenchError(f"exit status {done.returncode}: {' '.join(argv)}\n  {done.stderr.strip()[:2000]}")
    return done.stdout


def summary(samples):
    return {"median": statistics.median(samples), "min": min(samples), "max": max(samples), "n": len(samples)}


def fmt_row(label, samples, nbytes=None):
    s = summary(samples)
    row = f"  {label:<40} median {s['median']:8.3f}s  min {s['min']:8.3f}s  max {s['max']:8.3f}s  ({s['n']} runs)"
    if nbytes:
        row += f"  {nbytes / s['median'] / 1e6:8.1f} MB/s"
    return row


def ratio_text(r):
    text = f"{r['label']}: {r['value']:.2f}x"
    if "goal" in r:
        text += f"  (goal {r['goal']}: {'met' if r['met'] else 'NOT met'})"
    return text


def fmt_value(r):
    if r["unit"] == "x" and isinstance(r["value"], (int, float)):
        return f"{r['value']:.2f}x"  # a ratio, as `ratio` writes them
    return f"{r['value']:.1f} {r['unit']}" if isinstance(r["value"], float) else f"{r['value']} {r['unit']}"


class Cycle:
    """The values of a list in turn, from the start again after the last: each run of a peer
    takes the next time, so that no timed run asks for a frame an earlier run of it asked for."""

    def __init__(self, values):
        self.values, self.n = list(values), 0

    def next(self):
        value = self.values[self.n % len(self.values)]
        self.n += 1
        return value


class Peer:
    """One side of a comparison: a command to time, or a function that times itself.

    argv     a list, or a function returning one for each run (a new time, say)
    measure  instead of argv: a function that does one run and returns its seconds (a figure timed
             inside a process, or a sequence such as mount + cp + unmount)
    prepare  untimed, before every run of this peer, warm-ups included (a fresh mount, say)
    row      the label of its row in the report, when "NAME, LABEL" (compare's) does not fit
    """

    def __init__(self, name, argv=None, measure=None, prepare=None, row=None):
        if (argv is None) == (measure is None):
            raise ValueError("a peer has argv or measure, not both")
        self.name, self.argv, self.measure, self.prepare, self.row = name, argv, measure, prepare, row

    def run_once(self, timeout):
        if self.measure is not None:
            return self.measure()
        argv = self.argv() if callable(self.argv) else self.argv
        return run_timed(argv, timeout)


class Results:
    """The results file of one run, and the recording functions the sections call."""

    def __init__(self, path, timeout):
        self.path, self.timeout = path, timeout

    def append(self, record):
        with open(self.path, "a", encoding="utf-8") as f:
            f.write(json.dumps(record, ensure_ascii=False) + "\n")

    def say(self, text=""):
        print(text, flush=True)

    # -- plain records

    def meta(self, key, value):
        self.append({"kind": "meta", "key": key, "value": value})

    def section(self, sid, title, intro=""):
        self.append({"kind": "section", "id": sid, "title": title, "intro": intro})
        self.say()
        self.say(f"== {title}")

    def note(self, sid, text):
        self.append({"kind": "note", "section": sid, "text": text})
        self.say(f"  note: {text}")

    def value(self, sid, label, value, unit, goal=None, met=None):
        record = {"kind": "value", "section": sid, "label": label, "value": value, "unit": unit}
        if goal is not None:
            record.update(goal=goal, met=bool(met))
        self.append(record)
        tail = f"  (goal {goal}: {'met' if met else 'NOT met'})" if goal is not None else ""
        self.say(f"  {label:<40} {fmt_value(record)}{tail}")

    def table(self, sid, title, header, rows):
        """A table of figures (strings, one list per row, as `header`), printed as it is: for
        figures per item (per clip, say) that a row each would drown."""
        self.append({"kind": "table", "section": sid, "title": title, "header": header, "rows": rows})
        self.say(f"  {title}")
        for row in [header] + rows:
            self.say("    " + " | ".join(str(cell) for cell in row))

    def retired(self, sid, figure, goal, reason):
        """A goal this figure no longer has, and why: the report lists it under the goals."""
        self.append({"kind": "retired", "section": sid, "figure": figure, "goal": goal, "reason": reason})

    def timing(self, sid, label, samples, nbytes=None):
        self.append({"kind": "timing", "section": sid, "label": label, "samples": samples, "bytes": nbytes})
        self.say(fmt_row(label, samples, nbytes))

    def ratio(self, sid, label, numerator, denominator, kind="time", goal_min=None, goal_max=None):
        """Records median(numerator) over median(denominator), where each is (name, samples).

        kind "time": numerator time / denominator time (lower is better; the label reads
        "NUM/DEN time, LABEL"). kind "throughput": numerator throughput / denominator throughput,
        which is denominator time / numerator time (higher is better)."""
        (num_name, num), (den_name, den) = numerator, denominator
        num_m, den_m = statistics.median(num), statistics.median(den)
        value = den_m / num_m if kind == "throughput" else num_m / den_m
        record = {"kind": "ratio", "section": sid, "label": f"{num_name}/{den_name} {kind}, {label}", "value": value}
        if goal_min is not None:
            record.update(goal=f">= {goal_min:g}", met=value >= goal_min)
        elif goal_max is not None:
            record.update(goal=f"<= {goal_max:g}", met=value <= goal_max)
        self.append(record)
        self.say("  " + ratio_text(record))
        return value

    # -- measuring

    def time(self, sid, label, argv, runs, drop=False, nbytes=None):
        """Times one command `runs` times (emptying the page cache before each with `drop`)."""
        samples = []
        for _ in range(runs):
            if drop:
                drop_caches()
            samples.append(run_timed(argv, self.timeout))
        self.timing(sid, label, samples, nbytes)
        return samples

    def compare(self, sid, label, peers, runs, warmup=1, drop=False, nbytes=None):
        """Runs the peers alternately: `warmup` unrecorded rounds, then `runs` rounds of one run
        of each peer, in order. With `drop`, the page cache is emptied before each timed run
        (after the peer's prepare). Records one timing per peer ("NAME, LABEL", or its own row
        label) and returns {name: samples}."""
        for _ in range(warmup):
            for peer in peers:
                if peer.prepare:
                    peer.prepare()
                peer.run_once(self.timeout)
        samples = {peer.name: [] for peer in peers}
        for _ in range(runs):
            for peer in peers:
                if peer.prepare:
                    peer.prepare()
                if drop:
                    drop_caches()
                samples[peer.name].append(peer.run_once(self.timeout))
        for peer in peers:
            self.timing(sid, peer.row or f"{peer.name}, {label}", samples[peer.name], nbytes)
        return samples


def warn(text):
    print(f"bench: {text}", file=sys.stderr, flush=True)
