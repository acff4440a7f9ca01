"""pictures: JPEG thumbnails against the ffmpeg command, a 4K PQ HEVC clip's tone-mapped thumbnail
against ffmpeg's tone-mapping chain, and the listed thumbnails' bytes as JPEG against PNG (the
quality the exact-size encoder reached, the padding it wrote)."""

import os
import re
import statistics
import subprocess

import floor
import media
from measure import BenchError, Cycle, Peer

ID = "pictures"
FILM = "feature-1080p.mp4"
FFMPEG_JPG = "ffmpeg -ss T -frames:v 1 -vf scale=320:-1 out.jpg"
TONEMAP = ("zscale=t=linear:npl=100,format=gbrpf32le,zscale=p=bt709,tonemap=hable:desat=0,"
           "zscale=t=bt709:m=bt709:r=tv,format=yuv420p,scale=320:-1")
FFMPEG_TONEMAP = "ffmpeg -ss T -frames:v 1 -vf zscale…tonemap=hable…,scale=320:-1 out.png"
FFMPEG_AV1 = "ffmpeg -ss T -i F -frames:v 1 -vf scale=320:-2 out.jpg"
FLOOR = "decode floor"
SIZE_GOAL, QUALITY_GOAL, TIME_GOAL, AV1_GOAL = 5.0, 85, 0.6, 0.7

# libjpeg's (IJG's) standard luminance quantization table (JPEG standard, Annex K), natural order.
IJG_LUMINANCE = [
    16, 11, 10, 16, 24, 40, 51, 61,
    12, 12, 14, 19, 26, 58, 60, 55,
    14, 13, 16, 24, 40, 57, 69, 56,
    14, 17, 22, 29, 51, 87, 80, 62,
    18, 22, 37, 56, 68, 109, 103, 77,
    24, 35, 55, 64, 81, 104, 113, 92,
    49, 64, 78, 87, 103, 121, 120, 101,
    72, 92, 95, 98, 112, 100, 103, 99]
# The natural (row-major) index of each coefficient in the zigzag order a DQT segment stores.
ZIGZAG = [0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5, 12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6,
          7, 14, 21, 28, 35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51, 58, 59, 52, 45, 38, 31,
          39, 46, 53, 60, 61, 54, 47, 55, 62, 63]


