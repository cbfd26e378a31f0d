#!/usr/bin/env python3
"""Benchmarks pipctl against the ffmpeg command line doing the same job, in one run.

Each job runs both tools on the same input with the same output size, rate, x264 preset and CRF, AAC bit rate
and thread count; it prints wall time, frames per second, peak resident memory and the ratio pipctl/ffmpeg.
The `remote` job compares pipctl with itself: the demo render with its ad documents and media served over HTTP
on loopback (a cold media cache every run, so every download is counted) against the same render from local files.
Run from the repository root:  python3 bench/run.py [--repeat N] [--threads N] [--jobs transcode,render,remote]
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


def best_of(argv, repeat, before=None):
    runs = []
    for _ in range(repeat):
        if before:
            before()
        runs.append(measure(argv))
    return min(r[0] for r in runs), max(r[1] for r in runs)


def frames_of(path):
    out = subprocess.run(["ffprobe", "-v", "error", "-count_packets", "-select_streams", "v:0", "-show_entries",
                          "stream=nb_read_packets", "-of", "csv=p=0", path], capture_output=True, text=True, check=True)
    return int(out.stdout.strip())


def transcode_job(tmp, args):
    src = os.path.join(MEDIA, "content.mp4")
    w, h, fps = 1280, 720, "25"
    ours = [PIPCTL, "transcode", src, "-o", os.path.join(tmp, "ours.mp4"), "--size", f"{w}x{h}", "--fps", fps,
            "--crf", "23", "--preset", args.preset, "--threads", str(args.threads)]
    vf = (f"scale={w}:{h}:force_original_aspect_ratio=decrease:flags=bicubic,"
          f"pad={w}:{h}:(ow-iw)/2:(oh-ih)/2,fps={fps},format=yuv420p")
    peer = ["ffmpeg", "-v", "error", "-y", "-i", src, "-vf", vf, "-c:v", "libx264", "-preset", args.preset,
            "-crf", "23", "-threads", str(args.threads), "-c:a", "aac", "-b:a", "128k", "-ar", "48000", "-ac", "2",
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
            "-threads", str(args.threads), "-c:a", "aac", "-b:a", "128k", "-movflags", "+faststart",
            os.path.join(tmp, "peer-render.mp4")]
    return "render demo stitch (5 ads, 4 breaks) -> 640x360@30", ours, peer, os.path.join(tmp, "ours-render.mp4")


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def serve(directory):
    """Serves `directory` over HTTP on 127.0.0.1 in a background thread; returns the base URL."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(QuietHandler, directory=directory))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_address[1]}/"


def remote_job(tmp, args):
    """The demo (VMAP, wrapper, five ads, the viewer's script) with its documents and media fetched over HTTP,
    against the same render from local files through the demo's URL map."""
    m = lambda name: os.path.join(MEDIA, name)
    site = os.path.join(tmp, "site")
    os.makedirs(os.path.join(site, "cdn", "media"), exist_ok=True)
    base = serve(site)
    for name in ("demo-vmap.xml", "demo-wrapper.xml", "demo-inline.xml"):
        with open(m(name)) as f:
            text = f.read()
        text = text.replace("https://cdn.pipctl.example/", base + "cdn/").replace("https://ads.pipctl.example/", base)
        with open(os.path.join(site, name), "w") as f:
            f.write(text)
    for name in os.listdir(MEDIA):
        if name.endswith(".mp4"):
            shutil.copy(m(name), os.path.join(site, "cdn", "media", name))
    cache = os.path.join(tmp, "media-cache")
    common = ["--content", m("content.mp4"), "--script", "@" + m("demo.script"), "--preset", args.preset,
              "--crf", "23", "--threads", str(args.threads)]
    ours = [PIPCTL, "render", "--ads", base + "demo-vmap.xml", "--media-cache", cache,
            "-o", os.path.join(tmp, "remote.mp4")] + common
    peer = [PIPCTL, "render", "--ads", m("demo-vmap.xml"), "--url-map", m("demo.urlmap"),
            "-o", os.path.join(tmp, "local.mp4")] + common
    cold = lambda: shutil.rmtree(cache, ignore_errors=True)
    return ("render the demo, ads over loopback HTTP (cold cache) vs local files", ours, peer,
            os.path.join(tmp, "remote.mp4"), {"peer": "local", "before": cold})


JOBS = {"transcode": transcode_job, "render": render_job, "remote": remote_job}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--preset", default="veryfast")
    parser.add_argument("--jobs", default=",".join(JOBS))
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if not os.access(PIPCTL, os.X_OK):
        sys.exit("bench: build first: swift build -c release --product pipctl")
    if shutil.which("ffmpeg") is None:
        sys.exit("bench: the ffmpeg command-line tool is needed (scripts/setup --for-tests)")
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.jobs.split(","):
            label, ours, peer, out, *extra = JOBS[name](tmp, args)
            options = extra[0] if extra else {}
            ours_t, ours_m = best_of(ours, args.repeat, options.get("before"))
            peer_t, peer_m = best_of(peer, args.repeat)
            frames = frames_of(out)
            peer_name = options.get("peer", "ffmpeg")
            results.append({"job": name, "label": label, "frames": frames, "peerName": peer_name,
                            "pipctl": {"seconds": round(ours_t, 3), "fps": round(frames / ours_t, 1), "peakMiB": round(ours_m, 1)},
                            "peer": {"seconds": round(peer_t, 3), "fps": round(frames / peer_t, 1), "peakMiB": round(peer_m, 1)},
                            "ratio": round(ours_t / peer_t, 3)})
    if args.json:
        print(json.dumps(results, indent=2))
        return
    print(f"{'job':<70} {'tool':<7} {'wall s':>8} {'fps':>8} {'peak MiB':>9}")
    for r in results:
        for tool, m in (("pipctl", r["pipctl"]), (r["peerName"], r["peer"])):
            print(f"{r['label']:<70} {tool:<7} {m['seconds']:>8.3f} {m['fps']:>8.1f} {m['peakMiB']:>9.1f}")
        print(f"{'':<70} ratio pipctl/{r['peerName']} = {r['ratio']:.3f} (best of {args.repeat}, {args.threads} threads)")


if __name__ == "__main__":
    main()
