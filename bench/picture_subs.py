#!/usr/bin/env python3
"""picture_subs.py: films with picture subtitle tracks (PGS, DVD VobSub) of KNOWN TEXT, for the
tests and the bench of the subtitles read from pictures (OCR), and truth.json saying what each
picture says and when. Python 3 standard library, PIL (Debian python3-pil), ffmpeg, ffprobe and
mkvmerge.

Why write the tracks ourselves: an OCR can only be scored against text known for certain, and the
pictures have to look like the ones on real discs, which no encoder at hand makes from text
(ffmpeg renders no text into PGS; its dvd_subtitle encoder cannot change the canvas). So the text
is drawn with real fonts (DejaVu Sans, Liberation Sans and Serif, their italic or oblique faces
for italics) with PIL, and the bitstreams are written here, byte by byte:

  PGS (hdmv_pgs_subtitle), 1920x1080, a .sup: per event one display set PCS (epoch start, one or
    two composition objects, the forced_on_flag 0x40 where the event is forced), WDS (one window
    per object), PDS, ODS (split when an object's RLE passes a segment's 64 KiB), END; and at the
    event's end a display set whose PCS has 0 composition objects (PCS, WDS, END). PTS on the
    90 kHz clock, always a whole millisecond (ms × 90), DTS 0. The picture is antialiased: a
    pixel is a pair (alpha, fill coverage) quantized to 16 levels each, 136 palette entries
    (index 0 transparent), stored as YCbCr BT.709 limited range + alpha, the matrix ffmpeg's
    decoder uses above 576 lines. Each object is cropped to its text (or its box), as discs do.
    Variants: pgs-clean (white, 3 px black outline), pgs-yellow (yellow, 3 px black outline),
    pgs-thin (white, 1 px outline, nothing behind), pgs-box (white without outline on a black box
    of alpha 0.5), pgs-small (white, 2 px outline, 34 px type: about 24 px capitals).
    Two-line events are one object, or (every third) two objects, one per line.

  DVD (dvd_subtitle, VobSub .idx/.sub), 720x480: per event one SPU in MPEG-2 program stream packs
    of 2,048 bytes (private stream 1, substream 0x20, the PES PTS = the event's start), with
    SET_COLOR / SET_CONTR / SET_DAREA / SET_DSPXA and STA_DSP at delay 0, STP_DSP at the end's
    delay; interlaced 2-bit RLE (top field, bottom field). Four colours as discs have them:
    index 0 transparent background, 1 the fill, 2 the outline, 3 an anti-alias colour between the
    fill and the outline on the inner edge; every pixel is one of them, contrast 0 or 15: hard,
    aliased edges, no alpha ramp. The .idx carries the 16-colour palette (RGB), the size and one
    timestamp per SPU. Variants: dvd-white, dvd-yellow, dvd-small (about 15 px capitals).

Times, exactly (what truth.json's start_ms/end_ms are, and what a reader of the container gets):
  PGS: start_ms = the pts (ms) ffprobe -show_packets gives the display set that shows the event,
    end_ms = the pts of the next display set (0 composition objects). mkvmerge keeps the .sup's
    PTS (whole ms by construction), one Matroska block per display set.
  DVD: start_ms = the packet's pts (the .idx timestamp = the PES PTS; STA_DSP's delay is 0),
    end_ms = start_ms + floor(D × 1024 / 90), D the STP_DSP delay in the SPU's 1024/90,000 s
    ticks, the integer ms ffmpeg's decoder reports as end_display_time. D is chosen as the tick
    nearest the intended end, so end_ms is within 6 ms of the intended end, exact as written.
    (mkvmerge also gives each VobSub block a duration; ffprobe's packet duration may differ
    from end_ms by its own rounding: the SPU's STP_DSP is the authority.)
Every time is checked against ffprobe -show_packets after muxing, and every track is decoded by
ffprobe -show_frames (PGS: a subtitle with rects at each start, one without at each end; DVD:
one at each start whose end_display_time is end_ms - start_ms) before truth.json is written.

Usage:  python3 bench/picture_subs.py OUT [--bench]
        writes OUT/*.mkv and OUT/truth.json:
        {"recipe", "films": [{"file", "tracks": [{"index" (ffprobe's stream index), "variant",
         "codec", "language", "name", "width", "height", "events": [{"start_ms", "end_ms",
         "lines": [..], "italic": [bool per line], "forced": bool}]}]}]}
        Test mode: four films, 25–40 events a track; --bench: one film with a long PGS track
        (480 events) alone, for timing. Files already there with the same recipe are
        kept. Needs PIL: when the python3 running it has none, it runs itself again with
        /usr/bin/python3 (Debian's python3-pil)."""

import json
import os
import random
import re
import struct
import subprocess
import sys

try:
    from PIL import Image, ImageChops, ImageDraw, ImageFont
except ImportError:  # a python3 without PIL (pyenv, say): Debian's has python3-pil
    if os.path.exists("/usr/bin/python3") and os.path.realpath(sys.executable) != os.path.realpath("/usr/bin/python3") \
            and __name__ == "__main__":
        os.execv("/usr/bin/python3", ["/usr/bin/python3", *sys.argv])
    Image = None  # imported by the bench, which says PIL is missing

RECIPE = "picture-subs 1"
FONTS = "/usr/share/fonts/truetype"
FACES = {  # (regular, italic)
    "dejavu": (f"{FONTS}/dejavu/DejaVuSans.ttf", f"{FONTS}/dejavu/DejaVuSans-Oblique.ttf"),
    "liberation-sans": (f"{FONTS}/liberation/LiberationSans-Regular.ttf", f"{FONTS}/liberation/LiberationSans-Italic.ttf"),
    "liberation-serif": (f"{FONTS}/liberation/LiberationSerif-Regular.ttf", f"{FONTS}/liberation/LiberationSerif-Italic.ttf"),
}

