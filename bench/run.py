#!/usr/bin/env python3
"""Benchmarks pipctl against the ffmpeg command line doing the same job, in one run.

Each job runs both tools on the same input with the same output size, rate, x264 preset and CRF, AAC bit rate
and thread count; it prints wall time, frames per second, peak resident memory and the ratio pipctl/ffmpeg.
Run from the repository root:  python3 bench/run.py [--repeat N] [--threads N] [--jobs transcode,render,remote,hls,passthrough,passthrough-matched,batch,report,report-long,loudness,serve]

The `transcode` job also times x264 alone encoding the same frames with the same settings and threads (decoded and
scaled to a raw file first, outside the timing): no tool that encodes with x264 so can take less than that. It also
prints the floor of the whole output on this machine: x264's CPU time plus that of the rest of the same output's work
(decoding and scaling the content, encoding its sound as AAC, each measured alone by the ffmpeg tool), spread over
every core. On 2 cores that floor is above x264 alone, since x264 already keeps both cores nearly busy.

The `render` job also times `pipctl verify` of pipctl's render both ways (from its stamps, and `--sources` against
the source files), printed beside the render's own time.

The `hls` job is the render job's stitch written as HLS: `pipctl render --hls` against ffmpeg's `-f hls` of the same
filtergraph (fMP4, 6 s segments).

The `passthrough` job renders a 10-minute 1280x720 H.264 content (made by ffmpeg in the run, 2 s GOP) with three 30 s
breaks cut mid-GOP, with `--passthrough on`, against ffmpeg re-encoding the same stitch; it also prints the time to
copy the content file's bytes, the floor of any job that reads the whole file. Its ads are coded by other x264
settings than the content, so pipctl encodes them; `passthrough-matched` is the same job with ads coded exactly like
the content (the conditioned ads of an SSAI system), which pipctl copies too.

The `batch` job compares pipctl with itself too: `pipctl batch` of a manifest of 8 short stitches (the render job's
content and ads, a different break plan each, 480x270) with `--jobs 1` against `--jobs 2` (`--force`, so every run
renders all 8). It prints each one's throughput in jobs per minute; its ratio is jobs1/jobs2, the speed-up.

The `remote` job compares pipctl with itself: the demo VMAP with its documents and media served over loopback HTTP
(a cold media cache every run, so each run downloads every creative) against the same VMAP from local files through
demo.urlmap. Its ratio is http/local.

The `report` job times `pipctl report` (thumbnails, loudness, the page) of the render job's demo stitch against the
render of that stitch in the same run: its ratio is report/render (the issue's budget is 0.20).

The `report-long` job makes a real 2-hour render (a 160x90 testsrc2 content of 2 hours with 48 kHz sound, rendered at
5 fps so the run stays short: the timeline, events, thumbnails and loudness plot are those of any 2-hour render, only
the frame count is lower; a mid-roll pod of two ads every 10 minutes and picture in picture for a minute every 20),
writes its report, and loads it in headless Chromium (Debian's): it prints the page's own load time (navigation start
to the load event, `body[data-load-ms]`; the issue's budget is 2 s) and Chromium's whole run, against the time
`pipctl report` took.

The `loudness` job compares pipctl with itself too: the bundled demo (`pipctl render` alone: the demo VMAP and script)
with `--loudness content` (every source measured before it plays, each ad's gain and limiter applied) against
`--loudness off`. Its ratio is content/off: the cost of normalising (the issue asks for at most 1.05).

The `serve-scale` job (bench/serve_scale.py) plays many viewers at once for minutes (`--viewers 1000 --seconds 300`,
half stitched, half guided, each at the pace it plays) against one `pipctl serve` and against two behind nginx
(deploy/nginx/pipctl-serve.conf): requests, errors and p50/p99 per route, the servers' CPU per 1,000 viewers, and
their memory after the warm-up and at the end.

The `serve-burst` job (bench/serve_scale.py) makes bursts of new viewers against one `pipctl serve` (2,000 sessions,
then 6,000 twice), each followed by a quiet minute, and prints the server's resident memory after each: what a
burst leaves behind once its sessions are forgotten.

The `serve` job runs `pipctl serve` on loopback (see `serve_job`): the first viewer of a new break (cold) against the
second (warm), 200 concurrent new viewers, warm media playlists (p50, p99, per CPU second), and one viewer fetching
the whole stitched stream, its server CPU per viewer-hour against nginx (Debian's, the peer) serving the origin's own
files to the same client.
"""
import argparse
import functools
import http.server
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import serve_scale  # noqa: E402 (beside this file)
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PIPCTL = os.path.join(ROOT, ".build", "release", "pipctl")
MEDIA = os.path.join(ROOT, "media")


def measure(argv):
    """Runs argv; returns (wall seconds, peak RSS in MiB)."""
    start = time.monotonic()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.monotonic() - start
    err = proc.stderr.read().decode(errors="replace")
    proc.stderr.close()
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        sys.exit(f"bench: {' '.join(argv)} failed with {code}:\n{err}")
    return wall, usage.ru_maxrss / 1024.0


def cpu_seconds(argv, repeat):
    """The least CPU time (user + system) of argv over `repeat` runs: steadier than wall time on a shared machine."""
    best = None
    for _ in range(repeat):
        proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(proc.pid, 0)
        if os.waitstatus_to_exitcode(status) != 0:
            sys.exit(f"bench: {' '.join(argv)} failed")
        cpu = usage.ru_utime + usage.ru_stime
        best = cpu if best is None else min(best, cpu)
    return best


def best_of(argv, repeat, prepare=None):
    runs = []
    for _ in range(repeat):
        if prepare:
            prepare()
        runs.append(measure(argv))
    return min(r[0] for r in runs), max(r[1] for r in runs)


def frames_of(path):
    out = subprocess.run(["ffprobe", "-v", "error", "-count_packets", "-select_streams", "v:0", "-show_entries",
                          "stream=nb_read_packets", "-of", "csv=p=0", path], capture_output=True, text=True, check=True)
    # An HLS playlist lists the stream twice (once in its program): the first count.
    return int(out.stdout.split()[0])


