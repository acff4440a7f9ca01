"""dolby-vision: the first read of `thumbs/at-T.jpg` of a 4K Dolby Vision profile 5 clip (the RPU's
reshaping applied, then tone mapping) against the ffmpeg command a user would run, which shows the
base layer's IPT as if it were YCbCr.

The clip is made at bench time and kept beside the media (CACHE/MODE-dv/), as the pictures
section keeps its 4K PQ clip: testsrc2 at 3840x2160, its BT.709 values taken to PQ BT.2020 with SDR
white at 1000 nits, coded as ICtCp (zscale; full range, 10-bit 4:2:0) by libx265 with its
`dolby-vision-profile=5`; one RPU (`rpu_nal_unit`) appended to each access unit of the raw HEVC
stream; muxed by mkvmerge, which writes the Dolby Vision configuration record. The RPU says: no
reshaping (one linear piece per component) and ICtCp's matrices in place of IPTPQc2's, so a
Dolby Vision renderer shows the same picture as the pictures section's HDR10 clip."""

import os
import shutil
import subprocess

import media
from measure import BenchError, Cycle, Peer, output
from sections import pictures

ID = "dolby-vision"
CLIP = "dv5-4k.mkv"
GOP = 2.0  # seconds between keyframes (50 frames at 25 fps), as the HDR10 clip
FFMPEG_JPG = "ffmpeg -ss T -frames:v 1 -vf scale=320:-2 out.jpg"


def run(bench):
    missing = [tool for tool in ("mkvmerge",) if not shutil.which(tool)]
    if missing:
        bench.section(ID, "Dolby Vision profile 5 thumbnails", "skipped: mkvmerge is not installed (mkvtoolnix)")
        return
    clip = make_clip(os.path.dirname(bench.media), bench.mode)
    length = media.duration(clip)
    out = os.path.join(bench.work, "dolby-vision-out")
    os.makedirs(out, exist_ok=True)
    bench.section(ID, "Dolby Vision profile 5 thumbnails",
                  f"`{CLIP}` ({media.video_description(clip)} 10-bit, {length:.0f} s, a keyframe every {GOP:g} s; "
                  "made at bench time: testsrc2 taken to PQ BT.2020 with SDR white at 1000 nits, coded as ICtCp by "
                  "libx265 with `dolby-vision-profile=5`, an RPU in every access unit saying no reshaping and "
                  "ICtCp's matrices, muxed by mkvmerge): a first read (`cp`) of `thumbs/at-T.jpg`, for which "
                  "mediafs decodes, scales, applies the RPU and tone-maps, against "
                  f"`ffmpeg -ss T -i F -frames:v 1 -vf scale=320:-2 out.jpg`, which shows the IPT planes as YCbCr "
                  "(green and purple: it does not apply the RPU) but decodes the same frames; each run at a "
                  "time no earlier run asked for, a little under half a GOP after a keyframe; runs alternate.")
    count = bench.runs * 2 + 4
    times = pictures.hdr_times(count, length, GOP)
    with bench.mount(os.path.dirname(clip), ID) as m:
        thumbs = m.path(CLIP, "thumbs")
        os.listdir(thumbs)
        check(bench, clip, thumbs, out, times[-1])
        first_read(bench, clip, thumbs, out, times)
        bench.peak_rss(m, "daemon after the Dolby Vision section (4K profile 5 clip)")


def check(bench, clip, thumbs, out, at):
    """The mount's thumbnail is the picture: nearer the same testsrc2 frame of the pictures
    section's HDR10 clip tone-mapped by ffmpeg than the ffmpeg command's frame of the profile 5
    clip."""
    jpg = os.path.join(thumbs, f"at-{at}s.jpg")
    pictures.read_exact(jpg)
    plain = os.path.join(out, "check-plain.png")
    subprocess.run(ffmpeg_jpg(clip, at, plain), check=True, stdin=subprocess.DEVNULL)
    far = pictures.psnr(jpg, plain)
    hdr10 = media.make_hdr_pq_4k(os.path.dirname(bench.media), bench.mode)
    mapped = os.path.join(out, "check-hdr10.png")
    subprocess.run(pictures.ffmpeg_tonemap(hdr10, at, mapped), check=True, stdin=subprocess.DEVNULL)
    near = pictures.psnr(jpg, mapped)
    if near <= far:
        raise BenchError(f"at-{at}s.jpg of the profile 5 clip is {near:.1f} dB from the HDR10 clip's frame tone-mapped "
                         f"and {far:.1f} dB from the ffmpeg command's frame: the RPU was not applied")
    bench.note(ID, f"checked: at-{at}s.jpg is {near:.1f} dB (PSNR) from the same testsrc2 frame of the pictures "
                   f"section's HDR10 clip tone-mapped by ffmpeg's chain, {far:.1f} dB from the ffmpeg command's frame "
                   "of the profile 5 clip (its IPT read as YCbCr)")