def run(bench):
    src = os.path.join(bench.media, FILM)
    length = media.duration(src)
    hdr = media.make_hdr_pq_4k(os.path.dirname(bench.media), bench.mode)
    hdr_length = media.duration(hdr)
    out = os.path.join(bench.work, "pictures-out")
    os.makedirs(out, exist_ok=True)
    bench.section(ID, "Pictures: JPEG thumbnails, HDR tone mapping, JPEG against PNG",
                  f"`{FILM}` ({media.video_description(src)}, {length:.0f} s, a keyframe every {2 if bench.small else 10} s): "
                  "a first read "
                  f"(`cp`) of `thumbs/at-T.jpg` against `ffmpeg -ss T -i F -frames:v 1 -vf scale=320:-1 out.jpg`, "
                  "each run at a time no earlier run asked for, in the middle of a GOP. Then a first read of "
                  f"`thumbs/at-T.png` of `{media.HDR_PQ_4K}` ({media.video_description(hdr)} 10-bit, PQ transfer, "
                  f"BT.2020, {hdr_length:.0f} s, a keyframe every {media.HDR_PQ_4K_GOP:g} s; made at bench time with "
                  "libx265 from testsrc2 with SDR white at 1000 nits, kept beside the media) against the ffmpeg "
                  f"command with the usual tone-mapping chain, `-vf {TONEMAP}` (which works at 4K; the mount "
                  "tone-maps at the output size), again at a new time inside a GOP each run. Runs alternate between "
                  "the sides. Beside both runs the decode floor (`bench/decode-floor.c`, as in the thumbnails section: "
                  "the seek and the decoding of the frames an exact answer needs, timed inside its process, nothing "
                  "else) at the same times, to show how much of each side is decoding. Last, every thumbnail the film's `thumbs/` lists, read as `.png` and as `.jpg` (320 "
                  "wide, the default): total bytes, the libjpeg quality each JPEG was encoded at (estimated from its "
                  "luminance quantization table: the quality whose standard IJG table, scaled by libjpeg's "
                  "formula, is closest) and the padding (the payload of its COM segments).")
    count = bench.runs * 2 + 4
    floor_binary = bench.decode_floor()

    with bench.mount(bench.media, ID) as m:
        thumbs = m.path(FILM, "thumbs")
        names = sorted(os.listdir(thumbs))
        first_jpeg(bench, m, src, thumbs, out, floor_binary, media.gop_times(6.1, count, length))
        sizes(bench, thumbs, names)
        bench.peak_rss(m, "daemon after the pictures section (SDR film)")

    with bench.mount(os.path.dirname(hdr), f"{ID}-hdr") as m:
        hdr_thumbs = m.path(media.HDR_PQ_4K, "thumbs")
        os.listdir(hdr_thumbs)
        first_hdr(bench, hdr, hdr_thumbs, out, floor_binary, hdr_times(count, hdr_length, media.HDR_PQ_4K_GOP))
        bench.peak_rss(m, "daemon after the pictures section (4K PQ clip)")

    av1 = media.make_av1_4k(os.path.dirname(bench.media), bench.mode)
    bench.note(ID, f"`{media.AV1_4K}` ({media.video_description(av1)}, 10-bit, {media.duration(av1):.0f} s, a keyframe "
                   f"every {media.AV1_4K_GOP:g} s; made at bench time with SVT-AV1, preset 12, random access, kept beside "
                   "the media): a first read of `thumbs/at-T.jpg` against "
                   f"`{FFMPEG_AV1}`, each run at a new time inside a GOP, runs alternating, the decode floor beside; "
                   f"both decode with {decoder_of(av1)} ({dav1d_threads()}), the mount (and the floor) without the "
                   "frames no later frame refers to (refresh_frame_flags 0) on the way from the keyframe, ffmpeg every "
                   "frame")
    with bench.mount(os.path.dirname(av1), f"{ID}-av1") as m:
        av1_thumbs = m.path(media.AV1_4K, "thumbs")
        os.listdir(av1_thumbs)
        first_av1(bench, av1, av1_thumbs, out, floor_binary,
                  hdr_times(count, media.duration(av1), media.AV1_4K_GOP))
        bench.peak_rss(m, "daemon after the pictures section (4K AV1 clip)")