# ---------------------------------------------------------------------------------------------
# The text: subtitle lines as films have them, 25-40 characters, with the languages' letters and
# punctuation (apostrophes, ? !, dashes of dialogue, ellipses, quotes).

LINES = {
    "eng": [
        "I told you, we can't stay here.", "Where were you last night?", "- Are you coming?", "- In a minute!",
        "It's not what you think, Sarah.", "He said the train leaves at 6:45.", "Don't look back... just keep walking.",
        "\"Trust me,\" she said. \"I know.\"", "We've got twelve hours, maybe less.", "Why would anyone do that?",
        "The café on the corner's still open.", "Mr. O'Brien, your car is waiting.", "I'm sorry, I didn't mean it.",
        "Listen to me - this is important.", "That's the last time, I promise.", "You think he'll come back?",
        "Nobody's seen her since Tuesday.", "What's your name again?", "Get down! Everybody, get down!",
        "It's cold out there; take my coat.", "Well... I suppose we could try.", "How much did you pay for it?",
        "They're moving the money tonight.", "Keep your voice down, please.", "I'll meet you at the station.",
        "She's been gone for three days.", "Is that really what you want?", "Forty-two, not forty-three.",
        "We need a doctor, right now!", "Whose idea was this, anyway?", "Let's go home. It's late.",
        "You owe me one, Jack.", "There's no such thing as luck.", "Take the left road, then wait.",
        "Could you say that again?", "I never wanted any of this.", "The door was locked from inside.",
        "Welcome to the Grand Hotel.", "Hold on... did you hear that?", "It's 100% safe, I checked twice.",
    ],
    "ger": [
        "Ich weiß nicht, was ich sagen soll.", "Wo warst du gestern Abend?", "- Kommst du mit?", "- Gleich, warte!",
        "Das ist größer, als ich dachte.", "Er hat die Tür nicht geöffnet.", "Müssen wir wirklich heute fahren?",
        "Die Straße ist nass und glatt.", "„Vertrau mir“, sagte sie leise.", "Wir haben noch zwölf Stunden.",
        "Hör auf! Das ist gefährlich!", "Meine Mutter wohnt in Köln.", "Das Frühstück ist um acht Uhr.",
        "Warum hast du es ihm erzählt?", "Ich hätte das nie tun dürfen.", "Fünf Minuten, dann gehen wir.",
        "Es tut mir leid... wirklich.", "Schließ die Tür hinter dir ab.", "Überall Polizei. Wir müssen weg.",
        "Sie ist seit Dienstag verschwunden.", "Hast du das Geräusch gehört?", "Der Zug fährt um 6:45 Uhr ab.",
        "Grüß deinen Vater von mir.", "Wie viel hat das gekostet?", "Nein, nicht so - ganz langsam.",
        "Außer uns ist niemand hier.", "Können Sie das wiederholen?", "Das Mädchen wartet draußen.",
        "Wir treffen uns am Bahnhof.", "Ich bin müde. Lass uns schlafen.", "Hätte ich das nur früher gewusst!",
        "Öffne das Fenster, es ist heiß.", "Die Brücke über den Fluss ist zu.", "Jetzt oder nie, Günther.",
        "Das Essen schmeckt köstlich.", "Zähl bis zehn und dann lauf!",
    ],
    "fre": [
        "Je ne sais pas quoi te dire.", "Où étais-tu hier soir ?", "- Tu viens avec nous ?", "- J'arrive !",
        "Ce n'est pas ce que tu crois.", "Le train part à 6 h 45, à l'heure.", "Ne te retourne pas... continue.",
        "« Fais-moi confiance », dit-elle.", "Il nous reste douze heures.", "Pourquoi a-t-il fait ça ?",
        "Le café du coin est encore ouvert.", "Ça m'est égal, vraiment.", "Je suis désolé, c'était une erreur.",
        "Écoute-moi bien, c'est important.", "C'est la dernière fois, promis.", "Tu crois qu'il reviendra ?",
        "Personne ne l'a vue depuis mardi.", "Garçon, deux crèmes, s'il vous plaît.", "À genoux ! Tout le monde à terre !",
        "Il fait froid, prends mon manteau.", "Bon... on peut toujours essayer.", "Combien l'as-tu payé ?",
        "Ils déplacent l'argent ce soir.", "Parle moins fort, je t'en prie.", "On se retrouve à la gare.",
        "Elle est partie il y a trois jours.", "C'est vraiment ce que tu veux ?", "Le cœur a ses raisons, tu sais.",
        "Il faut un médecin, tout de suite !", "Noël approche, et il neige déjà.", "Rentrons, il est tard.",
        "Là-bas, près de la fenêtre.", "La sœur de Hélène est arrivée.", "Prends à gauche, puis attends.",
        "Tu peux répéter, s'il te plaît ?", "Je n'ai jamais voulu tout ça.", "Voilà ce qu'on a trouvé.",
    ],
}


