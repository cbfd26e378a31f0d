"""`bench/run.py --jobs serve-scale`: many simulated viewers playing at once, for minutes, against one `pipctl serve`
and against two instances behind nginx (deploy/nginx/pipctl-serve.conf), in one run.

Each viewer is a player on one keep-alive connection: it makes a session (half of them stitched, half guided), reads
the multivariant and one media playlist, then fetches the stream's segments at the pace it plays them (a segment's
EXTINF each), following an ad segment's beacon redirect; a guided viewer asks for each break's asset list when it
reaches the break, and plays the asset's playlist and segments there. At the stream's end it starts a new session.
Everything runs on loopback: the ad server (Python), the viewers (Python asyncio, one process), nginx and pipctl, all
on this machine's cores. Every loop is bounded in count and in time.

It prints, per setup: the requests and errors, p50 and p99 by route, the server's CPU (pipctl's, and nginx's) per
1,000 viewers, and its resident memory after the warm-up (the first half) and at the end (flat memory is the goal)."""
import asyncio
import concurrent.futures
import http.client
import json
import os
import re
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def route(path):
    """The route a request is counted under (the server's own names in /metrics)."""
    p = path.split("?", 1)[0]
    if p == "/v1/sessions":
        return "session"
    if p.startswith("/v1/guided/"):
        return "guided_playlist"
    if p.startswith("/v1/origin/"):
        return "origin_segment"
    if p.startswith("/v1/cache/"):
        return "cache_segment"
    if re.match(r"^/v1/sessions/[^/]+/ads/", p):
        return "ad_segment"
    if re.match(r"^/v1/sessions/[^/]+/assets/\d+\.json$", p):
        return "asset_list"
    if re.match(r"^/v1/sessions/[^/]+/assets/", p):
        return "asset_playlist"
    if p.endswith("/master.m3u8"):
        return "multivariant"
    if p.endswith(".m3u8"):
        return "media_playlist"
    return "other"


class Connection:
    """One keep-alive HTTP/1.1 connection, reading whole answers (Content-Length bodies, as pipctl and nginx send)."""

    def __init__(self, port):
        self.port = port
        self.reader = self.writer = None

    async def request(self, method, path, body=b"", timeout=60):
        for attempt in range(2):
            if self.writer is None:
                self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
            head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: bench-viewer/1.0\r\n"
            if body:
                head += f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
            try:
                self.writer.write(head.encode() + b"\r\n" + body)
                return await asyncio.wait_for(self._answer(), timeout)
            except (ConnectionError, asyncio.IncompleteReadError) as error:
                # A keep-alive connection the server closed (its idle timeout): once more on a new one.
                self.close()
                if attempt == 1:
                    raise error

    async def _answer(self):
        status_line = await self.reader.readline()
        if not status_line:
            raise ConnectionError("closed")
        status = int(status_line.split()[1])
        headers = {}
        while True:
            line = await self.reader.readline()
            if line in (b"\r\n", b"\n", b""):
                break
            name, _, value = line.decode("latin-1").partition(":")
            headers[name.strip().lower()] = value.strip()
        body = await self.reader.readexactly(int(headers.get("content-length", "0")))
        if headers.get("connection", "").lower() == "close":
            self.close()
        return status, headers, body

    def close(self):
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


