#!/usr/bin/env python3
"""mp4-chapter-tracks.py: add QuickTime chapter tracks to an MP4, as Apple's tools write them.

Usage: mp4-chapter-tracks.py IN.mp4 OUT.mp4 SPEC.json

ffmpeg writes one chapter text track (from its chapters) and no chapter image track; Debian 12
has no MP4Box. This writes them with the standard library alone, for the chapter tests:

SPEC.json:
  {"starts": [0, 4, 8], "end": 12,                        chapter boundaries, in seconds
   "texts": [{"language": "eng", "titles": [...]},          one text track per entry, in order;
             {"language": "fra", "elng": "fr-CA",           optional elng (BCP-47) atom,
              "utf16": true, "titles": [...]}],             UTF-16 (with BOM) instead of UTF-8
   "images": ["one.png", "two.png", "three.png"]}           optional PNG chapter image track

IN.mp4 must have its moov after its mdat (no -movflags +faststart): the moov is dropped, a new
mdat with the chapter samples is appended, and the moov is written again after it with the new
tracks and a tref/chap in the first track naming them all (text tracks first, then images).

Usage: mp4-chapter-tracks.py --reference IN.mp4 OUT.mp4 TRACK_ID REFERENCED_ID...

appends REFERENCED_IDs to the tref/chap of the track TRACK_ID (making the tref and chap atoms if it
has none), for chapter tracks that ffmpeg writes itself but does not name (a JPEG track, say).
IN.mp4's moov must be its last atom, so that growing it moves no sample.
"""
import json
import struct
import sys


def box(kind, payload):
    return struct.pack(">I4s", 8 + len(payload), kind) + payload


def full_box(kind, version, flags, payload):
    return box(kind, struct.pack(">I", version << 24 | flags) + payload)


def atoms(data, start=0, end=None):
    """(type, header start, payload start, end) of each atom in data[start:end]."""
    end = len(data) if end is None else end
    position = start
    while position + 8 <= end:
        size, kind = struct.unpack(">I4s", data[position:position + 8])
        header = 8
        if size == 1:
            size = struct.unpack(">Q", data[position + 8:position + 16])[0]
            header = 16
        elif size == 0:
            size = end - position
        yield kind, position, position + header, position + size
        position += size


def packed_language(code):
    a, b, c = (ord(ch) - 0x60 for ch in code)
    return a << 10 | b << 5 | c


MATRIX = struct.pack(">9I", 0x10000, 0, 0, 0, 0x10000, 0, 0, 0, 0x40000000)


def tkhd(track_id, duration, width=0, height=0):
    return full_box(b"tkhd", 0, 0x2, struct.pack(">IIIII", 0, 0, track_id, 0, duration) + bytes(8)
                    + struct.pack(">hhhh", 0, 0, 0, 0) + MATRIX + struct.pack(">II", width << 16, height << 16))


def sample_tables(entry, durations, offsets, sizes):
    stsd = full_box(b"stsd", 0, 0, struct.pack(">I", 1) + entry)
    stts = full_box(b"stts", 0, 0, struct.pack(">I", len(durations)) + b"".join(struct.pack(">II", 1, d) for d in durations))
    stsc = full_box(b"stsc", 0, 0, struct.pack(">IIII", 1, 1, 1, 1))  # one sample per chunk
    stsz = full_box(b"stsz", 0, 0, struct.pack(">II", 0, len(sizes)) + b"".join(struct.pack(">I", s) for s in sizes))
    stco = full_box(b"stco", 0, 0, struct.pack(">I", len(offsets)) + b"".join(struct.pack(">I", o) for o in offsets))
    return box(b"stbl", stsd + stts + stsc + stsz + stco)


def dinf():
    return box(b"dinf", full_box(b"dref", 0, 0, struct.pack(">I", 1) + full_box(b"url ", 0, 1, b"")))