def first_read(bench, clip, thumbs, out, times):
    ref_times, mnt_times = Cycle(times), Cycle(times)
    label = "first read of at-T.jpg, 4K Dolby Vision profile 5"
    t = bench.compare(ID, label, [
        Peer(FFMPEG_JPG, lambda: ffmpeg_jpg(clip, ref_times.next(), os.path.join(out, "ref.jpg"))),
        Peer("mount", lambda: ["cp", os.path.join(thumbs, f"at-{mnt_times.next()}s.jpg"), os.path.join(out, "mnt.jpg")]),
    ], bench.runs, warmup=1)
    bench.ratio(ID, label, ("mount", t["mount"]), (FFMPEG_JPG, t[FFMPEG_JPG]))


def ffmpeg_jpg(src, at, target):
    return ["ffmpeg", "-nostdin", "-v", "error", "-y", "-ss", at, "-i", src, "-frames:v", "1", "-vf", "scale=320:-2",
            target]


# ---------------------------------------------------------------------------------------------
# The clip

def make_clip(cache, mode):
    """Makes (or finds) CACHE/MODE-dv/dv5-4k.mkv: 20 s (4 s with the small media); returns its path."""
    folder = os.path.join(cache, f"{mode}-dv")
    dest, partial = os.path.join(folder, CLIP), os.path.join(folder, ".partial-" + CLIP)
    hevc, stamp_path = os.path.join(folder, ".base-layer.hevc"), os.path.join(folder, ".stamp")
    argv = encode_command(4 if mode == "small" else 20, hevc)
    stamp = " ".join(argv) + " " + rpu_nal_unit().hex()
    try:
        with open(stamp_path, encoding="utf-8") as f:
            if f.read() == stamp and os.path.exists(dest):
                return dest
    except OSError:
        pass
    os.makedirs(folder, exist_ok=True)
    for stale in (dest, partial, hevc, stamp_path):
        if os.path.exists(stale):
            os.remove(stale)
    print(f"making {dest} (4K Dolby Vision profile 5, libx265; minutes on a loaded machine) ...", flush=True)
    output(argv, timeout=7200)
    with open(hevc, "rb") as f:
        stream = f.read()
    with open(hevc, "wb") as f:
        f.write(with_rpus(stream, rpu_nal_unit()))
    mux = subprocess.run(["mkvmerge", "-q", "-o", partial, "--default-duration", "0:25fps", hevc],
                         stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=600, check=False)
    if mux.returncode not in (0, 1):  # 1: warnings
        raise BenchError(f"mkvmerge failed ({mux.returncode}): {mux.stdout.strip()[:2000]}")
    os.remove(hevc)
    os.rename(partial, dest)
    with open(stamp_path, "w", encoding="utf-8") as f:
        f.write(stamp)
    return dest


def encode_command(seconds, out):
    source = (f"testsrc2=s=3840x2160:r=25:d={seconds},format=yuv420p,"
              "zscale=tin=bt709:min=bt709:pin=bt709:rin=tv:t=smpte2084:m=ictcp:p=bt2020:r=full:npl=1000,"
              "format=yuv420p10le")
    return ["ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i", source,
            "-c:v", "libx265", "-preset", "ultrafast", "-crf", "22", "-g", str(int(GOP * 25)),
            "-x265-params", "dolby-vision-profile=5:vbv-bufsize=100000:vbv-maxrate=100000:log-level=error",
            "-color_range", "pc", "-f", "hevc", out]


def with_rpus(stream, rpu):
    """`stream` (raw HEVC) with the NAL unit `rpu` after the last NAL unit of every access unit: an
    access unit starts at a delimiter, parameter set, prefix SEI or reserved prefix type, or at a
    picture's first slice, after a picture (H.265 7.4.2.4.4)."""
    starts, i = [], stream.find(b"\0\0\1")
    while i >= 0:
        starts.append(i + 3)
        i = stream.find(b"\0\0\1", i + 3)
    out, has_picture = bytearray(), False
    for k, start in enumerate(starts):
        end = starts[k + 1] - 3 if k + 1 < len(starts) else len(stream)
        nal = stream[start:end].rstrip(b"\0") if k + 1 < len(starts) else stream[start:end]
        kind = nal[0] >> 1 & 0x3F
        first_slice = kind < 32 and nal[2] & 0x80
        if has_picture and (first_slice or 32 <= kind <= 35 or kind == 39 or 41 <= kind <= 44 or 48 <= kind <= 55):
            out += b"\0\0\0\1" + rpu
            has_picture = False
        has_picture = has_picture or kind < 32
        out += b"\0\0\0\1" + nal
    if has_picture:
        out += b"\0\0\0\1" + rpu
    return bytes(out)


