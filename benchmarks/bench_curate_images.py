"""Curation image stage benchmark: (a) images/s through download → size filter → convert → text similarity →
dedup, served by a local HTTP server; (b) pHash dedup precision and recall on a set with known near-duplicates.

(a) N generated images (photo-like JPEGs with grain, some PNG and BMP, 7% tiny icons, 2% HTML error pages, ~8%
re-encoded copies of a picture of the same query) are written to a folder and served by a threaded ``http.server``
(HTTP/1.1, backlog 256) on 127.0.0.1 in a separate process. They are grouped into queries of 12 (9 page images +
3 auxiliary) with alt texts. Timed, best of ``--repeats``: all downloads (``download_image`` through one
``Fetcher``, whose per-host limit is the concurrency since every URL is on one host),
then ``filter_query_images`` per query with ``TextSimilarity`` (MiniLM; model load not timed). Baselines: one
``await`` at a time, and plain ``requests.get`` in a loop with the same checks. The server answers at once, then
after a simulated network latency (``--latency``), where concurrency pays.

(b) B distinct base images + near-duplicates made by resize, JPEG re-encode at quality 60, a crop of ≤ 5%,
brightness +10% and a small watermark; bases first, then the copies, through ``dedup`` at several distances.

    python benchmarks/bench_curate_images.py [--n 300] [--concurrency 1 4 16] [--latency 0 0.05] [--bases 150]
        [--per-transform 20] [--distances 6 10 14]
"""

from __future__ import annotations

import argparse
import asyncio
import io
import os
import platform
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

import numpy as np  # noqa: E402
from PIL import Image, ImageDraw, ImageEnhance  # noqa: E402

from m2rag_bench.curate.fetch import Fetcher  # noqa: E402
from m2rag_bench.curate.image_filters import dedup, image_hash  # noqa: E402
from m2rag_bench.curate.images import ImageItem, _process, download_image, filter_query_images  # noqa: E402
from m2rag_bench.curate.similarity import TextSimilarity  # noqa: E402

TOPICS = ["snake plant", "espresso machine", "mountain bike", "sourdough bread", "solar panel", "golden retriever",
          "violin", "lighthouse", "volcano", "chess opening", "electric guitar", "coral reef"]
OFF_TOPIC = ["Company logo", "Subscribe to our newsletter", "Photo of the author", "Advertisement", ""]


def encode(img: Image.Image, fmt: str, **kw: object) -> bytes:
    out = io.BytesIO()
    img.save(out, format=fmt, **kw)
    return out.getvalue()