TRANSCODE_VF = ("scale=1280:720:force_original_aspect_ratio=decrease:flags=bicubic,pad=1280:720:(ow-iw)/2:(oh-ih)/2,"
                "fps=25,format=yuv420p")


def transcode_job(tmp, args):
    src = os.path.join(MEDIA, "content.mp4")
    w, h, fps = 1280, 720, "25"
    ours = [PIPCTL, "transcode", src, "-o", os.path.join(tmp, "ours.mp4"), "--size", f"{w}x{h}", "--fps", fps,
            "--crf", "23", "--preset", args.preset, "--threads", str(args.threads)]
    peer = ["ffmpeg", "-v", "error", "-y", "-i", src, "-vf", TRANSCODE_VF, "-c:v", "libx264", "-preset", args.preset,
            "-crf", "23", "-threads", str(args.threads), "-c:a", "aac", "-b:a", "192k", "-ar", "48000", "-ac", "2",
            "-movflags", "+faststart", os.path.join(tmp, "peer.mp4")]
    return f"transcode content.mp4 -> 1280x720@25, x264 {args.preset} crf 23", ours, peer, os.path.join(tmp, "ours.mp4")


def render_job(tmp, args):
    """The demo's stitch without picture-in-picture: pre-roll, a pod of two at 0:20, one ad at 0:40, post-roll."""
    m = lambda name: os.path.join(MEDIA, name)
    ours = [PIPCTL, "render", "--content", m("content.mp4"), "--break", "pre=" + m("ad5.mp4"),
            "--break", "20=" + m("ad10.mp4") + "," + m("ad15.mp4"), "--break", "40=" + m("ad30.mp4"),
            "--break", "post=" + m("ad5.mp4"), "-o", os.path.join(tmp, "ours-render.mp4"),
            "--preset", args.preset, "--crf", "23", "--threads", str(args.threads)]
    # The same stitch as one ffmpeg filtergraph: every ad conformed (scale + pad to 640x360, fps 30, 48 kHz
    # stereo), the content cut at 20 s and 40 s, everything concatenated.
    segments = [("ad", 1), ("content", (0, 20)), ("ad", 2), ("ad", 3), ("content", (20, 40)), ("ad", 4),
                ("content", (40, 60)), ("ad", 5)]
    conform_v = ("scale=640:360:force_original_aspect_ratio=decrease:flags=bicubic,"
                 "pad=640:360:(ow-iw)/2:(oh-ih)/2,setsar=1,fps=30,format=yuv420p")
    conform_a = "aresample=48000,aformat=sample_fmts=fltp:channel_layouts=stereo"
    graph = ["[0:v]split=3[cv0][cv1][cv2]", "[0:a]asplit=3[ca0][ca1][ca2]"]
    labels = []
    content_index = 0
    for i, (kind, what) in enumerate(segments):
        if kind == "ad":
            graph.append(f"[{what}:v]{conform_v}[v{i}]")
            graph.append(f"[{what}:a]{conform_a}[a{i}]")
        else:
            start, end = what
            graph.append(f"[cv{content_index}]trim={start}:{end},setpts=PTS-STARTPTS[v{i}]")
            graph.append(f"[ca{content_index}]atrim={start}:{end},asetpts=PTS-STARTPTS[a{i}]")
            content_index += 1
        labels.append(f"[v{i}][a{i}]")
    graph.append("".join(labels) + f"concat=n={len(segments)}:v=1:a=1[v][a]")
    peer = ["ffmpeg", "-v", "error", "-y", "-i", m("content.mp4"), "-i", m("ad5.mp4"), "-i", m("ad10.mp4"),
            "-i", m("ad15.mp4"), "-i", m("ad30.mp4"), "-i", m("ad5.mp4"), "-filter_complex", ";".join(graph),
            "-map", "[v]", "-map", "[a]", "-c:v", "libx264", "-preset", args.preset, "-crf", "23",
            "-threads", str(args.threads), "-c:a", "aac", "-b:a", "192k", "-movflags", "+faststart",
            os.path.join(tmp, "peer-render.mp4")]
    return "render demo stitch (5 ads, 4 breaks) -> 640x360@30", ours, peer, os.path.join(tmp, "ours-render.mp4")


def hls_job(tmp, args):
    """The render job's stitch written as HLS (fMP4, 6 s segments): pipctl --hls against ffmpeg's -f hls of the same
    filtergraph, keyframes forced every 6 s on both sides."""
    _, ours, peer, _ = render_job(tmp, args)
    out = os.path.join(tmp, "ours-hls")
    at = ours.index("-o")
    ours = ours[:at] + ["--hls", out] + ours[at + 2:]
    peer_dir = os.path.join(tmp, "peer-hls")
    os.makedirs(peer_dir, exist_ok=True)
    at = peer.index("-movflags")
    peer = peer[:at] + ["-force_key_frames", "expr:gte(t,n_forced*6)", "-f", "hls", "-hls_time", "6",
                        "-hls_segment_type", "fmp4", "-hls_playlist_type", "vod",
                        "-hls_segment_filename", os.path.join(peer_dir, "seg%05d.m4s"), os.path.join(peer_dir, "media.m3u8")]
    fresh = lambda: shutil.rmtree(out, ignore_errors=True)
    return ("render demo stitch as HLS (fMP4, 6 s segments, markers)", ours, peer, os.path.join(out, "media.m3u8"),
            ("pipctl", "ffmpeg"), fresh)


# The content's x264 settings: ultrafast, a 2 s closed GOP, B-frames.
LONG_X264 = ["-c:v", "libx264", "-preset", "ultrafast", "-g", "60", "-keyint_min", "60", "-sc_threshold", "0", "-bf", "3",
             "-pix_fmt", "yuv420p"]


