"""The bench's sections, one module each: a function `run(bench)` that mounts what it needs,
measures, records its figures through `bench` (see bench.Bench and measure.Results) and leaves
no mount behind. SECTIONS lists them in the order they run; BENCH_SECTIONS picks some.

To add a section (JPEG thumbnails, HDR, storyboards, ...): write bench/sections/NAME.py with
ID = "NAME" and run(bench), and add one line below. bench/README.md shows a skeleton."""

from sections import analysis, chapters, dolbyvision, films, library, listing, originals, pictures, real_footage, scenes, \
    segments, server, storyboards, subtitles, thumbs, tracks

SECTIONS = {
    "originals": originals.run,
    "listing": listing.run,
    "thumbs": thumbs.run,
    "chapters": chapters.run,
    "tracks": tracks.run,
    "storyboards": storyboards.run,
    "pictures": pictures.run,
    "footage": real_footage.run,
    "dolby-vision": dolbyvision.run,
    "library": library.run,
    "films": films.run,
    "server": server.run,
    "scenes": scenes.run,
    "segments": segments.run,
    "subtitles": subtitles.run,
    "analysis": analysis.run,
}
