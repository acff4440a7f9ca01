#!/usr/bin/env python3
"""subtitle_score.py: how close an SRT read from a picture subtitle track is to what the pictures
say (truth.json, written by bench/picture_subs.py). Standard library only; the bench's subtitles
section imports it (`score`, `parse_srt`), the tests run it.

Usage:  python3 bench/subtitle_score.py TRUTH.json FILM TRACK_INDEX OURS.srt [--forced]
        prints {"cer", "chars", "edits", "events_expected", "events_found", "lost", "doubled",
        "extra", "time_mismatches": {"count", "examples"}, "italic": {"true_positive",
        "false_positive", "false_negative"}}

How it scores, and why so:
  - Events are matched by time, not by order, so that one lost or split event does not shift
    every later one: each event of the SRT goes to the truth event it overlaps longest (an SRT
    event overlapping none is `extra`). A truth event with none is `lost` and costs all its
    characters; one with two or more is `doubled` (their texts are joined in time order).
  - The text of an event is its lines, each with its tags stripped, whitespace runs collapsed to
    one space and trimmed, NFC-normalised, joined with "\\n". `edits` is the sum over truth events
    of the Levenshtein distance between the truth's text and the matched SRT text, plus the
    characters of the extra events (insertions); `chars` the truth's characters; cer =
    edits / chars. That is the Levenshtein distance of the whole track's text, aligned by time.
  - A line is italic when all its visible text is inside <i>…</i> (an <i> opened on one line and
    closed on the next makes both italic). Lines are compared by position within matched events.
  - A time mismatch: a matched event whose first SRT event starts, or whose last ends, more than
    1 ms away from the truth (SRT has whole milliseconds).
  - --forced: the truth's forced events alone (for the "(forced, read from pictures).srt")."""

import json
import re
import sys
import unicodedata

TIME = re.compile(r"(\d+):(\d{2}):(\d{2})[,.](\d{3})\s*-->\s*(\d+):(\d{2}):(\d{2})[,.](\d{3})")
TAG = re.compile(r"</?[a-zA-Z][^>]*>|\{\\[^}]*\}")


def parse_srt(text):
    """[{"start_ms", "end_ms", "lines", "italic"}] of an SRT's text (BOM, CRLF and tags allowed)."""
    events = []
    for block in re.split(r"\n\s*\n", text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")):
        rows = block.strip("\n").split("\n")
        at = next((i for i, row in enumerate(rows) if TIME.search(row)), None)
        if at is None:
            continue
        t = [int(v) for v in TIME.search(rows[at]).groups()]
        start = ((t[0] * 60 + t[1]) * 60 + t[2]) * 1000 + t[3]
        end = ((t[4] * 60 + t[5]) * 60 + t[6]) * 1000 + t[7]
        lines, italic = italics(rows[at + 1:])
        events.append({"start_ms": start, "end_ms": end, "lines": lines, "italic": italic})
    return events


def italics(rows):
    """The rows without tags, and per row whether all its visible text is inside <i>…</i>."""
    inside, lines, flags = False, [], []
    for row in rows:
        visible, all_italic = [], True
        for piece in re.split(r"(</?i>)", row, flags=re.I):
            if piece.lower() == "<i>":
                inside = True
            elif piece.lower() == "</i>":
                inside = False
            else:
                plain = TAG.sub("", piece)
                if plain.strip() and not inside:
                    all_italic = False
                visible.append(plain)
        line = clean("".join(visible))
        lines.append(line)
        flags.append(bool(line) and all_italic)
    return lines, flags


def clean(line):
    return re.sub(r"\s+", " ", unicodedata.normalize("NFC", TAG.sub("", line))).strip()


def text_of(events):
    return "\n".join(line for e in events for line in (clean(x) for x in e["lines"]) if line)


def levenshtein(a, b):
    if len(a) < len(b):
        a, b = b, a
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        previous = current
    return previous[-1]


def overlap(a, b):
    return min(a["end_ms"], b["end_ms"]) - max(a["start_ms"], b["start_ms"])


def score(truth_events, ours, forced=False):
    """The figures (see the module's docstring) of `ours` (parse_srt's events) against the truth
    track's events."""
    expected = [e for e in truth_events if e["forced"]] if forced else list(truth_events)
    matched = [[] for _ in expected]
    extra = []
    for event in sorted(ours, key=lambda e: e["start_ms"]):
        best = max(range(len(expected)), key=lambda i: overlap(event, expected[i]), default=None)
        if best is None or overlap(event, expected[best]) <= 0:
            extra.append(event)
        else:
            matched[best].append(event)
    chars = edits = 0
    mismatches, examples = 0, []
    italic = {"true_positive": 0, "false_positive": 0, "false_negative": 0}
    for truth, found in zip(expected, matched):
        want = text_of([truth])
        chars += len(want)
        edits += levenshtein(want, text_of(found))
        if not found:
            italic["false_negative"] += sum(truth["italic"])
            continue
        start, end = found[0]["start_ms"], found[-1]["end_ms"]
        if abs(start - truth["start_ms"]) > 1 or abs(end - truth["end_ms"]) > 1:
            mismatches += 1
            if len(examples) < 5:
                examples.append({"truth": [truth["start_ms"], truth["end_ms"]], "ours": [start, end], "text": want[:40]})
        flags = [f for e in found for line, f in zip(e["lines"], e["italic"]) if line]
        for k in range(max(len(flags), len(truth["italic"]))):
            t = truth["italic"][k] if k < len(truth["italic"]) else False
            o = flags[k] if k < len(flags) else False
            if t and o:
                italic["true_positive"] += 1
            elif o:
                italic["false_positive"] += 1
            elif t:
                italic["false_negative"] += 1
    edits += sum(len(text_of([e])) for e in extra)
    return {"cer": round(edits / chars, 4) if chars else 0.0, "chars": chars, "edits": edits,
            "events_expected": len(expected), "events_found": len(ours),
            "lost": sum(1 for m in matched if not m), "doubled": sum(1 for m in matched if len(m) > 1),
            "extra": len(extra), "time_mismatches": {"count": mismatches, "examples": examples}, "italic": italic}


def track(truth, film, index):
    """The truth's track `index` of FILM (its file name, or a path ending in it)."""
    for f in truth["films"]:
        if film == f["file"] or film.endswith("/" + f["file"]):
            for t in f["tracks"]:
                if t["index"] == int(index):
                    return t
    raise KeyError(f"no track {index} of {film} in the truth")


def score_file(truth_path, film, index, srt_path, forced=False):
    with open(truth_path, encoding="utf-8") as f:
        truth = json.load(f)
    with open(srt_path, encoding="utf-8-sig", errors="replace") as f:
        ours = parse_srt(f.read())
    return score(track(truth, film, index)["events"], ours, forced)


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if a != "--forced"]
    if len(args) != 4:
        sys.exit(__doc__)
    print(json.dumps(score_file(*args, forced="--forced" in sys.argv[1:]), ensure_ascii=False, indent=1))