class Load:
    """The viewers of one setup and what they measured."""

    def __init__(self, port, viewers, seconds, speed):
        self.port, self.viewers, self.seconds, self.speed = port, viewers, seconds, speed
        self.latency = {}   # route -> [seconds]
        self.errors = {}    # "route status" -> count
        self.sessions = {"stitched": 0, "guided": 0}
        self.deadline = None

    async def get(self, conn, path, method="GET", body=b""):
        start = time.monotonic()
        try:
            status, headers, data = await conn.request(method, path, body)
        except Exception as error:  # noqa: BLE001 (counted, the viewer goes on)
            key = f"{route(path)} {type(error).__name__}"
            self.errors[key] = self.errors.get(key, 0) + 1
            conn.close()
            return None, {}, b""
        self.latency.setdefault(route(path), []).append(time.monotonic() - start)
        if status >= 400:
            key = f"{route(path)} {status}"
            self.errors[key] = self.errors.get(key, 0) + 1
        return status, headers, data

    async def pause(self, seconds):
        await asyncio.sleep(min(seconds / self.speed, max(0, self.deadline - time.monotonic())))

    async def play_media(self, conn, base, text, on_daterange=None):
        """Plays a media playlist's segments at their pace; `on_daterange(line)` at each DATERANGE before a segment."""
        duration = 0.0
        for line in text.splitlines():
            if time.monotonic() >= self.deadline:
                return False
            if line.startswith("#EXT-X-DATERANGE:") and on_daterange:
                await on_daterange(line)
            elif line.startswith("#EXTINF:"):
                duration = float(line[8:].split(",")[0])
            elif line and not line.startswith("#"):
                path = line if line.startswith("/") else base.rsplit("/", 1)[0] + "/" + line
                status, headers, _ = await self.get(conn, path)
                if status == 302:
                    await self.get(conn, headers.get("location", "/"))
                await self.pause(duration)
        return True

    async def viewer(self, n):
        conn = Connection(self.port)
        mode = "guided" if n % 2 else "stitched"
        rendition = (n // 2) % 2
        # Viewers arrive over the first tenth of the run, as an audience does.
        await asyncio.sleep(self.seconds / 10 * n / self.viewers)
        while time.monotonic() < self.deadline:
            body = json.dumps({"content": "show/master.m3u8", "mode": mode, "params": {"viewer": str(n)}}).encode()
            status, _, answer = await self.get(conn, "/v1/sessions", "POST", body)
            if status != 201:
                await self.pause(5)
                continue
            self.sessions[mode] += 1
            manifest = json.loads(answer)["manifestUrl"]
            status, _, master = await self.get(conn, manifest)
            if status != 200:
                continue
            variants = [l for l in master.decode().splitlines() if l and not l.startswith("#")]
            media = variants[min(rendition, len(variants) - 1)]
            media = media if media.startswith("/") else manifest.rsplit("/", 1)[0] + "/" + media
            status, _, text = await self.get(conn, media)
            if status != 200:
                continue

            async def interstitial(line):
                found = re.search(r'X-ASSET-LIST="([^"]+)"', line)
                if not found:
                    return
                # The player substitutes the session into the asset list's URL (EXT-X-DEFINE QUERYPARAM).
                session = re.search(r"[?&]session=([^&]+)", media)
                url = found.group(1).replace("{$session}", session.group(1) if session else "")
                status, _, assets = await self.get(conn, url + ("&" if "?" in url else "?") + "_HLS_primary_id=bench")
                if status != 200:
                    return
                for asset in json.loads(assets).get("ASSETS", []):
                    s, _, asset_master = await self.get(conn, asset["URI"])
                    if s != 200:
                        continue
                    lines = [l for l in asset_master.decode().splitlines() if l and not l.startswith("#")]
                    asset_media = lines[min(rendition, len(lines) - 1)]
                    asset_media = asset_media if asset_media.startswith("/") else asset["URI"].rsplit("/", 1)[0] + "/" + asset_media
                    s, _, asset_text = await self.get(conn, asset_media)
                    if s == 200:
                        await self.play_media(conn, asset_media, asset_text.decode())

            await self.play_media(conn, media, text.decode(), interstitial if mode == "guided" else None)
        conn.close()

    async def run(self):
        self.deadline = time.monotonic() + self.seconds
        await asyncio.gather(*(self.viewer(n) for n in range(self.viewers)))


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))] if ordered else float("nan")