def plan_events(language, count, seed):
    """`count` events of lines of `language`: (start_ms, end_ms, lines, italic, forced). About two
    in five have two lines; one in six is italic (one in four of those only its second line); one
    in seven is forced. Durations 1.2-4 s, gaps 0.2-1.5 s, first at 1 s; all whole ms."""
    rng = random.Random(seed)
    pool = LINES["eng" if language not in LINES else language]
    events, at = [], 1000
    for i in range(count):
        two = rng.random() < 0.4
        lines = [pool[rng.randrange(len(pool))]]
        if two:
            second = pool[rng.randrange(len(pool))]
            lines.append(second if second != lines[0] else pool[(pool.index(second) + 1) % len(pool)])
        if rng.random() < 1 / 6:
            italic = [True] * len(lines) if len(lines) == 1 or rng.random() < 0.75 else [False, True]
        else:
            italic = [False] * len(lines)
        forced = rng.random() < 1 / 7
        duration = rng.randrange(1200, 4000)
        events.append({"start_ms": at, "end_ms": at + duration, "lines": lines, "italic": italic, "forced": forced})
        at += duration + rng.randrange(200, 1500)
    return events


# ---------------------------------------------------------------------------------------------
# Drawing: an event's lines as two masks, alpha A (the covered area: fill, outline, box) and fill
# F (the text's own coverage), both 0-255, antialiased by FreeType.

class Style:
    def __init__(self, face, size, outline, fill_rgb, outline_rgb=(0, 0, 0), box=False, margin=70):
        self.face, self.size, self.outline, self.fill_rgb, self.outline_rgb = face, size, outline, fill_rgb, outline_rgb
        self.box, self.margin = box, margin
        self._fonts = {}

    def font(self, italic):
        if italic not in self._fonts:
            self._fonts[italic] = ImageFont.truetype(FACES[self.face][1 if italic else 0], self.size)
        return self._fonts[italic]


