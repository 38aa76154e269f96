"""Images of the offline fixture web (tests only), generated deterministically with PIL and numpy.

Each :class:`ImageSpec` is served at ``path``. Specs that share a ``picture`` show the same picture (resized
and/or re-encoded): they are perceptual duplicates of each other. Every distinct picture is a seeded gradient
with drawn shapes and a noise texture (so files weigh well over 20 KiB); its seed is chosen so that its pHash is
more than :data:`MIN_DISTANCE` bits away from every picture chosen before it, which keeps distinct pictures
clearly distinct (> 10) even after JPEG/WEBP/GIF encoding.

``kind`` is what the image *is*, independent of where it appears: ``picture`` (a good image), ``svg``,
``tiny`` (icons), ``oversized`` (2100×2100, over the 4 Mpx limit), ``not_image`` (HTML bytes served as
image/jpeg), ``truncated`` (a JPEG cut short), ``server_error`` (HTTP 500 always) and ``private`` (an address
on a private network, never served here).
"""

from __future__ import annotations

import io
import random
from dataclasses import dataclass
from functools import lru_cache

import imagehash
import numpy as np
from PIL import Image, ImageDraw

#: Smallest pHash distance between two distinct pictures at generation time.
MIN_DISTANCE = 18

CONTENT_TYPES = {"jpeg": "image/jpeg", "png": "image/png", "webp": "image/webp", "gif": "image/gif",
                 "bmp": "image/bmp", "svg": "image/svg+xml", "tiny": "image/png", "not_image": "image/jpeg",
                 "truncated": "image/jpeg"}


@dataclass(frozen=True)
class ImageSpec:
    """One image URL of the fixture web; ``path`` is absolute (``http://…``) only for private addresses."""

    path: str
    kind: str
    alt: str
    fmt: str = ""
    size: tuple[int, int] = (0, 0)
    picture: str | None = None
    note: str = ""


def _pic(path: str, picture: str, fmt: str, size: tuple[int, int], alt: str) -> ImageSpec:
    return ImageSpec(path, "svg" if fmt == "svg" else "picture", alt, fmt, size, picture)


