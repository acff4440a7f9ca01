#!/usr/bin/env python3
"""bench.py: timing and reporting helpers for bench/run.sh (standard library only).

Every measurement is appended as one JSON line to a results file; `report` turns that file into
the terminal table and Docs/PERFORMANCE.md. Records, by "kind":

  meta     key/value about the run (date, machine, versions)
  section  a section's id, title and introduction, in the order the sections ran
  timing   wall-clock samples of one command (seconds); samples with the same section and label
           are merged, so a figure may be measured in several calls (one fresh mount each)
  ratio    median(numerator) / median(denominator) of two timings, with an optional goal
  value    a single figure (for example a peak RSS)
  note     a sentence under a section (a caveat, a skipped measurement, a sanity check)

Subcommands (all take --results FILE):

  section  --id ID --title TITLE [--intro TEXT]
  note     --section ID TEXT
  value    --section ID --label L --value V --unit U [--goal TEXT --met yes|no]
  meta     KEY VALUE
  time     --section ID --label L [--runs N] [--drop-caches] [--bytes N] -- COMMAND...
  compare  --section ID --label L [--runs N] [--warmup N] [--drop-caches] [--bytes N]
           --ref-name NAME --mnt-name NAME --ratio throughput|time [--goal-min X | --goal-max X]
           [--mnt-prepare SHELL-COMMAND]
           -- REFERENCE COMMAND... ::: MOUNT COMMAND...
           Runs the two commands alternately (reference, then mount), so that drift in the
           machine's state affects both alike; records two timings and their ratio.
           --mnt-prepare runs (with bash -c, untimed) before every run of the mount command,
           warm-ups included: a fresh mount for cold figures, say.
  report   [--markdown FILE]
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time

TIMEOUT = float(os.environ.get("BENCH_TIMEOUT", "600"))


# --------------------------------------------------------------------------------------------
# Recording

def append(results, record):
    with open(results, "a", encoding="utf-8") as f:
        f.write(json.dumps(record, ensure_ascii=False) + "\n")


def drop_caches():
    """Empty the page cache, dentries and inodes (root only). Raises OSError when not allowed."""
    os.sync()
    with open("/proc/sys/vm/drop_caches", "w") as f:
        f.write("3\n")


def run_timed(argv):
    """Run argv with its output discarded; return wall seconds. Exit the helper on failure.

    A command stuck on a hung mount cannot always be killed (state D), so on timeout the child is
    signalled but not waited for: run.sh's cleanup aborts the FUSE connection, which frees it.

    The wait blocks in waitpid (a watchdog thread enforces the bound): Popen.wait(timeout=...)
    polls with sleeps of up to 50 ms, which rounded every time up to the next poll."""
    with tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err)

        def expire():
            proc.kill()
            sys.stderr.write(f"bench.py: timed out after {TIMEOUT:.0f}s: {' '.join(argv)}\n")
            sys.stderr.flush()
            os._exit(1)

        watchdog = threading.Timer(TIMEOUT, expire)
        watchdog.daemon = True
        watchdog.start()
        try:
            rc = proc.wait()
        finally:
            watchdog.cancel()
        elapsed = time.perf_counter() - start
        if rc != 0:
            err.seek(0)
            lines = err.read().decode(errors="replace").splitlines()
            shown = "\n  ".join(lines[:10]) + (f"\n  ... ({len(lines)} lines)" if len(lines) > 10 else "")
            sys.exit(f"bench.py: exit status {rc}: {' '.join(argv)}\n  {shown}")
    return elapsed


def summary(samples):
    return {"median": statistics.median(samples), "min": min(samples), "max": max(samples), "n": len(samples)}


def fmt_row(label, samples, nbytes=None):
    s = summary(samples)
    row = f"  {label:<40} median {s['median']:8.3f}s  min {s['min']:8.3f}s  max {s['max']:8.3f}s  ({s['n']} runs)"
    if nbytes:
        row += f"  {nbytes / s['median'] / 1e6:8.1f} MB/s"
    return row


def cmd_time(a, argv):
    samples = []
    for _ in range(a.runs):
        if a.drop_caches:
            drop_caches()
        samples.append(run_timed(argv))
    append(a.results, {"kind": "timing", "section": a.section, "label": a.label,
                       "samples": samples, "bytes": a.bytes})
    print(fmt_row(a.label, samples, a.bytes), flush=True)


def cmd_compare(a, argv):
    if ":::" not in argv:
        sys.exit("bench.py compare: expected REFERENCE ::: MOUNT commands")
    cut = argv.index(":::")
    ref, mnt = argv[:cut], argv[cut + 1:]

    def prepare():
        if a.mnt_prepare:
            run_timed(["bash", "-c", a.mnt_prepare])

    for _ in range(a.warmup):
        run_timed(ref)
        prepare()
        run_timed(mnt)
    ref_t, mnt_t = [], []
    for _ in range(a.runs):
        if a.drop_caches:
            drop_caches()
        ref_t.append(run_timed(ref))
        prepare()
        if a.drop_caches:
            drop_caches()
        mnt_t.append(run_timed(mnt))
    ref_label, mnt_label = f"{a.ref_name}, {a.label}", f"{a.mnt_name}, {a.label}"
    for label, samples in ((ref_label, ref_t), (mnt_label, mnt_t)):
        append(a.results, {"kind": "timing", "section": a.section, "label": label,
                           "samples": samples, "bytes": a.bytes})
        print(fmt_row(label, samples, a.bytes), flush=True)

    ref_m, mnt_m = statistics.median(ref_t), statistics.median(mnt_t)
    if a.ratio == "throughput":  # mount throughput / reference throughput: higher is better
        value, what = ref_m / mnt_m, f"{a.mnt_name}/{a.ref_name} throughput, {a.label}"
    else:                        # mount time / reference time: lower is better
        value, what = mnt_m / ref_m, f"{a.mnt_name}/{a.ref_name} time, {a.label}"
    record = {"kind": "ratio", "section": a.section, "label": what, "value": value}
    if a.goal_min is not None:
        record.update(goal=f">= {a.goal_min:g}", met=value >= a.goal_min)
    elif a.goal_max is not None:
        record.update(goal=f"<= {a.goal_max:g}", met=value <= a.goal_max)
    append(a.results, record)
    print("  " + ratio_text(record), flush=True)


def ratio_text(r):
    text = f"{r['label']}: {r['value']:.2f}x"
    if "goal" in r:
        text += f"  (goal {r['goal']}: {'met' if r['met'] else 'NOT met'})"
    return text


# --------------------------------------------------------------------------------------------
# Reporting

def load(results):
    meta, sections, order, declared = {}, {}, [], []

    def sec(sid):
        if sid not in sections:
            sections[sid] = {"title": sid, "intro": "", "items": [], "timings": {}}
            order.append(sid)
        return sections[sid]

    with open(results, encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            kind = r["kind"]
            if kind == "meta":
                meta[r["key"]] = r["value"]
            elif kind == "section":
                s = sec(r["id"])
                s["title"], s["intro"] = r["title"], r.get("intro", "")
                declared.append(r["id"])
            elif kind == "timing":
                s = sec(r["section"])
                if r["label"] in s["timings"]:  # merge a figure measured in several calls
                    s["timings"][r["label"]]["samples"] += r["samples"]
                else:
                    t = dict(r)
                    s["timings"][r["label"]] = t
                    s["items"].append(("timing", t))
            else:
                sec(r["section"])["items"].append((kind, r))
    # Sections in the order they were declared (a section may collect rows before its header, as
    # the memory section does), then any that never were.
    order = declared + [sid for sid in order if sid not in declared]
    return meta, [(sid, sections[sid]) for sid in order]


def goals(sections):
    for _, s in sections:
        for kind, r in s["items"]:
            if "goal" in r:
                yield s["title"], r


def fmt_value(r):
    return f"{r['value']:.1f} {r['unit']}" if isinstance(r["value"], float) else f"{r['value']} {r['unit']}"


def text_report(meta, sections):
    out = [f"mediafs benchmark, {meta.get('date', '?')}, {meta.get('mode', '?')} media"]
    for sid, s in sections:
        out += ["", f"== {s['title']}"]
        for kind, r in s["items"]:
            if kind == "timing":
                out.append(fmt_row(r["label"], r["samples"], r.get("bytes")))
            elif kind == "ratio":
                out.append("  " + ratio_text(r))
            elif kind == "value":
                goal = f"  (goal {r['goal']}: {'met' if r['met'] else 'NOT met'})" if "goal" in r else ""
                out.append(f"  {r['label']:<40} {fmt_value(r)}{goal}")
            elif kind == "note":
                out.append(f"  note: {r['text']}")
    met = list(goals(sections))
    if met:
        out += ["", "== Goals"]
        for title, r in met:
            out.append(f"  {'met    ' if r['met'] else 'NOT MET'}  {title}: {ratio_text(r) if r['kind'] == 'ratio' else r['label']}")
    return "\n".join(out)


def md_timing_table(timings):
    rows = ["| What | Median | Min | Max | Runs | Throughput (median) |",
            "|---|---:|---:|---:|---:|---:|"]
    for r in timings:
        s = summary(r["samples"])
        tp = f"{r['bytes'] / s['median'] / 1e6:.1f} MB/s" if r.get("bytes") else "—"
        rows.append(f"| {r['label']} | {s['median']:.3f} s | {s['min']:.3f} s | {s['max']:.3f} s | {s['n']} | {tp} |")
    return rows


def markdown_report(meta, sections):
    m = meta.get
    out = [
        "# Performance",
        "",
        "Figures measured by `make bench` (`bench/run.sh`), which writes this file. Every figure is",
        "wall-clock time over several runs: median, min and max. Ratios are of medians.",
        "",
        "## The run",
        "",
        "| | |",
        "|---|---|",
        f"| Date | {m('date', '?')} |",
        f"| Machine | {m('nproc', '?')} cores, {m('cpu', '?')}, {m('memory', '?')} RAM |",
        f"| System | {m('os', '?')}, kernel {m('kernel', '?')} |",
        f"| Storage | media on {m('storage', '?')} |",
        f"| Versions | FFmpeg {m('ffmpeg', '?')}, libfuse {m('libfuse', '?')}, {m('swift', 'Swift ?')} |",
        f"| mediafs | {m('mediafs', '?')} |",
        f"| Media | {m('mode', '?')} fixture set from `scripts/make-media.sh` |",
        f"| Page cache | {m('page_cache', '?')} |",
        "",
    ]
    met = list(goals(sections))
    if met:
        out += ["## Goals", "", "| Section | Figure | Measured | Goal | Met |", "|---|---|---:|---|---|"]
        for title, r in met:
            measured = f"{r['value']:.2f}x" if r["kind"] == "ratio" else fmt_value(r)
            out.append(f"| {title} | {r['label']} | {measured} | {r['goal']} | {'yes' if r['met'] else '**no**'} |")
        out.append("")

    for sid, s in sections:
        out += [f"## {s['title']}", ""]
        if s["intro"]:
            out += [s["intro"], ""]
        timings = [r for kind, r in s["items"] if kind == "timing"]
        if timings:
            out += md_timing_table(timings) + [""]
        others = [(kind, r) for kind, r in s["items"] if kind in ("ratio", "value")]
        if others:
            out += ["| Figure | Value | Goal | Met |", "|---|---:|---|---|"]
            for kind, r in others:
                value = f"{r['value']:.2f}x" if kind == "ratio" else fmt_value(r)
                goal, ok = r.get("goal", "—"), ("yes" if r["met"] else "**no**") if "goal" in r else "—"
                out.append(f"| {r['label']} | {value} | {goal} | {ok} |")
            out.append("")
        notes = [r["text"] for kind, r in s["items"] if kind == "note"]
        out += [f"- {n}" for n in notes] + ([""] if notes else [])

    out += [
        "## How to reproduce",
        "",
        "```sh",
        "make bench                 # release build, full media (made once, then reused), this file",
        "BENCH_SMALL=1 bench/run.sh # a quick smoke run on the small media; writes .bench-media/PERFORMANCE-small.md",
        "```",
        "",
        "Needs root for cold-cache figures (`/proc/sys/vm/drop_caches`), `/dev/fuse`, fuse3, ffmpeg and",
        "python3. The full media set is made by `scripts/make-media.sh` into `.bench-media/full` the",
        "first time (a few minutes) and reused afterwards. Knobs: `MEDIAFS_BIN` (a built binary),",
        "`BENCH_RUNS` (runs per figure), `BENCH_PROBE_RUNS` (fresh mounts for the first listing),",
        "`BENCH_MOUNT_OPTS` (passed as `-o`), `BENCH_OUT` (where to write this file).",
        "",
        "Each capability has its own section, measured by one `section_<name>` function in",
        "`bench/run.sh` and listed in its `SECTIONS`; a new capability adds a function and a name there.",
        "",
    ]
    return "\n".join(out)


def cmd_report(a):
    meta, sections = load(a.results)
    print(text_report(meta, sections))
    if a.markdown:
        with open(a.markdown, "w", encoding="utf-8") as f:
            f.write(markdown_report(meta, sections))
        print(f"\nwrote {a.markdown}")


# --------------------------------------------------------------------------------------------

def main():
    args = sys.argv[1:]
    command_argv = []
    if "--" in args:  # everything after -- is the measured command(s), untouched by argparse
        cut = args.index("--")
        args, command_argv = args[:cut], args[cut + 1:]

    p = argparse.ArgumentParser(prog="bench.py")
    p.add_argument("--results", required=True)
    sub = p.add_subparsers(dest="cmd", required=True)

    q = sub.add_parser("section")
    q.add_argument("--id", required=True)
    q.add_argument("--title", required=True)
    q.add_argument("--intro", default="")

    q = sub.add_parser("note")
    q.add_argument("--section", required=True)
    q.add_argument("text")

    q = sub.add_parser("value")
    q.add_argument("--section", required=True)
    q.add_argument("--label", required=True)
    q.add_argument("--value", required=True)
    q.add_argument("--unit", required=True)
    q.add_argument("--goal")
    q.add_argument("--met", choices=["yes", "no"])

    q = sub.add_parser("meta")
    q.add_argument("key")
    q.add_argument("value")

    for name in ("time", "compare"):
        q = sub.add_parser(name)
        q.add_argument("--section", required=True)
        q.add_argument("--label", required=True)
        q.add_argument("--runs", type=int, default=7)
        q.add_argument("--drop-caches", action="store_true")
        q.add_argument("--bytes", type=int)
        if name == "compare":
            q.add_argument("--warmup", type=int, default=1)
            q.add_argument("--ref-name", required=True)
            q.add_argument("--mnt-name", required=True)
            q.add_argument("--ratio", choices=["throughput", "time"], required=True)
            q.add_argument("--goal-min", type=float)
            q.add_argument("--goal-max", type=float)
            q.add_argument("--mnt-prepare")

    q = sub.add_parser("report")
    q.add_argument("--markdown")

    a = p.parse_args(args)
    if a.cmd == "section":
        append(a.results, {"kind": "section", "id": a.id, "title": a.title, "intro": a.intro})
    elif a.cmd == "note":
        append(a.results, {"kind": "note", "section": a.section, "text": a.text})
    elif a.cmd == "value":
        try:
            value = float(a.value)
        except ValueError:
            value = a.value
        record = {"kind": "value", "section": a.section, "label": a.label, "value": value, "unit": a.unit}
        if a.goal:
            record.update(goal=a.goal, met=a.met == "yes")
        append(a.results, record)
        print(f"  {a.label:<40} {fmt_value(record)}", flush=True)
    elif a.cmd == "meta":
        append(a.results, {"kind": "meta", "key": a.key, "value": a.value})
    elif a.cmd == "time":
        cmd_time(a, command_argv)
    elif a.cmd == "compare":
        cmd_compare(a, command_argv)
    elif a.cmd == "report":
        cmd_report(a)


if __name__ == "__main__":
    main()
