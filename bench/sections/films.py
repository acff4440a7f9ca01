"""films: a first mount of a library of distinct films, listed cold: `ls -lR` of a fresh mount,
which probes every film, against the probe floor (bench/probe-floor.c) and against `ffprobe` of
every film (what a media server's scan runs)."""

import os
import statistics

import floor
import media
from measure import BenchError, Peer, run_timed

ID = "films"
FLOOR_GOAL = 1.2
FFPROBE_GOAL = 0.1
FFPROBE_SAMPLE = 400  # films ffprobe'd per run (at most), spread over the seeds


def ffprobe_sample(names):
    """About FFPROBE_SAMPLE of `names`: whole rounds of the seeds (film N is seed N mod the seeds),
    spread over the library, so that the sample holds every kind of film as often as the library."""
    seeds = len(media.FILM_SEEDS)
    rounds = len(names) // seeds
    wanted = max(1, min(rounds, FFPROBE_SAMPLE // seeds))
    step = max(1, rounds // wanted)
    return [names[r * seeds + s] for r in range(0, rounds, step)[:wanted] for s in range(seeds)]


def run(bench):
    folder, names = media.distinct_films(os.path.dirname(bench.media), bench.media, bench.mode, bench.films,
                                         largest=max(bench.films, bench.analysis_films))
    count = len(names)
    cpus = os.cpu_count() or 1
    paths = [os.path.join(folder, n) for n in names]
    list_path = os.path.join(bench.work, "films.list")
    with open(list_path, "w", encoding="utf-8") as f:
        f.writelines(p + "\n" for p in paths)
    sample = ffprobe_sample(names)
    sample_path = os.path.join(bench.work, "films-sample.list")
    with open(sample_path, "w", encoding="utf-8") as f:
        f.writelines(os.path.join(folder, n) + "\n" for n in sample)
    megabytes = sum(os.path.getsize(p) for p in paths) / 1e6
    kinds = ", ".join(f"`{os.path.basename(s)}`" for s, _ in media.FILM_SEEDS)
    cold = ("the page cache emptied before each run" if bench.can_drop else
            "the page cache could not be emptied (not root): every run is warm")
    bench.section(ID, f"Films: a first mount of {count} distinct films, listed cold",
                  f"{count} films ({megabytes:.0f} MB), each a file of its own: the first {media.FILM_SEEDS[0][1]} s of "
                  f"{kinds} in turn, remuxed with a title of their own (`ffmpeg -c copy -metadata title=…`; made once, "
                  f"kept in .bench-media/), in folders of {media.FILMS_PER_SHELF}. Each mount-side run starts from a fresh "
                  "mount with an empty cache folder. Probing: `ls -l` of every folder holding films, which probes every film "
                  "(each is listed as a media folder) and does nothing else. Whole: `ls -lR` of the mount, which also lists "
                  "every media folder (thumbs/, chapters/, tracks/, …: each film's chapters are read, and its tracks made, "
                  "see below). Probe floor: `bench/probe-floor.c`, compiled at bench "
                  "time: libavformat's open and find-stream-info of every film in one process, "
                  f"{cpus} at a time ({cpus} threads, one per core), nothing else; it times itself. ffprobe: "
                  f"`ffprobe -show_format -show_streams` of each of a sample of {len(sample)} films (every kind alike), "
                  f"{cpus} at a time, its time scaled to the {count} films. The four alternate, with {cold}.")
    if not bench.can_drop:
        bench.note(ID, "the page cache was not emptied (writing /proc/sys/vm/drop_caches was refused: not root?): "
                       "these are warm figures, not the cold ones the goals are set for")

    floor_binary = floor.compile_probe_floor(bench.work)
    shelves = sorted({os.path.dirname(n) for n in names})
    probe_name = "mount, first ls -l of every folder"
    listing_name = "mount, first ls -lR"
    floor_name = f"probe floor, {cpus} threads"
    ffprobe_name = f"ffprobe -show_format -show_streams per film, {cpus} at a time"
    scale = count / len(sample)
    floor_failures = []

    def probe_floor():
        files, failed, seconds = floor.probe(floor_binary, cpus, list_path, bench.timeout)
        if files != count:
            raise BenchError(f"the probe floor read {files} names of {count}")
        floor_failures.append(failed)
        return seconds

    ffprobe = ["bash", "-c", 'xargs -d "\\n" -P "$2" -n 1 ffprobe -v error -show_format -show_streams '
                             '<"$1" >/dev/null', "sh", sample_path, str(cpus)]
    counted = {}
    with bench.mount(folder, ID) as m:
        def fresh():
            m.remount(clear_cache=True)  # a new daemon, an empty cache folder

        def probing_listing():
            elapsed = run_timed(["ls", "-l", *(m.path(s) for s in shelves)], bench.timeout)
            counted["probing"] = m.stats()
            return elapsed

        def whole_listing():
            elapsed = run_timed(["ls", "-lR", m.mount_point], bench.timeout)
            counted["whole"] = m.stats()
            counted["media folders"] = sum(1 for n in names if os.path.isfile(m.path(n, "info.json")))
            return elapsed

        t = bench.compare(ID, f"{count} films, cold", [
            Peer(probe_name, measure=probing_listing, prepare=fresh, row=f"{probe_name} ({count} films)"),
            Peer(floor_name, measure=probe_floor, row=f"{floor_name} ({count} films)"),
            Peer(ffprobe_name, ffprobe, row=f"{ffprobe_name} ({len(sample)} films)"),
            Peer(listing_name, measure=whole_listing, prepare=fresh, row=f"{listing_name} ({count} films)"),
        ], bench.probe_runs, warmup=0, drop=bench.can_drop)
        bench.peak_rss(m, f"daemon after the first ls -lR of {count} distinct films")  # the last run's
    probing, whole = counted["probing"], counted["whole"]
    if probing.get("probes") != count or whole.get("probes") != count or counted["media folders"] != count:
        raise BenchError(f"the first listings probed {probing.get('probes')} and {whole.get('probes')} films, and "
                         f"{counted['media folders']} are media folders, of {count}")
    if probing.get("chapter_lists_read") or probing.get("track_sets_made"):
        raise BenchError(f"ls -l of the folders read {probing.get('chapter_lists_read')} chapter lists and ran "
                         f"{probing.get('track_sets_made')} track passes: it must only probe")
    if any(floor_failures):
        raise BenchError(f"the probe floor could not probe {max(floor_failures)} of the films")
    bench.note(ID, f"checked: `ls -l` of the {len(shelves)} folders probed each of the {count} films once and did nothing "
                   f"else; `ls -lR` probed each once too, read {whole.get('chapter_lists_read', '?')} chapter lists and ran "
                   f"{whole.get('track_sets_made', '?')} track passes, and shows every film as a media folder; the probe "
                   "floor probed every film")
    bench.note(ID, "`ls -lR` stats every file of every tracks/ folder, and a track file's size is known only once the "
                   "film's one pass over its audio and subtitles has made it: a first `ls -lR` reads every film whole "
                   "(here a few seconds each; a feature film's gigabytes in a real library), which no probe floor "
                   "covers. So the goals are set on the probing listing, `ls -l` of the folders holding the films.")

    scaled = [s * scale for s in t[ffprobe_name]]
    bench.timing(ID, f"{ffprobe_name}, scaled to the {count} films", scaled)
    for name, samples in ((probe_name, t[probe_name]), (listing_name, t[listing_name]), (floor_name, t[floor_name]),
                          (ffprobe_name, scaled)):
        bench.value(ID, f"{name}: films per second (median)", round(count / statistics.median(samples), 1), "files/s")
    label = f"{count} films, cold"
    bench.ratio(ID, label, (probe_name, t[probe_name]), (floor_name, t[floor_name]), goal_max=FLOOR_GOAL)
    bench.ratio(ID, label, (probe_name, t[probe_name]), (ffprobe_name, scaled), goal_max=FFPROBE_GOAL)
    bench.ratio(ID, label, (listing_name, t[listing_name]), (floor_name, t[floor_name]))
    bench.ratio(ID, label, (listing_name, t[listing_name]), (ffprobe_name, scaled))