def passthrough_job(tmp, args, matched=False):
    """10 minutes of 1280x720@30 H.264 (2 s GOP, B-frames) with three 30 s ads at 2:30.5, 5:00.5 and 7:30.5: ads coded
    by other x264 settings (encoded by pipctl), or with `matched`, by the content's own (copied by pipctl, as an SSAI
    system's conditioned ads are)."""
    content = os.path.join(tmp, "long.mp4")
    ad = os.path.join(tmp, "ad30-720-matched.mp4" if matched else "ad30-720.mp4")
    if not os.path.exists(content):
        subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=1280x720:rate=30:duration=600",
                        "-f", "lavfi", "-i", "sine=d=600"] + LONG_X264 + ["-c:a", "aac", "-shortest", content], check=True)
    if not os.path.exists(ad):
        x264 = LONG_X264 if matched else ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p"]
        subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=1280x720:rate=30:duration=30,hue=h=90",
                        "-f", "lavfi", "-i", "sine=f=880:d=30"] + x264 + ["-c:a", "aac", "-shortest", ad], check=True)
    cuts = [150.5, 300.5, 450.5]
    ours = [PIPCTL, "render", "--content", content] + sum([["--break", f"{c}={ad}"] for c in cuts], []) + [
        "-o", os.path.join(tmp, "ours-pass.mp4"), "--passthrough", "on", "--preset", args.preset, "--crf", "23",
        "--threads", str(args.threads)]
    graph, labels, start = [f"[0:v]split=4[cv0][cv1][cv2][cv3]", "[0:a]asplit=4[ca0][ca1][ca2][ca3]",
                            "[1:v]split=3[av0][av1][av2]", "[1:a]asplit=3[aa0][aa1][aa2]"], [], 0
    for i, end in enumerate(cuts + [600]):
        graph.append(f"[cv{i}]trim={start}:{end},setpts=PTS-STARTPTS[v{i}]")
        graph.append(f"[ca{i}]atrim={start}:{end},asetpts=PTS-STARTPTS[a{i}]")
        labels.append(f"[v{i}][a{i}]")
        if i < len(cuts):
            labels.append(f"[av{i}][aa{i}]")
        start = end
    graph.append("".join(labels) + f"concat=n={len(labels)}:v=1:a=1[v][a]")
    peer = ["ffmpeg", "-v", "error", "-y", "-i", content, "-i", ad, "-filter_complex", ";".join(graph), "-map", "[v]",
            "-map", "[a]", "-c:v", "libx264", "-preset", args.preset, "-crf", "23", "-threads", str(args.threads),
            "-c:a", "aac", "-b:a", "192k", "-movflags", "+faststart", os.path.join(tmp, "peer-pass.mp4")]
    label = "render --passthrough: 10 min 720p, three 30 s " + ("ads coded like it" if matched else "other ads")
    return (label, ours, peer, os.path.join(tmp, "ours-pass.mp4"))


def x264_alone_seconds(tmp, args):
    """The best time for x264 alone (through the ffmpeg tool, from raw frames in the page cache) to encode the
    transcode job's frames with its settings and threads, and the least CPU time of that encode."""
    raw = os.path.join(tmp, "transcode.yuv")
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-i", os.path.join(MEDIA, "content.mp4"), "-vf", TRANSCODE_VF,
                    "-f", "rawvideo", raw], check=True)
    try:
        encode = ["ffmpeg", "-v", "error", "-y", "-f", "rawvideo", "-pix_fmt", "yuv420p", "-s", "1280x720", "-r", "25", "-i", raw,
                  "-c:v", "libx264", "-preset", args.preset, "-crf", "23", "-threads", str(args.threads), "-f", "null", "-"]
        return best_of(encode, args.repeat)[0], cpu_seconds(encode, args.repeat)
    finally:
        os.remove(raw)


def transcode_floor(x264_wall, x264_cpu, args):
    """The least wall time any tool can take for the transcode job's output on this machine's cores: x264's own work
    plus the rest of the same output's work (decoding and scaling the content, encoding its sound as AAC, each
    measured alone by the ffmpeg tool) spread over every core, and never less than x264 alone. Returns the floor and
    the CPU seconds of the rest."""
    src = os.path.join(MEDIA, "content.mp4")
    decode = cpu_seconds(["ffmpeg", "-v", "error", "-y", "-threads", str(args.threads), "-i", src, "-vf", TRANSCODE_VF,
                          "-an", "-f", "null", "-"], args.repeat)
    sound = cpu_seconds(["ffmpeg", "-v", "error", "-y", "-i", src, "-vn", "-c:a", "aac", "-b:a", "192k", "-ar", "48000",
                         "-ac", "2", "-f", "null", "-"], args.repeat)
    cores = os.cpu_count() or 1
    return max(x264_wall, (x264_cpu + decode + sound) / cores), decode, sound


def copy_seconds(path, repeat):
    """The best time to copy a file's bytes (read it whole, write it whole)."""
    best = None
    for _ in range(repeat):
        start = time.monotonic()
        shutil.copyfile(path, path + ".copy")
        best = min(best or 1e9, time.monotonic() - start)
        os.remove(path + ".copy")
    return best


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def remote_job(tmp, args):
    """The demo VMAP (no script) with its wrapper, inline response and media served over loopback HTTP, against the
    same VMAP from local files."""
    site = os.path.join(tmp, "site")
    os.makedirs(site, exist_ok=True)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(QuietHandler, directory=site))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    for name in os.listdir(MEDIA):
        src = os.path.join(MEDIA, name)
        if name.endswith(".xml"):
            with open(src) as f:
                text = f.read().replace("https://cdn.pipctl.example/media/", base).replace("https://ads.pipctl.example/", base)
            with open(os.path.join(site, name), "w") as f:
                f.write(text)
        elif name.endswith(".mp4"):
            os.symlink(src, os.path.join(site, name))
    cache = os.path.join(tmp, "media-cache")
    common = ["--content", os.path.join(MEDIA, "content.mp4"), "--preset", args.preset, "--crf", "23",
              "--threads", str(args.threads)]
    ours = [PIPCTL, "render", "--ads", base + "demo-vmap.xml", "--media-cache", cache,
            "-o", os.path.join(tmp, "ours-remote.mp4")] + common
    peer = [PIPCTL, "render", "--ads", os.path.join(MEDIA, "demo-vmap.xml"), "--url-map", os.path.join(MEDIA, "demo.urlmap"),
            "-o", os.path.join(tmp, "local-remote.mp4")] + common
    cold = lambda: shutil.rmtree(cache, ignore_errors=True)
    return ("render demo VMAP, media over loopback HTTP (cold cache) vs local", ours, peer,
            os.path.join(tmp, "ours-remote.mp4"), ("http", "local"), cold)