def trak(track_id, movie_duration, media_duration, handler, language, elng, media_header, stbl, width=0, height=0):
    mdhd = full_box(b"mdhd", 0, 0, struct.pack(">IIIIHH", 0, 0, 1000, media_duration, language, 0))
    hdlr = full_box(b"hdlr", 0, 0, struct.pack(">I4s", 0, handler) + bytes(12) + b"Chapters\0")
    parts = mdhd + hdlr
    if elng:
        parts += full_box(b"elng", 0, 0, elng.encode() + b"\0")
    parts += box(b"minf", media_header + dinf() + stbl)
    return box(b"trak", tkhd(track_id, movie_duration, width, height) + box(b"mdia", parts))


def text_entry():
    # QuickTime 'text' sample description: flags, justification, colours, text box, font.
    fields = struct.pack(">Ii6s8s8sHHBH6sB", 0, 0, bytes(6), bytes(8), bytes(8), 0, 0, 0, 0, bytes(6), 0)
    return box(b"text", bytes(6) + struct.pack(">H", 1) + fields)


def png_entry(width, height):
    fields = struct.pack(">HH12sHHIIIH32sHh", 0, 0, bytes(12), width, height, 0x480000, 0x480000, 0, 1,
                         bytes(32), 24, -1)
    return box(b"png ", bytes(6) + struct.pack(">H", 1) + fields)


def png_size(data):
    return struct.unpack(">II", data[16:24])


def text_sample(title, utf16):
    text = (b"\xfe\xff" + title.encode("utf-16-be")) if utf16 else title.encode("utf-8")
    encd = box(b"encd", struct.pack(">I", 0x100))  # what ffmpeg appends: UTF-8
    return struct.pack(">H", len(text)) + text + (b"" if utf16 else encd)



def main(source, destination, spec_path):
    spec = json.load(open(spec_path))
    data = open(source, "rb").read()
    top = list(atoms(data))
    moov = [a for a in top if a[0] == b"moov"]
    mdat = [a for a in top if a[0] == b"mdat"]
    if not moov or not mdat or moov[0][1] < mdat[0][1]:
        sys.exit("mp4-chapter-tracks.py: need a moov after the mdat (no faststart)")
    _, moov_start, moov_payload, moov_end = moov[0]
    head = data[:moov_start] + data[moov_end:]

    starts = spec["starts"]
    bounds = starts + [spec["end"]]
    durations = [round((bounds[i + 1] - bounds[i]) * 1000) for i in range(len(starts))]

    # Sample data: every text track's samples, then the images, in one new mdat after `head`.
    payload = bytearray()
    base = len(head) + 8
    tracks = []  # (kind, language, elng, offsets, sizes, extra)
    for text in spec["texts"]:
        offsets, sizes = [], []
        for title in text["titles"]:
            sample = text_sample(title, text.get("utf16", False))
            offsets.append(base + len(payload))
            sizes.append(len(sample))
            payload += sample
        tracks.append(("text", text["language"], text.get("elng"), offsets, sizes))
    if spec.get("images"):
        offsets, sizes = [], []
        for path in spec["images"]:
            image = open(path, "rb").read()
            offsets.append(base + len(payload))
            sizes.append(len(image))
            payload += image
        tracks.append(("image", "und", None, offsets, sizes))

    movie = data[moov_payload:moov_end]
    children = list(atoms(movie))
    mvhd = next(c for c in children if c[0] == b"mvhd")
    version = movie[mvhd[2]]
    timescale_at = mvhd[2] + (20 if version == 1 else 12)
    movie_timescale = struct.unpack(">I", movie[timescale_at:timescale_at + 4])[0]
    movie_duration = round(spec["end"] * movie_timescale)
    next_id = struct.unpack(">I", movie[mvhd[3] - 4:mvhd[3]])[0]
    ids = list(range(next_id, next_id + len(tracks)))

    new_traks = b""
    for track_id, (kind, language, elng, offsets, sizes) in zip(ids, tracks):
        if kind == "text":
            stbl = sample_tables(text_entry(), durations, offsets, sizes)
            gmhd = box(b"gmhd", full_box(b"gmin", 0, 0, struct.pack(">H6sHH", 0x40, bytes(6), 0, 0)))
            new_traks += trak(track_id, movie_duration, sum(durations), b"text", packed_language(language), elng, gmhd, stbl)
        else:
            width, height = png_size(open(spec["images"][0], "rb").read())
            stbl = sample_tables(png_entry(width, height), durations, offsets, sizes)
            vmhd = full_box(b"vmhd", 0, 1, struct.pack(">H6s", 0, bytes(6)))
            new_traks += trak(track_id, movie_duration, sum(durations), b"vide", packed_language(language), None, vmhd, stbl, width, height)

    chap = box(b"tref", box(b"chap", b"".join(struct.pack(">I", i) for i in ids)))
    out = b""
    first_trak_done = False
    for kind, start, payload_start, end in children:
        piece = movie[start:end]
        if kind == b"mvhd":
            piece = piece[:-4] + struct.pack(">I", next_id + len(tracks))
        elif kind == b"trak" and not first_trak_done:
            first_trak_done = True
            inner = list(atoms(movie, payload_start, end))
            if any(c[0] == b"tref" for c in inner):
                sys.exit("mp4-chapter-tracks.py: the first track already has a tref")
            body = b""
            for c in inner:
                body += movie[c[1]:c[3]]
                if c[0] == b"tkhd":
                    body += chap
            piece = box(b"trak", body)
        elif kind == b"udta":
            out += new_traks
            new_traks = b""
        out += piece
    out += new_traks

    with open(destination, "wb") as f:
        f.write(head)
        f.write(box(b"mdat", bytes(payload)))
        f.write(box(b"moov", out))


