#!/usr/bin/env bash
# make-chapter-media.sh: small media files whose chapters the chapter tests read.
#
# Usage:  make-chapter-media.sh OUTDIR
#
# Needs: ffmpeg (libx264, libvpx), mkvmerge and mkvpropedit (mkvtoolnix), python3.
# Made in a few seconds; kept until this script, chapters-multilingual.xml or
# mp4-chapter-tracks.py changes (OUTDIR/.stamp records their checksum).
#
#   multilingual.mkv     12 s, mkvmerge --chapters chapters-multilingual.xml: two editions (the
#                        second default), titles in eng/fre/ger (+ spa/por, und), nested, hidden,
#                        zero-length, overlapping and disabled chapters, "/", quotes, emoji, a
#                        300-character title.
#   chapters-at-end.mkv  12 s, 60 chapters added by mkvpropedit after the clusters: found only
#                        through the SeekHead.
#   ffmpeg-chapters.webm 3 s VP8, chapters written by ffmpeg's Matroska muxer.
#   ffmetadata.mp4       12 s, ffmpeg chapters (one text track, Mac language code 0, and Nero chpl);
#                        moov at the front.
#   two-languages.mp4    12 s, three chapters, two chapter text tracks (eng UTF-8; fra UTF-16 with
#                        an elng "fr-CA") and a PNG chapter image track, written by
#                        mp4-chapter-tracks.py after ffmpeg; moov at the end.
#   image-{1,2,3}.png    the chapter images of two-languages.mp4, to compare bytes.
#   jpeg-chapter-track.mp4  12 s, chapters at 0, 4 and 8 s ("Navy", "Dark red", "Dark green") and a
#                        JPEG chapter image track of three 64x36 pictures of those colours, all
#                        written by ffmpeg (its mov muxer: the mp4 one stores JPEG as 'mp4v', not
#                        QuickTime's 'jpeg'); mp4-chapter-tracks.py --reference then adds the JPEG
#                        track to the video track's tref/chap, after the chapter text track. FFmpeg
#                        follows only the first reference, so it sees a second video stream.
#   nero-only.m4a        audio, chapters only in Nero chpl (ffmpeg's tref/chap renamed away).
#   id3-chapters.mp3     ID3v2 CHAP frames: read through libavformat.

set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${1:?usage: make-chapter-media.sh OUTDIR}
for tool in ffmpeg mkvmerge mkvpropedit python3; do
  command -v "$tool" >/dev/null || { echo "make-chapter-media.sh: $tool not found (apt-get install ffmpeg mkvtoolnix python3)" >&2; exit 1; }
done
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
STAMP="$OUT/.stamp"
WANT=$(cat "$0" "$HERE/chapters-multilingual.xml" "$HERE/mp4-chapter-tracks.py" | sha256sum | cut -c1-16)
if [[ -f $STAMP && $(<"$STAMP") == "$WANT" ]]; then exit 0; fi
rm -f "$STAMP"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/chapter-media.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
FF=(ffmpeg -nostdin -hide_banner -loglevel error -y)
CLIP=(-f lavfi -t 12 -i testsrc2=s=160x90:r=10 -f lavfi -t 12 -i sine=frequency=440:sample_rate=44100)
CODECS=(-c:v libx264 -preset ultrafast -g 10 -c:a aac -b:a 48k -ac 1)

# Matroska: mkvmerge writes every ChapterDisplay (and adds the BCP-47 codes).
"${FF[@]}" "${CLIP[@]}" "${CODECS[@]}" "$WORK/base.mkv"
long=$(python3 -c "print(('A very long chapter title that keeps going, ' * 10)[:300])")
sed "s|LONGTITLE|$long|" "$HERE/chapters-multilingual.xml" >"$WORK/chapters.xml"
mkvmerge -q -o "$WORK/multilingual.mkv" --chapters "$WORK/chapters.xml" "$WORK/base.mkv"

# Sixty chapters, too many for the space mkvmerge leaves at the front: mkvpropedit appends them.
{
  echo '<?xml version="1.0" encoding="UTF-8"?><Chapters><EditionEntry>'
  for i in $(seq 0 59); do
    printf '<ChapterAtom><ChapterUID>%d</ChapterUID><ChapterTimeStart>00:00:%02d.%03d</ChapterTimeStart>' $((i + 1)) $((i / 5)) $((i % 5 * 200))
    printf '<ChapterDisplay><ChapterString>Chapter %d of sixty, with a title long enough to fill space</ChapterString>' $((i + 1))
    printf '<ChapterLanguage>eng</ChapterLanguage></ChapterDisplay></ChapterAtom>\n'
  done
  echo '</EditionEntry></Chapters>'
} >"$WORK/sixty.xml"
mkvmerge -q -o "$WORK/chapters-at-end.mkv" "$WORK/base.mkv"
mkvpropedit -q "$WORK/chapters-at-end.mkv" --chapters "$WORK/sixty.xml"