def hdr_times(count, length, gop, fps=25):
    """`count` distinct times of the clip, each on a frame (so that ffmpeg's -ss and the mount's at-
    show the same one) a little under half a GOP after a keyframe, taking the GOPs in turn (then a
    frame later in each): every one decodes about 20-30 frames from its keyframe."""
    gops, per_gop = max(1, int(length // gop)), round(gop * fps)
    frames = [(i % gops) * per_gop + round(per_gop * 0.44) + i // gops for i in range(count)]
    return [f"{f / fps:.2f}".rstrip("0").rstrip(".") for f in frames]


# ---------------------------------------------------------------------------------------------
# 1. at-T.jpg against the ffmpeg command

def first_jpeg(bench, m, src, thumbs, out, floor_binary, times):
    # Checked first, at a time the timed runs do not ask for: the JPEG is what stat says, baseline
    # JFIF, and the same frame as the command's and as the mount's PNG.
    check_at = "12.52"  # on a frame of the 25 fps film: ffmpeg's -ss and the mount's at- pick the same one
    jpg = os.path.join(thumbs, f"at-{check_at}s.jpg")
    data = read_exact(jpg)
    info = parse_jpeg(data, jpg)
    if not info["jfif"] or info["sof"] != 0xC0:
        raise BenchError(f"{jpg} is not baseline JFIF (SOF marker {info['sof']:#x}, JFIF APP0 {info['jfif']})")
    ref_jpg = os.path.join(out, "check-ref.jpg")
    subprocess.run(ffmpeg_jpg(src, check_at, ref_jpg), check=True, stdin=subprocess.DEVNULL)
    against_ref = psnr(jpg, ref_jpg)
    # The command's frames at the time and one frame (40 ms) either side, as PNG: the mount's JPEG
    # must be nearest the one at the time.
    near = {}
    for at in ("12.48", check_at, "12.56"):
        ref_png = os.path.join(out, f"check-ref-{at}.png")
        subprocess.run(ffmpeg_jpg(src, at, ref_png), check=True, stdin=subprocess.DEVNULL)
        near[at] = psnr(jpg, ref_png)
    if max(near, key=near.get) != check_at:
        raise BenchError(f"at-{check_at}s.jpg is nearer another frame of the ffmpeg command than its own (PSNR {near})")
    against_ref_png = near[check_at]
    against_png = psnr(jpg, os.path.join(thumbs, f"at-{check_at}s.png"))
    if against_png < 35:
        raise BenchError(f"at-{check_at}s.jpg is {against_png:.1f} dB from at-{check_at}s.png (35 dB at least)")
    bench.note(ID, f"checked: at-{check_at}s.jpg reads exactly the {len(data)} bytes stat gave, is baseline JFIF, "
                   f"{against_png:.1f} dB (PSNR) from the mount's at-{check_at}s.png; {against_ref_png:.1f} dB from the "
                   "ffmpeg command's frame of the same time written as PNG (its own scaler and colour conversion: "
                   "the stream is untagged) and further from the frames 40 ms before and after it "
                   f"({near['12.48']:.1f} and {near['12.56']:.1f} dB), so it is the same frame; {against_ref:.1f} dB "
                   "from the command's JPEG (ffmpeg's default mjpeg quality)")

    ref_times, mnt_times = Cycle(times), Cycle(times)
    label = "first read of at-T.jpg"
    made = m.counter("thumbnails_made")
    floor_peer, answers = decode_floor(bench, floor_binary, src, times, label)
    t = bench.compare(ID, label, [
        Peer(FFMPEG_JPG, lambda: ffmpeg_jpg(src, ref_times.next(), os.path.join(out, "ref.jpg"))),
        Peer("mount", lambda: ["cp", os.path.join(thumbs, f"at-{mnt_times.next()}s.jpg"), os.path.join(out, "mnt.jpg")]),
        floor_peer,
    ], bench.runs, warmup=1)
    made_now = m.counter("thumbnails_made")
    if isinstance(made, int) and isinstance(made_now, int):
        if made_now - made != bench.runs + 1:
            raise BenchError(f"the mount made {made_now - made} thumbnails for {bench.runs + 1} first reads")
        bench.note(ID, f"checked: every read of the mount side made its thumbnail (thumbnails_made went up by "
                       f"{made_now - made} over the {bench.runs + 1} reads, warm-up included)")
    bench.ratio(ID, label, ("mount", t["mount"]), (FFMPEG_JPG, t[FFMPEG_JPG]), goal_max=TIME_GOAL)
    floor_share(bench, label, t, FFMPEG_JPG, thumbs, "jpg", answers)


def ffmpeg_jpg(src, at, target):
    return ["ffmpeg", "-nostdin", "-v", "error", "-y", "-ss", at, "-i", src, "-frames:v", "1", "-vf", "scale=320:-1",
            target]


# ---------------------------------------------------------------------------------------------
# 2. at-T.png of a 4K PQ clip against ffmpeg's tone-mapping chain

def first_hdr(bench, hdr, thumbs, out, floor_binary, times):
    check_at = times[-1]  # not asked for by a timed run (the warm-up and runs take the first ones)
    png = os.path.join(thumbs, f"at-{check_at}s.png")
    read_exact(png)
    mapped, plain = os.path.join(out, "check-tonemap.png"), os.path.join(out, "check-plain.png")
    subprocess.run(ffmpeg_tonemap(hdr, check_at, mapped), check=True, stdin=subprocess.DEVNULL)
    subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-y", "-ss", check_at, "-i", hdr, "-frames:v", "1", "-vf",
                    "scale=320:-1", plain], check=True, stdin=subprocess.DEVNULL)
    near, far = psnr(png, mapped), psnr(png, plain)
    if near <= far:
        raise BenchError(f"at-{check_at}s.png of the PQ clip is {near:.1f} dB from ffmpeg's tone-mapped frame and "
                         f"{far:.1f} dB from the frame without tone mapping: it is not tone-mapped")
    bench.note(ID, f"checked: the PQ clip's at-{check_at}s.png is {near:.1f} dB (PSNR) from the ffmpeg command's "
                   f"tone-mapped frame, and {far:.1f} dB from ffmpeg's conversion without tone mapping")

    ref_times, mnt_times = Cycle(times), Cycle(times)
    label = "first read of at-T.png, 4K PQ HEVC"
    floor_peer, answers = decode_floor(bench, floor_binary, hdr, times, label)
    t = bench.compare(ID, label, [
        Peer(FFMPEG_TONEMAP, lambda: ffmpeg_tonemap(hdr, ref_times.next(), os.path.join(out, "ref-hdr.png"))),
        Peer("mount", lambda: ["cp", os.path.join(thumbs, f"at-{mnt_times.next()}s.png"),
                               os.path.join(out, "mnt-hdr.png")]),
        floor_peer,
    ], bench.runs, warmup=1)
    bench.ratio(ID, label, ("mount", t["mount"]), (FFMPEG_TONEMAP, t[FFMPEG_TONEMAP]), goal_max=TIME_GOAL)
    floor_share(bench, label, t, FFMPEG_TONEMAP, thumbs, "png", answers)


# ---------------------------------------------------------------------------------------------
# 2b. at-T.jpg of a 4K 10-bit AV1 clip against the ffmpeg command

def first_av1(bench, av1, thumbs, out, floor_binary, times):
    ref_times, mnt_times = Cycle(times), Cycle(times)
    label = "first read of at-T.jpg, 4K 10-bit AV1"
    floor_peer, answers = decode_floor(bench, floor_binary, av1, times, label)
    t = bench.compare(ID, label, [
        Peer(FFMPEG_AV1, lambda: ["ffmpeg", "-nostdin", "-v", "error", "-y", "-ss", ref_times.next(), "-i", av1,
                                  "-frames:v", "1", "-vf", "scale=320:-2", os.path.join(out, "ref-av1.jpg")]),
        Peer("mount", lambda: ["cp", os.path.join(thumbs, f"at-{mnt_times.next()}s.jpg"), os.path.join(out, "mnt-av1.jpg")]),
        floor_peer,
    ], bench.runs, warmup=1)
    bench.ratio(ID, label, ("mount", t["mount"]), (FFMPEG_AV1, t[FFMPEG_AV1]), goal_max=AV1_GOAL)
    floor_share(bench, label, t, FFMPEG_AV1, thumbs, "jpg", answers)


def decoder_of(film):
    """The decoder ffmpeg opens for the film's video stream, as its log says (the one libavcodec picks)."""
    log = subprocess.run(["ffmpeg", "-nostdin", "-v", "verbose", "-i", film, "-frames:v", "1", "-f", "null", "-"],
                         capture_output=True, text=True, stdin=subprocess.DEVNULL).stderr
    found = re.search(r"\((\w+)\) -> ", log)  # "Stream #0:0 -> #0:0 (av1 (libdav1d) -> wrapped_avframe (native))"
    return f"`{found.group(1)}`" if found else "the decoder libavcodec picks"


def dav1d_threads():
    """libdav1d's threads on each side: FFmpeg 5.1's wrapper gives dav1d 3/2 of the codec context's thread
    count (0: one per processor), and dav1d picks the frames in flight from that."""
    cpus = os.cpu_count() or 1
    mount, command = min(4, cpus) * 3 // 2, cpus * 3 // 2
    if mount == command:
        return f"{mount} dav1d threads on both sides"
    return f"{mount} dav1d threads in the mount (at most 4 codec threads), {command} in ffmpeg"


def decode_floor(bench, binary, film, times, label):
    """The decode floor as a peer taking the times in turn, and the answers it gave, by time."""
    times_of, answers = Cycle(times), {}

    def measure():
        at = times_of.next()
        answer = floor.decode(binary, film, [at], bench.timeout)[0]
        answers[at] = answer
        return answer.seconds

    # Its own row label per figure: rows of one section with the same label are merged.
    return Peer(FLOOR, measure=measure, row=f"decode floor (seek and decode only), {label}"), answers


def floor_share(bench, label, t, command, thumbs, extension, answers):
    """The floor's share of the command and of the mount; a check that it decoded to the frame the
    mount answered with (user.mediafs.time)."""
    bench.ratio(ID, label, (FLOOR, t[FLOOR]), (command, t[command]))
    bench.ratio(ID, label, ("mount", t["mount"]), (FLOOR, t[FLOOR]))
    differ = []
    for at, answer in answers.items():
        try:
            shown = float(os.getxattr(os.path.join(thumbs, f"at-{at}s.{extension}"), "user.mediafs.time"))
        except (OSError, ValueError) as e:
            raise BenchError(f"user.mediafs.time of at-{at}s.{extension}: {e}") from e
        if abs(shown - answer.answer) > 0.0005:
            differ.append(f"{at} s (floor {answer.answer:.3f}, mount {shown:.3f})")
    if differ:
        bench.note(ID, f"{label}: the floor's frame differs from the mount's at {len(differ)} time(s): {', '.join(differ)}")
    else:
        bench.note(ID, f"{label}: checked: at each of the {len(answers)} times the floor decoded to the frame the "
                       f"mount answered with (user.mediafs.time); it decoded a median "
                       f"{statistics.median(a.frames for a in answers.values()):.0f} frames a time")


def ffmpeg_tonemap(src, at, target):
    return ["ffmpeg", "-nostdin", "-v", "error", "-y", "-ss", at, "-i", src, "-frames:v", "1", "-vf", TONEMAP, target]


# ---------------------------------------------------------------------------------------------
# 3. The listed thumbnails as JPEG against PNG

def sizes(bench, thumbs, names):
    pngs = [n for n in names if n.endswith(".png")]
    if not pngs:
        raise BenchError(f"{thumbs} lists no .png name")
    png_bytes = jpg_bytes = padding_total = 0
    qualities, paddings, inexact, dims = [], [], [], set()
    for name in pngs:
        png_bytes += len(read_exact(os.path.join(thumbs, name)))
        jpg = os.path.join(thumbs, name[:-4] + ".jpg")
        data = read_exact(jpg)
        info = parse_jpeg(data, jpg)
        if 0 not in info["tables"]:
            raise BenchError(f"{jpg} has no quantization table 0")
        quality, distance = estimate_quality(info["tables"][0])
        if distance:
            inexact.append(f"{name[:-4]}.jpg (off by {distance})")
        qualities.append(quality)
        paddings.append(info["comment_bytes"])
        padding_total += info["comment_bytes"]
        jpg_bytes += len(data)
        dims.add(info["size"])
    pillow_check(bench, os.path.join(thumbs, pngs[0][:-4] + ".jpg"))

    n = len(pngs)
    ratio = png_bytes / jpg_bytes
    bench.note(ID, f"the film's thumbs/ lists {n} thumbnails ({', '.join(f'{w}x{h}' for w, h in sorted(dims))}): "
                   f"{png_bytes:,} bytes as PNG, {jpg_bytes:,} as JPEG; every file read whole in exactly the bytes "
                   "stat gave")
    bench.value(ID, f"PNG bytes / JPEG bytes, the {n} listed thumbnails", round(ratio, 2), "x",
                goal=f">= {SIZE_GOAL:g}x", met=ratio >= SIZE_GOAL)
    median_q = statistics.median(qualities)
    bench.value(ID, f"libjpeg quality reached, median of the {n} JPEGs", median_q, "",
                goal=f">= {QUALITY_GOAL}", met=median_q >= QUALITY_GOAL)
    bench.value(ID, f"libjpeg quality reached, worst of the {n} JPEGs", min(qualities), "")
    bench.value(ID, "padding (COM payload), share of the JPEG bytes", round(100 * padding_total / jpg_bytes, 2), "%")
    bench.value(ID, "padding (COM payload) per JPEG, median", statistics.median(paddings), "bytes")
    bench.value(ID, "padding (COM payload) per JPEG, most", max(paddings), "bytes")
    counts = {q: qualities.count(q) for q in sorted(set(qualities), reverse=True)}
    bench.note(ID, "qualities reached, frames at each: " + ", ".join(f"{q}: {c}" for q, c in counts.items())
               + (f"; luminance tables that match no scaled IJG table exactly: {', '.join(inexact)}" if inexact else
                  "; every luminance table is exactly the IJG table scaled for its quality"))


def pillow_check(bench, path):
    """Python PIL opens a JPEG and reads the same luminance table, when PIL is installed (the bench
    itself needs only the standard library)."""
    try:
        from PIL import Image  # noqa: PLC0415
    except ImportError:
        bench.note(ID, "PIL is not installed: the quantization tables were read by the bench's own parser only")
        return
    with open(path, "rb") as f:
        data = f.read()
    ours = parse_jpeg(data, path)["tables"][0]
    with Image.open(path) as image:
        image.load()
        theirs = list(image.quantization[0])
    if theirs != ours:
        raise BenchError(f"{path}: PIL reads luminance table {theirs[:8]}..., the bench's parser {ours[:8]}...")
    bench.note(ID, f"checked: PIL opens {os.path.basename(path)} and reads the same luminance table as the bench's parser")


def read_exact(path):
    size = os.path.getsize(path)
    with open(path, "rb") as f:
        data = f.read()
    if len(data) != size:
        raise BenchError(f"{path}: stat gave {size} bytes, a read gave {len(data)}")
    return data


def parse_jpeg(data, path):
    """The segments before the scan: quantization tables (natural order, by id), the payload bytes of
    every COM segment, the SOF marker and picture size, whether a JFIF APP0 is there."""
    if data[:2] != b"\xff\xd8":
        raise BenchError(f"{path} does not start with a JPEG SOI marker")
    info = {"tables": {}, "comment_bytes": 0, "sof": None, "size": None, "jfif": False}
    i = 2
    while i < len(data):
        if data[i] != 0xFF:
            raise BenchError(f"{path}: no marker at byte {i}")
        while i < len(data) and data[i] == 0xFF:
            i += 1
        marker = data[i]
        i += 1
        if marker in (0x01, 0xD9) or 0xD0 <= marker <= 0xD7:
            continue
        length = int.from_bytes(data[i:i + 2], "big")
        payload = data[i + 2:i + length]
        i += length
        if marker == 0xFE:
            info["comment_bytes"] += len(payload)
        elif marker == 0xE0 and payload[:5] == b"JFIF\0":
            info["jfif"] = True
        elif marker == 0xDB:
            j = 0
            while j < len(payload):
                precision, table = payload[j] >> 4, payload[j] & 15
                width = 2 if precision else 1
                raw = payload[j + 1:j + 1 + 64 * width]
                values = [int.from_bytes(raw[k * width:(k + 1) * width], "big") for k in range(64)]
                natural = [0] * 64
                for k, v in enumerate(values):
                    natural[ZIGZAG[k]] = v
                info["tables"][table] = natural
                j += 1 + 64 * width
        elif 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            info["sof"] = marker
            info["size"] = (int.from_bytes(payload[3:5], "big"), int.from_bytes(payload[1:3], "big"))
        elif marker == 0xDA:
            break
    return info


def scaled_table(quality):
    """libjpeg's jpeg_set_quality: the standard table scaled by jpeg_quality_scaling, baseline (1-255)."""
    scale = 5000 // quality if quality < 50 else 200 - quality * 2
    return [min(255, max(1, (v * scale + 50) // 100)) for v in IJG_LUMINANCE]


def estimate_quality(table):
    """(quality, distance): the libjpeg quality 1-100 whose scaled luminance table is closest to
    `table` (sum of absolute differences; the highest such quality on a tie), and that distance."""
    best = min(range(1, 101), key=lambda q: (sum(abs(a - b) for a, b in zip(table, scaled_table(q))), -q))
    return best, sum(abs(a - b) for a, b in zip(table, scaled_table(best)))


def psnr(a, b):
    """PSNR (dB, average over RGB) of two pictures of one size, as ffmpeg's psnr filter gives it."""
    done = subprocess.run(["ffmpeg", "-nostdin", "-hide_banner", "-i", a, "-i", b, "-lavfi",
                           "[0:v]format=rgb24[a];[1:v]format=rgb24[b];[a][b]psnr", "-f", "null", "-"],
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, check=False)
    found = re.search(r"average:(inf|[0-9.]+)", done.stderr)
    if done.returncode != 0 or not found:
        raise BenchError(f"ffmpeg psnr of {a} and {b} failed:\n  {done.stderr.strip()[-1000:]}")
    return float("inf") if found.group(1) == "inf" else float(found.group(1))