def loudness_job(tmp, args):
    """The bundled demo rendered with its ads brought to the content's loudness, against the same render untouched."""
    run = lambda mode: [PIPCTL, "render", "-o", os.path.join(tmp, f"loudness-{mode}.mp4"), "--loudness", mode,
                        "--preset", args.preset, "--crf", "23", "--threads", str(args.threads)]
    return ("render the demo, --loudness content vs off", run("content"), run("off"),
            os.path.join(tmp, "loudness-content.mp4"), ("content", "off"))


BATCH_PLANS = [["pre={ad5}"], ["20={ad10},{ad15}"], ["40={ad30}"], ["post={ad5}"], ["pre={ad5}", "post={ad5}"],
               ["10={ad10}", "50={ad15}"], ["50%={ad5},{ad10}"], ["pre={ad15}", "30={ad5}", "post={ad10}"]]


def batch_job(tmp, args):
    """8 short stitches in one manifest: the demo content with a different plan of the demo ads each, at 480x270
    (--threads is left to batch: processors / --jobs)."""
    m = {name: os.path.join(MEDIA, f"{name}.mp4") for name in ("ad5", "ad10", "ad15", "ad30")}
    manifest = os.path.join(tmp, "batch.jsonl")
    with open(manifest, "w") as f:
        for i, plan in enumerate(BATCH_PLANS):
            f.write(json.dumps({"id": f"stitch-{i}", "content": os.path.join(MEDIA, "content.mp4"),
                                "breaks": [b.format(**m) for b in plan], "output": f"batch-out/stitch-{i}.mp4",
                                "options": {"size": "480x270", "preset": args.preset, "crf": "23"}}) + "\n")
    run = lambda jobs: [PIPCTL, "batch", manifest, "--jobs", str(jobs), "--force",
                        "--summary", os.path.join(tmp, f"batch-{jobs}.summary.json")]
    outputs = [os.path.join(tmp, "batch-out", f"stitch-{i}.mp4") for i in range(len(BATCH_PLANS))]
    return ("batch: 8 short stitches (480x270), --jobs 1 vs --jobs 2", run(1), run(2), outputs, ("jobs1", "jobs2"))


def report_job(tmp, args):
    """`pipctl report` of the render job's demo stitch, against rendering it."""
    _, render, _, out = render_job(tmp, args)
    page = os.path.join(tmp, "ours-render.report.html")

    def rendered_once():
        if not os.path.exists(out):
            measure(render)
    ours = [PIPCTL, "report", out, "-o", page]
    return "report of the demo stitch vs its render", ours, render, out, ("report", "render"), rendered_once


CHROMIUM = "/usr/bin/chromium"


def report_long_job(tmp, args):
    """A real 2-hour render (5 fps, 160x90), its report, and the report loaded in headless Chromium."""
    content = os.path.join(tmp, "two-hours.mp4")
    ad30, ad15 = os.path.join(tmp, "long-ad30.mp4"), os.path.join(tmp, "long-ad15.mp4")
    for path, seconds, filt in ((content, 7200, ""), (ad30, 30, ",hue=h=90"), (ad15, 15, ",hue=h=200")):
        if not os.path.exists(path):
            subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", f"testsrc2=size=160x90:rate=5:duration={seconds}{filt}",
                            "-f", "lavfi", "-i", f"sine=f=440:d={seconds}", "-c:v", "libx264", "-preset", "ultrafast",
                            "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest", path], check=True)
    out = os.path.join(tmp, "two-hours-render.mp4")
    breaks = sum([["--break", f"{m * 60}={ad30},{ad15}"] for m in range(10, 120, 10)], [])
    script = "; ".join(f"pip on@{m * 60 + 120}; pip off@{m * 60 + 180}" for m in range(0, 120, 20))
    render = [PIPCTL, "render", "--content", content, "--break", "pre=" + ad15] + breaks + [
        "--script", script, "--fps", "5", "-o", out, "--preset", "ultrafast", "--threads", str(args.threads)]
    page = os.path.join(tmp, "two-hours.report.html")

    def rendered_once():
        if not os.path.exists(out):
            measure(render)
    ours = [PIPCTL, "report", out, "-o", page]
    chromium = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir=" + os.path.join(tmp, "chromium"),
                "--dump-dom", "file://" + page]
    return ("report of a 2-hour render, loaded in Chromium", ours, chromium, out, ("report", "chromium"), rendered_once)


def page_load_ms(tmp):
    """The 2-hour report's load time as the page measured it (navigation start to the load event), best of three."""
    page = os.path.join(tmp, "two-hours.report.html")
    best = None
    for _ in range(3):
        dom = subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu",
                              "--user-data-dir=" + os.path.join(tmp, "chromium"), "--dump-dom", "file://" + page],
                             capture_output=True, text=True, check=True).stdout
        marker = 'data-load-ms="'
        at = dom.find(marker)
        if at < 0:
            sys.exit("bench: the report page did not record its load time")
        ms = float(dom[at + len(marker):dom.index('"', at + len(marker))])
        best = min(best or 1e12, ms)
    return best, os.path.getsize(page)