def cpu_of(pids):
    """CPU seconds of processes so far, every thread's, those that have ended included (/proc/PID/stat's utime and
    stime; each live thread's schedstat would miss the threads a pool has let go)."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])
    return total / ticks


def tree_cpu(master):
    """CPU seconds of nginx: its master's own and its ended children's (utime, stime, cutime, cstime), and its
    children alive now (workers; the cache loader, which exits after a minute, moves into the master's cutime)."""
    ticks = os.sysconf("SC_CLK_TCK")
    with open(f"/proc/{master}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    own = sum(int(x) for x in fields[11:15]) / ticks
    children = [int(p) for p in subprocess.run(["pgrep", "-P", str(master)], capture_output=True, text=True).stdout.split()]
    return own + cpu_of(children)


def rss_of(pids):
    total = 0
    for pid in pids:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1]) * 1024
    return total


def start_serve(pipctl, origin, ads_port, cache, secret, threads):
    process = subprocess.Popen([pipctl, "serve", "--origin", origin,
                                "--ads", f"http://127.0.0.1:{ads_port}/vmap?sid=[session.id]&v=[player_params.viewer]",
                                "--listen", "127.0.0.1:0", "--cache", cache, "--secret-file", secret, "--stitch-wait", "600",
                                "--trusted-proxy", "127.0.0.1", "--threads", str(threads)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    line = process.stderr.readline()
    return process, int(line.rsplit(":", 1)[1].strip().rstrip("/"))


def start_nginx(nginx, directory, ports):
    """nginx with deploy/nginx/pipctl-serve.conf, its instance lines, port and cache path changed."""
    with open(os.path.join(ROOT, "deploy", "nginx", "pipctl-serve.conf")) as f:
        site = f.read()
    listen = ports[-1] + 1000
    site = site.replace("    server 127.0.0.1:8081 max_fails=0;\n    server 127.0.0.1:8082 max_fails=0;",
                        "\n".join(f"    server 127.0.0.1:{p} max_fails=0;" for p in ports))
    site = site.replace("listen 8080;", f"listen 127.0.0.1:{listen};").replace("/var/cache/nginx/pipctl", directory + "/cache")
    with open(os.path.join(directory, "site.conf"), "w") as f:
        f.write(site)
    with open(os.path.join(directory, "nginx.conf"), "w") as f:
        f.write(f"daemon off; worker_processes 2; {'user root; ' if os.geteuid() == 0 else ''}pid {directory}/nginx.pid;\n"
                f"error_log {directory}/error.log warn; events {{ worker_connections 4096; }}\n"
                f"http {{ access_log off; sendfile on; client_body_temp_path {directory}/body; proxy_temp_path {directory}/proxy;\n"
                f"fastcgi_temp_path {directory}/f; uwsgi_temp_path {directory}/u; scgi_temp_path {directory}/s;\n"
                f"include {directory}/site.conf; }}\n")
    process = subprocess.Popen([nginx, "-p", directory, "-c", os.path.join(directory, "nginx.conf")],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(400):
        try:
            import socket
            socket.create_connection(("127.0.0.1", listen), timeout=1).close()
            break
        except OSError:
            time.sleep(0.05)
    return process, listen


def measure(port, servers, proxy, args):
    """Runs the viewers against `port` and samples the servers' (and the proxy's: nginx's master) CPU and memory."""
    load = Load(port, args.viewers, args.seconds, args.speed)
    samples = []

    async def sample():
        while True:
            samples.append((time.monotonic(), rss_of(servers)))
            await asyncio.sleep(5)

    async def main():
        sampler = asyncio.create_task(sample())
        try:
            await load.run()
        finally:
            sampler.cancel()

    proxy_cpu = (lambda: tree_cpu(proxy)) if proxy else (lambda: 0.0)
    cpu0 = (cpu_of(servers), proxy_cpu())
    start = time.monotonic()
    asyncio.run(main())
    wall = time.monotonic() - start
    cpu = (cpu_of(servers) - cpu0[0], proxy_cpu() - cpu0[1])
    # The warm-up: the first half, by which every viewer has arrived and finished a session, and a shared session
    # silent for a minute has left memory (SessionStore.sharedMemoryIdle); memory is then to stay flat.
    warm = [rss for at, rss in samples if at - start >= args.seconds / 2]
    requests = sum(len(v) for v in load.latency.values())
    per1000 = 1000 / args.viewers
    return {
        "viewers": args.viewers, "seconds": round(wall, 1), "sessions": load.sessions, "requests": requests,
        "errors": load.errors,
        "routes": {r: {"requests": len(v), "p50ms": round(percentile(v, 50) * 1000, 2), "p99ms": round(percentile(v, 99) * 1000, 2)}
                   for r, v in sorted(load.latency.items())},
        "serverCores": round(cpu[0] / wall, 3), "serverCoresPer1000": round(cpu[0] / wall * per1000, 3),
        "proxyCores": round(cpu[1] / wall, 3),
        "rssAfterWarmupMiB": round(warm[0] / 2**20, 1) if warm else None,
        "rssEndMiB": round(samples[-1][1] / 2**20, 1) if samples else None,
        "rssMaxAfterWarmupMiB": round(max(warm) / 2**20, 1) if warm else None,
        "rssMiBEveryMinute": [round(r / 2**20, 1) for at, r in samples if int(at - start) % 60 < 5],
    }


def serve_scale_job(tmp, args, pipctl, make_origin, ad_server):
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    if not os.access(nginx, os.X_OK):
        sys.exit("bench: the serve-scale job needs nginx (apt-get install nginx-light)")
    d = os.path.join(tmp, "serve-scale")
    origin = make_origin(d, sizes=("640x360", "320x180"), rates=("500k", "200k"))
    ads = ad_server(d)
    secret = os.path.join(d, "secret")
    with open(secret, "wb") as f:
        f.write(os.urandom(64))
    os.chmod(secret, 0o600)
    cache = os.path.join(d, "cache")
    results = {}
    # One instance, the viewers straight to it.
    first, port = start_serve(pipctl, origin, ads.server_port, cache, secret, args.threads)
    try:
        # The break's cut and ad, built once before the load (the serve job measures that cold build).
        warm = Load(port, 2, 600, 1e9)
        asyncio.run(_warm(warm))
        results["one"] = measure(port, [first.pid], None, args)
        print(json.dumps({"one": results["one"]}), file=sys.stderr, flush=True)
    finally:
        first.terminate()
        first.wait()
    if args.setups == "one":
        ads.shutdown()
        return {"job": "serve-scale", "label": f"serve-scale: {args.viewers} viewers for {args.seconds} s, half stitched, half guided",
                **results}
    # Two instances on the same cache and secret, behind nginx.
    a, port_a = start_serve(pipctl, origin, ads.server_port, cache, secret, args.threads)
    b, port_b = start_serve(pipctl, origin, ads.server_port, cache, secret, args.threads)
    proxy_dir = os.path.join(d, "nginx")
    os.makedirs(proxy_dir, exist_ok=True)
    proxy, listen = start_nginx(nginx, proxy_dir, [port_a, port_b])
    try:
        results["twoBehindNginx"] = measure(listen, [a.pid, b.pid], proxy.pid, args)
    finally:
        for p in (proxy, a, b):
            p.terminate()
            p.wait()
        ads.shutdown()
    return {"job": "serve-scale", "label": f"serve-scale: {args.viewers} viewers for {args.seconds} s, half stitched, half guided",
            **results}


async def _warm(load):
    """Two viewers, one of each mode, each to its first media playlist and the asset list (the builds)."""
    load.deadline = time.monotonic() + 600
    conn = Connection(load.port)
    for mode in ("stitched", "guided"):
        body = json.dumps({"content": "show/master.m3u8", "mode": mode, "params": {"viewer": "warm"}}).encode()
        status, _, answer = await load.get(conn, "/v1/sessions", "POST", body)
        if status != 201:
            sys.exit(f"bench: a warm-up session answered {status}: {answer[:200]!r}")
        manifest = json.loads(answer)["manifestUrl"]
        _, _, master = await load.get(conn, manifest)
        for media in [l for l in master.decode().splitlines() if l and not l.startswith("#")]:
            media = media if media.startswith("/") else manifest.rsplit("/", 1)[0] + "/" + media
            _, _, text = await load.get(conn, media)
            for url in re.findall(r'X-ASSET-LIST="([^"]+)"', text.decode()):
                session = re.search(r"[?&]session=([^&]+)", media)
                await load.get(conn, url.replace("{$session}", session.group(1) if session else ""))
    conn.close()
    if load.errors:
        sys.exit(f"bench: the warm-up failed: {load.errors}")


def print_serve_scale(r):
    for name, setup in (("one instance", r.get("one")), ("two instances behind nginx", r.get("twoBehindNginx"))):
        if setup is None:
            continue
        print(f"  {name}: {setup['viewers']} viewers, {setup['seconds']} s, sessions {setup['sessions']}, "
              f"{setup['requests']} requests, errors {setup['errors'] or 0}")
        for route_name, v in setup["routes"].items():
            print(f"    {route_name:<18} {v['requests']:>8} requests   p50 {v['p50ms']:>8.2f} ms   p99 {v['p99ms']:>8.2f} ms")
        print(f"    server CPU {setup['serverCores']:.3f} cores ({setup['serverCoresPer1000']:.3f} per 1,000 viewers), "
              f"nginx {setup['proxyCores']:.3f} cores; resident memory {setup['rssAfterWarmupMiB']} MiB after the warm-up, "
              f"{setup['rssEndMiB']} MiB at the end (at most {setup['rssMaxAfterWarmupMiB']} after the warm-up; each minute: "
              f"{setup['rssMiBEveryMinute']})")


def serve_burst_job(tmp, args, pipctl, make_origin, ad_server):
    """Bursts of new viewers, then quiet, on one instance with shared sessions (`--secret-file`, so a session stays in
    memory 60 s after its last request): 2,000 sessions, then 6,000 twice, each by 8 clients at once (a session,
    its multivariant and first media playlist, and the ad segments it lists; half stitched, half guided), each burst
    followed by 65 s without a request and one more session (which lets the server forget the idle ones). The
    server's resident memory after each quiet spell: what a burst leaves behind."""
    d = os.path.join(tmp, "serve-burst")
    os.makedirs(d, exist_ok=True)
    origin = make_origin(d)
    ads = ad_server(d)
    secret = os.path.join(d, "secret")
    with open(secret, "wb") as f:
        f.write(os.urandom(32))
    os.chmod(secret, 0o600)
    server, port = start_serve(pipctl, origin, ads.server_port, os.path.join(d, "cache"), secret, args.threads)

    def viewer(k):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
        mode = "guided" if k % 2 else "stitched"
        conn.request("POST", "/v1/sessions", body=json.dumps({"content": "show/master.m3u8", "mode": mode}),
                     headers={"Content-Type": "application/json"})
        made = json.loads(conn.getresponse().read())
        conn.request("GET", made["manifestUrl"])
        variants = [u for u in conn.getresponse().read().decode().splitlines() if u and not u.startswith("#")]
        conn.request("GET", variants[0])
        playlist = conn.getresponse().read().decode()
        for uri in [u for u in playlist.splitlines() if "/ads/" in u and not u.startswith("#")]:
            conn.request("GET", uri)
            conn.getresponse().read()
        conn.close()

    def burst(count):
        with concurrent.futures.ThreadPoolExecutor(8) as pool:
            list(pool.map(viewer, range(count)))

    def quiet():
        time.sleep(65)
        viewer(0)
        return round(rss_of([server.pid]) / 2**20, 1)

    memory, sessions = [], 0
    try:
        for count in (2000, 6000, 6000):
            burst(count)
            sessions += count + 1
            memory.append({"sessions": sessions, "rssMiB": quiet()})
    finally:
        server.terminate()
        server.wait()
        ads.shutdown()
    return {"job": "serve-burst", "label": "serve-burst: 2,000 then 6,000 and 6,000 new viewers, 65 s quiet after each",
            "afterQuiet": memory}


def print_serve_burst(r):
    for m in r["afterQuiet"]:
        print(f"  after {m['sessions']:,} sessions and a quiet minute: resident memory {m['rssMiB']:.1f} MiB")