IMAGES: dict[str, ImageSpec] = {
    # Q1 solar panels
    "solar_roof": _pic("/img/solar/rooftop-array.jpg", "solar_roof", "jpeg", (800, 600),
                       "Rooftop solar panel array on a family house"),
    "pv_diagram": _pic("/img/solar/pv-cell-diagram.png", "pv_diagram", "png", (640, 480),
                       "Diagram of the layers of a photovoltaic cell"),
    "pn_junction": _pic("/img/solar/pn-junction.webp", "pn_junction", "webp", (640, 480),
                        "The p-n junction and its depletion zone"),
    "solar_roof_thumb": _pic("/img/solar/roof-panels-thumb.png", "solar_roof", "png", (480, 360),
                             "Solar panels on a roof seen from the street"),
    "electron_flow": _pic("/img/solar/electron-flow.gif", "electron_flow", "gif", (480, 360),
                          "Electrons flowing from the top contact through a lamp"),
    "inverter": _pic("/img/solar/string-inverter.jpg", "inverter", "jpeg", (640, 480),
                     "String inverter with its output display"),
    "grid_diagram": _pic("/img/solar/grid-connection.svg", "grid_diagram", "svg", (600, 450),
                         "Schematic of a grid-connected solar system"),
    "net_meter": _pic("/img/solar/net-meter.bmp", "net_meter", "bmp", (480, 360),
                      "Bidirectional electricity meter"),
    "battery": _pic("/img/solar/home-battery.jpg", "battery", "jpeg", (640, 480), "Wall-mounted home battery"),
    "sun_spectrum": _pic("/img/solar/sun-spectrum.jpg", "sun_spectrum", "jpeg", (800, 600),
                         "The spectrum of sunlight"),
    "solar_roof_search": _pic("/img/search/solar-roof-400.jpg", "solar_roof", "jpeg", (400, 300),
                              "Solar roof"),
    "panel_closeup": _pic("/img/solar/panel-closeup.png", "panel_closeup", "png", (640, 480),
                          "Close-up of solar cells and their silver contacts"),
    "solar_farm": ImageSpec("/img/solar/solar-farm-aerial-full.jpg", "oversized", "Aerial view of a solar farm",
                            "jpeg", (2100, 2100), "solar_farm", "2100x2100 = 4.41 Mpx, valid JPEG"),
    # Q2 autumn leaves
    "maple": _pic("/img/leaves/sugar-maple.jpg", "maple", "jpeg", (800, 600),
                  "Sugar maple with red and orange autumn leaves"),
    "chlorophyll": _pic("/img/leaves/chlorophyll-model.png", "chlorophyll", "png", (640, 480),
                        "Model of a chlorophyll molecule"),
    "pigment_chart": _pic("/img/leaves/pigment-chart.png", "pigment_chart", "png", (800, 600),
                          "Chart of leaf pigments from August to November"),
    "carotenoids": _pic("/img/leaves/carotenoids.webp", "carotenoids", "webp", (640, 480),
                        "Yellow birch leaves coloured by carotenoids"),
    "maple_medium": _pic("/img/leaves/maple-leaves-600.webp", "maple", "webp", (600, 450),
                         "Maple leaves at the height of the season"),
    "sunny_days": _pic("/img/leaves/sunny-autumn-day.jpg", "sunny_days", "jpeg", (800, 600),
                       "Sunny autumn day over a red forest"),
    "frost_leaf": _pic("/img/leaves/frost-on-leaf.jpg", "frost_leaf", "jpeg", (640, 480),
                       "Frost on a brown oak leaf"),
    "leaf_cells": _pic("/img/leaves/leaf-cells.jpg", "leaf_cells", "jpeg", (640, 480),
                       "Leaf cells full of chloroplasts under a microscope"),
    "maple_search": _pic("/img/search/maple-320.png", "maple", "png", (320, 240), "Maple tree in autumn"),
    "ginkgo": _pic("/img/leaves/ginkgo.webp", "ginkgo", "webp", (640, 480), "Golden ginkgo leaves"),
    "anthocyanin_broken": ImageSpec("/img/leaves/anthocyanin.jpg", "not_image", "Red anthocyanin pigment",
                                    "not_image", note="HTML bytes served as image/jpeg"),
    "rain_truncated": ImageSpec("/img/leaves/rainy-forest.jpg", "truncated", "Rain stripping leaves from trees",
                                "truncated", (800, 600), "rain", "a JPEG cut after 45% of its bytes"),
    "private_camera": ImageSpec("http://10.0.0.7/secret.png", "private", "Live view of the test plot",
                                note="private address: must never be requested"),
    # Q3 bicycle gears
    "drivetrain": _pic("/img/bikes/drivetrain.jpg", "drivetrain", "jpeg", (800, 600),
                       "Bicycle drivetrain with chainrings, chain, cassette and derailleur"),
    "cassette": _pic("/img/bikes/cassette.png", "cassette", "png", (640, 480), "Rear cassette of sprockets"),
    "cassette_thumb": _pic("/img/bikes/cassette-thumb.png", "cassette", "png", (320, 240),
                           "Close-up of an eleven-speed cassette"),
    "chainring": _pic("/img/bikes/chainring-50t.png", "chainring", "png", (640, 480), "A 50-tooth chainring"),
    "ratio_chart": _pic("/img/bikes/gear-ratio-chart.gif", "ratio_chart", "gif", (640, 480),
                        "Chart of gear development per combination"),
    "rider_hill": _pic("/img/bikes/rider-on-hill.jpg", "rider_hill", "jpeg", (800, 600),
                       "Commuter climbing a hill in a low gear"),
    "shifter": _pic("/img/bikes/shifter.webp", "shifter", "webp", (640, 480), "Handlebar gear shifters"),
    "drivetrain_side": _pic("/img/bikes/drivetrain-side.png", "drivetrain", "png", (640, 480),
                            "Drivetrain seen from the side"),
    "gear_teeth": _pic("/img/bikes/gear-teeth.jpg", "gear_teeth", "jpeg", (640, 480), "Meshing gear teeth"),
    "cassette_search": _pic("/img/search/cassette-480.webp", "cassette", "webp", (480, 360), "Bike cassette"),
    "commuter": _pic("/img/bikes/commuter-bike.jpg", "commuter", "jpeg", (640, 480),
                     "Commuter bike with a wide gear range"),
    "cadence_graph": ImageSpec("/img/bikes/cadence-graph.png", "server_error", "Cadence and power graph",
                               note="HTTP 500 always"),
    # icons (page chrome and inline)
    "site_logo": ImageSpec("/img/icons/site-logo-32.png", "tiny", "Site logo", "tiny", (32, 32), "logo"),
    "share_icon": ImageSpec("/img/icons/share-16.png", "tiny", "Share", "tiny", (16, 16), "share"),
    "info_icon": ImageSpec("/img/icons/info-32.png", "tiny", "Tip", "tiny", (32, 32), "info"),
    "warning_icon": ImageSpec("/img/icons/note-16.png", "tiny", "Note", "tiny", (16, 16), "note"),
}
#: Chrome images of every page (in ``<header>`` / ``<footer>``: readers drop them).
CHROME = ("site_logo", "share_icon")