def serve_origin(d, sizes=("1280x720", "640x360"), rates=("3000k", "1000k")):
    """A 60 s HLS origin under d/origin/show/: two renditions of `sizes` and video bit `rates`, 6 s TS segments, 2 s
    GOPs (24 fps), AAC at 128 kbit/s."""
    origin = os.path.join(d, "origin")
    os.makedirs(os.path.join(origin, "show"), exist_ok=True)
    small = sizes[1].replace("x", ":")
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", f"testsrc2=size={sizes[0]}:rate=24:duration=60",
                    "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=60",
                    "-filter_complex", f"[0:v]split=2[a][b];[b]scale={small}[s]",
                    "-map", "[a]", "-map", "1:a", "-map", "[s]", "-map", "1:a",
                    "-c:v", "libx264", "-preset", "veryfast", "-g", "48", "-keyint_min", "48", "-sc_threshold", "0",
                    "-b:v:0", rates[0], "-b:v:1", rates[1], "-c:a", "aac", "-b:a", "128k",
                    "-f", "hls", "-hls_time", "6", "-hls_playlist_type", "vod",
                    "-hls_segment_filename", os.path.join(origin, "show", "v%v", "seg%d.ts"),
                    "-master_pl_name", "master.m3u8", "-var_stream_map", "v:0,a:0 v:1,a:1",
                    os.path.join(origin, "show", "v%v", "index.m3u8")], check=True)
    return origin


def serve_ad_server(d):
    """A loopback ad server (started): a VMAP with one mid-roll at 25.5 s (inside a segment and a GOP) of a 15 s
    1280x720 30 fps ad, and its beacons."""
    ad = os.path.join(d, "ad.mp4")
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=1280x720:rate=30:duration=15",
                    "-f", "lavfi", "-i", "sine=frequency=1000:sample_rate=44100:duration=15",
                    "-c:v", "libx264", "-preset", "veryfast", "-c:a", "aac", "-shortest", ad], check=True)
    class AdServer(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            if self.path.startswith("/vmap"):
                base = f"http://127.0.0.1:{self.server.server_port}"
                body = (f'<vmap:VMAP xmlns:vmap="http://www.iab.net/videosuite/vmap" version="1.0"><vmap:AdBreak timeOffset="00:00:25.500" '
                        f'breakType="linear" breakId="mid"><vmap:AdSource id="mid"><vmap:VASTAdData><VAST version="4.0"><Ad id="a"><InLine>'
                        f'<AdSystem>bench</AdSystem><AdTitle>a</AdTitle><Impression>{base}/beacon/impression</Impression><Creatives><Creative>'
                        f'<Linear><Duration>00:00:15</Duration><TrackingEvents><Tracking event="complete">{base}/beacon/complete</Tracking>'
                        f'</TrackingEvents><MediaFiles><MediaFile delivery="progressive" type="video/mp4" width="1280" height="720">'
                        f'{base}/ad.mp4</MediaFile></MediaFiles></Linear></Creative></Creatives></InLine></Ad></VAST></vmap:VASTAdData>'
                        f'</vmap:AdSource></vmap:AdBreak></vmap:VMAP>').encode()
                kind = "application/xml"
            elif self.path == "/ad.mp4":
                with open(ad, "rb") as f:
                    body = f.read()
                kind = "video/mp4"
            else:
                body, kind = b"", "text/plain"
            self.send_response(200)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *a):
            pass

    ads = http.server.ThreadingHTTPServer(("127.0.0.1", 0), AdServer)
    threading.Thread(target=ads.serve_forever, daemon=True).start()
    return ads


# How many times the per-viewer measure plays the whole stream, on each server: CPU time is read in 10 ms ticks (a
# process's, ended threads included), so 100 viewings of about 10 ms each keep the tick's error near 1 %.
VIEWINGS = 100