cat >"$WORK/meta.txt" <<'META'
;FFMETADATA1
title=Chapter fixture
[CHAPTER]
TIMEBASE=1/1000
START=0
END=2500
title=Cold open
[CHAPTER]
TIMEBASE=1/1000
START=2500
END=7000
title=Act 1 / "The Call" 📞
[CHAPTER]
TIMEBASE=1/1000
START=7000
END=12000
title=Act 2
META
"${FF[@]}" -f lavfi -t 3 -i testsrc2=s=64x36:r=10 -i "$WORK/meta.txt" -map 0 -map_chapters 1 \
  -c:v libvpx -b:v 100k -deadline realtime "$WORK/ffmpeg-chapters.webm"
"${FF[@]}" "${CLIP[@]}" -i "$WORK/meta.txt" -map 0 -map 1 -map_metadata 2 -map_chapters 2 "${CODECS[@]}" \
  -movflags +faststart "$WORK/ffmetadata.mp4"

# Two chapter text tracks and an image track: ffmpeg cannot write them, so the helper does.
colours=(darkred darkgreen navy)
for n in 1 2 3; do
  "${FF[@]}" -f lavfi -i "color=${colours[n - 1]}:s=64x36" -frames:v 1 "$WORK/image-$n.png"
done
"${FF[@]}" "${CLIP[@]}" -map 0 -map 1 -map_chapters -1 "${CODECS[@]}" "$WORK/base.mp4"
cat >"$WORK/spec.json" <<SPEC
{"starts": [0, 4, 8], "end": 12,
 "texts": [{"language": "eng", "titles": ["Arrival", "The Deal / Part 2", "Departure 🚀"]},
           {"language": "fra", "elng": "fr-CA", "utf16": true,
            "titles": ["Arrivée", "L'accord / 2e partie", "Départ 🚀"]}],
 "images": ["$WORK/image-1.png", "$WORK/image-2.png", "$WORK/image-3.png"]}
SPEC
python3 "$HERE/mp4-chapter-tracks.py" "$WORK/base.mp4" "$WORK/two-languages.mp4" "$WORK/spec.json"

# A JPEG chapter image track that ffmpeg writes itself and does not name as a chapter track: the
# tracks are 1 video, 2 audio, 3 JPEG, 4 chapter text (tref/chap of every track names 4).
cat >"$WORK/thirds.txt" <<'META'
;FFMETADATA1
[CHAPTER]
TIMEBASE=1/1000
START=0
END=4000
title=Navy
[CHAPTER]
TIMEBASE=1/1000
START=4000
END=8000
title=Dark red
[CHAPTER]
TIMEBASE=1/1000
START=8000
END=12000
title=Dark green
META
pictures="color=navy:s=64x36:r=1:d=4[a];color=darkred:s=64x36:r=1:d=4[b];color=darkgreen:s=64x36:r=1:d=4[c]"
"${FF[@]}" "${CLIP[@]}" -f lavfi -i "$pictures;[a][b][c]concat=n=3,fps=1/4[out0]" -i "$WORK/thirds.txt" \
  -map 0 -map 1 -map 2 -map_chapters 3 "${CODECS[@]}" -c:v:1 mjpeg -f mov "$WORK/jpeg-track.mp4"
python3 "$HERE/mp4-chapter-tracks.py" --reference "$WORK/jpeg-track.mp4" "$WORK/jpeg-chapter-track.mp4" 1 3

# Nero chapters only: ffmpeg writes both a chapter track and chpl; rename the reference away
# (same length, so nothing moves).
"${FF[@]}" -f lavfi -t 12 -i sine=frequency=220:sample_rate=44100 -i "$WORK/meta.txt" -map 0 -map_chapters 1 \
  -c:a aac -b:a 48k -ac 1 "$WORK/nero-only.m4a"
python3 - "$WORK/nero-only.m4a" <<'PY'
import sys
path = sys.argv[1]
data = bytearray(open(path, "rb").read())
at = data.find(b"tref")
assert at > 0 and data[at + 8:at + 12] == b"chap", "no tref/chap to rename"
data[at + 8:at + 12] = b"xxxx"
open(path, "wb").write(data)
PY

"${FF[@]}" -f lavfi -t 12 -i sine=frequency=330:sample_rate=44100 -i "$WORK/meta.txt" -map 0 -map_chapters 1 \
  -c:a libmp3lame -b:a 64k -id3v2_version 3 "$WORK/id3-chapters.mp3"

for f in multilingual.mkv chapters-at-end.mkv ffmpeg-chapters.webm ffmetadata.mp4 two-languages.mp4 \
         image-1.png image-2.png image-3.png jpeg-chapter-track.mp4 nero-only.m4a id3-chapters.mp3; do
  mv -f "$WORK/$f" "$OUT/$f"
done
printf '%s\n' "$WANT" >"$STAMP"
echo "chapter media in $OUT"
