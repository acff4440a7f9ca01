"""report.py: the results file of a run, as the terminal summary and as Docs/PERFORMANCE.md.

`python3 bench/bench.py report RESULTS [--markdown FILE]` writes them again from a kept results
file (each run keeps its own as .bench-media/results-MODE.jsonl)."""

import json

from measure import fmt_row, fmt_value, ratio_text, summary


def load(results):
    """(meta, [(section id, section)], retired goals) from a results file."""
    meta, sections, order, declared, retired = {}, {}, [], [], []

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
            elif kind == "retired":
                retired.append(r)
            else:
                sec(r["section"])["items"].append((kind, r))
    # Sections in the order they were declared (a section may collect rows before its header, as
    # the memory section does), then any that never were.
    order = declared + [sid for sid in order if sid not in declared]
    titles = {sid: sections[sid]["title"] for sid in order}
    for r in retired:
        r["title"] = titles.get(r["section"], r["section"])
    return meta, [(sid, sections[sid]) for sid in order], retired


def goals(sections):
    for _, s in sections:
        for _, r in s["items"]:
            if "goal" in r:
                yield s["title"], r


def measured(r):
    return f"{r['value']:.2f}x" if r["kind"] == "ratio" else fmt_value(r)


def text_report(meta, sections, retired):
    out = [f"mediafs benchmark, {meta.get('date', '?')}, {meta.get('mode', '?')} media"]
    for _, s in sections:
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
            elif kind == "table":
                out.append(f"  {r['title']}")
                out += ["    " + " | ".join(str(c) for c in row) for row in [r["header"]] + r["rows"]]
    met = list(goals(sections))
    if met:
        out += ["", "== Goals"]
        for title, r in met:
            out.append(f"  {'met    ' if r['met'] else 'NOT MET'}  {title}: {r['label']}: {measured(r)} (goal {r['goal']})")
    for r in retired:
        out.append(f"  retired  {r['title']}: {r['figure']} {r['goal']}: {r['reason']}")
    return "\n".join(out)


def md_timing_table(timings):
    rows = ["| What | Median | Min | Max | Runs | Throughput (median) |",
            "|---|---:|---:|---:|---:|---:|"]
    for r in timings:
        s = summary(r["samples"])
        tp = f"{r['bytes'] / s['median'] / 1e6:.1f} MB/s" if r.get("bytes") else "—"
        rows.append(f"| {r['label']} | {s['median']:.3f} s | {s['min']:.3f} s | {s['max']:.3f} s | {s['n']} | {tp} |")
    return rows


def markdown_report(meta, sections, retired):
    m = meta.get
    out = [
        "# Performance",
        "",
        "Figures measured by `make bench` (`bench/bench.py`), which writes this file. Every figure is",
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
            out.append(f"| {title} | {r['label']} | {measured(r)} | {r['goal']} | {'yes' if r['met'] else '**no**'} |")
        out.append("")
    if retired:
        out += ["Goals retired (the figures are still measured, in their sections):", ""]
        out += [f"- {r['title']}: {r['figure']}, {r['goal']}. {r['reason']}" for r in retired]
        out.append("")

    for _, s in sections:
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
                goal, ok = r.get("goal", "—"), ("yes" if r["met"] else "**no**") if "goal" in r else "—"
                out.append(f"| {r['label']} | {measured(r)} | {goal} | {ok} |")
            out.append("")
        for kind, r in s["items"]:
            if kind == "table":
                out += [r["title"], "", "| " + " | ".join(r["header"]) + " |",
                        "|" + "|".join("---" if i == 0 else "---:" for i in range(len(r["header"]))) + "|"]
                out += ["| " + " | ".join(str(c) for c in row) + " |" for row in r["rows"]] + [""]
        notes = [r["text"] for kind, r in s["items"] if kind == "note"]
        out += [f"- {n}" for n in notes] + ([""] if notes else [])

    out += [
        "## How to reproduce",
        "",
        "```sh",
        "make bench                           # release build, full media (made once, then reused), this file",
        "BENCH_SMALL=1 python3 bench/bench.py # a quick smoke run on the small media; writes .bench-media/PERFORMANCE-small.md",
        "```",
        "",
        "Needs root for cold-cache figures (`/proc/sys/vm/drop_caches`), `/dev/fuse`, fuse3, ffmpeg,",
        "python3, and gcc with the libav* and libfuse3 development packages for the floors",
        "(`bench/decode-floor.c`, `bench/fuse-floor.c`, compiled at each run). The full media set is made",
        "by `scripts/make-media.sh` into",
        "`.bench-media/full` the first time (a few minutes) and reused afterwards. Knobs: `MEDIAFS_BIN`",
        "(a built binary), `BENCH_SECTIONS` (the sections to run), `BENCH_RUNS` (runs per figure),",
        "`BENCH_PROBE_RUNS` (fresh mounts for the first listing), `BENCH_LIBRARY_SIZE` (media files in",
        "the library section), `BENCH_FILMS` and `BENCH_ANALYSIS_FILMS` (distinct films in the films and",
        "analysis sections' libraries), `BENCH_MOUNT_OPTS` (passed as `-o`), `BENCH_TIMEOUT` (bound on any",
        "one command), `BENCH_OUT` (where to write this file).",
        "",
        "Each capability has its own section, measured by one function `run(bench)` in",
        "`bench/sections/<name>.py` and listed in `bench/sections/__init__.py`; bench/README.md says how",
        "to add one.",
        "",
    ]
    return "\n".join(out)


def write(results, markdown=None):
    meta, sections, retired = load(results)
    print(text_report(meta, sections, retired), flush=True)
    if markdown:
        with open(markdown, "w", encoding="utf-8") as f:
            f.write(markdown_report(meta, sections, retired))
        print(f"\nwrote {markdown}", flush=True)