def photo(rng: np.random.Generator, size: tuple[int, int] = (400, 300)) -> Image.Image:
    """Smooth colour field, a few shapes and grain: a distinct, photo-like picture."""
    coarse = Image.fromarray(rng.integers(0, 256, (4, 5, 3), dtype=np.uint8)).resize(size, Image.BICUBIC)
    draw = ImageDraw.Draw(coarse)
    for _ in range(int(rng.integers(2, 6))):
        x0, y0 = int(rng.integers(0, size[0])), int(rng.integers(0, size[1]))
        x1, y1 = x0 + int(rng.integers(20, size[0] // 2)), y0 + int(rng.integers(20, size[1] // 2))
        shape = draw.ellipse if rng.random() < 0.5 else draw.rectangle
        shape((x0, y0, x1, y1), fill=tuple(int(c) for c in rng.integers(0, 256, 3)))
    grain = Image.effect_noise(size, 40).convert("RGB")
    return Image.blend(coarse, grain, 0.2)


# --- (a) throughput -----------------------------------------------------------------------------------------------

def make_site(folder: Path, n: int, seed: int = 1) -> list[tuple[str, str, str]]:
    """Write n images; returns (key, file name, alt) in query order: 12 per query, keys "p/i" then "aux-k"."""
    rng = np.random.default_rng(seed)
    pyr = random.Random(seed)
    entries: list[tuple[str, str, str]] = []
    photos: list[Image.Image] = []
    for i in range(n):
        q, slot = divmod(i, 12)
        if slot == 0:
            photos = []  # copies repeat a picture of the same query (dedup works per query)
        key = f"{slot // 3}/{slot % 3 + 1}" if slot < 9 else f"aux-{slot - 8}"
        kind = pyr.random()
        if kind < 0.07:
            name, data = f"{i}.png", encode(Image.new("RGB", (24, 24), (200, 30, 30)), "PNG")  # icon: dropped
        elif kind < 0.09:
            name, data = f"{i}.jpg", b"<html><body>404 Not Found</body></html>" * 600  # not an image: dropped
        elif kind < 0.17 and photos:
            name, data = f"{i}.jpg", encode(pyr.choice(photos).resize((480, 360)), "JPEG", quality=85)  # copy
        elif kind < 0.22:
            name, data = f"{i}.bmp", encode(photo(rng, (240, 180)), "BMP")  # converted to PNG
        elif kind < 0.30:
            name, data = f"{i}.png", encode(photo(rng, (300, 200)), "PNG")
        else:
            img = photo(rng)
            photos.append(img)
            name, data = f"{i}.jpg", encode(img, "JPEG", quality=90)
        (folder / name).write_bytes(data)
        topic = TOPICS[q % len(TOPICS)]
        alt = pyr.choice([f"A {topic} seen up close", f"{topic.capitalize()} in use", f"Diagram of a {topic}"]
                         if pyr.random() < 0.75 else OFF_TOPIC)
        entries.append((key, name, alt))
    return entries


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


SERVER = """
import functools, sys, time
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
class Handler(SimpleHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive: every response has a Content-Length
    disable_nagle_algorithm = True  # else headers and body in two writes cost a 40 ms delayed ACK per request
    def log_message(self, *args):
        pass
    def do_GET(self):
        time.sleep(float(sys.argv[3]))  # simulated network latency per request
        super().do_GET()
class Server(ThreadingHTTPServer):
    request_queue_size = 256  # http.server's default backlog of 5 drops SYNs at 16 concurrent connects
    daemon_threads = True
Server(("127.0.0.1", int(sys.argv[1])), functools.partial(Handler, directory=sys.argv[2])).serve_forever()
"""


def start_server(folder: Path, latency: float) -> tuple[subprocess.Popen, str]:
    """A threaded static file server (HTTP/1.1, backlog 256) in its own process, so it does not share our GIL;
    every response waits ``latency`` seconds first."""
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-c", SERVER, str(port), str(folder), str(latency)])
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            break
        except OSError:
            time.sleep(0.05)
    return proc, f"http://127.0.0.1:{port}"


def filter_all(queries: list[list[tuple[ImageItem, object]]], sim: TextSimilarity) -> list:
    out = []
    for q, pairs in enumerate(queries):
        alts = {item.key: item.alt for item, _ in pairs}
        out += filter_query_images(f"How does a {TOPICS[q % len(TOPICS)]} work?", [o for _, o in pairs], sim,
                                   None, alts=alts)
    return out


async def download_all(items: list[ImageItem], per_host: int, sequential: bool) -> list:
    async with Fetcher(allow_loopback=True, per_host=per_host, retries=0) as fetcher:
        if sequential:
            return [await download_image(fetcher, it) for it in items]
        return list(await asyncio.gather(*(download_image(fetcher, it) for it in items)))


def requests_baseline(items: list[ImageItem]) -> list:
    import requests

    out = []
    with requests.Session() as session:
        for it in items:
            data = session.get(it.url, timeout=20).content
            out.append(_process(it, data, 10_000, 4_000_000, 20 * 1024))
    return out


def bench_throughput(n: int, levels: list[int], repeats: int, latency: float, sim: TextSimilarity) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        entries = make_site(Path(tmp), n)
        total_mb = sum(f.stat().st_size for f in Path(tmp).iterdir()) / 1e6
        proc, base = start_server(Path(tmp), latency)
        try:
            items = [ImageItem(key, f"{base}/{name}", alt) for key, name, alt in entries]
            runs: list[tuple[str, object]] = [("sequential (one await at a time)", ("seq", 1))]
            runs += [(f"concurrent, per-host limit {c}", ("gather", c)) for c in levels]
            runs.append(("requests.get loop + same checks", ("requests", 1)))
            print(f"\n{n} images, {total_mb:.1f} MB, {len(items) // 12} queries, server latency {latency * 1e3:.0f} ms")
            print("| run | download+check s | filter s | total s | images/s | kept | dropped (size/format/sim/dup) |")
            print("|---|---|---|---|---|---|---|")
            for label, (mode, c) in runs:
                best = None
                for _ in range(repeats):
                    t0 = time.perf_counter()
                    if mode == "requests":
                        outs = requests_baseline(items)
                    else:
                        outs = asyncio.run(download_all(items, c, mode == "seq"))
                    t1 = time.perf_counter()
                    queries = [list(zip(items[i:i + 12], outs[i:i + 12])) for i in range(0, len(items), 12)]
                    final = filter_all(queries, sim)
                    t2 = time.perf_counter()
                    if best is None or t2 - t0 < best[2]:
                        best = (t1 - t0, t2 - t1, t2 - t0, final)
                d, f, t, final = best
                cats = [(o.reason or "").split(":")[0].split(" of ")[0] for o in final if not o.ok]
                counts = "/".join(str(cats.count(c)) for c in ("size", "format", "similarity", "duplicate"))
                print(f"| {label} | {d:.2f} | {f:.2f} | {t:.2f} | **{n / t:.0f}** | {sum(o.ok for o in final)} "
                      f"| {counts} |")
        finally:
            proc.terminate()
            proc.wait()


# --- (b) dedup precision / recall ---------------------------------------------------------------------------------

def transform(img: Image.Image, kind: str, rng: random.Random) -> bytes:
    w, h = img.size
    if kind == "resize":
        s = rng.uniform(0.5, 0.8)
        return encode(img.resize((int(w * s), int(h * s)), Image.LANCZOS), "JPEG", quality=90)
    if kind == "jpeg q60":
        return encode(img, "JPEG", quality=60)
    if kind == "crop ≤5%":
        dx, dy = int(w * rng.uniform(0.02, 0.05)), int(h * rng.uniform(0.02, 0.05))
        left, top = rng.randint(0, dx), rng.randint(0, dy)
        return encode(img.crop((left, top, w - (dx - left), h - (dy - top))), "JPEG", quality=90)
    if kind == "brightness +10%":
        return encode(ImageEnhance.Brightness(img).enhance(1.10), "JPEG", quality=90)
    if kind == "watermark":
        marked = img.copy()
        draw = ImageDraw.Draw(marked, "RGBA")
        bw, bh = int(w * 0.35), int(h * 0.1)
        draw.rectangle((w - bw - 6, h - bh - 6, w - 6, h - 6), fill=(0, 0, 0, 120))
        draw.text((w - bw, h - bh - 4), "© example.com", fill=(255, 255, 255, 230))
        return encode(marked, "JPEG", quality=90)
    raise ValueError(kind)


TRANSFORMS = ["resize", "jpeg q60", "crop ≤5%", "brightness +10%", "watermark"]


def bench_dedup(n_bases: int, per_transform: int, distances: list[int]) -> None:
    rng_np, rng = np.random.default_rng(7), random.Random(7)
    bases = [photo(rng_np) for _ in range(n_bases)]
    images = [(f"b{i}", encode(img, "JPEG", quality=90)) for i, img in enumerate(bases)]
    truth: dict[str, tuple[str, str]] = {}  # copy key -> (base key, transformation)
    for kind in TRANSFORMS:
        for j in range(per_transform):
            b = rng.randrange(n_bases)
            key = f"{kind}-{j}"
            images.append((key, transform(bases[b], kind, rng)))
            truth[key] = (f"b{b}", kind)
    hashes = {k: image_hash(d) for k, d in images}
    print(f"\n{n_bases} bases + {len(truth)} near-duplicates ({per_transform} per transformation)")
    print("Hamming distance copy→base: " + "; ".join(
        f"{kind}: median {statistics.median(hashes[k] - hashes[b] for k, (b, t) in truth.items() if t == kind):.0f}"
        f", max {max(hashes[k] - hashes[b] for k, (b, t) in truth.items() if t == kind)}" for kind in TRANSFORMS))
    base_d = [hashes[f"b{i}"] - hashes[f"b{j}"] for i in range(n_bases) for j in range(i)]
    print(f"distance between distinct bases: min {min(base_d)}, 1st percentile {np.percentile(base_d, 1):.0f}, "
          f"median {statistics.median(base_d):.0f}")
    print("| max_distance | precision | recall | " + " | ".join(TRANSFORMS) + " | false positives | time ms |")
    print("|---" * (5 + len(TRANSFORMS)) + "|")
    for d in distances:
        t0 = time.perf_counter()
        _kept, dups = dedup(images, max_distance=d)
        ms = (time.perf_counter() - t0) * 1e3

        def same_group(a: str, b: str) -> bool:
            return truth.get(a, (a,))[0] == truth.get(b, (b,))[0]

        correct = [k for k, v in dups.items() if same_group(k, v)]
        precision = len(correct) / len(dups) if dups else 1.0
        recall = sum(1 for k in truth if k in dups and same_group(k, dups[k])) / len(truth)
        per = [sum(1 for k, (_b, t) in truth.items() if t == kind and k in dups and same_group(k, dups[k]))
               for kind in TRANSFORMS]
        print(f"| {d} | {precision:.3f} | {recall:.3f} | " + " | ".join(f"{c}/{per_transform}" for c in per)
              + f" | {len(dups) - len(correct)} | {ms:.0f} |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=300)
    ap.add_argument("--concurrency", type=int, nargs="+", default=[1, 4, 16])
    ap.add_argument("--repeats", type=int, default=2)
    ap.add_argument("--latency", type=float, nargs="+", default=[0.0, 0.05], help="server delay per request, s")
    ap.add_argument("--bases", type=int, default=150)
    ap.add_argument("--per-transform", type=int, default=20)
    ap.add_argument("--distances", type=int, nargs="+", default=[6, 10, 14])
    ap.add_argument("--skip-throughput", action="store_true")
    args = ap.parse_args()
    print(f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}")
    if not args.skip_throughput:
        sim = TextSimilarity()
        sim.scores("warm up", [(b"", "a warm-up alt text")])  # first call initialises torch kernels
        print(f"similarity: {sim.name} (threshold {sim.default_threshold})")
        for latency in args.latency:
            bench_throughput(args.n, args.concurrency, args.repeats, latency, sim)
    bench_dedup(args.bases, args.per_transform, args.distances)


if __name__ == "__main__":
    main()
