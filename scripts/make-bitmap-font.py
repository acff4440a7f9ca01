#!/usr/bin/env python3
"""Writes Sources/MediaKit/Storyboards/BitmapFont+Glyphs.swift: the 95 printable ASCII glyphs of
the X11 misc-fixed 6x10 font ("Public domain font. Share and enjoy.", font-misc-misc's COPYING),
as 10 rows of 6 bits each. Run by hand, never by the build:

    apt-get download xfonts-base && dpkg-deb -x xfonts-base_*.deb /tmp/xfonts-base
    pip install Pillow
    python3 scripts/make-bitmap-font.py /tmp/xfonts-base/usr/share/fonts/X11/misc/6x10-ISO8859-1.pcf.gz
"""

import gzip
import os
import sys

from PIL import PcfFontFile

WIDTH, HEIGHT = 6, 10


def rows(font, code):
    _, _, _, image = font.glyph[code]
    assert image.size == (WIDTH, HEIGHT), image.size
    out = []
    for y in range(HEIGHT):
        bits = 0
        for x in range(WIDTH):
            bits = bits << 1 | (1 if image.getpixel((x, y)) else 0)
        out.append(bits)
    return out


def main(path):
    font = PcfFontFile.PcfFontFile(gzip.open(path))
    lines = [
        "// Made by scripts/make-bitmap-font.py from the X11 misc-fixed 6x10 font (public domain).",
        "// Do not edit by hand.",
        "",
        "extension BitmapFont {",
        "    /// Rows of the glyphs of U+0020…U+007E, 10 a glyph from the top, 6 bits a row (the high",
        "    /// bit is the left column).",
        "    static let glyphRows: [UInt8] = [",
    ]
    for code in range(0x20, 0x7F):
        values = ", ".join(f"0x{r:02X}" for r in rows(font, code))
        label = {0x20: "space", 0x5C: "backslash"}.get(code, chr(code))
        lines.append(f"        {values},  // {label}")
    lines += ["    ]", "}", ""]
    target = os.path.join(os.path.dirname(__file__), "..", "Sources", "MediaKit", "Storyboards",
                          "BitmapFont+Glyphs.swift")
    with open(target, "w") as f:
        f.write("\n".join(lines))


if __name__ == "__main__":
    main(sys.argv[1])