_PICTURES = list(dict.fromkeys(s.picture for s in IMAGES.values()
                               if s.picture and s.kind in ("picture", "svg", "oversized", "truncated")))


def _draw(seed: int, size: tuple[int, int]) -> Image.Image:
    """A seeded picture: two-colour gradient at a random angle, 4–7 shapes, Gaussian noise texture."""
    rng = random.Random(seed)
    w, h = size
    colour = lambda: np.array([rng.randint(0, 255) for _ in range(3)], dtype=np.float32)  # noqa: E731
    c1, c2 = colour(), colour()
    angle = rng.uniform(0, 2 * np.pi)
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    t = np.cos(angle) * xs / w + np.sin(angle) * ys / h
    t = (t - t.min()) / max(float(t.max() - t.min()), 1e-6)
    arr = c1 * (1 - t[..., None]) + c2 * t[..., None]
    img = Image.fromarray(arr.astype(np.uint8), "RGB")
    draw = ImageDraw.Draw(img)
    for _ in range(rng.randint(4, 7)):
        x0, y0 = rng.uniform(-0.1, 0.8) * w, rng.uniform(-0.1, 0.8) * h
        x1, y1 = x0 + rng.uniform(0.15, 0.5) * w, y0 + rng.uniform(0.15, 0.5) * h
        fill = tuple(rng.randint(0, 255) for _ in range(3))
        shape = rng.choice(("ellipse", "rectangle", "polygon"))
        if shape == "polygon":
            pts = [(rng.uniform(x0, x1), rng.uniform(y0, y1)) for _ in range(rng.randint(3, 6))]
            draw.polygon(pts, fill=fill)
        else:
            getattr(draw, shape)([x0, y0, x1, y1], fill=fill)
    noise = np.random.default_rng(seed).normal(0.0, 12.0, (h, w, 1)).astype(np.float32)
    out = np.clip(np.asarray(img, dtype=np.float32) + noise, 0, 255).astype(np.uint8)
    return Image.fromarray(out, "RGB")


@lru_cache(maxsize=1)
def picture_seeds() -> dict[str, int]:
    """Seed of each distinct picture, chosen in order so all pHashes are > MIN_DISTANCE apart."""
    seeds: dict[str, int] = {}
    hashes: list[imagehash.ImageHash] = []
    candidate = 1000
    for name in _PICTURES:
        while True:
            candidate += 1
            h = imagehash.phash(_draw(candidate, (160, 120)))
            if all(h - other > MIN_DISTANCE for other in hashes):
                seeds[name], _ = candidate, hashes.append(h)
                break
    return seeds


@lru_cache(maxsize=None)
def _canonical(name: str) -> Image.Image:
    """Picture ``name`` at its canonical size (800×600; the oversized one 2100×2100)."""
    return _draw(picture_seeds()[name], (2100, 2100) if name == "solar_farm" else (800, 600))