def add_reference(source, destination, track_id, referenced):
    data = bytearray(open(source, "rb").read())
    top = list(atoms(data))
    if top[-1][0] != b"moov":
        sys.exit("mp4-chapter-tracks.py: the moov must be the last atom")
    _, moov_start, moov_payload, moov_end = top[-1]
    for kind, start, payload_start, end in atoms(data, moov_payload, moov_end):
        if kind != b"trak":
            continue
        inner = list(atoms(data, payload_start, end))
        tkhd = next(c for c in inner if c[0] == b"tkhd")
        version = data[tkhd[2]]
        id_at = tkhd[2] + (20 if version == 1 else 12)
        if struct.unpack(">I", data[id_at:id_at + 4])[0] != track_id:
            continue
        ids = b"".join(struct.pack(">I", i) for i in referenced)
        tref = next((c for c in inner if c[0] == b"tref"), None)
        chap = next((c for c in atoms(data, tref[2], tref[3]) if c[0] == b"chap"), None) if tref else None
        if chap:
            at, added, grown = chap[3], ids, [moov_start, start, tref[1], chap[1]]
        elif tref:
            at, added, grown = tref[3], box(b"chap", ids), [moov_start, start, tref[1]]
        else:
            at, added, grown = tkhd[3], box(b"tref", box(b"chap", ids)), [moov_start, start]
        for header in grown:
            size = struct.unpack(">I", data[header:header + 4])[0]
            if size < 8:
                sys.exit("mp4-chapter-tracks.py: 64-bit or open-ended atom sizes are not handled")
            data[header:header + 4] = struct.pack(">I", size + len(added))
        data[at:at] = added
        open(destination, "wb").write(data)
        return
    sys.exit(f"mp4-chapter-tracks.py: no track {track_id}")


if __name__ == "__main__":
    if len(sys.argv) >= 5 and sys.argv[1] == "--reference":
        add_reference(sys.argv[2], sys.argv[3], int(sys.argv[4]), [int(i) for i in sys.argv[5:]])
    elif len(sys.argv) == 4:
        main(*sys.argv[1:])
    else:
        sys.exit(__doc__)