def serve_job(tmp, args):
    """`pipctl serve` on loopback: a 60 s HLS origin (1280x720 and 640x360, 6 s TS segments, 2 s GOPs) and a loopback
    ad server whose VMAP has one mid-roll at 25.5 s (inside a segment and a GOP) with a 15 s 1280x720 30 fps ad.
    Measures the first viewer of the break (cold: the cut and the ad conditioned for both renditions) against the
    second (warm), 200 concurrent new viewers (session, multivariant and media playlist), warm media playlists (p50,
    p99, requests per second per core of the server's CPU), and one viewer fetching a whole stitched stream (the
    server's CPU seconds per viewer-hour) against nginx serving the origin's own files to the same client, and against
    the copying of the very files that viewing fetched, by this server and by nginx."""
    import concurrent.futures
    import http.client
    import statistics
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    if not os.access(nginx, os.X_OK):
        sys.exit("bench: the serve job needs nginx as its peer (apt-get install nginx-light)")
    d = os.path.join(tmp, "serve")
    origin = serve_origin(d)
    ads = serve_ad_server(d)
    server = subprocess.Popen([PIPCTL, "serve", "--origin", origin, "--ads", f"http://127.0.0.1:{ads.server_port}/vmap?sid=[session.id]",
                               "--listen", "127.0.0.1:0", "--cache", os.path.join(d, "cache"), "--stitch-wait", "600",
                               "--threads", str(args.threads)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    line = server.stderr.readline()
    port = int(line.rsplit(":", 1)[1].strip().rstrip("/"))

    def cpu_of(pid):
        return serve_scale.cpu_of([pid])

    def get(conn, path, method="GET", body=None):
        conn.request(method, path, body=body, headers={"Content-Type": "application/json"} if body else {})
        response = conn.getresponse()
        data = response.read()
        if response.status >= 400:
            sys.exit(f"bench: {method} {path} answered {response.status}: {data[:200]!r}")
        return response, data

    def new_viewer():
        """A new viewer: session, multivariant playlist, first media playlist; the seconds to that playlist."""
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
        start = time.monotonic()
        _, answer = get(conn, "/v1/sessions", "POST", json.dumps({"content": "show/master.m3u8"}))
        sid = json.loads(answer)["sessionId"]
        get(conn, f"/v1/sessions/{sid}/master.m3u8")
        _, playlist = get(conn, f"/v1/sessions/{sid}/0.m3u8")
        took = time.monotonic() - start
        conn.close()
        if b"/ads/" not in playlist:
            sys.exit("bench: a viewer's playlist has no ad")
        return sid, took

    def percentile(values, p):
        ordered = sorted(values)
        return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]

    try:
        _, cold = new_viewer()
        _, warm = new_viewer()
        with concurrent.futures.ThreadPoolExecutor(200) as pool:
            viewers = list(pool.map(lambda _: new_viewer(), range(200)))
        firsts = [t for _, t in viewers]
        sessions = [s for s, _ in viewers]
        # Warm media playlists: 8 keep-alive clients, 250 requests each.
        def playlists(k, at=None):
            conn = http.client.HTTPConnection("127.0.0.1", at or port, timeout=60)
            times = []
            for n in range(250):
                sid = sessions[(k * 250 + n) % len(sessions)]
                start = time.monotonic()
                get(conn, f"/v1/sessions/{sid}/{n % 2}.m3u8" if at is None else "/v1/origin/show/v0/index.m3u8")
                times.append(time.monotonic() - start)
            conn.close()
            return times
        cpu0, wall0 = cpu_of(server.pid), time.monotonic()
        with concurrent.futures.ThreadPoolExecutor(8) as pool:
            latencies = [t for ts in pool.map(playlists, range(8)) for t in ts]
        cpu_playlists, wall_playlists = cpu_of(server.pid) - cpu0, time.monotonic() - wall0
        # One client alone, so no client thread waits for another: the server's own latency.
        alone = [t for k in range(4) for t in playlists(k)]

        def fetch_all(port_, paths, follow):
            """Fetches `paths` in order on one keep-alive connection (302s followed when `follow`); the bytes read."""
            conn = http.client.HTTPConnection("127.0.0.1", port_, timeout=60)
            total = 0
            for path in paths:
                while True:
                    response, data = get(conn, path)
                    total += len(data)
                    if follow and response.status == 302:
                        path = response.getheader("Location")
                        continue
                    break
            conn.close()
            return total

        def uris(text, playlist_path):
            return [u if u.startswith("/") else playlist_path.rsplit("/", 1)[0] + "/" + u
                    for u in text.decode().splitlines() if u and not u.startswith("#")]

        def play(port_, playlist_path, follow):
            """One viewing: a media playlist, then every segment in it; the bytes read."""
            conn = http.client.HTTPConnection("127.0.0.1", port_, timeout=60)
            _, text = get(conn, playlist_path)
            conn.close()
            return len(text) + fetch_all(port_, uris(text, playlist_path), follow)

        def server_cpu_per_viewing(pids, view):
            cpu0 = sum(cpu_of(p) for p in pids)
            read = sum(view() for _ in range(VIEWINGS)) / VIEWINGS
            return (sum(cpu_of(p) for p in pids) - cpu0) / VIEWINGS, read
        sid = sessions[0]
        ours_cpu, ours_bytes = server_cpu_per_viewing([server.pid], lambda: play(port, f"/v1/sessions/{sid}/0.m3u8", True))
        # The same stream's files as a static playlist (each ad segment by its shared URL, where its redirect leads),
        # for the cost of copying these very bytes: by this server, and by nginx below.
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        _, stitched_text = get(conn, f"/v1/sessions/{sid}/0.m3u8")
        static_lines = []
        for line in stitched_text.decode().splitlines():
            if line.startswith("/v1/sessions/"):
                response, _ = get(conn, line)
                line = response.getheader("Location")
            static_lines.append(line)
        conn.close()
        stitched_files = uris("\n".join(static_lines).encode(), "/")
        files_cpu, _ = server_cpu_per_viewing([server.pid], lambda: fetch_all(port, stitched_files, False))
    finally:
        server.terminate()
        server.wait()
        ads.shutdown()
    # The peer: nginx serving the origin's own playlist and segments to the same client, and the stitched stream's
    # files (the origin's under /v1/origin, the cache's under /v1/cache, as this server names them).
    root = os.path.join(d, "static")
    os.makedirs(os.path.join(root, "v1"), exist_ok=True)
    for name, target in (("origin", origin), ("cache", os.path.join(d, "cache"))):
        if not os.path.islink(os.path.join(root, "v1", name)):
            os.symlink(target, os.path.join(root, "v1", name))
    with open(os.path.join(root, "stitched.m3u8"), "w") as f:
        f.write("\n".join(static_lines) + "\n")
    conf = os.path.join(d, "nginx.conf")
    with open(conf, "w") as f:
        f.write(f"daemon off; worker_processes 1; {'user root; ' if os.geteuid() == 0 else ''}pid {d}/nginx.pid; error_log {d}/nginx.error.log;\n"
                f"events {{ worker_connections 256; }}\n"
                f"http {{ access_log off; sendfile on; server {{ listen 127.0.0.1:{port + 1}; root {root}; }} }}\n")
    peer = subprocess.Popen([nginx, "-c", conf], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(200):
            try:
                http.client.HTTPConnection("127.0.0.1", port + 1, timeout=1).request("GET", "/")
                break
            except OSError:
                time.sleep(0.05)
        workers = [int(p) for p in subprocess.run(["pgrep", "-P", str(peer.pid)], capture_output=True, text=True).stdout.split()]
        peer_cpu, peer_bytes = server_cpu_per_viewing([peer.pid] + workers, lambda: play(port + 1, "/v1/origin/show/v0/index.m3u8", False))
        peer_stitched_cpu, peer_stitched_bytes = server_cpu_per_viewing([peer.pid] + workers, lambda: play(port + 1, "/stitched.m3u8", False))
        # The same client asking nginx for the origin's static playlist: the client's own share of the latency.
        with concurrent.futures.ThreadPoolExecutor(8) as pool:
            static = [t for ts in pool.map(lambda k: playlists(k, port + 1), range(8)) for t in ts]
        static_alone = [t for k in range(4) for t in playlists(k, port + 1)]
    finally:
        peer.terminate()
        peer.wait()
    hours = 75 / 3600  # a stitched viewing: 60 s of content and the 15 s ad
    return {"job": "serve", "label": "serve: 60 s origin, 2 renditions, one 15 s mid-roll",
            "coldFirstPlaylist": round(cold, 3), "warmFirstPlaylist": round(warm, 3),
            "viewers200": {"p50": round(percentile(firsts, 50), 4), "p99": round(percentile(firsts, 99), 4)},
            "warmPlaylist": {"requests": len(latencies), "p50ms": round(percentile(latencies, 50) * 1000, 2),
                             "p99ms": round(percentile(latencies, 99) * 1000, 2),
                             "perSecond": round(len(latencies) / wall_playlists, 1),
                             "perCPUSecond": round(len(latencies) / max(cpu_playlists, 1e-6), 1),
                             "oneClient": {"p50ms": round(percentile(alone, 50) * 1000, 3), "p99ms": round(percentile(alone, 99) * 1000, 3)}},
            "viewer": {"bytes": int(ours_bytes), "cpuSeconds": round(ours_cpu, 4), "cpuPerViewerHour": round(ours_cpu / hours, 3),
                       "sameFilesCpuSeconds": round(files_cpu, 4), "ofSameFiles": round(ours_cpu / max(files_cpu, 1e-6), 3),
                       "ofNginxSameFiles": round(ours_cpu / max(peer_stitched_cpu, 1e-6), 3)},
            "nginx": {"bytes": int(peer_bytes), "cpuSeconds": round(peer_cpu, 4),
                      "stitchedFiles": {"bytes": int(peer_stitched_bytes), "cpuSeconds": round(peer_stitched_cpu, 4)},
                      "cpuPerViewerHour": round(peer_cpu / (60 / 3600), 3),
                      "staticPlaylist": {"p50ms": round(percentile(static, 50) * 1000, 2), "p99ms": round(percentile(static, 99) * 1000, 2),
                                         "oneClient": {"p50ms": round(percentile(static_alone, 50) * 1000, 3),
                                                       "p99ms": round(percentile(static_alone, 99) * 1000, 3)}}}}


JOBS = {"transcode": transcode_job, "render": render_job, "remote": remote_job, "hls": hls_job, "passthrough": passthrough_job,
        "passthrough-matched": functools.partial(passthrough_job, matched=True), "batch": batch_job,
        "report": report_job, "report-long": report_long_job, "loudness": loudness_job, "serve": serve_job,
        "serve-scale": lambda tmp, args: serve_scale.serve_scale_job(tmp, args, PIPCTL, serve_origin, serve_ad_server),
        "serve-burst": lambda tmp, args: serve_scale.serve_burst_job(tmp, args, PIPCTL, serve_origin, serve_ad_server)}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--preset", default="veryfast")
    parser.add_argument("--jobs", default=",".join(JOBS))
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--pipctl", default=PIPCTL, help="the pipctl to measure (the release build by default)")
    parser.add_argument("--viewers", type=int, default=1000, help="serve-scale: simulated viewers at once")
    parser.add_argument("--seconds", type=int, default=300, help="serve-scale: how long they play, per setup")
    parser.add_argument("--speed", type=float, default=1.0, help="serve-scale: how fast they play (1 is real time)")
    parser.add_argument("--setups", choices=["both", "one"], default="both",
                        help="serve-scale: one instance and two behind nginx, or one instance only")
    args = parser.parse_args()
    if not (1 <= args.viewers <= 5000 and 10 <= args.seconds <= 3600 and 0.1 <= args.speed <= 100):
        sys.exit("bench: --viewers 1 to 5000, --seconds 10 to 3600, --speed 0.1 to 100")
    globals()["PIPCTL"] = os.path.abspath(args.pipctl)
    if not os.access(PIPCTL, os.X_OK):
        sys.exit("bench: build first: swift build -c release --product pipctl")
    if "report-long" in args.jobs.split(",") and not os.access(CHROMIUM, os.X_OK):
        sys.exit("bench: the report-long job needs Debian's chromium (scripts/setup --for-tests)")
    if shutil.which("ffmpeg") is None:
        sys.exit("bench: the ffmpeg command-line tool is needed (scripts/setup --for-tests)")
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.jobs.split(","):
            if name in ("serve", "serve-scale", "serve-burst"):
                results.append(JOBS[name](tmp, args))
                continue
            job = JOBS[name](tmp, args)
            label, ours, peer, out = job[:4]
            tools = job[4] if len(job) > 4 else ("pipctl", "ffmpeg")
            prepare = job[5] if len(job) > 5 else None
            ours_t, ours_m = best_of(ours, args.repeat, prepare)
            peer_t, peer_m = best_of(peer, args.repeat)
            # The batch job's outputs are all its stitches: their frames together.
            frames = sum(frames_of(o) for o in out) if isinstance(out, list) else frames_of(out)
            result = {"job": name, "label": label, "frames": frames, "tools": list(tools),
                      tools[0]: {"seconds": round(ours_t, 3), "fps": round(frames / ours_t, 1), "peakMiB": round(ours_m, 1)},
                      tools[1]: {"seconds": round(peer_t, 3), "fps": round(frames / peer_t, 1), "peakMiB": round(peer_m, 1)},
                      "ratio": round(ours_t / peer_t, 3)}
            if name == "transcode":
                t, cpu = x264_alone_seconds(tmp, args)
                floor, decode, sound = transcode_floor(t, cpu, args)
                result["x264Alone"] = {"seconds": round(t, 3), "cpuSeconds": round(cpu, 3), "ofPeer": round(t / peer_t, 3),
                                       "oursOfIt": round(ours_t / t, 3)}
                result["floor"] = {"seconds": round(floor, 3), "decodeScaleCpu": round(decode, 3), "aacCpu": round(sound, 3),
                                   "cores": os.cpu_count(), "ofX264Alone": round(floor / t, 3), "oursOfIt": round(ours_t / floor, 3)}
            if name.startswith("passthrough"):
                t = copy_seconds(os.path.join(tmp, "long.mp4"), args.repeat)
                result["copy"] = {"seconds": round(t, 3), "ofOurs": round(ours_t / t, 2)}
            if name == "batch":
                result["jobsPerMinute"] = {tools[0]: round(len(out) * 60 / ours_t, 1), tools[1]: round(len(out) * 60 / peer_t, 1)}
            if name == "report-long":
                ms, size = page_load_ms(tmp)
                result["pageLoad"] = {"milliseconds": round(ms, 1), "pageKiB": round(size / 1024, 1)}
            if name == "loudness":
                # Both renders share the machine with whatever else runs: their CPU time says the cost more steadily.
                a, b = cpu_seconds(ours, args.repeat), cpu_seconds(peer, args.repeat)
                result["cpu"] = {tools[0]: round(a, 3), tools[1]: round(b, 3), "ratio": round(a / b, 3)}
            if name == "render":
                # Verifying the render both ways, beside the time it took to render it.
                result["verify"] = {}
                for way, extra in (("stamps", []), ("sources", ["--sources"])):
                    t, mem = best_of([PIPCTL, "verify", out] + extra, args.repeat)
                    result["verify"][way] = {"seconds": round(t, 3), "fps": round(frames / t, 1), "peakMiB": round(mem, 1),
                                             "ofRender": round(t / ours_t, 3)}
            results.append(result)
    if args.json:
        print(json.dumps(results, indent=2))
        return
    print(f"{'job':<58} {'tool':<7} {'wall s':>8} {'fps':>8} {'peak MiB':>9}")
    for r in results:
        if r["job"] == "serve-scale":
            print(r["label"])
            serve_scale.print_serve_scale(r)
            continue
        if r["job"] == "serve-burst":
            print(r["label"])
            serve_scale.print_serve_burst(r)
            continue
        if r["job"] == "serve":
            w, v, n = r["warmPlaylist"], r["viewer"], r["nginx"]
            print(r["label"])
            print(f"  first media playlist of a new break: cold {r['coldFirstPlaylist']:.3f} s, warm {r['warmFirstPlaylist']:.3f} s")
            print(f"  200 concurrent new viewers, session to first media playlist: p50 {r['viewers200']['p50'] * 1000:.1f} ms, "
                  f"p99 {r['viewers200']['p99'] * 1000:.1f} ms")
            print(f"  warm media playlists ({w['requests']}, 8 clients): p50 {w['p50ms']:.2f} ms, p99 {w['p99ms']:.2f} ms, "
                  f"{w['perSecond']:.0f}/s, {w['perCPUSecond']:.0f} per CPU second of the server; the same client from nginx "
                  f"(a static playlist): p50 {n['staticPlaylist']['p50ms']:.2f} ms, p99 {n['staticPlaylist']['p99ms']:.2f} ms")
            a, b = w["oneClient"], n["staticPlaylist"]["oneClient"]
            print(f"  warm media playlists, one client (1000): p50 {a['p50ms']:.3f} ms, p99 {a['p99ms']:.3f} ms; nginx's static "
                  f"playlist: p50 {b['p50ms']:.3f} ms, p99 {b['p99ms']:.3f} ms")
            print(f"  one viewer, the whole stitched stream ({v['bytes'] / 1e6:.1f} MB): {v['cpuSeconds']:.4f} CPU s, "
                  f"{v['cpuPerViewerHour']:.3f} CPU s per viewer-hour; nginx, the origin's own ({n['bytes'] / 1e6:.1f} MB): "
                  f"{n['cpuSeconds']:.4f} CPU s, {n['cpuPerViewerHour']:.3f} per viewer-hour")
            print(f"  the stitched stream's own files as a static playlist ({n['stitchedFiles']['bytes'] / 1e6:.1f} MB): this server "
                  f"{v['sameFilesCpuSeconds']:.4f} CPU s (the viewing costs {v['ofSameFiles']:.2f}x that), nginx "
                  f"{n['stitchedFiles']['cpuSeconds']:.4f} CPU s (the viewing costs {v['ofNginxSameFiles']:.2f}x that)")
            continue
        for tool in r["tools"]:
            m = r[tool]
            print(f"{r['label']:<58} {tool:<7} {m['seconds']:>8.3f} {m['fps']:>8.1f} {m['peakMiB']:>9.1f}")
        a, b = r["tools"]
        print(f"{'':<58} ratio {a}/{b} = {r['ratio']:.3f} (best of {args.repeat}, {args.threads} threads)")
        if "jobsPerMinute" in r:
            a_rate, b_rate = (r["jobsPerMinute"][t] for t in r["tools"])
            print(f"{'  throughput':<58} {'':<7} {a_rate:>5.1f} jobs/min with --jobs 1, {b_rate:.1f} with --jobs 2")
        if "x264Alone" in r:
            x = r["x264Alone"]
            print(f"{'  x264 alone, same frames and settings':<58} {'x264':<7} {x['seconds']:>8.3f}   {x['ofPeer']:.2f} of ffmpeg's time,"
                  f" pipctl {x['oursOfIt']:.2f}x it; {x['cpuSeconds']:.2f} CPU s")
            f = r["floor"]
            print(f"{'  the floor: x264 + decode/scale + AAC over every core':<58} {'':<7} {f['seconds']:>8.3f}   "
                  f"{f['ofX264Alone']:.2f}x x264 alone (+{f['decodeScaleCpu']:.2f} and {f['aacCpu']:.2f} CPU s on {f['cores']} cores),"
                  f" pipctl {f['oursOfIt']:.2f}x it")
        if "copy" in r:
            c = r["copy"]
            print(f"{'  copying the content file':<58} {'cp':<7} {c['seconds']:>8.3f}   pipctl takes {c['ofOurs']:.1f}x its time")
        if "pageLoad" in r:
            p = r["pageLoad"]
            print(f"{'  the page loads (navigation start to load event)':<58} {'page':<7} {p['milliseconds'] / 1000:>8.3f}   {p['pageKiB']:.0f} KiB")
        if "cpu" in r:
            c = r["cpu"]
            print(f"{'  CPU seconds (user + system)':<58} {'':<7} {c[a]:>8.3f} {c[b]:>8.3f}   ratio {a}/{b} = {c['ratio']:.3f}")
        for way, m in r.get("verify", {}).items():
            print(f"{'  verify it (' + way + ')':<58} {'pipctl':<7} {m['seconds']:>8.3f} {m['fps']:>8.1f} {m['peakMiB']:>9.1f}"
                  f"   {m['ofRender']:.2f} of the render's time")


if __name__ == "__main__":
    main()