class Bits:
    """Bits, most significant first: fixed widths, Exp-Golomb (ue, se), the RPU's coefficients."""

    def __init__(self):
        self.bits = []

    def u(self, value, width):
        self.bits += [value >> i & 1 for i in range(width - 1, -1, -1)]

    def ue(self, value):
        self.u(0, (value + 1).bit_length() - 1)
        self.u(value + 1, (value + 1).bit_length())

    def se(self, value):
        self.ue(2 * value - 1 if value > 0 else -2 * value)

    def coefficient(self, value, denominator_bits=23):
        fixed = round(value * (1 << denominator_bits))
        self.se(fixed >> denominator_bits)
        self.u(fixed - (fixed >> denominator_bits << denominator_bits), denominator_bits)

    def bytes(self):
        self.bits += [0] * (-len(self.bits) % 8)
        return bytes(int("".join(map(str, self.bits[i:i + 8])), 2) for i in range(0, len(self.bits), 8))


def rpu_nal_unit():
    """One profile 5 RPU as an HEVC NAL unit of type 62 (header 7C 01, emulation prevention), as
    libavcodec/dovi_rpu.c reads it (TestSupport's DolbyVisionRPU writes the same syntax): fixed-point
    coefficients over 2^23, a full-range 10-bit base layer; each component one linear piece, the
    identity; ICtCp to L'M'S' (BT.2100) as ycc_to_rgb_matrix over 2^13, chroma offsets 0.5 over
    2^28; as rgb_to_lms_matrix over 2^14, BT.2100's LMS to RGB followed by RGB to the
    Hunt-Pointer-Estevez LMS libplacebo's fixed matrix inverts (numbers worked out once); the
    mastering display 0.005 to 1000 cd/m² (PQ codes 62, 3079); no extension block."""
    b = Bits()
    b.u(0x19, 8)
    b.u(2, 6); b.u(18, 11); b.u(0, 4); b.u(0, 4); b.u(1, 1)       # type, format, profile, level, seq info
    b.u(0, 1); b.u(0, 2); b.ue(23); b.u(1, 2); b.u(1, 1)           # fixed point over 2^23, full range
    b.ue(2); b.ue(2); b.ue(4); b.u(0, 1); b.u(0, 3); b.u(0, 1); b.u(1, 1)  # bit depths, no residual
    b.u(1, 1); b.u(0, 1); b.ue(0); b.ue(0); b.ue(0)                # dm present, new mapping 0
    for _ in range(3):
        b.ue(0); b.u(0, 10); b.u(1023, 10)                         # pivots 0 and 1023
    b.ue(0); b.ue(0)                                               # one partition
    for _ in range(3):
        b.ue(0); b.ue(0); b.u(0, 1); b.coefficient(0); b.coefficient(1)  # polynomial x
    b.ue(0); b.ue(0); b.ue(1)                                      # dm ids, scene refresh
    for v in (8192, 71, 910, 8192, -71, -910, 8192, 4588, -2627):
        b.u(v & 0xFFFF, 16)
    for v in (0, 1 << 27, 1 << 27):
        b.u(v, 32)
    for v in (17869, -742, -743, -749, 17875, -742, -748, -741, 17871):
        b.u(v & 0xFFFF, 16)
    b.u(65535, 16); b.u(0, 16); b.u(0, 16); b.u(0, 32); b.u(12, 5); b.u(2, 2); b.u(0, 2); b.u(1, 2)
    b.u(62, 12); b.u(3079, 12); b.u(42, 10); b.ue(0)
    payload = b.bytes()
    crc = 0xFFFFFFFF                                               # CRC-32/MPEG-2 after the prefix
    for byte in payload[1:]:
        crc ^= byte << 24
        for _ in range(8):
            crc = (crc << 1 ^ 0x04C11DB7 if crc & 0x80000000 else crc << 1) & 0xFFFFFFFF
    payload += crc.to_bytes(4, "big") + b"\x80"
    nal, zeros = bytearray(b"\x7c\x01"), 0
    for byte in payload:
        if zeros >= 2 and byte <= 3:
            nal.append(3)
            zeros = 0
        nal.append(byte)
        zeros = zeros + 1 if byte == 0 else 0
    return bytes(nal)