def _picture(name: str, size: tuple[int, int]) -> Image.Image:
    """Picture ``name`` at ``size`` (resized from its canonical size, as a re-upload would be)."""
    img = _canonical(name)
    return img if img.size == size else img.resize(size, Image.Resampling.LANCZOS)


def _icon(name: str, size: tuple[int, int]) -> bytes:
    img = Image.new("RGBA", size, (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    w, h = size
    colours = {"logo": (230, 120, 20, 255), "share": (40, 90, 200, 255), "info": (20, 140, 220, 255),
               "note": (220, 170, 0, 255)}
    draw.ellipse([0, 0, w - 1, h - 1], fill=colours.get(name, (0, 0, 0, 255)))
    draw.rectangle([w * 0.4, h * 0.2, w * 0.6, h * 0.8], fill=(255, 255, 255, 255))
    buf = io.BytesIO()
    img.save(buf, format="PNG")
    return buf.getvalue()


def _svg(seed: int, size: tuple[int, int]) -> bytes:
    """An SVG with a gradient, large shapes and a texture of small dots (so the file weighs > 20 KiB)."""
    rng = random.Random(seed)
    w, h = size
    col = lambda: "#%02x%02x%02x" % tuple(rng.randint(0, 255) for _ in range(3))  # noqa: E731
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}">',
             f'<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="{col()}"/>'
             f'<stop offset="1" stop-color="{col()}"/></linearGradient></defs>',
             f'<rect width="{w}" height="{h}" fill="url(#g)"/>',
             f'<rect x="{w * 0.05:.0f}" y="{h * 0.55:.0f}" width="{w * 0.4:.0f}" height="{h * 0.4:.0f}" '
             f'fill="{col()}"/>',
             f'<circle cx="{w * 0.75:.0f}" cy="{h * 0.3:.0f}" r="{h * 0.25:.0f}" fill="{col()}"/>',
             f'<polygon points="{w * 0.1:.0f},{h * 0.1:.0f} {w * 0.45:.0f},{h * 0.05:.0f} {w * 0.3:.0f},'
             f'{h * 0.45:.0f}" fill="{col()}"/>']
    for _ in range(700):
        parts.append(f'<circle cx="{rng.uniform(0, w):.1f}" cy="{rng.uniform(0, h):.1f}" r="1.5" '
                     f'fill="{col()}" fill-opacity="0.35"/>')
    parts.append("</svg>")
    return "\n".join(parts).encode()


def _encode(img: Image.Image, fmt: str) -> bytes:
    buf = io.BytesIO()
    if fmt == "jpeg":
        img.save(buf, format="JPEG", quality=88)
    elif fmt == "webp":
        img.save(buf, format="WEBP", quality=85)
    elif fmt == "gif":
        img.convert("P", palette=Image.Palette.ADAPTIVE, colors=256).save(buf, format="GIF")
    elif fmt == "png":
        img.save(buf, format="PNG", compress_level=1)
    else:
        img.save(buf, format=fmt.upper())
    return buf.getvalue()


@lru_cache(maxsize=None)
def image_bytes(key: str) -> bytes:
    """The bytes served for image ``key`` (generated once per process)."""
    spec = IMAGES[key]
    if spec.kind == "tiny":
        return _icon(spec.picture or "", spec.size)
    if spec.kind == "svg":
        return _svg(picture_seeds()[spec.picture or ""], spec.size)
    if spec.kind == "not_image":
        return b"<!DOCTYPE html><html><body><h1>403 Forbidden</h1><p>Hotlinking is not allowed.</p></body></html>"
    if spec.kind == "truncated":
        data = _encode(_picture(spec.picture or "", spec.size), "jpeg")
        return data[: int(len(data) * 0.45)]
    if spec.kind in ("picture", "oversized"):
        return _encode(_picture(spec.picture or "", spec.size), spec.fmt)
    raise KeyError(f"image {key!r} ({spec.kind}) has no bytes")


#: Images by served path (private images are not served).
BY_PATH: dict[str, str] = {spec.path: key for key, spec in IMAGES.items() if spec.path.startswith("/")}