def draw_line(text, style, italic):
    """One line: (A, F) images cropped to the line's box (outline and a small padding included)."""
    font = style.font(italic)
    pad = style.outline + (10 if style.box else 2)
    left, top, right, bottom = font.getbbox(text, stroke_width=style.outline)
    ascent, descent = font.getmetrics()
    # A line's height is the font's, not its letters': lines of one event align, and "ag" and "AG"
    # are placed alike.
    width, height = right - left + 2 * pad, ascent + descent + 2 * style.outline + 2 * pad
    origin = (pad - left, pad + style.outline)
    fill = Image.new("L", (width, height), 0)
    ImageDraw.Draw(fill).text(origin, text, font=font, fill=255)
    if style.box:
        alpha = fill.point(lambda v: 128 + (v * 127 + 127) // 255)
    elif style.outline:
        alpha = Image.new("L", (width, height), 0)
        ImageDraw.Draw(alpha).text(origin, text, font=font, fill=255, stroke_width=style.outline, stroke_fill=255)
        if not style.box:
            alpha = ImageChops.lighter(alpha, fill)
    else:
        alpha = fill
    return alpha, fill


def layout(event, style, width, height):
    """The event's lines placed on the canvas: a list of (x, y, A, F) per line, centred, the last
    line's bottom `style.margin` above the canvas's."""
    drawn = [draw_line(text, style, italic) for text, italic in zip(event["lines"], event["italic"])]
    placed, y = [], height - style.margin
    for alpha, fill in reversed(drawn):
        y -= alpha.height
        placed.append(((width - alpha.width) // 2, y, alpha, fill))
        y += 0 if style.box else style.size // 8  # boxes touch; outlined lines overlap a little
    return list(reversed(placed))


def merge(placed):
    """The lines' masks as one object: (x, y, A, F) of their union's box."""
    x0 = min(p[0] for p in placed)
    y0 = min(p[1] for p in placed)
    x1 = max(p[0] + p[2].width for p in placed)
    y1 = max(p[1] + p[2].height for p in placed)
    alpha, fill = Image.new("L", (x1 - x0, y1 - y0), 0), Image.new("L", (x1 - x0, y1 - y0), 0)
    for x, y, a, f in placed:
        region = (x - x0, y - y0)
        box = (*region, region[0] + a.width, region[1] + a.height)
        alpha.paste(ImageChops.lighter(alpha.crop(box), a), region)
        fill.paste(ImageChops.lighter(fill.crop(box), f), region)
    return x0, y0, alpha, fill


# ---------------------------------------------------------------------------------------------
# PGS

LEVELS = 16


def pgs_palette(style):
    """Index 0 transparent; then one entry per (alpha level a, fill level f <= a): the colour
    premultiplied by coverage, un-premultiplied (fill × f/a + outline × (a-f)/a), which is exact
    over a black outline or box. Returns (entries [(id, Y, Cr, Cb, A)], lookup[a*16+f] -> id)."""
    entries, lookup = [(0, 16, 128, 128, 0)], [0] * 256
    for a in range(1, LEVELS):
        for f in range(0, a + 1):
            t = f / a
            r, g, b = (style.fill_rgb[c] * t + style.outline_rgb[c] * (1 - t) for c in range(3))
            entries.append((len(entries), *ycrcb709(r, g, b), round(a * 255 / (LEVELS - 1))))
            lookup[a * 16 + f] = len(entries) - 1
    for a in range(LEVELS):
        for f in range(a + 1, 16):
            lookup[a * 16 + f] = lookup[a * 16 + a]
    return entries, lookup


def ycrcb709(r, g, b):
    """8-bit limited-range BT.709 (Y 16-235, Cb and Cr 16-240), as Blu-ray palettes are."""
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    cb, cr = (b - y) / 1.8556, (r - y) / 1.5748
    clamp = lambda v: max(0, min(255, round(v)))  # noqa: E731
    return clamp(16 + y * 219 / 255), clamp(128 + cr * 224 / 255), clamp(128 + cb * 224 / 255)


def indexed(alpha, fill, lookup):
    """The palette index of every pixel (an 'L' image) from its alpha and fill masks."""
    q = lambda v: (v * (LEVELS - 1) + 127) // 255  # noqa: E731
    a, f = alpha.point([q(v) * 16 for v in range(256)]), fill.point([q(v) for v in range(256)])
    return ImageChops.add(a, f).point(lookup)


RUN = re.compile(rb"(.)\1*", re.S)


def pgs_rle(image):
    """PGS run-length coding of an 8-bit indexed image (HDMV: colour 0 runs are 00 0L / 00 4L LL,
    other runs 00 8L C / 00 CL LL C, a single pixel its byte; 00 00 ends a line)."""
    out, w = bytearray(), image.width
    data = image.tobytes()
    for y in range(image.height):
        for m in RUN.finditer(data[y * w:(y + 1) * w]):
            colour, n = m.group()[0], len(m.group())
            while n:
                k = min(n, 16383)
                if colour == 0:
                    out += bytes((0, k)) if k < 64 else bytes((0, 0x40 | k >> 8, k & 0xFF))
                elif k < 3:
                    out += bytes((colour,)) * k
                else:
                    out += bytes((0, 0x80 | k, colour)) if k < 64 else bytes((0, 0xC0 | k >> 8, k & 0xFF, colour))
                n -= k
        out += b"\0\0"
    return bytes(out)


def segment(kind, pts, payload):
    return b"PG" + struct.pack(">IIBH", pts, 0, kind, len(payload)) + payload


def pgs_display_sets(events, style, width, height, number=0):
    """The .sup's bytes for `events` (see the module's docstring)."""
    entries, lookup = pgs_palette(style)
    pds = b"\0\0" + b"".join(bytes(e) for e in entries)
    out = bytearray()
    for i, event in enumerate(events):
        placed = layout(event, style, width, height)
        objects = placed if len(placed) == 2 and i % 3 == 1 else [merge(placed)]
        pts, end = event["start_ms"] * 90, event["end_ms"] * 90
        comp = bytearray(struct.pack(">HHBHBBBB", width, height, 0x10, number, 0x80, 0, 0, len(objects)))
        windows = bytearray((len(objects),))
        odss = []
        for k, (x, y, alpha, fill) in enumerate(objects):
            comp += struct.pack(">HBBHH", k, k, 0x40 if event["forced"] else 0, x, y)
            windows += struct.pack(">BHHHH", k, x, y, alpha.width, alpha.height)
            data = struct.pack(">HH", alpha.width, alpha.height) + pgs_rle(indexed(alpha, fill, lookup))
            chunks = [data[j:j + 65000] for j in range(0, len(data), 65000)]
            for c, chunk in enumerate(chunks):
                flag = (0x80 if c == 0 else 0) | (0x40 if c == len(chunks) - 1 else 0)
                head = struct.pack(">HBB", k, 0, flag) + (len(data).to_bytes(3, "big") if c == 0 else b"")
                odss.append(segment(0x15, pts, head + chunk))
        out += segment(0x16, pts, bytes(comp)) + segment(0x17, pts, bytes(windows)) + segment(0x14, pts, pds)
        out += b"".join(odss) + segment(0x80, pts, b"")
        number += 1
        clear = struct.pack(">HHBHBBBB", width, height, 0x10, number, 0x00, 0, 0, 0)
        out += segment(0x16, end, clear) + segment(0x17, end, bytes(windows)) + segment(0x80, end, b"")
        number += 1
    return bytes(out)


# ---------------------------------------------------------------------------------------------
# DVD (VobSub)

def dvd_indexed(alpha, fill):
    """Four indices, hard edges: 0 background where alpha < 50 %, else 1 fill where the fill
    covers >= 75 %, 3 anti-alias where it covers 25-75 %, 2 outline elsewhere."""
    a = alpha.point([0 if v < 128 else 4 for v in range(256)])
    f = fill.point([0 if v < 64 else (3 if v < 192 else 1) for v in range(256)])
    # a=0 -> 0; a=1: f=0 -> 2 (outline), f=1 -> 1 (fill), f=3 -> 3 (anti-alias)
    table = [0] * 256
    table[4 + 0], table[4 + 1], table[4 + 3] = 2, 1, 3
    return ImageChops.add(a, f).point(table)


class Nibbles:
    def __init__(self):
        self.out, self.half = bytearray(), None

    def put(self, v):
        if self.half is None:
            self.half = v
        else:
            self.out.append(self.half << 4 | v)
            self.half = None

    def align(self):
        if self.half is not None:
            self.put(0)


def dvd_field(image, first):
    """The 2-bit RLE of the rows first, first+2, ... (one field)."""
    n, w, data = Nibbles(), image.width, image.tobytes()
    for y in range(first, image.height, 2):
        runs = [(m.group()[0], len(m.group())) for m in RUN.finditer(data[y * w:(y + 1) * w])]
        for r, (colour, count) in enumerate(runs):
            if r == len(runs) - 1 and count > 255 or (r == len(runs) - 1 and colour == 0):
                n.put(0), n.put(0), n.put(0), n.put(colour)  # to the end of the line
                break
            while count:
                k = min(count, 255)
                code = k << 2 | colour
                digits = 1 if k < 4 else 2 if k < 16 else 3 if k < 64 else 4
                for d in range(digits - 1, -1, -1):
                    n.put(code >> (4 * d) & 0xF)
                count -= k
        n.align()
    return bytes(n.out)


def spu(event, style, width, height, colors):
    """One subpicture unit: pixel data and the two control sequences."""
    x, y, alpha, fill = merge(layout(event, style, width, height))
    image = dvd_indexed(alpha, fill)
    top, bottom = dvd_field(image, 0), dvd_field(image, 1)
    top_at, bottom_at = 4, 4 + len(top)
    control_at = bottom_at + len(bottom)
    x1, y1 = x + image.width - 1, y + image.height - 1
    stop = round((event["end_ms"] - event["start_ms"]) * 90 / 1024)
    first = bytearray(struct.pack(">HH", 0, 0))  # date 0, next: filled below
    first += bytes((0x01, 0x03, colors[0], colors[1], 0x04, 0xFF, 0xF0))  # start; colours; contrast (bg 0)
    first += bytes((0x05, x >> 4, (x & 0xF) << 4 | x1 >> 8, x1 & 0xFF, y >> 4, (y & 0xF) << 4 | y1 >> 8, y1 & 0xFF))
    first += struct.pack(">BHH", 0x06, top_at, bottom_at) + b"\xff"
    second_at = control_at + len(first)
    struct.pack_into(">H", first, 2, second_at)
    second = struct.pack(">HHB", stop, second_at, 0x02) + b"\xff"
    body = top + bottom + bytes(first) + second
    return struct.pack(">HH", 4 + len(body), control_at) + body, (stop * 1024) // 90


def pes_pts(pts):
    return bytes((0x21 | (pts >> 29) & 0x0E, (pts >> 22) & 0xFF, 0x01 | (pts >> 14) & 0xFE, (pts >> 7) & 0xFF,
                  0x01 | (pts << 1) & 0xFE))


def pack_header(scr):
    return b"\0\0\1\xba" + bytes((0x44 | (scr >> 27) & 0x38 | (scr >> 28) & 0x03, (scr >> 20) & 0xFF,
                                  0x04 | (scr >> 12) & 0xF8 | (scr >> 13) & 0x03, (scr >> 5) & 0xFF,
                                  0x04 | (scr << 3) & 0xF8, 0x01)) + b"\x01\x89\xc3\xf8"


def vobsub(events, style, width, height, palette, language):
    """(.idx text, .sub bytes, the end_ms ffmpeg reports per event)."""
    sub, stamps, ends = bytearray(), [], []
    for event in events:
        unit, length_ms = spu(event, style, width, height, (0x32, 0x10))  # index 3->3, 2->2, 1->1, 0->0
        ends.append(event["start_ms"] + length_ms)
        stamps.append((event["start_ms"], len(sub)))
        pts = event["start_ms"] * 90
        rest, first = unit, True
        while rest:
            header = pes_pts(pts) if first else b""
            room = 2048 - 14 - 6 - 3 - len(header) - 1
            chunk, rest = rest[:room], rest[room:]
            left = room - len(chunk)
            stuffing = b"\xff" * left if 0 < left < 6 else b""
            flags = bytes((0x81, 0x80 if first else 0x00, len(header) + len(stuffing))) + header + stuffing
            pes = flags + b"\x20" + chunk
            packet = pack_header(pts) + b"\0\0\1\xbd" + struct.pack(">H", len(pes)) + pes
            if len(packet) < 2048:
                pad = 2048 - len(packet) - 6
                packet += b"\0\0\1\xbe" + struct.pack(">H", pad) + b"\xff" * pad
            assert len(packet) == 2048, len(packet)
            sub += packet
            first = False
    idx = ["# VobSub index file, v7 (do not modify this line!)", f"size: {width}x{height}", "org: 0, 0",
           "scale: 100%, 100%", "alpha: 100%", "smooth: OFF", "fadein/out: 0, 0", "align: OFF at LEFT TOP",
           "time offset: 0", "forced subs: OFF", "palette: " + ", ".join("%02x%02x%02x" % c for c in palette),
           "custom colors: OFF, tridx: 0000, colors: 000000, 000000, 000000, 000000", "langidx: 0",
           f"id: {language}, index: 0"]
    for ms, pos in stamps:
        idx.append("timestamp: %02d:%02d:%02d:%03d, filepos: %09x" % (ms // 3600000, ms // 60000 % 60, ms // 1000 % 60,
                                                                     ms % 1000, pos))
    return "\n".join(idx) + "\n", bytes(sub), ends


def dvd_palette(fill, outline, anti_alias):
    """The idx's 16 colours; SET_COLOR points 0->0, 1->1 (fill), 2->2 (outline), 3->3."""
    return [(0, 0, 0), fill, outline, anti_alias] + [(128, 128, 128)] * 12


# ---------------------------------------------------------------------------------------------
# Reading them back (the peers' pictures, and a check of the writers): a track taken out of the
# film with mkvextract, decoded to RGBA pictures.

def extract(film, index, folder):
    """Track `index` (ffprobe's numbering, which is mkvmerge's track id here) of FILM into FOLDER:
    the .sup, or the .idx and .sub; returns the path of the .sup or .idx."""
    os.makedirs(folder, exist_ok=True)
    codec = json.loads(run(["ffprobe", "-v", "error", "-show_streams", "-of", "json", film]))["streams"][index]["codec_name"]
    target = os.path.join(folder, f"track{index}." + ("sup" if codec == "hdmv_pgs_subtitle" else "idx"))
    run(["mkvextract", film, "tracks", f"{index}:{target}"])
    return target


def read_sup(data):
    """The events of a .sup: [(start_ms, end_ms, RGBA picture of the whole canvas)]; an event ends
    at the next display set. Palette entries are taken as BT.709 (the canvas is HD here)."""
    events, palette, objects, shown, at = [], {}, {}, None, 0
    while at + 13 <= len(data):
        if data[at:at + 2] != b"PG":
            raise ValueError(f"no PG segment at {at}")
        pts, _, kind, size = struct.unpack(">IIBH", data[at + 2:at + 13])
        body, at = data[at + 13:at + 13 + size], at + 13 + size
        if kind == 0x16:
            width, height = struct.unpack(">HH", body[:4])
            count = body[10]
            if shown is not None:
                events.append((shown[0], pts // 90, shown[1]))
                shown = None
            placements = [struct.unpack(">HBBHH", body[11 + 8 * k:19 + 8 * k]) for k in range(count)]
            pending = (pts, width, height, placements)
        elif kind == 0x14:
            for j in range(2, len(body), 5):
                i, y, cr, cb, a = body[j:j + 5]
                palette[i] = rgb709(y, cb, cr) + (a,)
        elif kind == 0x15:
            oid, flag = struct.unpack(">HxB", body[:4])
            objects[oid] = (body[7:] if flag & 0x80 else objects[oid] + body[4:])
        elif kind == 0x80 and pending is not None:
            pts, width, height, placements = pending
            if placements:
                canvas = Image.new("RGBA", (width, height), (0, 0, 0, 0))
                for oid, _, _, x, y in placements:
                    canvas.alpha_composite(decode_pgs_object(objects[oid], palette), (x, y))
                shown = (pts // 90, canvas)
            pending = None
    return events


def rgb709(y, cb, cr):
    y, cb, cr = (y - 16) * 255 / 219, (cb - 128) * 255 / 224, (cr - 128) * 255 / 224
    clamp = lambda v: max(0, min(255, round(v)))  # noqa: E731
    return clamp(y + 1.5748 * cr), clamp(y - 0.1873 * cb - 0.4681 * cr), clamp(y + 1.8556 * cb)


def decode_pgs_object(data, palette):
    width, height = struct.unpack(">HH", data[:4])
    pixels, at = bytearray(), 4
    while at < len(data):
        b = data[at]
        at += 1
        if b:
            pixels.append(b)
            continue
        flag = data[at]
        at += 1
        if flag == 0:
            continue  # end of a line
        n = flag & 0x3F
        if flag & 0x40:
            n = n << 8 | data[at]
            at += 1
        colour = 0
        if flag & 0x80:
            colour = data[at]
            at += 1
        pixels += bytes((colour,)) * n
    image = Image.frombytes("P", (width, height), bytes(pixels[:width * height]))
    flat = []
    for i in range(256):
        flat += palette.get(i, (0, 0, 0, 0))
    image.putpalette(flat, "RGBA")
    return image.convert("RGBA")


def read_vobsub(idx_path):
    """The events of a VobSub .idx/.sub: [(start_ms, end_ms, RGBA picture of the canvas)], start the
    .idx timestamp (+ STA_DSP's delay), end from STP_DSP (floor(delay × 1024 / 90) ms)."""
    with open(idx_path, encoding="latin-1") as f:
        text = f.read()
    width, height = map(int, re.search(r"size:\s*(\d+)x(\d+)", text).groups())
    palette = [tuple(bytes.fromhex(c.strip())) for c in re.search(r"palette:(.*)", text).group(1).split(",")]
    stamps = [(int(h) * 3600000 + int(m) * 60000 + int(s) * 1000 + int(ms), int(pos, 16)) for h, m, s, ms, pos in
              re.findall(r"timestamp:\s*(\d+):(\d+):(\d+):(\d+),\s*filepos:\s*([0-9a-fA-F]+)", text)]
    with open(idx_path[:-4] + ".sub", "rb") as f:
        sub = f.read()
    events = []
    for ms, pos in stamps:
        unit = spu_at(sub, pos)
        start, end, picture = decode_spu(unit, palette, width, height)
        events.append((ms + start, ms + end, picture))
    return events


def spu_at(sub, pos):
    """The SPU beginning in the pack at `pos`, gathered from its PES packets."""
    data, size = bytearray(), None
    while size is None or len(data) < size:
        pack = sub[pos:pos + 2048]
        at = 14 + (pack[13] & 7)
        while at + 6 <= len(pack):
            code, length = pack[at + 3], struct.unpack(">H", pack[at + 4:at + 6])[0]
            if code == 0xBD:
                header = pack[at + 8]
                payload = pack[at + 9 + header + 1:at + 6 + length]
                data += payload
                if size is None:
                    size = struct.unpack(">H", data[:2])[0]
            at += 6 + length
        pos += 2048
    return bytes(data[:size])


def decode_spu(unit, palette, width, height):
    control = struct.unpack(">H", unit[2:4])[0]
    start = end = 0
    colours, alphas, area, fields = (0, 1, 2, 3), (0, 15, 15, 15), None, None
    at = control
    while True:
        date, following = struct.unpack(">HH", unit[at:at + 4])
        i = at + 4
        while unit[i] != 0xFF:
            cmd = unit[i]
            if cmd in (0x00, 0x01):
                start = date * 1024 // 90
                i += 1
            elif cmd == 0x02:
                end = date * 1024 // 90
                i += 1
            elif cmd == 0x03:
                colours = (unit[i + 2] & 0xF, unit[i + 2] >> 4, unit[i + 1] & 0xF, unit[i + 1] >> 4)
                i += 3
            elif cmd == 0x04:
                alphas = (unit[i + 2] & 0xF, unit[i + 2] >> 4, unit[i + 1] & 0xF, unit[i + 1] >> 4)
                i += 3
            elif cmd == 0x05:
                b = unit[i + 1:i + 7]
                area = (b[0] << 4 | b[1] >> 4, (b[1] & 0xF) << 8 | b[2], b[3] << 4 | b[4] >> 4, (b[4] & 0xF) << 8 | b[5])
                i += 7
            elif cmd == 0x06:
                fields = struct.unpack(">HH", unit[i + 1:i + 5])
                i += 5
            else:
                raise ValueError(f"SPU command {cmd:#x}")
        if following == at:
            break
        at = following
    x0, x1, y0, y1 = area
    w, h = x1 - x0 + 1, y1 - y0 + 1
    rows = [None] * h
    for parity, offset in enumerate(fields):
        nibble = offset * 2
        for y in range(parity, h, 2):
            row = bytearray()
            while len(row) < w:
                v = 0
                for digits in range(1, 5):
                    v = v << 4 | (unit[nibble // 2] >> (4 * (1 - nibble % 2)) & 0xF)
                    nibble += 1
                    if v >= 4 ** digits or digits == 4:  # 1-3, 4-15, 16-63 pixels; or 64-255 / to the end
                        break
                count, colour = v >> 2, v & 3
                row += bytes((colour,)) * (count if count else w - len(row))
            nibble += nibble % 2
            rows[y] = bytes(row[:w])
    image = Image.frombytes("P", (w, h), b"".join(rows))
    flat = []
    for k in range(4):
        flat += palette[colours[k]] + (alphas[k] * 17,)
    image.putpalette(flat + [0] * (1024 - len(flat)), "RGBA")
    canvas = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    canvas.alpha_composite(image.convert("RGBA"), (x0, y0))
    return start, end, canvas


# ---------------------------------------------------------------------------------------------
# Variants, films

PGS_SIZE, DVD_SIZE = (1920, 1080), (720, 480)
VARIANTS = {
    "pgs-clean": ("pgs", lambda: Style("dejavu", 54, 3, (255, 255, 255))),
    "pgs-yellow": ("pgs", lambda: Style("liberation-sans", 58, 3, (235, 220, 40))),
    "pgs-thin": ("pgs", lambda: Style("liberation-serif", 60, 1, (255, 255, 255))),
    "pgs-box": ("pgs", lambda: Style("liberation-sans", 54, 0, (255, 255, 255), box=True)),
    "pgs-small": ("pgs", lambda: Style("dejavu", 34, 2, (255, 255, 255), margin=50)),
    "dvd-white": ("dvd", lambda: Style("liberation-sans", 26, 2, (255, 255, 255), margin=30)),
    "dvd-yellow": ("dvd", lambda: Style("dejavu", 24, 2, (240, 225, 30), margin=30)),
    "dvd-small": ("dvd", lambda: Style("liberation-sans", 20, 1, (255, 255, 255), margin=24)),
}
DVD_COLOURS = {"dvd-white": ((255, 255, 255), (0, 0, 0), (128, 128, 128)),
               "dvd-yellow": ((240, 225, 30), (0, 0, 0), (120, 112, 16)),
               "dvd-small": ((255, 255, 255), (0, 0, 0), (128, 128, 128))}
LANGUAGE_NAMES = {"eng": "English", "ger": "Deutsch", "fre": "Français", "jpn": "Japanese"}
ISO639_1 = {"eng": "en", "ger": "de", "fre": "fr", "jpn": "ja"}

# A film: its file and tracks (variant, language, events, seed). The test films spread the
# variants over three languages; no-data.mkv has a language without Tesseract data here.
TEST_FILMS = [
    ("english.mkv", [("pgs-clean", "eng", 36, 1), ("pgs-box", "eng", 30, 2), ("dvd-white", "eng", 36, 3),
                     ("dvd-small", "eng", 30, 4)]),
    ("deutsch.mkv", [("pgs-yellow", "ger", 32, 5), ("pgs-small", "ger", 30, 6), ("dvd-yellow", "ger", 32, 7)]),
    ("francais.mkv", [("pgs-thin", "fre", 32, 8), ("pgs-clean", "fre", 30, 9), ("dvd-white", "fre", 28, 10)]),
    ("no-data.mkv", [("pgs-clean", "jpn", 25, 11)]),
]
# The PGS track alone: pgsrip reads that one track, and the mount's reading pass reads every picture
# track of a film at once, so a second track would be work the peer does not do.
BENCH_FILMS = [("bench.mkv", [("pgs-clean", "eng", 480, 21)])]
# The bench's smoke run (BENCH_SMALL): the bench film, shorter.
SMALL_BENCH_FILMS = [("bench.mkv", [("pgs-clean", "eng", 60, 21)])]


def run(argv):
    # mkvmerge cuts non-ASCII track names short under the C locale (the bench sets LC_ALL=C).
    environment = dict(os.environ, LC_ALL="C.UTF-8")
    done = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, text=True, check=False, env=environment)
    if done.returncode not in (0, 1) or (done.returncode == 1 and argv[0] != "mkvmerge"):
        raise RuntimeError(f"{' '.join(argv[:12])} ...: {done.stdout[-1000:]}{done.stderr.strip()[-2000:]}")
    return done.stdout


def make_track(out, stem, variant, language, count, seed):
    """Writes the track's file(s) in OUT; returns (mkvmerge inputs, truth entry without index)."""
    kind, style = VARIANTS[variant][0], VARIANTS[variant][1]()
    events = plan_events(language, count, seed)
    if kind == "pgs":
        path = os.path.join(out, f"{stem}.sup")
        with open(path, "wb") as f:
            f.write(pgs_display_sets(events, style, *PGS_SIZE))
        size, codec, inputs = PGS_SIZE, "hdmv_pgs_subtitle", [path]
    else:
        for event in events:
            event["forced"] = False  # the VobSub tracks carry no forced events
        idx, sub, ends = vobsub(events, style, *DVD_SIZE, dvd_palette(*DVD_COLOURS[variant]), ISO639_1[language])
        for event, end in zip(events, ends):
            event["end_ms"] = end
        with open(os.path.join(out, f"{stem}.sub"), "wb") as f:
            f.write(sub)
        with open(os.path.join(out, f"{stem}.idx"), "w", encoding="ascii") as f:
            f.write(idx)
        size, codec, inputs = DVD_SIZE, "dvd_subtitle", [os.path.join(out, f"{stem}.idx")]
    name = f"{LANGUAGE_NAMES[language]} {variant}"
    return inputs, name, {"variant": variant, "codec": codec, "language": language, "name": name,
                          "width": size[0], "height": size[1], "events": events}


def make_film(out, file, tracks):
    """FILE in OUT: a 320x180 5 fps testsrc2 H.264 video as long as the events, and the tracks."""
    parts, entries, names = [], [], []
    stem = file[:-len(".mkv")]
    for n, (variant, language, count, seed) in enumerate(tracks):
        inputs, name, entry = make_track(out, f"{stem}-{n}-{variant}", variant, language, count, seed)
        parts += ["--language", f"0:{language}", "--track-name", f"0:{name}", "--default-track-flag", "0:no",
                  "--forced-display-flag", "0:no", *inputs]
        entries.append(entry)
        names.append(name)
    seconds = max(e["end_ms"] for t in entries for e in t["events"]) / 1000 + 1
    video = os.path.join(out, f"{stem}-video.mkv")
    run(["ffmpeg", "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", f"testsrc2=s=320x180:r=5:d={seconds:.1f}",
         "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", video])
    target = os.path.join(out, file)
    run(["mkvmerge", "-q", "-o", target + ".part", video, *parts])
    os.replace(target + ".part", target)
    for leftover in [video] + [p for p in parts if p.startswith(out)]:
        os.remove(leftover)
        if leftover.endswith(".idx"):
            os.remove(leftover[:-4] + ".sub")
    streams = json.loads(run(["ffprobe", "-v", "error", "-show_streams", "-of", "json", target]))["streams"]
    for entry in entries:
        stream = next(s for s in streams if s.get("tags", {}).get("title") == entry["name"])
        entry["index"] = stream["index"]
        if stream["codec_name"] != entry["codec"]:
            raise RuntimeError(f"{file}: stream {stream['index']} is {stream['codec_name']}, not {entry['codec']}")
    check_film(target, entries)
    return {"file": file, "tracks": [{"index": e.pop("index"), **e} for e in entries]}


def check_film(path, entries):
    """The packets' times against the events (PGS: a display set at each start and each end; DVD:
    one SPU at each start), and every subtitle stream decoded by ffmpeg without an error."""
    packets = json.loads(run(["ffprobe", "-v", "error", "-select_streams", "s", "-show_entries",
                              "packet=stream_index,pts_time", "-of", "json", path]))["packets"]
    for entry in entries:
        times = [round(float(p["pts_time"]) * 1000) for p in packets if p["stream_index"] == entry["index"]]
        if entry["codec"] == "hdmv_pgs_subtitle":
            expected = [t for e in entry["events"] for t in (e["start_ms"], e["end_ms"])]
        else:
            expected = [e["start_ms"] for e in entry["events"]]
        if times != expected:
            raise RuntimeError(f"{path} stream {entry['index']}: packet times {times[:6]}... "
                               f"are not the events' {expected[:6]}...")
    for entry in entries:
        frames = json.loads(run(["ffprobe", "-v", "error", "-select_streams", str(entry["index"]), "-show_frames",
                                 "-of", "json", path]))["frames"]
        if entry["codec"] == "hdmv_pgs_subtitle":
            # A display set that shows the event, then one that clears it (no end time of its own).
            ok = [bool(int(f["num_rects"])) for f in frames] == [True, False] * len(entry["events"])
        else:
            ok = [(int(f["pts"]) // 1000, int(f["end_display_time"])) for f in frames] == [
                (e["start_ms"], e["end_ms"] - e["start_ms"]) for e in entry["events"]]
        if not ok or len(frames) != len(packets_of(packets, entry)):
            raise RuntimeError(f"{path} stream {entry['index']}: ffprobe decodes {len(frames)} subtitles that are not "
                               f"the {len(entry['events'])} events")


def packets_of(packets, entry):
    return [p for p in packets if p["stream_index"] == entry["index"]]


def make(out, bench=False):
    """Makes the films in OUT (kept when made by this recipe); returns what truth.json holds.
    `bench`: False (the test films), True (the bench film) or "small" (the bench film, 60 events)."""
    os.makedirs(out, exist_ok=True)
    films = SMALL_BENCH_FILMS if bench == "small" else BENCH_FILMS if bench else TEST_FILMS
    recipe = json.dumps([RECIPE, films])
    truth_path = os.path.join(out, "truth.json")
    try:
        with open(truth_path, encoding="utf-8") as f:
            truth = json.load(f)
        if truth.get("recipe") == recipe and all(os.path.exists(os.path.join(out, film["file"])) for film in truth["films"]):
            return truth
    except (OSError, ValueError):
        pass
    from concurrent.futures import ProcessPoolExecutor
    with ProcessPoolExecutor(max_workers=min(4, os.cpu_count() or 1)) as pool:
        made = list(pool.map(make_film, [out] * len(films), [f for f, _ in films], [t for _, t in films]))
    truth = {"recipe": recipe, "films": made}
    with open(truth_path + ".part", "w", encoding="utf-8") as f:
        json.dump(truth, f, ensure_ascii=False, indent=1)
    os.replace(truth_path + ".part", truth_path)
    return truth


if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1].startswith("-"):
        sys.exit(__doc__)
    made = make(sys.argv[1], bench="--bench" in sys.argv[2:])
    print(json.dumps({"films": [{"file": f["file"], "tracks": [(t["index"], t["variant"], t["language"], len(t["events"]))
                                                               for t in f["tracks"]]} for f in made["films"]]}))
