"""analysis: the background analysis (scenes, intros, credits) of a library of distinct films, and
what it costs what a user reads meanwhile: first reads of at-T.png with the background at work
against the same reads with it off; the daemon's resident set while it works; a remount's
statistics, which must show no analysis done again."""

import os
import statistics
import time

import media
from measure import BenchError, run_timed

ID = "analysis"
SLOWDOWN_GOAL = 1.10  # a concurrent at-T read at most 10 % slower
READS = 30  # per block: with fewer, the pairs' median moved between runs by more than the goal's margin


def run(bench):
    folder, names = media.distinct_films(os.path.dirname(bench.media), bench.media, bench.mode, bench.analysis_films,
                                         largest=max(bench.films, bench.analysis_films))
    bench.section(ID, "Analysis in the background",
                  f"A library of {len(names):,} distinct films (the films section's remuxes), mounted with "
                  "`--analysis background`: listed once, so that the daemon queues every film and analyses them one "
                  "at a time (one thread in the idle CPU scheduling class and the idle I/O class, pausing while "
                  "requests are served, between units of work and within them). "
                  f"Meanwhile `cp` of `thumbs/at-T.png` of a film of its own each time (a first read of the film: its folder "
                  f"listed, its decoder opened, a time inside a GOP), films from the end of the library, {READS} reads a "
                  "second apart; against the same reads of the same films through a mount with `--analysis on-demand` "
                  "(nothing analysed), each side with a cache folder of its own. Blocks: off and on with one set of "
                  "films, then on and off with another, so that each side reads each set once first (its pages not "
                  "yet in memory) and once second.")
    # Each read a film of its own, from the end of the library (the background, going shelf by
    # shelf in listing order, reaches them last): a first read, its decoder opened for it, on both
    # sides alike. (A film read again continues its decoder where the background left it alone.)
    # Both sides read the same films: first reads of films differ more from one film to the next
    # than the background's cost.
    films = names[-READS * 2:]
    # Inside the first GOP (or the middle of a shorter film), to the tenth of a second.
    times = [f"{min(4.3, media.duration(os.path.join(folder, f)) / 2):.1f}" for f in films]
    samples = {"on-demand": [], "background": []}
    analysed = []
    for mode, half in [("on-demand", 0), ("background", 0), ("background", 1), ("on-demand", 1)]:
        with bench.mount(folder, f"{ID}-{mode}", args=["--analysis", mode]) as m:
            if mode == "background":
                for shelf in sorted({os.path.dirname(n) for n in names}):
                    os.listdir(m.path(shelf))
                if not wait_for(lambda: m.stats().get("scene_analyses", 0) >= 1, 60):
                    raise BenchError("the background analysed nothing in a minute")
            before = m.stats().get("scene_analyses", 0)
            for i in range(READS):
                t = times[half * READS + i]
                film = films[half * READS + i]
                os.listdir(m.path(film))
                samples[mode].append(run_timed(["cp", m.path(film, "thumbs", f"at-{t}s.png"),
                                                os.path.join(bench.work, "analysis.png")], bench.timeout))
                time.sleep(1)
            if mode == "background":
                stats = m.stats()
                analysed.append(stats.get("scene_analyses", 0) - before)
                if stats.get("analyses_waiting", 0) == 0:
                    bench.note(ID, "the background's queue emptied during the reads: the figure is of a mount partly idle")
                bench.peak_rss(m, "analysis: the daemon analysing in the background (peak)")
    bench.timing(ID, "first read of at-T.png, analysis on demand (off)", samples["on-demand"])
    bench.timing(ID, "first read of at-T.png, the background analysing", samples["background"])
    bench.ratio(ID, "at-T.png read while the background analyses (medians)", ("background", samples["background"]),
                ("off", samples["on-demand"]))
    # The figure the goal is read on: each film's read with the background at work against the same
    # film's read without, the median of those ratios (a first read costs 15 ms for one film and
    # 250 ms for another, so the medians of the two sides fall between clusters and move by more than
    # the background's cost), and beside it the ratio of the reads' total times.
    paired = [on / off for off, on in zip(samples["on-demand"], samples["background"])]
    middle = statistics.median(paired)
    bench.value(ID, "background/off, the same film's first read of at-T.png, median of the pairs", round(middle, 2), "x",
                goal=f"<= {SLOWDOWN_GOAL:g}", met=middle <= SLOWDOWN_GOAL)
    bench.value(ID, "background/off, the reads' total time", round(sum(samples["background"]) / sum(samples["on-demand"]), 2), "x")
    bench.value(ID, "films analysed by the background during the reads", sum(analysed), "films")
    remount(bench, folder, names)


def remount(bench, folder, names):
    """A library analysed in one mount, mounted again over the same cache folder: its statistics
    after listing and waiting for the queue must count no analysis."""
    subset = sorted({os.path.dirname(n) for n in names})[:1]
    with bench.mount(folder, f"{ID}-remount", args=["--analysis", "background"]) as m:
        for shelf in subset:
            for name in os.listdir(m.path(shelf)):
                os.getxattr(m.path(shelf, name), "user.mediafs.analysis")
    with bench.mount(folder, f"{ID}-remount", keep=True, args=["--analysis", "background"]) as m:
        for shelf in subset:
            os.listdir(m.path(shelf))
        wait_for(lambda: m.stats().get("analyses_waiting", 1) == 0, 120)
        stats = m.stats()
        redone = stats.get("scene_analyses", 0) + stats.get("audio_fingerprints", 0) + stats.get("season_comparisons", 0)
        bench.value(ID, f"analyses a remount did again ({sum(len(os.listdir(os.path.join(folder, s))) for s in subset)} films "
                        "analysed before; scene_analyses + audio_fingerprints + season_comparisons)", redone, "analyses",
                    goal="= 0", met=redone == 0)


def wait_for(condition, seconds):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.2)
    return False

