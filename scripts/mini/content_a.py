"""Mini split content, part A: queries mini-01 .. mini-06.

Topics: Science & Mathematics (01, 02), Health (03, 04), Computers & Internet (05, 06).
All text below was written for m2rag-bench; every image is drawn here with Pillow
(each ``draw_*`` function takes a seeded ``random.Random`` and returns a PIL image).
The default Pillow font (Aileron) only covers ASCII plus a few Latin-1 signs, so
image labels stick to ASCII, "°" and "·".

The helpers in this module are private to it; content_b.py has its own.
"""
import hashlib
import math

from PIL import Image, ImageDraw, ImageFont

# ----------------------------------------------------------------------------
# Drawing helpers
# ----------------------------------------------------------------------------
_FONTS = {}
INK, GREY, GRID = "#222222", "#666666", "#e3e3e3"


def font(size):
    if size not in _FONTS:
        _FONTS[size] = ImageFont.load_default(size=size)
    return _FONTS[size]


def canvas(w, h, bg="white"):
    img = Image.new("RGB", (w, h), bg)
    return img, ImageDraw.Draw(img)


def text(d, xy, s, size=14, fill=INK, anchor="la", align="left"):
    d.text(xy, s, font=font(size), fill=fill, anchor=anchor, align=align, spacing=3)


def arrow(d, p0, p1, fill=INK, width=3, head=11):
    d.line([p0, p1], fill=fill, width=width)
    ang = math.atan2(p1[1] - p0[1], p1[0] - p0[0])
    pts = [p1] + [(p1[0] + head * math.cos(ang + s * 2.6), p1[1] + head * math.sin(ang + s * 2.6)) for s in (1, -1)]
    d.polygon(pts, fill=fill)


def dashed(d, p0, p1, fill=GREY, width=2, dash=8, gap=6):
    length = math.dist(p0, p1)
    ux, uy = (p1[0] - p0[0]) / length, (p1[1] - p0[1]) / length
    pos = 0.0
    while pos < length:
        end = min(pos + dash, length)
        d.line([(p0[0] + ux * pos, p0[1] + uy * pos), (p0[0] + ux * end, p0[1] + uy * end)], fill=fill, width=width)
        pos = end + gap


def box(d, xy, label, fill, outline="#333333", size=14, color=INK, radius=8):
    d.rounded_rectangle(xy, radius=radius, fill=fill, outline=outline, width=2)
    text(d, ((xy[0] + xy[2]) / 2, (xy[1] + xy[3]) / 2), label, size, color, "mm", "center")


def mix(c1, c2, t):
    """Linear blend of two '#rrggbb' colours."""
    a = [int(c1[i:i + 2], 16) for i in (1, 3, 5)]
    b = [int(c2[i:i + 2], 16) for i in (1, 3, 5)]
    return tuple(round(x + (y - x) * t) for x, y in zip(a, b))


def vgradient(d, box_xy, top, bottom):
    x0, y0, x1, y1 = box_xy
    for y in range(y0, y1):
        d.line([(x0, y), (x1, y)], fill=mix(top, bottom, (y - y0) / max(1, y1 - y0 - 1)))


def wavelength_rgb(nm):
    """Approximate display colour of a visible wavelength (400-700 nm)."""
    if nm < 440:
        r, g, b = (440 - nm) / 60, 0.0, 1.0
    elif nm < 490:
        r, g, b = 0.0, (nm - 440) / 50, 1.0
    elif nm < 510:
        r, g, b = 0.0, 1.0, (510 - nm) / 20
    elif nm < 580:
        r, g, b = (nm - 510) / 70, 1.0, 0.0
    elif nm < 645:
        r, g, b = 1.0, (645 - nm) / 65, 0.0
    else:
        r, g, b = 1.0, 0.0, 0.0
    fade = 0.4 + 0.6 * (nm - 400) / 20 if nm < 420 else 1.0
    return tuple(round(255 * (c * fade) ** 0.8) for c in (r, g, b))


class Plot:
    """A rectangular plot area with linear or log10 axes, gridlines and labels."""

    def __init__(self, img, d, area, xr, yr, ylog=False):
        self.img, self.d, self.area, self.xr, self.yr, self.ylog = img, d, area, xr, yr, ylog

    def x(self, v):
        x0, _, x1, _ = self.area
        return x0 + (v - self.xr[0]) / (self.xr[1] - self.xr[0]) * (x1 - x0)

    def y(self, v):
        _, y0, _, y1 = self.area
        lo, hi, v = (math.log10(self.yr[0]), math.log10(self.yr[1]), math.log10(v)) if self.ylog else (*self.yr, v)
        return y1 - (v - lo) / (hi - lo) * (y1 - y0)

    def axes(self, xticks=(), yticks=(), xlabel="", ylabel="", size=13, xlabel_gap=30):
        d, (x0, y0, x1, y1) = self.d, self.area
        for v, lab in yticks:
            d.line([(x0, self.y(v)), (x1, self.y(v))], fill=GRID, width=1)
            text(d, (x0 - 6, self.y(v)), lab, size, GREY, "rm")
        for v, lab in xticks:
            d.line([(self.x(v), y1), (self.x(v), y1 + 5)], fill=GREY, width=1)
            text(d, (self.x(v), y1 + 8), lab, size, GREY, "ma", "center")
        d.line([(x0, y0), (x0, y1), (x1, y1)], fill=INK, width=2)
        if xlabel:
            text(d, ((x0 + x1) / 2, y1 + xlabel_gap), xlabel, size, INK, "ma")
        if ylabel:
            lab = Image.new("RGBA", (int(font(size).getlength(ylabel)) + 4, size + 6), (0, 0, 0, 0))
            ImageDraw.Draw(lab).text((2, 1), ylabel, font=font(size), fill=INK)
            lab = lab.rotate(90, expand=True)
            self.img.paste(lab, (6, int((y0 + y1) / 2 - lab.size[1] / 2)), lab)

    def line(self, pts, fill, width=3):
        self.d.line([(self.x(a), self.y(b)) for a, b in pts], fill=fill, width=width, joint="curve")


def legend(d, xy, items, size=13, swatch=14):
    x, y = xy
    w = max(font(size).getlength(lab) for lab, _ in items) + swatch + 20
    d.rectangle([x, y, x + w, y + len(items) * (swatch + 8) + 6], fill="white", outline="#bbbbbb")
    for i, (lab, col) in enumerate(items):
        yy = y + 6 + i * (swatch + 8)
        d.rectangle([x + 6, yy, x + 6 + swatch, yy + swatch], fill=col)
        text(d, (x + swatch + 12, yy + swatch / 2), lab, size, INK, "lm")


def sun(d, c, r, fill="#ffcc33", rays="#f2a900"):
    for k in range(12):
        a = k * math.pi / 6
        d.line([(c[0] + (r + 4) * math.cos(a), c[1] + (r + 4) * math.sin(a)),
                (c[0] + (r + 13) * math.cos(a), c[1] + (r + 13) * math.sin(a))], fill=rays, width=3)
    d.ellipse([c[0] - r, c[1] - r, c[0] + r, c[1] + r], fill=fill, outline=rays, width=2)


def stick_figure(d, x, y, color=INK, s=1.0):
    """Stick figure standing with feet at (x, y)."""
    d.ellipse([x - 6 * s, y - 44 * s, x + 6 * s, y - 32 * s], outline=color, width=2)
    d.line([(x, y - 32 * s), (x, y - 14 * s)], fill=color, width=2)
    d.line([(x - 9 * s, y - 26 * s), (x + 9 * s, y - 26 * s)], fill=color, width=2)
    d.line([(x, y - 14 * s), (x - 7 * s, y)], fill=color, width=2)
    d.line([(x, y - 14 * s), (x + 7 * s, y)], fill=color, width=2)


def ad_banner(w, h, bg, fg, accent, headline, sub, button, icon=None, corner="Ad"):
    """Generic web advert banner; ``icon(d, (x0, y0, x1, y1))`` draws the artwork on the left."""
    img, d = canvas(w, h, bg)
    d.rectangle([3, 3, w - 4, h - 4], outline=accent, width=3)
    left = 20
    if icon:
        icon(d, (20, 20, 20 + h - 40, h - 20))
        left = h
    text(d, (left, h * 0.3), headline, 26, fg, "lm")
    text(d, (left, h * 0.58), sub, 17, fg, "lm")
    bw = font(16).getlength(button) + 36
    box(d, (w - bw - 24, h - 54, w - 24, h - 18), button, accent, accent, 16, bg)
    text(d, (w - 10, 8), corner, 11, fg, "ra")
    return img


# ----------------------------------------------------------------------------
# mini-01  Why is the sky blue / sunsets red?
# ----------------------------------------------------------------------------
def rayleigh(nm, ref=700):
    return (ref / nm) ** 4


def draw_air_scattering(rng):
    img, d = canvas(680, 420, "#ffffff")
    vgradient(d, (0, 60, 680, 340), "#cfe6fb", "#eaf4fd")
    d.rectangle([0, 340, 680, 420], fill="#9ccf7a")
    text(d, (340, 16), "How air scatters sunlight", 22, INK, "ma")
    text(d, (670, 66), "atmosphere", 13, "#3b6fa0", "ra")
    sun(d, (70, 100), 34)
    text(d, (70, 150), "Sunlight\n(all colours)", 13, INK, "ma", "center")
    hub = (330, 205)
    cols = ["#7b3fc4", "#2a66d9", "#2ea84a", "#e3c516", "#f08a1c", "#d42a2a"]
    for i, c in enumerate(cols):
        off = (i - 2.5) * 4
        d.line([(104, 110 + off), (hub[0], hub[1] + off)], fill=c, width=3)
    for _ in range(26):
        x, y = hub[0] + rng.uniform(-55, 55), hub[1] + rng.uniform(-35, 35)
        d.ellipse([x - 3, y - 3, x + 3, y + 3], fill="#8a8a8a")
    for k in range(9):
        a = k * 2 * math.pi / 9 + rng.uniform(-0.15, 0.15)
        p0 = (hub[0] + 40 * math.cos(a), hub[1] + 28 * math.sin(a))
        arrow(d, p0, (hub[0] + 110 * math.cos(a), hub[1] + 80 * math.sin(a)), "#2a66d9", 3, 10)
    text(d, (hub[0], hub[1] + 100), "N2 and O2 molecules:\nblue scattered in all directions", 14, "#1d4fa8", "ma", "center")
    for i, c in enumerate(cols[3:]):
        arrow(d, (hub[0] + 60, hub[1] + 6 + i * 5), (585, 300 + i * 5), c, 3, 10)
    text(d, (500, 205), "red, orange, yellow\nmostly pass straight on", 13, "#a3400e", "ma", "center")
    stick_figure(d, 620, 350)
    text(d, (560, 362), "observer: blue light arrives\nfrom every part of the sky", 13, INK, "ma", "center")
    return img


def draw_scatter_bars(rng):
    img, d = canvas(620, 400)
    text(d, (310, 14), "How strongly air scatters each colour (red = 1)", 19, INK, "ma")
    p = Plot(img, d, (80, 60, 600, 320), (0, 6), (0, 10))
    p.axes(yticks=[(v, str(v)) for v in range(0, 11, 2)], ylabel="relative scattering")
    for i, (name, nm) in enumerate([("violet", 400), ("blue", 450), ("green", 530), ("yellow", 580),
                                     ("orange", 620), ("red", 700)]):
        v = rayleigh(nm)
        x0, x1 = p.x(i + 0.18), p.x(i + 0.82)
        d.rectangle([x0, p.y(v), x1, p.y(0)], fill=wavelength_rgb(nm), outline="#444444")
        text(d, ((x0 + x1) / 2, p.y(v) - 4), f"{v:.1f}x", 14, INK, "md")
        text(d, ((x0 + x1) / 2, 328), f"{name}\n{nm} nm", 13, INK, "ma", "center")
    text(d, (310, 378), "Rayleigh's rule: scattering ~ 1 / wavelength^4", 14, GREY, "ma")
    return img


def _path_panel(w, h, title, sunset, rng):
    img, d = canvas(w, h, "#f7f9fc")
    text(d, (w / 2, 10), title, 18, INK, "ma")
    r, thick = 240, 55
    ox, oy = (w / 2 if not sunset else 90), 250
    cx, cy = ox, oy + r
    d.ellipse([cx - r - thick, cy - r - thick, cx + r + thick, cy + r + thick], fill="#cfe3f7")
    d.ellipse([cx - r, cy - r, cx + r, cy + r], fill="#8cbf6a", outline="#5d8f43", width=2)
    text(d, (w - 10, oy - thick + 4) if not sunset else (14, 214), "air", 13, "#3b6fa0", "ra" if not sunset else "la")
    stick_figure(d, ox, oy, INK, 0.8)
    if not sunset:
        sun(d, (ox, 52), 18)
        arrow(d, (ox, 80), (ox, oy - 40), "#e0a800", 5, 12)
        d.line([(ox + 12, oy - thick), (ox + 12, oy - 4)], fill="#d9480f", width=4)
        text(d, (ox + 22, oy - thick / 2 - 6), "short path\nthrough air", 13, "#d9480f", "lm")
        text(d, (w / 2, h - 34), "little blue is lost: white sun, blue sky", 13, INK, "ma")
    else:
        sx = w - 28
        sun(d, (sx, oy - 22), 16, "#ff8c3a", "#e0531b")
        n = 12
        for k in range(n):
            x0, x1 = sx - 20 - k * (sx - 20 - ox - 14) / n, sx - 20 - (k + 1) * (sx - 20 - ox - 14) / n
            d.line([(x0, oy - 22), (x1, oy - 22)], fill=mix("#ffd24a", "#e0391b", k / (n - 1)), width=5)
        arrow(d, (ox + 30, oy - 22), (ox + 14, oy - 22), "#e0391b", 5, 12)
        for k in range(5):
            x = sx - 60 - k * 36 + rng.uniform(-4, 4)
            arrow(d, (x, oy - 28), (x - 10, oy - 62 - k % 2 * 8), "#2a66d9", 2, 7)
        text(d, (w / 2 + 40, 70), "long path through air:\nblue scattered away", 13, "#1d4fa8", "ma", "center")
        text(d, (w / 2, h - 34), "mostly orange and red arrive", 13, INK, "ma")
    return img


def draw_noon_vs_sunset(rng):
    img, d = canvas(720, 360, "white")
    img.paste(_path_panel(350, 350, "Noon: Sun overhead", False, rng), (5, 5))
    img.paste(_path_panel(350, 350, "Sunset: Sun on the horizon", True, rng), (365, 5))
    d.line([(360, 10), (360, 350)], fill="#bbbbbb", width=2)
    return img


def draw_forum_badge(rng):
    img, d = canvas(260, 150, "#f1f1f4")
    d.ellipse([18, 35, 98, 115], fill="#7048c6")
    text(d, (58, 75), "SD", 30, "white", "mm")
    text(d, (112, 50), "skyward_dan", 18, INK, "lm")
    d.polygon([(112, 72), (240, 72), (230, 86), (240, 100), (112, 100)], fill="#e8b923")
    text(d, (120, 86), "Top Contributor", 14, "#4a3400", "lm")
    text(d, (112, 118), "3.4k points", 13, GREY, "lm")
    return img


def draw_sunset_scene(rng):
    img, d = canvas(640, 400)
    vgradient(d, (0, 0, 640, 150), "#1b2a5e", "#7a3f8c")
    vgradient(d, (0, 150, 640, 300), "#7a3f8c", "#f6a04d")
    vgradient(d, (0, 300, 640, 400), "#f6a04d", "#ffd27a")
    d.ellipse([370, 250, 480, 360], fill="#ff7a2a")
    for layer, (base, col) in enumerate([(300, "#4a2746"), (330, "#2f1a33"), (365, "#1c1022")]):
        ph, amp = rng.uniform(0, 6.28), 14 + 8 * layer
        pts = [(x, base + amp * math.sin(x / (90 + 30 * layer) + ph)) for x in range(0, 645, 5)]
        d.polygon(pts + [(640, 400), (0, 400)], fill=col)
    for _ in range(5):
        x, y = rng.uniform(120, 330), rng.uniform(120, 220)
        d.line([(x - 8, y - 4), (x, y), (x + 8, y - 4)], fill="#2a1a30", width=2)
    return img


def draw_colour_temp_scale(rng):
    img, d = canvas(660, 270)
    text(d, (330, 12), "Colour temperature of light (kelvin)", 19, INK, "ma")
    stops = [(1500, "#ff5a00"), (2000, "#ff8a1f"), (3000, "#ffb469"), (4000, "#ffd1a3"),
             (5500, "#fff0dc"), (6500, "#fdf8ff"), (7000, "#e9ecff")]
    x0, x1, y0, y1 = 40, 620, 110, 150
    k_of = lambda x: 1500 + (x - x0) / (x1 - x0) * 5500  # noqa: E731
    for x in range(x0, x1):
        k = k_of(x)
        for (ka, ca), (kb, cb) in zip(stops, stops[1:]):
            if ka <= k <= kb:
                d.line([(x, y0), (x, y1)], fill=mix(ca, cb, (k - ka) / (kb - ka)))
    d.rectangle([x0, y0, x1, y1], outline="#555555", width=1)
    xk = lambda k: x0 + (k - 1500) / 5500 * (x1 - x0)  # noqa: E731
    for k in range(2000, 7001, 1000):
        d.line([(xk(k), y1), (xk(k), y1 + 6)], fill=GREY)
        text(d, (xk(k), y1 + 8), f"{k} K", 12, GREY, "ma")
    for k, lab, up in [(2000, "Sun on the\nhorizon", True), (3000, "golden hour", True), (5500, "midday sun", True),
                       (1850, "candle", False), (6500, "overcast sky", True)]:
        yy = y0 - 34 if up else y1 + 44
        d.line([(xk(k), y0 if up else y1), (xk(k), yy + (12 if up else -4))], fill=INK, width=2)
        text(d, (xk(k), yy + (10 if up else 0)), lab, 13, INK, "md" if up else "ma", "center")
    text(d, (x0, 236), "<- warmer (more red, less blue)", 13, "#c0470c", "la")
    text(d, (x1, 236), "cooler (more blue) ->", 13, "#3b5bb0", "ra")
    return img


def _tripod_icon(d, b):
    x0, y0, x1, y1 = b
    cx = (x0 + x1) / 2
    d.rectangle([cx - 22, y0 + 4, cx + 22, y0 + 26], outline="#e8f6f3", width=3)
    d.ellipse([cx - 8, y0 + 8, cx + 8, y0 + 22], outline="#e8f6f3", width=2)
    for dx in (-30, 0, 30):
        d.line([(cx, y0 + 30), (cx + dx, y1)], fill="#e8f6f3", width=3)


def draw_tripod_ad(rng):
    return ad_banner(620, 170, "#0f4c4a", "#ffffff", "#ffb703", "TrailLite Carbon Tripod",
                     "Folds to 38 cm · 1.1 kg · 15% off with code GOLDEN15", "Shop now", _tripod_icon)


def draw_visible_spectrum(rng):
    img, d = canvas(660, 210)
    text(d, (330, 10), "Visible light: wavelength in nanometres", 18, INK, "ma")
    x0, x1 = 40, 620
    for x in range(x0, x1):
        nm = 400 + (x - x0) / (x1 - x0) * 300
        d.line([(x, 70), (x, 120)], fill=wavelength_rgb(nm))
    for nm in range(400, 701, 50):
        x = x0 + (nm - 400) / 300 * (x1 - x0)
        d.line([(x, 120), (x, 127)], fill=INK)
        text(d, (x, 130), f"{nm}", 12, INK, "ma")
    for nm, lab in [(420, "violet"), (470, "blue"), (530, "green"), (580, "yellow"), (615, "orange"), (670, "red")]:
        text(d, (x0 + (nm - 400) / 300 * (x1 - x0), 62), lab, 12, INK, "md")
    arrow(d, (200, 168), (48, 168), "#2a66d9", 3)
    text(d, (206, 168), "scattered most", 13, "#1d4fa8", "lm")
    arrow(d, (470, 188), (612, 188), "#c0392b", 3)
    text(d, (464, 188), "scattered least", 13, "#a93226", "rm")
    return img


def draw_museum_logo(rng):
    img, d = canvas(320, 160, "white")
    d.ellipse([20, 20, 140, 140], fill="#13294b")
    d.ellipse([55, 55, 105, 105], fill="white")
    d.arc([30, 68, 130, 92], 200, 340, fill="#f2c14e", width=4)
    d.arc([30, 68, 130, 92], 20, 160, fill="#f2c14e", width=4)
    text(d, (156, 62), "SKYLAB", 26, "#13294b", "lm")
    text(d, (156, 96), "SCIENCE MUSEUM", 16, "#13294b", "lm")
    return img


# ----------------------------------------------------------------------------
# mini-02  Seasons
# ----------------------------------------------------------------------------
def _earth(d, c, r, tilt_deg, lit_right):
    x, y = c
    d.ellipse([x - r, y - r, x + r, y + r], fill="#1f3c73")
    d.pieslice([x - r, y - r, x + r, y + r], -90 if lit_right else 90, 90 if lit_right else 270, fill="#5aa0e8")
    t = math.radians(tilt_deg)
    ax, ay = math.sin(t), -math.cos(t)
    d.line([(x - ax * (r + 18), y - ay * (r + 18)), (x + ax * (r + 18), y + ay * (r + 18))], fill=INK, width=3)
    d.line([(x - ay * r, y + ax * r), (x + ay * r, y - ax * r)], fill="#f5f5f5", width=1)
    text(d, (x + ax * (r + 24), y + ay * (r + 24)), "N", 14, INK, "mm")
    d.ellipse([x - r, y - r, x + r, y + r], outline="#0e1f3d", width=2)


def draw_orbit_tilt(rng):
    img, d = canvas(720, 430, "#fbfbf7")
    text(d, (360, 12), "Seasons come from the 23.4° tilt, not from distance", 20, INK, "ma")
    d.ellipse([140, 140, 580, 300], outline="#9a9a9a", width=2)
    sun(d, (360, 220), 34)
    text(d, (360, 270), "Sun", 14, INK, "ma")
    _earth(d, (140, 220), 38, 23.4, True)
    _earth(d, (580, 220), 38, 23.4, False)
    arrow(d, (318, 220), (190, 220), "#e0a800", 3)
    arrow(d, (402, 220), (530, 220), "#e0a800", 3)
    text(d, (140, 290), "June solstice\nNorth leans TOWARD the Sun\n= northern summer", 14, "#b03a1a", "ma", "center")
    text(d, (580, 290), "December solstice\nNorth leans AWAY from the Sun\n= northern winter", 14, "#1d4fa8", "ma", "center")
    text(d, (140, 150), "farthest (aphelion, early July)\n~152 million km", 12, GREY, "md", "center")
    text(d, (580, 150), "closest (perihelion, early Jan)\n~147 million km", 12, GREY, "md", "center")
    text(d, (360, 392), "The axis always points the same way in space (towards Polaris);\n"
         "lit (day) side shown light blue", 13, GREY, "ma", "center")
    return img


def _beam_panel(title, elev, pct, color):
    img, d = canvas(336, 330, "#eef6ff")
    ox, ground, gx, width = 0, 262, 170 if elev > 45 else 215, 70
    t = math.radians(elev)
    dx, dy = math.cos(t), math.sin(t)
    L = width / math.sin(t)
    a, b = (gx - L / 2, ground), (gx + L / 2, ground)
    back = 260
    d.polygon([a, b, (b[0] - dx * back, b[1] - dy * back), (a[0] - dx * back, a[1] - dy * back)], fill="#ffe89a")
    for k in range(4):
        s = (k + 0.5) / 4
        px, py = a[0] + (b[0] - a[0]) * s, ground
        arrow(d, (px - dx * back * 0.8, py - dy * back * 0.8), (px - dx * 8, py - dy * 8), "#e0a800", 2, 8)
    d.rectangle([ox + 10, ground, ox + 330, ground + 40], fill="#b58b5a")
    d.line([a, b], fill=color, width=7)
    rel = L * math.sin(math.radians(73.4)) / width
    text(d, (gx, ground + 12), f"lit patch {rel:.1f}x", 14, "white", "ma")
    text(d, (ox + 170, 36), title, 16, INK, "ma")
    text(d, (ox + 170, 308), f"energy per square metre: {pct}%", 14, color, "ma")
    return img


def draw_beam_spread(rng):
    img, d = canvas(680, 370, "#eef6ff")
    pct = round(100 * math.sin(math.radians(26.6)) / math.sin(math.radians(73.4)))
    img.paste(_beam_panel("Summer noon at 40°N: Sun 73° high", 73.4, 100, "#c0470c"), (0, 0))
    img.paste(_beam_panel("Winter noon at 40°N: Sun 27° high", 26.6, pct, "#1d4fa8"), (344, 0))
    d.line([(340, 30), (340, 320)], fill="#b8c6d8", width=2)
    text(d, (340, 350), "Same beam of sunlight, spread over a bigger patch in winter", 13, GREY, "mm")
    return img


def day_length(lat, n):
    decl = -23.44 * math.cos(2 * math.pi * (n + 10) / 365)
    c = -math.tan(math.radians(lat)) * math.tan(math.radians(decl))
    return 2 * math.degrees(math.acos(max(-1.0, min(1.0, c)))) / 15


def draw_daylight_chart(rng):
    img, d = canvas(660, 410)
    text(d, (330, 12), "Hours of daylight through the year", 19, INK, "ma")
    p = Plot(img, d, (70, 50, 640, 310), (1, 365), (0, 24))
    months = "Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split()
    p.axes(xticks=[(15 + 30.4 * i, m) for i, m in enumerate(months)],
           yticks=[(v, str(v)) for v in (0, 6, 12, 18, 24)], ylabel="hours of daylight")
    for day, lab in [(172, "June solstice"), (355, "Dec. solstice")]:
        dashed(d, (p.x(day), 50), (p.x(day), 310))
        text(d, (p.x(day) - 4, 56), lab, 12, GREY, "ra")
    series = [("60°N (e.g. Oslo)", 60, "#1d4fa8"), ("40°N (e.g. Madrid)", 40, "#d9480f"), ("Equator", 0, "#2e9e4a")]
    for lab, lat, col in series:
        p.line([(n, day_length(lat, n)) for n in range(1, 366, 2)], col)
    legend(d, (78, 348), [(s[0], s[2]) for s in series[:2]])
    legend(d, (260, 348), [(series[2][0], series[2][2])])
    text(d, (640, 392), "computed from Sun geometry, ignoring refraction", 11, GREY, "rd")
    return img


def draw_openlearn_logo(rng):
    img, d = canvas(260, 150, "#ffffff")
    d.polygon([(30, 45), (80, 35), (80, 110), (30, 120)], fill="#2b7a78")
    d.polygon([(130, 45), (80, 35), (80, 110), (130, 120)], fill="#3aafa9")
    text(d, (142, 62), "OpenLearn", 22, "#17252a", "lm")
    text(d, (142, 92), "NOTES", 18, "#2b7a78", "lm")
    return img


def draw_distance_bars(rng):
    img, d = canvas(620, 250)
    text(d, (310, 12), "Earth-Sun distance (million km)", 18, INK, "ma")
    x0, x1 = 190, 590
    xv = lambda v: x0 + v / 160 * (x1 - x0)  # noqa: E731
    for v in range(0, 161, 40):
        d.line([(xv(v), 50), (xv(v), 170)], fill=GRID)
        text(d, (xv(v), 174), str(v), 12, GREY, "ma")
    for i, (lab, v, col) in enumerate([("Perihelion\n(early January)", 147.1, "#d9480f"),
                                       ("Aphelion\n(early July)", 152.1, "#1d4fa8")]):
        y = 62 + i * 54
        d.rectangle([x0, y, xv(v), y + 36], fill=col)
        text(d, (x0 - 10, y + 18), lab, 13, INK, "rm", "right")
        text(d, (xv(v) - 8, y + 18), f"{v}", 14, "white", "rm")
    text(d, (310, 212), "Only about 3% difference - far too small to cause the seasons", 14, INK, "ma")
    return img


def draw_season_pattern(rng):
    img, d = canvas(480, 300, "#fdf6ec")
    for row in range(5):
        for col in range(8):
            x, y = 30 + col * 60 + rng.uniform(-6, 6), 30 + row * 60 + rng.uniform(-6, 6)
            kind = (row + col) % 3
            if kind == 0:
                sun(d, (x, y), 9, "#ffd166", "#f4a261")
            elif kind == 1:
                for k in range(3):
                    a = k * math.pi / 3 + rng.uniform(-0.1, 0.1)
                    d.line([(x - 13 * math.cos(a), y - 13 * math.sin(a)), (x + 13 * math.cos(a), y + 13 * math.sin(a))],
                           fill="#7fb7d8", width=3)
            else:
                col_leaf = rng.choice(["#e76f51", "#e9c46a", "#90be6d"])
                d.ellipse([x - 13, y - 7, x + 13, y + 7], fill=col_leaf)
                d.line([(x + 10, y), (x + 18, y + 6)], fill="#6b4f2a", width=2)
    return img


# ----------------------------------------------------------------------------
# mini-03  Delayed onset muscle soreness
# ----------------------------------------------------------------------------
def doms_curve(t):
    """Illustrative soreness (0-10) t hours after unaccustomed exercise; peaks at 48 h."""
    return 8 * (t / 48) ** 3 * math.exp(3 * (1 - t / 48))


def draw_doms_timeline(rng):
    img, d = canvas(660, 400)
    text(d, (330, 12), "Typical DOMS time course (illustrative)", 19, INK, "ma")
    p = Plot(img, d, (70, 50, 640, 320), (0, 168), (0, 10))
    d.rectangle([p.x(24), 50, p.x(72), 320], fill="#fde3d3")
    text(d, (p.x(48), 58), "peak: 24-72 h", 14, "#b8400e", "ma")
    p.axes(xticks=[(h, f"{h} h\nday {h // 24}") for h in range(0, 169, 24)],
           yticks=[(v, str(v)) for v in range(0, 11, 2)], xlabel="time after the workout", ylabel="soreness (0-10)",
           xlabel_gap=46)
    p.line([(t, doms_curve(t)) for t in range(0, 169, 2)], "#c2255c", 4)
    arrow(d, (p.x(11), p.y(5.6)), (p.x(18), p.y(3.0)), GREY, 2, 8)
    text(d, (p.x(11), p.y(5.8)), "starts after\n12-24 h", 13, INK, "md", "center")
    text(d, (p.x(122), p.y(4.2)), "fades by\nday 5-7", 13, INK, "md", "center")
    arrow(d, (p.x(120), p.y(4.0)), (p.x(118), p.y(1.9)), GREY, 2, 8)
    return img


def draw_muscle_fibre(rng):
    img, d = canvas(720, 400, "#fffafa")
    text(d, (360, 12), "Eccentric exercise leaves micro-damage in muscle fibres", 18, INK, "ma")
    d.ellipse([20, 150, 250, 250], fill="#e8a0a8", outline="#a4505c", width=2)
    for k in range(7):
        y = 165 + k * 11
        d.line([(40 + abs(k - 3) * 8, y), (230 - abs(k - 3) * 8, y)], fill="#b75d6a", width=2)
    text(d, (135, 262), "muscle (bundle of fibres)", 13, INK, "ma")
    d.rectangle([150, 188, 170, 200], outline=INK, width=2)
    dashed(d, (170, 188), (300, 110), GREY)
    dashed(d, (170, 200), (300, 290), GREY)
    fx0, fx1, fy0, fy1 = 300, 700, 110, 290
    d.rectangle([fx0, fy0, fx1, fy1], fill="#f4c3c9", outline="#a4505c", width=2)
    for i, x in enumerate(range(fx0, fx1, 50)):
        d.rectangle([x + 15, fy0 + 2, x + 35, fy1 - 2], fill="#e58c99")
        if i in (3, 5):
            pts = [(x + (6 if j % 2 else -6), fy0 + j * 18) for j in range(11)]
            d.line(pts, fill="#5b1f2a", width=3)
        else:
            d.line([(x, fy0), (x, fy1)], fill="#5b1f2a", width=3)
    for cx, cy in [(470, 165), (560, 230), (585, 150)]:
        pts = [(cx + k * 6, cy + (8 if k % 2 else -8)) for k in range(-3, 4)]
        d.line(pts, fill="#d00000", width=3)
    for _ in range(14):
        x, y = rng.uniform(430, 640), rng.choice([rng.uniform(296, 318), rng.uniform(84, 104)])
        d.ellipse([x - 6, y - 6, x + 6, y + 6], fill="#6a4c93", outline="#3d2a5a")
    text(d, (fx0, 330), "Z-lines (fibre 'cross-beams')", 13, "#5b1f2a", "la")
    arrow(d, (360, 326), (350, 292), "#5b1f2a", 2, 8)
    text(d, (480, 340), "jagged = disrupted Z-lines\nred = micro-tears", 13, "#b00000", "la")
    text(d, (430, 64), "immune cells arrive over hours to days", 13, "#3d2a5a", "la")
    text(d, (20, 300), "Little pain at first:\nsoreness follows the\nrepair process 1-3 days later", 13, GREY, "la")
    return img


def draw_repeated_bout(rng):
    img, d = canvas(520, 380)
    text(d, (260, 12), "Repeated bout effect (illustrative)", 19, INK, "ma")
    p = Plot(img, d, (80, 56, 500, 300), (0, 2), (0, 10))
    p.axes(yticks=[(v, str(v)) for v in range(0, 11, 2)], ylabel="peak soreness on day 2 (0-10)")
    for i, (lab, v, col) in enumerate([("First session", 7.0, "#f08a1c"), ("Same session\n2 weeks later", 2.5, "#20a39e")]):
        x0, x1 = p.x(i + 0.25), p.x(i + 0.75)
        d.rectangle([x0, p.y(v), x1, p.y(0)], fill=col)
        text(d, ((x0 + x1) / 2, p.y(v) - 4), f"{v:.1f}", 16, INK, "md")
        text(d, ((x0 + x1) / 2, 308), lab, 14, INK, "ma", "center")
    text(d, (260, 356), "Same downhill-running workout, same person", 13, GREY, "ma")
    return img


def _dumbbell(d, b):
    x0, y0, x1, y1 = b
    cy = (y0 + y1) / 2
    d.rectangle([x0 + 10, cy - 5, x1 - 10, cy + 5], fill="white")
    for x in (x0 + 4, x1 - 28):
        d.rounded_rectangle([x, cy - 34, x + 24, cy + 34], 5, fill="white")


def draw_coaching_promo(rng):
    return ad_banner(620, 200, "#c1121f", "#ffffff", "#fdf0d5", "New Year, New Strength",
                     "20% off 12-week coaching · code SORE20", "Join now", _dumbbell, "Sponsored")


def draw_hill_hiker(rng):
    img, d = canvas(600, 380)
    vgradient(d, (0, 0, 600, 380), "#bfe0f5", "#fbe7c6")
    d.ellipse([460, 70, 520, 130], fill="#ffd36b")
    d.polygon([(0, 120), (600, 330), (600, 380), (0, 380)], fill="#5f9e4f")
    d.polygon([(0, 170), (600, 360), (600, 380), (0, 380)], fill="#4c8a3f")
    for _ in range(40):
        x = rng.uniform(0, 600)
        y = 120 + x * 210 / 600 + rng.uniform(8, 60)
        d.line([(x, y), (x + rng.uniform(-3, 3), y - 7)], fill="#3b6e31", width=2)
    x, y = 260, 210
    dark = "#1f2a30"
    d.ellipse([x - 11, y - 92, x + 11, y - 70], fill=dark)
    d.line([(x, y - 70), (x - 8, y - 28)], fill=dark, width=9)
    d.line([(x - 8, y - 28), (x - 26, y + 4)], fill=dark, width=8)
    d.line([(x - 8, y - 28), (x + 14, y + 14)], fill=dark, width=8)
    d.line([(x - 3, y - 58), (x + 24, y - 36)], fill=dark, width=6)
    d.line([(x + 24, y - 36), (x + 34, y + 16)], fill="#6b4f2a", width=3)
    d.rounded_rectangle([x - 24, y - 68, x - 4, y - 36], 5, fill="#c0392b")
    return img


def draw_repair_cycle(rng):
    img, d = canvas(600, 470, "#ffffff")
    text(d, (300, 12), "Why soreness comes late", 20, INK, "ma")
    boxes = {
        "a": ((200, 50, 400, 110), "1. Unfamiliar or eccentric\nexercise", "#ffe8cc"),
        "b": ((380, 180, 590, 250), "2. Micro-damage in fibres\n(0 h: little pain yet)", "#ffd6d6"),
        "c": ((190, 330, 410, 420), "3. Inflammation + nerve\nsensitisation (12-72 h):\nSORENESS", "#f8c4c4"),
        "d": ((10, 180, 220, 250), "4. Repair and adaptation\n(3-7 days)", "#d3f0e0"),
    }
    for xy, lab, col in boxes.values():
        box(d, xy, lab, col, "#555555", 14)
    arrow(d, (400, 95), (470, 175), "#555555", 3)
    arrow(d, (480, 255), (390, 325), "#555555", 3)
    arrow(d, (200, 340), (120, 255), "#555555", 3)
    arrow(d, (110, 175), (195, 95), "#2e9e4a", 3)
    text(d, (14, 112), "stronger next time\n(repeated bout effect)", 13, "#2e7a3f", "la")
    return img


def draw_protein_ad(rng):
    img, d = canvas(440, 250, "#111111")
    d.rounded_rectangle([30, 40, 150, 210], 14, fill="#f5f5f5")
    d.rectangle([30, 40, 150, 70], fill="#ff5400")
    text(d, (90, 120), "MAX\nWHEY", 26, "#111111", "mm", "center")
    text(d, (90, 182), "2 kg", 14, GREY, "mm")
    text(d, (175, 70), "Recover faster!", 28, "#ff5400", "lm")
    text(d, (175, 118), "Buy 2, get 1 FREE", 22, "#ffffff", "lm")
    text(d, (175, 160), "Chocolate · Vanilla · Strawberry", 14, "#bbbbbb", "lm")
    text(d, (430, 240), "Advertisement", 11, "#888888", "rd")
    return img


# ----------------------------------------------------------------------------
# mini-04  Caffeine
# ----------------------------------------------------------------------------
def _adenosine(d, x, y):
    d.ellipse([x - 9, y - 9, x + 9, y + 9], fill="#3a86ff", outline="#1b4fa0", width=2)


def _caffeine(d, x, y):
    d.regular_polygon((x, y, 10), 6, fill="#7f4f24", outline="#4a2c10")


def _receptor(d, x, y):
    d.polygon([(x - 16, y), (x - 16, y - 26), (x - 11, y - 26), (x - 11, y - 8), (x + 11, y - 8),
               (x + 11, y - 26), (x + 16, y - 26), (x + 16, y)], fill="#2b9348")


def draw_adenosine_receptor(rng):
    img, d = canvas(740, 380, "#ffffff")
    panels = [("1. Awake all day", "adenosine fills receptors\n-> neuron slows -> sleepy", 3, "A"),
              ("2. After a coffee", "caffeine blocks receptors\n-> signal hidden -> alert", 3, "C"),
              ("3. Daily coffee for weeks", "brain adds receptors: same dose\nblocks fewer -> tolerance", 6, "M")]
    for i, (title, note, n, mode) in enumerate(panels):
        ox = i * 246
        d.rounded_rectangle([ox + 6, 6, ox + 240, 318], 10, fill="#f6f8fb", outline="#cfd8e3")
        text(d, (ox + 123, 16), title, 15, INK, "ma")
        d.rectangle([ox + 16, 220, ox + 230, 240], fill="#f2d7b6")
        text(d, (ox + 123, 248), "neuron membrane", 11, GREY, "ma")
        xs = [ox + 30 + (k + 0.5) * 186 / n for k in range(n)]
        for k, x in enumerate(xs):
            _receptor(d, x, 220)
            if mode == "A" or (mode == "M" and k % 2):
                _adenosine(d, x, 203)
            else:
                _caffeine(d, x, 203)
        for k in range(4 if mode != "A" else 2):
            _adenosine(d, ox + 40 + k * 52 + rng.uniform(-8, 8), 80 + rng.uniform(0, 60))
        if mode != "A":
            for k in range(2):
                _caffeine(d, ox + 70 + k * 90 + rng.uniform(-8, 8), 150 + rng.uniform(-15, 15))
        text(d, (ox + 123, 272), note, 13, INK, "ma", "center")
    _adenosine(d, 40, 350)
    text(d, (56, 350), "adenosine (sleep pressure)", 13, INK, "lm")
    _caffeine(d, 290, 350)
    text(d, (306, 350), "caffeine", 13, INK, "lm")
    _receptor(d, 420, 362)
    text(d, (444, 350), "adenosine receptor", 13, INK, "lm")
    return img


def draw_caffeine_decay(rng):
    img, d = canvas(660, 400)
    text(d, (330, 12), "Caffeine left in your body (95 mg coffee, 5 h half-life)", 18, INK, "ma")
    p = Plot(img, d, (70, 50, 640, 320), (6, 26), (0, 100))
    labels = {6: "6am", 9: "9am", 12: "noon", 15: "3pm", 18: "6pm", 21: "9pm", 24: "midnight"}
    p.axes(xticks=list(labels.items()), yticks=[(v, str(v)) for v in range(0, 101, 20)],
           xlabel="time of day", ylabel="caffeine remaining (mg)")
    left = lambda t0, t: 95 * 0.5 ** ((t - t0) / 5)  # noqa: E731
    for t0, col, lab in [(8, "#1d4fa8", "coffee at 8am"), (16, "#e8590c", "coffee at 4pm")]:
        pts = [(6, 0), (t0, 0)] + [(t0 + k / 4, left(t0, t0 + k / 4)) for k in range(int((26 - t0) * 4) + 1)]
        p.line(pts, col, 3)
        v = left(t0, 23)
        d.ellipse([p.x(23) - 5, p.y(v) - 5, p.x(23) + 5, p.y(v) + 5], fill=col)
        text(d, (p.x(23) + 8, p.y(v) - 2), f"{v:.0f} mg", 14, col, "ld")
    dashed(d, (p.x(23), 50), (p.x(23), 320), INK)
    text(d, (p.x(23) - 6, 58), "bedtime 11pm", 13, INK, "ra")
    legend(d, (p.x(9.3), 262), [("coffee at 8am", "#1d4fa8"), ("coffee at 4pm", "#e8590c")])
    return img


def draw_caffeine_drinks(rng):
    img, d = canvas(660, 380)
    text(d, (330, 12), "Typical caffeine per serving", 19, INK, "ma")
    drinks = [("Brewed coffee, 240 ml", 95), ("Energy drink, 250 ml", 80), ("Espresso, 30 ml", 63),
              ("Black tea, 240 ml", 47), ("Cola, 355 ml", 34), ("Green tea, 240 ml", 28)]
    x0, x1 = 200, 620
    xv = lambda v: x0 + v / 100 * (x1 - x0)  # noqa: E731
    for v in range(0, 101, 25):
        d.line([(xv(v), 48), (xv(v), 316)], fill=GRID)
        text(d, (xv(v), 320), f"{v} mg", 12, GREY, "ma")
    for i, (lab, v) in enumerate(drinks):
        y = 54 + i * 44
        d.rectangle([x0, y, xv(v), y + 30], fill=mix("#6f4518", "#c9a27e", i / 5))
        text(d, (x0 - 10, y + 15), lab, 14, INK, "rm")
        text(d, (xv(v) + 6, y + 15), f"{v} mg", 14, INK, "lm")
    text(d, (330, 352), "Common guideline: up to about 400 mg a day for most healthy adults", 13, GREY, "ma")
    return img


def draw_coffee_mug(rng):
    img, d = canvas(480, 320)
    vgradient(d, (0, 0, 480, 200), "#f3e6d3", "#e6d2b5")
    d.rectangle([0, 200, 480, 320], fill="#8b5a2b")
    for _ in range(18):
        y = rng.uniform(205, 318)
        d.line([(0, y), (480, y + rng.uniform(-4, 4))], fill="#7a4d22", width=1)
    d.ellipse([150, 250, 330, 280], fill="#6e4521")
    d.ellipse([318, 140, 378, 215], outline="#f7f7f7", width=12)
    d.rounded_rectangle([160, 110, 320, 268], 22, fill="#f7f7f7")
    d.ellipse([164, 100, 316, 128], fill="#efefef")
    d.ellipse([172, 104, 308, 124], fill="#3b2312")
    for k in range(3):
        x = 200 + k * 40
        pts = [(x + 8 * math.sin(t / 6 + k), 92 - t * 2) for t in range(0, 30)]
        d.line(pts, fill="#ffffff", width=3)
    return img


def draw_author_avatar(rng):
    img, d = canvas(200, 200, "#fde2e4")
    d.ellipse([30, 30, 170, 170], fill="#9d4edd")
    text(d, (100, 100), "M", 64, "white", "mm")
    return img


def draw_withdrawal_timeline(rng):
    img, d = canvas(660, 280)
    text(d, (330, 12), "After stopping caffeine: a typical timeline", 18, INK, "ma")
    x0, x1 = 190, 640
    xd = lambda day: x0 + day / 9 * (x1 - x0)  # noqa: E731
    for day in range(10):
        d.line([(xd(day), 50), (xd(day), 200)], fill=GRID)
        text(d, (xd(day), 204), f"day {day}", 12, GREY, "ma")
    for x in range(int(xd(0.75)), int(xd(8))):
        day = (x - x0) / (x1 - x0) * 9
        t = 1.0 if 1 <= day <= 2 else (min(1.0, (day - 0.75) / 0.25) if day < 1 else max(0.0, 1 - (day - 2) / 6))
        d.line([(x, 64), (x, 100)], fill=mix("#ffffff", "#d62828", 0.15 + 0.85 * t))
    text(d, (x0 - 10, 82), "headache, tiredness,\npoor focus", 13, INK, "rm", "right")
    text(d, ((xd(1) + xd(2)) / 2, 82), "peak", 13, "white", "mm")
    for x in range(int(xd(0)), int(xd(9))):
        t = (x - x0) / (x1 - x0)
        d.line([(x, 130), (x, 166)], fill=mix("#2a9d8f", "#d8f3ef", t))
    text(d, (x0 - 10, 148), "tolerance resetting\n(receptors back to normal)", 13, INK, "rm", "right")
    text(d, (xd(0.6), 240), "starts 12-24 h after the last cup", 13, INK, "la")
    text(d, (x1, 240), "mostly gone after about a week", 13, INK, "ra")
    return img


def draw_cafe_logo(rng):
    img, d = canvas(260, 260, "#ffffff")
    d.ellipse([10, 10, 250, 250], fill="#4a2c10")
    d.ellipse([26, 26, 234, 234], fill="#f3e9dc")
    d.ellipse([95, 85, 165, 175], fill="#6f4518")
    d.arc([105, 85, 155, 175], 290, 70, fill="#f3e9dc", width=4)
    d.arc([105, 85, 155, 175], 110, 250, fill="#f3e9dc", width=4)
    text(d, (130, 58), "BEANTOWN", 20, "#4a2c10", "mm")
    text(d, (130, 200), "ROASTERS", 18, "#4a2c10", "mm")
    text(d, (130, 222), "EST. 2011", 12, "#6f4518", "mm")
    return img


# ----------------------------------------------------------------------------
# mini-05  From URL to page
# ----------------------------------------------------------------------------
def _laptop(d, x, y):
    d.rounded_rectangle([x - 34, y - 30, x + 34, y + 14], 4, fill="#dfe7f2", outline="#334", width=3)
    d.polygon([(x - 44, y + 16), (x + 44, y + 16), (x + 52, y + 26), (x - 52, y + 26)], fill="#334")


def draw_dns_lookup(rng):
    img, d = canvas(740, 440, "#fcfcfe")
    text(d, (370, 12), "DNS lookup: finding the IP address of www.example.org", 18, INK, "ma")
    _laptop(d, 70, 220)
    text(d, (70, 256), "Your browser\n(+ OS cache)", 13, INK, "ma", "center")
    box(d, (260, 50, 400, 400), "DNS resolver\n(your ISP or a\npublic service)\n\ncaches answers\nfor next time",
        "#fff3bf")
    servers = [("Root server", "ask the .org servers", 90), (".org TLD server", "ask example.org's server", 225),
               ("example.org\nauthoritative server", "IP is 203.0.113.10", 360)]
    for i, (lab, reply, cy) in enumerate(servers):
        box(d, (570, cy - 32, 730, cy + 32), lab, "#d0ebff")
        arrow(d, (402, cy - 9), (566, cy - 9), "#1d4fa8", 3)
        arrow(d, (566, cy + 9), (402, cy + 9), "#2e9e4a", 3)
        text(d, (484, cy - 15), f"{i + 2}. www.example.org?", 12, "#1d4fa8", "md")
        text(d, (484, cy + 16), reply, 12, "#2e7a3f", "ma")
    arrow(d, (120, 205), (256, 205), "#1d4fa8", 3)
    text(d, (188, 198), "1. where is\nwww.example.org?", 12, "#1d4fa8", "md", "center")
    arrow(d, (256, 236), (120, 236), "#2e9e4a", 3)
    text(d, (188, 243), "5. 203.0.113.10", 12, "#2e7a3f", "ma")
    text(d, (20, 415), "blue = question, green = answer", 12, GREY, "la")
    return img


def draw_handshake_sequence(rng):
    img, d = canvas(640, 560, "#ffffff")
    text(d, (320, 10), "Before the page arrives: TCP, TLS, then HTTP", 17, INK, "ma")
    bx, sx = 240, 540
    box(d, (bx - 60, 40, bx + 60, 76), "Browser", "#e7f5ff")
    box(d, (sx - 70, 40, sx + 70, 76), "Server :443", "#fff4e6")
    dashed(d, (bx, 78), (bx, 540), GREY)
    dashed(d, (sx, 78), (sx, 540), GREY)
    msgs = [("SYN", 1, "TCP"), ("SYN-ACK", -1, "TCP"), ("ACK", 1, "TCP"),
            ("ClientHello", 1, "TLS"), ("ServerHello + certificate", -1, "TLS"), ("key exchange, Finished", 1, "TLS"),
            ("GET /recipes", 1, "HTTP"), ("200 OK + HTML", -1, "HTTP")]
    cols = {"TCP": "#1d4fa8", "TLS": "#7048c6", "HTTP": "#2e9e4a"}
    spans = {}
    for i, (lab, dirn, grp) in enumerate(msgs):
        y = 104 + i * 52
        a, b = (bx + 4, y + 12), (sx - 4, y + 24)
        arrow(d, a if dirn > 0 else (b[0], a[1]), (b[0], b[1]) if dirn > 0 else (a[0], b[1]), cols[grp], 3)
        text(d, ((bx + sx) / 2, y + 14), lab, 13, cols[grp], "md")
        spans.setdefault(grp, [y, y])[1] = y + 30
    for grp, (y0, y1) in spans.items():
        d.line([(160, y0), (150, y0), (150, y1), (160, y1)], fill=cols[grp], width=3)
        text(d, (140, (y0 + y1) / 2), f"{grp}\nhandshake" if grp != "HTTP" else "HTTP\nrequest", 13, cols[grp], "rm",
             "right")
    arrow(d, (24, 100), (24, 520), GREY, 2)
    text(d, (30, 530), "time", 12, GREY, "la")
    return img


def _server_icon(d, b):
    x0, y0, x1, y1 = b
    for k in range(3):
        y = y0 + 4 + k * (y1 - y0) / 3
        d.rounded_rectangle([x0 + 10, y, x1 - 10, y + (y1 - y0) / 3 - 8], 4, fill="#ffd60a")
        d.ellipse([x1 - 30, y + 10, x1 - 20, y + 20], fill="#3c096c")


def draw_hosting_banner(rng):
    return ad_banner(620, 160, "#3c096c", "#ffffff", "#ffd60a", "HostNova web hosting",
                     "From $1.99/mo · Free domain for the first year!", "Get started", _server_icon, "Sponsored")


def draw_pageload_pie(rng):
    img, d = canvas(640, 380)
    text(d, (320, 12), "Where the time goes: a first page load (illustrative)", 17, INK, "ma")
    items = [("DNS lookup", 5, "#4dabf7"), ("TCP + TLS connection", 15, "#1c7ed6"),
             ("Server think time (TTFB)", 20, "#f59f00"), ("HTML download", 5, "#ffd43b"),
             ("CSS, JS, images, fonts", 35, "#e8590c"), ("Parse, layout & paint", 20, "#2f9e44")]
    start = -90.0
    cx, cy, r = 170, 210, 135
    for lab, v, col in items:
        end = start + v * 3.6
        d.pieslice([cx - r, cy - r, cx + r, cy + r], start, end, fill=col, outline="white", width=2)
        mid = math.radians((start + end) / 2)
        text(d, (cx + 0.68 * r * math.cos(mid), cy + 0.68 * r * math.sin(mid)), f"{v}%", 14, INK, "mm")
        start = end
    legend(d, (340, 120), [(f"{lab} - {v}%", col) for lab, v, col in items], 14, 16)
    return img


def draw_browser_mockup(rng):
    img, d = canvas(700, 320, "#ffffff")
    d.rounded_rectangle([10, 10, 690, 200], 10, fill="#f1f3f5", outline="#adb5bd", width=2)
    d.rounded_rectangle([24, 18, 200, 46], 6, fill="#ffffff")
    text(d, (38, 32), "Recipes - Example", 13, INK, "lm")
    for k, sym in enumerate(["<", ">", "C"]):
        text(d, (34 + k * 28, 72), sym, 16, GREY, "mm")
    d.rounded_rectangle([110, 56, 670, 88], 14, fill="#ffffff", outline="#ced4da")
    d.rounded_rectangle([128, 66, 140, 80], 2, fill="#2b8a3e")
    d.arc([129, 59, 139, 71], 180, 360, fill="#2b8a3e", width=2)
    parts = [("https://", "#2b8a3e"), ("www.example.org", INK), ("/recipes", "#1864ab")]
    x, f = 150, font(16)
    spans = []
    for s, col in parts:
        text(d, (x, 72), s, 16, col, "lm")
        spans.append((x, x + f.getlength(s)))
        x += f.getlength(s)
    d.rectangle([24, 100, 676, 190], fill="#ffffff")
    text(d, (40, 120), "Easy weeknight recipes", 18, INK, "la")
    for k in range(3):
        d.rectangle([40, 150 + k * 12, 40 + rng.randint(300, 560), 156 + k * 12], fill="#dee2e6")
    notes = [(134, "padlock:\nTLS encryption", "#2b8a3e"), ((spans[0][0] + spans[0][1]) / 2, "scheme:\nHTTPS", "#2b8a3e"),
             ((spans[1][0] + spans[1][1]) / 2, "host name:\nlooked up via DNS", INK),
             ((spans[2][0] + spans[2][1]) / 2, "path:\nsent in the HTTP GET", "#1864ab")]
    for i, (px, lab, col) in enumerate(notes):
        tx = 70 + i * 170
        d.line([(px, 90), (px, 230), (tx, 250)], fill=col, width=2)
        text(d, (tx, 256), lab, 13, col, "ma", "center")
    return img


def draw_network_pattern(rng):
    img, d = canvas(560, 320)
    vgradient(d, (0, 0, 560, 320), "#03045e", "#0077b6")
    nodes = [(rng.uniform(10, 550), rng.uniform(10, 310)) for _ in range(34)]
    for i, a in enumerate(nodes):
        for b in nodes[i + 1:]:
            if math.dist(a, b) < 110:
                d.line([a, b], fill="#48cae4", width=1)
    for x, y in nodes:
        r = rng.uniform(2, 5)
        d.ellipse([x - r - 4, y - r - 4, x + r + 4, y + r + 4], fill="#0096c7")
        d.ellipse([x - r, y - r, x + r, y + r], fill="#caf0f8")
    return img


# ----------------------------------------------------------------------------
# mini-06  Password hashing and salting
# ----------------------------------------------------------------------------
def sha256_hex(s):
    return hashlib.sha256(s.encode("utf-8")).hexdigest()


def draw_hash_flow(rng):
    img, d = canvas(720, 380, "#fbfcfe")
    text(d, (360, 8), "How a site stores a password: salt + slow hash", 19, INK, "ma")
    box(d, (20, 70, 220, 130), "Password you typed:\nsunshine1", "#ffe3e3")
    box(d, (20, 220, 220, 290), "Salt (random, per user):\nq7Lp2xVr", "#e6fcf5")
    box(d, (290, 140, 470, 220), "Slow hash function\n(bcrypt / scrypt /\nArgon2)", "#fff3bf", size=15)
    arrow(d, (220, 100), (288, 160), INK, 3)
    arrow(d, (220, 255), (288, 205), INK, 3)
    arrow(d, (470, 180), (520, 180), INK, 3)
    digest = sha256_hex("q7Lp2xVr" + "sunshine1")
    box(d, (524, 130, 708, 230), "Stored hash:\n" + "\n".join(digest[i:i + 16] for i in range(0, 32, 16)) + "...",
        "#e7f5ff", size=13)
    dashed(d, (540, 126), (236, 84), "#c92a2a", 3)
    arrow(d, (236, 84), (224, 82), "#c92a2a", 3)
    d.line([(366, 88), (392, 114)], fill="#c92a2a", width=5)
    d.line([(392, 88), (366, 114)], fill="#c92a2a", width=5)
    text(d, (420, 42), "one-way: the hash cannot be turned back into the password", 13, "#c92a2a", "ma")
    text(d, (616, 240), "the database keeps only\nthe salt and the hash", 13, GREY, "ma", "center")
    text(d, (360, 320), "At login: hash(typed password + stored salt) is compared with the stored hash", 13, INK, "ma")
    return img


def draw_salt_table(rng):
    img, d = canvas(700, 300, "#ffffff")
    text(d, (350, 10), "Same password, different salts, different hashes", 18, INK, "ma")
    rows = [("alice", "q7Lp2xVr", "sunshine1"), ("bob", "Z9m4TcKe", "sunshine1"), ("carol", "h2Wd8sQa", "violet-kettle-42")]
    cols = [(20, "username"), (140, "salt"), (280, "password hash (first 32 hex characters)")]
    d.rectangle([20, 50, 680, 84], fill="#343a40")
    for x, lab in cols:
        text(d, (x + 10, 67), lab, 14, "white", "lm")
    for i, (user, salt, pw) in enumerate(rows):
        y = 84 + i * 44
        d.rectangle([20, y, 680, y + 44], fill="#f8f9fa" if i % 2 else "#ffffff", outline="#dee2e6")
        if pw == "sunshine1":
            d.rectangle([280, y + 4, 676, y + 40], fill="#fff3bf")
        text(d, (30, y + 22), user, 15, INK, "lm")
        text(d, (150, y + 22), salt, 15, "#087f5b", "lm")
        text(d, (290, y + 22), sha256_hex(salt + pw)[:32], 15, INK, "lm")
    text(d, (30, 230), "alice and bob both chose 'sunshine1', but the stored hashes look unrelated.", 13, INK, "la")
    text(d, (30, 252), "An attacker cannot spot the shared password or use a precomputed lookup table.", 13, INK, "la")
    text(d, (680, 290), "(SHA-256 of salt + password, shortened; real sites use a slow hash)", 11, GREY, "rd")
    return img


def crack_seconds(alphabet, length, rate=1e10):
    return alphabet ** length / rate


def human_time(s):
    for unit, size in [("years", 3.156e7), ("days", 86400), ("hours", 3600), ("min", 60)]:
        if s >= size:
            v = s / size
            return f"{v:,.0f} {unit}" if v >= 100 else f"{v:.1f} {unit}" if v < 10 else f"{v:.0f} {unit}"
    return f"{s:.0f} s"


def draw_crack_time_chart(rng):
    img, d = canvas(700, 420)
    text(d, (350, 10), "Time to try every password at 10 billion guesses per second", 17, INK, "ma")
    text(d, (350, 34), "(fast, unsalted hash; worst case for the attacker)", 13, GREY, "ma")
    p = Plot(img, d, (120, 64, 680, 330), (0, 3), (1, 1e12), ylog=True)
    p.axes(yticks=[(1, "1 second"), (60, "1 minute"), (3600, "1 hour"), (86400, "1 day"), (3.156e7, "1 year"),
                   (3.156e9, "100 years"), (3.156e11, "10,000 years")])
    series = [("lowercase letters only (26)", 26, "#868e96"), ("upper + lower + digits (62)", 62, "#1c7ed6")]
    for g, length in enumerate((8, 10, 12)):
        for k, (_, alpha, col) in enumerate(series):
            s = crack_seconds(alpha, length)
            x0, x1 = p.x(g + 0.14 + k * 0.36), p.x(g + 0.48 + k * 0.36)
            d.rectangle([x0, p.y(s), x1, p.y(1)], fill=col)
            text(d, ((x0 + x1) / 2, p.y(s) - 4), human_time(s), 12, INK, "md")
        text(d, (p.x(g + 0.5), 338), f"{length} characters", 14, INK, "ma")
    legend(d, (130, 366), [(lab, col) for lab, _, col in series])
    return img


def draw_shieldpass_logo(rng):
    img, d = canvas(300, 160, "#ffffff")
    d.polygon([(30, 30), (110, 30), (110, 90), (70, 130), (30, 90)], fill="#2b9348")
    d.ellipse([60, 55, 80, 75], fill="white")
    d.polygon([(66, 70), (74, 70), (78, 100), (62, 100)], fill="white")
    text(d, (124, 72), "ShieldPass", 28, "#1b4332", "lm")
    text(d, (126, 104), "Premium security", 14, GREY, "lm")
    return img


def draw_blender_analogy(rng):
    img, d = canvas(700, 360, "#fffdf7")
    text(d, (350, 10), "Hashing is like a blender: easy to blend, impossible to un-blend", 17, INK, "ma")
    d.ellipse([30, 90, 80, 130], fill="#ffe066")
    d.ellipse([90, 85, 130, 125], fill="#e03131")
    d.ellipse([60, 135, 100, 170], fill="#e03131")
    d.rectangle([140, 95, 170, 150], fill="#f8f9fa", outline="#adb5bd", width=2)
    text(d, (100, 186), "password\n(banana, strawberries, milk)", 13, INK, "ma", "center")
    d.ellipse([70, 250, 130, 280], fill="#e7f5ff", outline="#4dabf7", width=2)
    for _ in range(6):
        x, y = rng.uniform(84, 116), rng.uniform(256, 270)
        d.ellipse([x - 4, y - 4, x + 4, y + 4], fill="#364fc7")
    text(d, (100, 288), "salt: a different random\npinch for every user", 13, "#364fc7", "ma", "center")
    arrow(d, (190, 130), (270, 150), INK, 3)
    arrow(d, (150, 260), (270, 210), "#364fc7", 3)
    d.polygon([(290, 80), (410, 80), (395, 230), (305, 230)], fill="#e9ecef", outline="#495057")
    d.rectangle([300, 230, 400, 280], fill="#495057")
    d.ellipse([340, 245, 360, 265], fill="#ced4da")
    text(d, (350, 150), "HASH\nFUNCTION", 15, INK, "mm", "center")
    arrow(d, (420, 170), (500, 170), INK, 3)
    d.polygon([(520, 100), (600, 100), (590, 250), (530, 250)], fill="#f783ac", outline="#a61e4d", width=2)
    text(d, (560, 266), "hash (the smoothie):\n8c1f...e07a", 13, INK, "ma", "center")
    arrow(d, (540, 320), (200, 320), "#c92a2a", 3)
    d.line([(355, 305), (385, 335)], fill="#c92a2a", width=5)
    d.line([(385, 305), (355, 335)], fill="#c92a2a", width=5)
    text(d, (420, 332), "can't un-blend!", 14, "#c92a2a", "la")
    return img


def draw_avalanche_digests(rng):
    img, d = canvas(700, 250, "#0b132b")
    text(d, (350, 12), "Change one character, change the whole hash (SHA-256)", 18, "#ffffff", "ma")
    a, b = sha256_hex("sunshine1"), sha256_hex("sunshine2")
    diff = sum(x != y for x, y in zip(a, b))
    step = 10.5
    for row, (word, h) in enumerate([("sunshine1", a), ("sunshine2", b)]):
        y = 60 + row * 80
        text(d, (20, y), f'"{word}" ->', 15, "#f8f9fa", "la")
        for i, ch in enumerate(h):
            line, col = divmod(i, 32)
            x, yy = 150 + col * (step + 6), y + line * 24
            if a[i] != b[i]:
                d.rectangle([x - 2, yy - 2, x + step + 2, yy + 18], fill="#5c4a00")
            text(d, (x + step / 2, yy), ch, 15, "#ffd43b" if a[i] != b[i] else "#adb5bd", "ma")
    text(d, (350, 224), f"{diff} of 64 hex characters differ (highlighted)", 14, "#ffffff", "ma")
    return img


def draw_padlock_pattern(rng):
    img, d = canvas(480, 300)
    vgradient(d, (0, 0, 480, 300), "#001d3d", "#003566")
    for row in range(4):
        for col in range(6):
            x, y = 40 + col * 80 + (row % 2) * 20, 45 + row * 72
            glow = rng.uniform(0.4, 1.0)
            d.arc([x - 14, y - 30, x + 14, y - 2], 180, 360, fill=mix("#003566", "#ffc300", glow), width=5)
            d.rounded_rectangle([x - 20, y - 16, x + 20, y + 16], 4, fill=mix("#003566", "#ffd60a", glow))
            d.ellipse([x - 4, y - 6, x + 4, y + 2], fill="#001d3d")
    return img


# ----------------------------------------------------------------------------
# Content
# ----------------------------------------------------------------------------
def piece(score, text, evaluation):
    return dict(text=text, score=score, evaluation=evaluation)


def image(draw, fmt, score, caption, source_url, context_url=None):
    spec = dict(draw=draw, fmt=fmt, final_score=score, caption=caption, source_url=source_url)
    if context_url:
        spec["context_url"] = context_url
    return spec


_AVALANCHE_DIFF = sum(a != b for a, b in zip(sha256_hex("sunshine1"), sha256_hex("sunshine2")))

MUSEUM = "https://skylab-museum.example/explainers/why-is-the-sky-blue"
MINI_01 = dict(
    query_id="mini-01",
    content="Why is the sky blue during the day but orange and red at sunset? Explain like I'm five.",
    topic="Science & Mathematics",
    level=1,
    webpages=[
        dict(
            title="Why Is the Sky Blue? How Air Scatters Sunlight | Skylab Science Museum",
            url=MUSEUM,
            snippet="Sunlight contains every colour. Tiny nitrogen and oxygen molecules scatter short blue "
                    "wavelengths far more than long red ones, which is why the daytime sky glows blue.",
            pieces=[
                piece(2, "Skylab Science Museum › Explainers › Earth & Atmosphere\n"
                         "Visit · Exhibitions · Planetarium · Learn · Membership · Shop · Search",
                      "Breadcrumb and site navigation; nothing about sky colour."),
                piece(9, "Sunlight looks white, but it is really a blend of every colour of the rainbow travelling "
                         "together. Each colour is a light wave with its own wavelength: violet and blue waves are "
                         "short (roughly 400 to 480 nanometres from crest to crest), while orange and red waves are "
                         "long (about 600 to 700 nanometres). On its way to the ground, sunlight passes through tens "
                         "of kilometres of air. Air is mostly nitrogen and oxygen molecules, each thousands of times "
                         "smaller than a light wave. When a wave washes over one of these molecules it sets the "
                         "molecule's electrons jiggling, and the jiggling molecule sends a little of that light off "
                         "in a new direction. Scientists call this scattering. <IMAGE_PLACEHOLDER>[1]",
                      "Explains white light, wavelengths and scattering by air molecules: the core of the answer."),
                piece(10, "The key fact is that scattering is wildly unfair between colours. For particles much "
                          "smaller than the wavelength, the amount of light scattered grows as one over the "
                          "wavelength to the fourth power, a rule worked out by Lord Rayleigh in the 1870s and now "
                          "called Rayleigh scattering. Halve the wavelength and the scattering becomes sixteen times "
                          "stronger. Blue light at 450 nm is scattered almost six times as much as red light at "
                          "700 nm, and violet even more. So while most red and yellow light streams straight down to "
                          "the ground, blue light is bounced all over the sky. Wherever you look, away from the Sun, "
                          "some of that bounced blue light is heading towards your eyes, and the whole dome of the "
                          "sky glows blue. <IMAGE_PLACEHOLDER>[2]",
                      "States Rayleigh's 1/wavelength^4 law with numbers; directly answers why the sky is blue."),
                piece(8, "If violet is scattered most, why isn't the sky violet? Three things work together. The "
                         "Sun gives out less violet light than blue in the first place, some violet is absorbed high "
                         "in the atmosphere, and our eyes are far less sensitive to violet than to blue. The light "
                         "reaching us from the sky is a mixture that is heavy in blue and violet but also contains "
                         "some green and other colours, and the colour-sensing cells in our eyes add it all up to "
                         "the familiar pale sky blue.",
                      "Answers the common follow-up about violet; useful supporting detail."),
                piece(9, "Sunrise and sunset are the same physics seen from a different angle. When the Sun is "
                         "overhead, its light crosses the atmosphere by the shortest route. When the Sun sits on the "
                         "horizon, its light skims through the atmosphere sideways and crosses nearly 40 times as "
                         "much air. Along that long path almost all of the blue, and much of the green, is scattered "
                         "out of the beam before it reaches you. What survives is mostly yellow, orange and red, so "
                         "the Sun looks orange and paints the clouds and the sky around it in warm colours. Dust, "
                         "smoke, sea salt and volcanic ash add their own scattering, which is why some sunsets are "
                         "far more dramatic than others.",
                      "Explains sunset colours through the much longer path through air: the second half of the question."),
                piece(1, "Plan your visit: our planetarium show 'Colours of the Sky' runs daily at 11:00 and 15:00. "
                         "Members enjoy free entry and 10% off in the museum shop. Book timed tickets online to skip "
                         "the queue.",
                      "Visitor promotion; irrelevant to the question."),
            ],
            images={
                1: image(draw_air_scattering, "png", 9,
                         "A labelled diagram titled 'How air scatters sunlight'. A yellow Sun at the upper left sends "
                         "a bundle of rainbow-coloured rays, labelled 'Sunlight (all colours)', into a cluster of grey "
                         "dots labelled 'N2 and O2 molecules'; from the cluster, blue arrows fan out in every "
                         "direction, while the yellow, orange and red rays continue in a straight line to a stick-"
                         "figure observer on the green ground. Labels read 'red, orange, yellow mostly pass straight "
                         "on' and 'observer: blue light arrives from every part of the sky', illustrating how air "
                         "molecules redirect blue light far more than red.",
                         "https://skylab-museum.example/img/explainers/scattering-diagram.png"),
                2: image(draw_scatter_bars, "png", 9,
                         "A bar chart titled 'How strongly air scatters each colour (red = 1)'. Six bars, each filled "
                         "with its own colour, show relative scattering of violet 400 nm (9.4x), blue 450 nm (5.9x), "
                         "green 530 nm (3.0x), yellow 580 nm (2.1x), orange 620 nm (1.6x) and red 700 nm (1.0x), "
                         "falling steeply with wavelength. A footnote gives Rayleigh's rule, scattering ~ "
                         "1/wavelength^4, which is the law the page uses to explain the blue sky.",
                         "https://skylab-museum.example/img/explainers/rayleigh-bars.png"),
            }),
        dict(
            title="ELI5: Why is the sky blue but sunsets are orange and red? : askaround",
            url="https://askaround.example/t/why-is-the-sky-blue-but-sunsets-red/48213",
            snippet="My kid asked why the sky is blue but turns orange at sunset and I had no idea. Top answer: "
                    "think of sunlight as a bag of coloured marbles rolling through a forest of tiny pins...",
            pieces=[
                piece(1, "We use cookies to keep you signed in and to personalise the threads we recommend. By "
                         "clicking 'Accept all' you agree to our use of cookies. [Accept all] [Manage preferences]",
                      "Cookie consent banner; no content."),
                piece(7, "Posted by u/tired_parent_42 · Explain Like I'm Five\nELI5: Why is the sky blue but "
                         "sunsets are orange and red?\nMy six-year-old asked me this on the drive home and I "
                         "completely blanked. Something about light bouncing? If it's the same sun all day, why "
                         "does the colour change in the evening? Bonus points if I can explain it to an actual "
                         "five-year-old.",
                      "Restates the question in the asker's own words; context but no answer."),
                piece(10, "<IMAGE_PLACEHOLDER>[2] u/skyward_dan · Top answer · 3.4k points\nImagine sunlight is a "
                          "big bag of marbles in every colour, all rolled at once. The air is like a forest of "
                          "super-tiny pins, and the pins are really good at knocking the blue marbles around but "
                          "hardly touch the red ones. So the blue marbles keep smacking into pins and bouncing off in "
                          "random directions, while the red marbles mostly roll straight on. Because blue marbles are "
                          "bouncing around everywhere, no matter which bit of sky you look at, some blue ones are "
                          "bouncing towards you. That's why the whole sky looks blue, not just the spot around the sun.",
                      "Clear ELI5 analogy for why blue light is scattered across the whole sky; highly relevant."),
                piece(10, "Now sunset. At noon the sun is above you, so the marbles only roll through a short "
                          "stretch of forest. At sunset the sun is off at the edge of the world, so its light has to "
                          "roll sideways through a much, much longer stretch of forest to reach you. By the time it "
                          "arrives, nearly every blue marble has already bounced away somewhere else (it's busy "
                          "making the sky blue for people further west!). What's left is mostly orange and red "
                          "marbles, so the sun and the clouds near it look orange and red. <IMAGE_PLACEHOLDER>[1]",
                      "Explains sunset colours with the longer-path idea and points to a diagram; directly answers part two."),
                piece(8, "u/optics_nerd · 812 points\nGreat answer. For the grown-ups: the proper name is Rayleigh "
                         "scattering, and its strength goes like 1/wavelength^4, so blue (about 450 nm) gets "
                         "scattered roughly 6x more than red (about 700 nm). It's also why the sky right next to the "
                         "horizon looks paler, almost white: that light has travelled through so much air that it "
                         "has been scattered many times over and the colours get mixed back together.",
                      "Adds the technical name, the 1/wavelength^4 law and a related observation."),
                piece(5, "u/red_planet_rover · 340 points\nFun fact: on Mars it's the other way round. The thin "
                         "Martian air is full of fine reddish dust, so the daytime sky looks butterscotch and the "
                         "sunsets look bluish, because dust grains scatter light differently from air molecules.",
                      "Interesting related aside about Mars; not needed for the answer."),
                piece(2, "Related threads: Why are clouds white? · Why is the ocean blue? · Why do stars twinkle? · "
                         "Load more comments (57)",
                      "Links to other threads; no content."),
            ],
            images={
                1: image(draw_noon_vs_sunset, "png", 10,
                         "A two-panel explanatory diagram. In the left panel, 'Noon: Sun overhead', the Sun is "
                         "directly above a stick figure standing on a curved green Earth, and a short vertical arrow "
                         "crosses the thin light-blue air layer, marked 'short path through air'. In the right panel, "
                         "'Sunset: Sun on the horizon', an orange Sun sits at the edge of the air layer and a long "
                         "horizontal arrow, shading from yellow to red, crosses much more air while small blue arrows "
                         "peel off upwards, labelled 'long path through air: blue scattered away' and 'mostly orange "
                         "and red arrive'. It illustrates why sunset light reaching the viewer is red.",
                         "https://askaround.example/media/u/skyward_dan/noon-vs-sunset.png"),
                2: image(draw_forum_badge, "gif", 1,
                         "A small forum profile badge: a round purple avatar with the initials 'SD' beside the "
                         "username 'skyward_dan', a gold ribbon reading 'Top Contributor' and the text '3.4k "
                         "points'. It is decorative user-interface chrome and carries no information about sky "
                         "colours.",
                         "https://askaround.example/static/badges/top-contributor-skyward_dan.gif"),
            }),
        dict(
            title="Golden Hour, Blue Hour: Why Evening Light Turns Warm — LensLight Journal",
            url="https://lenslight-journal.example/blog/golden-hour-colours",
            snippet="Photographers chase golden hour for its warm, soft light. Here is the physics of why light "
                    "turns orange as the sun sinks, and how to expose for it.",
            pieces=[
                piece(6, "Ask any landscape photographer about their favourite time to shoot and you will hear "
                         "'golden hour': the stretch just after sunrise and just before sunset when the light is "
                         "low, soft and warm. Shadows grow long, faces glow, and even a car park can look cinematic. "
                         "But the warmth isn't your camera's imagination; it is the atmosphere filtering the "
                         "sunlight. <IMAGE_PLACEHOLDER>[1]",
                      "Introduces golden hour and hints at the cause; sets up the sunset part of the question."),
                piece(9, "Here's what is going on. When the sun is low, its light crosses a far thicker slice of "
                         "atmosphere before it reaches your lens. Air molecules scatter blue light much more readily "
                         "than red, so over that long path the blue is stripped out of the direct beam and sprayed "
                         "across the sky. The beam that makes it through is dominated by yellow, orange and red. "
                         "Photographers describe this with colour temperature: midday sun is roughly 5500 kelvin "
                         "(neutral white), golden-hour light drops to around 3000 kelvin, and the deep orange sun "
                         "touching the horizon can be near 2000 kelvin. <IMAGE_PLACEHOLDER>[2]",
                      "Explains why low sunlight is warmer, with colour-temperature figures."),
                piece(7, "Then comes blue hour. Once the sun has dipped below the horizon, no direct light reaches "
                         "you at all; the landscape is lit only by light scattered from the sky overhead. That light "
                         "is strongly blue, helped by the ozone layer, which absorbs some of the orange and red light "
                         "travelling along those long, grazing paths. The result is the deep cobalt twilight that "
                         "makes city lights pop.",
                      "Related twilight physics; partially relevant."),
                piece(4, "Shooting tips: set a fixed white balance (try the 'daylight' preset) rather than auto, or "
                         "your camera will 'correct' away the warmth you came for. Bracket your exposures, because "
                         "the sky can be four or five stops brighter than the foreground, and keep shooting for "
                         "twenty minutes after sunset.",
                      "Photography tips; little bearing on why sunsets are red."),
                piece(1, "<IMAGE_PLACEHOLDER>[3] Gear we love: the TrailLite carbon tripod folds to 38 cm and weighs "
                         "just 1.1 kg. Readers get 15% off with code GOLDEN15 (affiliate link).",
                      "Affiliate product promotion; irrelevant."),
                piece(0, "Enjoyed this? Join 20,000 photographers who get our free weekly newsletter. Enter your "
                         "email: [__________] [Subscribe]",
                      "Newsletter sign-up form; no content."),
            ],
            images={
                1: image(draw_sunset_scene, "jpeg", 6,
                         "An illustration of a sunset over rolling hills. The sky shades from deep navy at the top "
                         "through purple and pink to bright orange at the horizon, where a large orange Sun sits "
                         "half hidden behind layers of dark purple hill silhouettes, with a few birds in the sky. It "
                         "shows the warm golden-hour colours the article discusses but contains no labels or "
                         "explanation.",
                         "https://lenslight-journal.example/wp-content/uploads/golden-hour-hills.jpg"),
                2: image(draw_colour_temp_scale, "png", 8,
                         "A horizontal colour-temperature scale titled 'Colour temperature of light (kelvin)', "
                         "running from deep orange at about 1500 K to pale blue-white at 7000 K, with tick marks "
                         "every 1000 K. Pointers mark 'candle' (about 1850 K), 'Sun on the horizon' (2000 K), "
                         "'golden hour' (3000 K), 'midday sun' (5500 K) and 'overcast sky' (6500 K), with arrows "
                         "labelled 'warmer (more red, less blue)' and 'cooler (more blue)'. It shows that low-sun "
                         "light sits at the warm end of the scale, as the article explains.",
                         "https://lenslight-journal.example/wp-content/uploads/kelvin-scale.png"),
                3: image(draw_tripod_ad, "webp", 2,
                         "An advertising banner on a dark teal background with a simple white line drawing of a "
                         "tripod, the headline 'TrailLite Carbon Tripod', the line 'Folds to 38 cm · 1.1 kg · 15% "
                         "off with code GOLDEN15' and a yellow 'Shop now' button. It is an affiliate advert and "
                         "says nothing about why sunsets are red.",
                         "https://ads.lenslight-journal.example/banners/traillite-tripod.webp"),
            }),
        dict(
            title="Make a Sunset in a Glass — Kitchen Science Club",
            url="https://kitchen-science-club.example/experiments/sunset-in-a-glass",
            snippet="A 10-minute experiment with water, a little milk and a torch that shows why the sky is blue "
                    "and sunsets are orange.",
            pieces=[
                piece(2, "Kitchen Science Club · Experiments · Printables · For Teachers · About",
                      "Site navigation."),
                piece(7, "Time: 10 minutes · Age: 5+ with a grown-up · Mess level: low\nYou will need: a tall clear "
                         "glass or plastic bottle, water, milk, a teaspoon, and a torch (a phone torch works). A dark "
                         "room makes everything easier to see.",
                      "Materials for a hands-on demonstration of the effect; supporting."),
                piece(8, "Step 1: Fill the glass with water and stir in half a teaspoon of milk. The water should "
                         "look slightly cloudy, not white.\nStep 2: Darken the room and shine the torch into the "
                         "side of the glass. Look at the glass from the side: it has a faint blue-grey glow.\nStep "
                         "3: Now shine the torch through the glass towards you, so you look straight down the beam "
                         "at the torch. The light coming through looks yellow-orange.\nStep 4: Add another half "
                         "teaspoon of milk and look again. The colour through the glass turns a deeper orange, just "
                         "like a sun sinking into a hazy evening.",
                      "How-to steps that reproduce a blue 'sky' and an orange 'sunset'."),
                piece(9, "What's happening? The tiny droplets of fat and protein in the milk act like the air in our "
                         "atmosphere. They scatter more blue light than red light out of the torch beam. From the "
                         "side you see that scattered blue light: that's your 'sky'. Looking through the glass, you "
                         "see the light that wasn't scattered away, which has lost much of its blue and looks "
                         "orange: that's your 'sunset'. More milk is like more air (or more dust), so more blue is "
                         "lost and the sunset gets redder.",
                      "Explains the experiment with the same scattering that colours the sky; kid-friendly answer."),
                piece(4, "Safety note: don't drink the experiment water afterwards, and never look straight at the "
                         "Sun, not even at sunset, to compare colours.",
                      "Safety advice; marginally relevant."),
                piece(1, "Print this experiment as a worksheet · Share on social · See more light experiments",
                      "Sharing links; no content."),
            ],
            images={}),
    ],
    aux_images=[
        image(draw_visible_spectrum, "png", 8,
              "A horizontal strip titled 'Visible light: wavelength in nanometres' showing the spectrum from "
              "violet at 400 nm through blue, green, yellow and orange to red at 700 nm, with a labelled axis every "
              "50 nm. A blue arrow at the short-wavelength end is labelled 'scattered most' and a red arrow at the "
              "long-wavelength end 'scattered least', linking each colour to how strongly air scatters it.",
              "https://skylab-museum.example/img/spectrum-strip.png", MUSEUM),
        image(draw_museum_logo, "png", 2,
              "The Skylab Science Museum logo: a navy circle containing a white planet with a gold ring, next to "
              "the words 'SKYLAB' and 'SCIENCE MUSEUM' in navy capitals. It is a brand mark and gives no "
              "information about sky colour.",
              "https://skylab-museum.example/static/logo-skylab.png", MUSEUM),
    ],
)

ASTRO = "https://northfield-astro.example/learn/reason-for-the-seasons"
HOMESCHOOL = "https://homeschool-hub.example/activities/lamp-and-ball-seasons"
MINI_02 = dict(
    query_id="mini-02",
    content="If Earth is closest to the Sun in January, why is it winter then in places like Europe and the US? "
            "What actually causes the seasons?",
    topic="Science & Mathematics",
    level=2,
    webpages=[
        dict(
            title="The Reason for the Seasons (It's Not the Distance) — Northfield Astronomy Club",
            url=ASTRO,
            snippet="Earth is actually closest to the Sun in early January. Seasons come from the 23.4° tilt of "
                    "Earth's axis, which changes how high the Sun climbs and how long the days last.",
            pieces=[
                piece(1, "Northfield Astronomy Club | Home | Observing Nights | Learn | Join | Contact",
                      "Navigation bar."),
                piece(9, "It is one of the most common science misconceptions: summer happens when Earth is closer "
                         "to the Sun. In fact Earth's orbit is very nearly a circle. We are closest to the Sun "
                         "(perihelion) in early January, at about 147 million kilometres, and farthest (aphelion) in "
                         "early July, at about 152 million kilometres. That is only about a 3 per cent difference in "
                         "distance, which changes the sunlight reaching Earth by roughly 7 per cent: far too little "
                         "to cause the seasons, and the wrong way round for the Northern Hemisphere, which has its "
                         "winter in January.",
                      "Directly addresses the January-perihelion premise with figures."),
                piece(10, "The real cause is tilt. Earth spins around an axis that is tipped about 23.4 degrees from "
                          "upright compared with its orbit, and that axis keeps pointing the same way in space "
                          "(towards Polaris, the North Star) all year long. So around June the Northern Hemisphere "
                          "leans towards the Sun, and around December it leans away, while the Southern Hemisphere "
                          "gets the opposite. <IMAGE_PLACEHOLDER>[1]",
                      "Gives the actual cause: an axial tilt that stays fixed in direction."),
                piece(10, "Leaning towards the Sun matters for two reasons. First, the Sun climbs higher in the sky, "
                          "so its rays hit the ground more directly. A beam of sunlight striking the ground steeply "
                          "lands on a small patch; the same beam arriving at a low angle spreads over a much bigger "
                          "patch, so each square metre gets less energy. <IMAGE_PLACEHOLDER>[2] Second, the days are "
                          "longer: the Sun is above the horizon for more hours, giving the ground more time to warm "
                          "up and less night to cool off. In winter both effects work the other way: a low Sun and "
                          "short days.",
                      "Explains both mechanisms, sun angle and day length, clearly."),
                piece(8, "This is also why the seasons are reversed between the hemispheres. When it is summer in "
                         "New York or Paris, it is winter in Sydney and Buenos Aires, and Australians really do have "
                         "Christmas at the beach. Near the equator the Sun is always high and days are always close "
                         "to 12 hours long, so the tropics have wet and dry seasons rather than warm and cold ones.",
                      "Hemisphere reversal and the equator; supports the answer."),
                piece(2, "Next observing night: Saturday, weather permitting, at Hilltop Field from 8 pm. Bring warm "
                         "clothes and a red torch. Non-members welcome!",
                      "Club event notice; irrelevant."),
            ],
            images={
                1: image(draw_orbit_tilt, "png", 10,
                         "A diagram titled 'Seasons come from the 23.4° tilt, not from distance'. The Sun sits in the "
                         "middle of an oval orbit with Earth drawn on opposite sides; in both positions Earth's axis, "
                         "marked N, is tilted the same way. On the left, labelled 'June solstice: North leans TOWARD "
                         "the Sun = northern summer' and 'farthest (aphelion, early July) ~152 million km'; on the "
                         "right, 'December solstice: North leans AWAY from the Sun = northern winter' and 'closest "
                         "(perihelion, early Jan) ~147 million km'. It shows that the hemisphere leaning sunward has "
                         "summer even when Earth is farthest from the Sun.",
                         "https://northfield-astro.example/images/learn/orbit-tilt-solstices.png"),
                2: image(draw_beam_spread, "webp", 9,
                         "Two side-by-side panels showing an identical beam of sunlight hitting flat brown ground. "
                         "In 'Summer noon at 40°N: Sun 73° high' the steep beam lights a short patch marked 'lit "
                         "patch 1.0x' with 'energy per square metre: 100%'; in 'Winter noon at 40°N: Sun 27° high' the "
                         "slanted beam spreads over 'lit patch 2.1x' with 'energy per square metre: 47%'. The caption "
                         "line reads 'Same beam of sunlight, spread over a bigger patch in winter', illustrating the "
                         "sun-angle effect described in the text.",
                         "https://northfield-astro.example/images/learn/beam-spread.webp"),
            }),
        dict(
            title="Earth Science Notes 4.2: Insolation, Sun Angle and Day Length",
            url="https://openlearn-notes.example/earth-science/insolation-and-latitude",
            snippet="Insolation at a location depends on the Sun's noon altitude and the length of daylight. Worked "
                    "example for 40°N at the solstices, with a day-length chart.",
            pieces=[
                piece(8, "4.2 Insolation, Sun angle and day length\nInsolation (incoming solar radiation) is the "
                         "energy from sunlight that reaches a given area of Earth's surface. For a flat surface it "
                         "depends on two quantities: how high the Sun is in the sky, and how many hours the Sun is "
                         "above the horizon. Both change through the year because Earth's axis is tilted by 23.4° "
                         "relative to the plane of its orbit.",
                      "Defines insolation and links it to the tilt; relevant background."),
                piece(9, "Worked example. The Sun's altitude at local noon is approximately 90° − latitude + "
                         "declination, where the declination is +23.4° at the June solstice and −23.4° at the "
                         "December solstice. At latitude 40°N (roughly Madrid, Beijing or Philadelphia) this gives a "
                         "noon altitude of 73.4° in June but only 26.6° in December. The energy per square metre of "
                         "ground scales with the sine of the altitude, so the June noon Sun delivers sin 73.4° ÷ "
                         "sin 26.6° ≈ 2.1 times as much energy per square metre as the December noon Sun.",
                      "Quantitative worked example of the sun-angle effect."),
                piece(9, "Day length changes too. At 40°N there are about 15 hours of daylight at the June solstice "
                         "and about 9 at the December solstice. The swing grows towards the poles: at 60°N (Oslo, "
                         "Helsinki, Anchorage) the figures are about 18½ and 5½ hours, and beyond the Arctic Circle "
                         "the Sun does not set at all in midsummer or rise at all in midwinter. At the equator every "
                         "day is close to 12 hours long. <IMAGE_PLACEHOLDER>[1]",
                      "Day-length figures by latitude; the second mechanism, with a chart."),
                piece(8, "Seasonal lag. The June solstice brings the most insolation to the Northern Hemisphere, yet "
                         "the warmest weeks usually come in July or August. Oceans and land take time to warm up and "
                         "keep gaining more energy than they lose for several weeks after the solstice, in the same "
                         "way that the hottest part of a sunny day is usually mid-afternoon rather than noon. The "
                         "same lag makes late January or February the coldest time of year.",
                      "Explains why peak warmth lags the solstice; useful extra."),
                piece(4, "Check your understanding: (1) At which solstice is the Southern Hemisphere tilted towards "
                         "the Sun? (2) Calculate the noon altitude of the Sun at 52°N on the June solstice. (3) Why "
                         "do places on the equator have little temperature change through the year?",
                      "Review questions; little direct value."),
                piece(2, "<IMAGE_PLACEHOLDER>[2] Teacher resources: answer keys for the Chapter 4 review questions "
                         "are available to verified educators. Log in or request access.",
                      "Access notice for teachers; not relevant."),
            ],
            images={
                1: image(draw_daylight_chart, "png", 9,
                         "A line chart titled 'Hours of daylight through the year', with months January to December "
                         "on the x-axis and hours of daylight (0 to 24) on the y-axis. The green equator line stays "
                         "flat at 12 hours; the orange 40°N (e.g. Madrid) curve swings from about 9 hours in "
                         "December to about 15 hours in June; the blue 60°N (e.g. Oslo) curve swings from about 5.5 "
                         "to 18.5 hours. Dashed vertical lines mark the June and December solstices, showing that day "
                         "length varies more the farther a place is from the equator.",
                         "https://openlearn-notes.example/earth-science/fig-4-2-daylight.png"),
                2: image(draw_openlearn_logo, "png", None, None,
                         "https://openlearn-notes.example/static/openlearn-notes-logo.png"),
            }),
        dict(
            title="Seasons Myths Busted | Weather Wonders",
            url="https://weather-wonders.example/myths/seasons-distance-myth",
            snippet="No, summer isn't when we're closest to the Sun. We bust five common myths about seasons, "
                    "solstices and equinoxes.",
            pieces=None,
            images={}),
        dict(
            title="Hands-On: Model the Seasons with a Lamp and a Ball — Homeschool Hub",
            url=HOMESCHOOL,
            snippet="A simple kitchen-table model that shows why tilt, not distance, makes summer and winter. "
                    "Works for ages 7 and up.",
            pieces=[
                piece(2, "Homeschool Hub uses cookies for analytics. Continue browsing to accept. [OK]",
                      "Cookie notice."),
                piece(6, "Kids often guess that summer is when we are nearer the Sun. This activity lets them "
                         "discover the real reason for themselves. You will need a lamp without a shade (the Sun), an "
                         "orange or a foam ball (the Earth), a knitting needle or skewer pushed through the ball as "
                         "its axis, and a marker pen.",
                      "Sets up a hands-on model; materials list."),
                piece(8, "1. Draw the equator around the middle of the ball and put a dot for your home town.\n"
                         "2. Tilt the skewer so it leans roughly a quarter of the way from upright (about 23°) and "
                         "point the top towards one wall of the room: this is 'north'.\n3. Walk the ball in a circle "
                         "around the lamp, keeping the skewer pointing at that same wall the whole time.\n4. Stop on "
                         "the side where the top half leans towards the lamp. Notice how the light hits your dot "
                         "almost straight on, and how most of the northern half is lit. That's northern summer.\n5. "
                         "Walk to the opposite side. The top half now leans away: the light strikes your dot at a "
                         "slant and less of the northern half is lit. That's northern winter.",
                      "Step-by-step model demonstrating the effects of tilt."),
                piece(8, "Talk about it: Did the distance to the lamp change much as you walked around? (Hardly at "
                         "all.) What changed was the direction the top of the ball leaned compared with the lamp. Ask "
                         "your child to shine a torch straight down onto paper and then at a slant, and trace the "
                         "patch of light each time: the slanted patch is bigger and dimmer, just like winter "
                         "sunlight.",
                      "Draws the conclusion that tilt and angle, not distance, cause seasons."),
                piece(0, "Love this activity? Get a new printable science activity in your inbox every Friday. "
                         "[Sign me up]",
                      "Newsletter sign-up."),
            ],
            images={}),
    ],
    aux_images=[
        image(draw_distance_bars, "png", 7,
              "A horizontal bar chart titled 'Earth-Sun distance (million km)' with two bars drawn from zero: "
              "'Perihelion (early January)' at 147.1 and 'Aphelion (early July)' at 152.1, which look almost the "
              "same length. A note underneath reads 'Only about 3% difference - far too small to cause the "
              "seasons', reinforcing that distance is not the cause.",
              "https://northfield-astro.example/images/learn/perihelion-aphelion.png", ASTRO),
        image(draw_season_pattern, "jpeg", 3,
              "A decorative pastel pattern of repeating small suns, blue snowflakes and orange, yellow and green "
              "leaves on a cream background, like a seasonal header graphic. It evokes the idea of seasons but "
              "contains no diagram or explanation of their cause.",
              "https://homeschool-hub.example/assets/headers/seasons-pattern.jpg", HOMESCHOOL),
    ],
)

COACH = "https://ironwill-coaching.example/faq/sore-muscles"
PULSE = "https://dailypulse-health.example/fitness/why-soreness-is-delayed"
MINI_03 = dict(
    query_id="mini-03",
    content="Why do my muscles hurt more two days after a workout than right after it?",
    topic="Health",
    level=1,
    webpages=[
        dict(
            title="Delayed Onset Muscle Soreness (DOMS): Why It Peaks Days Later | Riverside Sports Medicine",
            url="https://riverside-sportsmed.example/blog/doms-explained",
            snippet="DOMS typically starts 12 to 24 hours after unaccustomed exercise and peaks at 24 to 72 hours. "
                    "Our physiotherapists explain micro-damage, inflammation and the lactic acid myth.",
            pieces=[
                piece(1, "This website uses cookies to improve your experience. See our privacy policy. [Accept] "
                         "[Reject non-essential]",
                      "Cookie banner; no content."),
                piece(9, "Delayed onset muscle soreness, or DOMS, is the stiff, tender ache you feel in the days "
                         "after a new or unusually hard workout. It typically appears 12 to 24 hours after exercise, "
                         "is worst between roughly 24 and 72 hours, and fades within five to seven days. Muscles feel "
                         "tender to press, weaker than usual and stiff, especially when you first get up or walk down "
                         "stairs. <IMAGE_PLACEHOLDER>[1]",
                      "Defines DOMS and gives its time course, which is exactly what the question asks about."),
                piece(10, "What causes it? The biggest trigger is eccentric work: movements where a muscle lengthens "
                          "while it is under load, such as lowering a dumbbell, walking or running downhill, or "
                          "landing from a jump. Eccentric contractions put high strain on a small number of muscle "
                          "fibres and cause microscopic damage: disrupted structures inside the fibres, tiny tears in "
                          "the surrounding connective tissue and leaky cell membranes. You feel very little of this "
                          "damage at first. <IMAGE_PLACEHOLDER>[2]",
                      "Explains the micro-damage from eccentric exercise that starts the process."),
                piece(10, "Why the delay? The soreness comes less from the damage itself than from the body's "
                          "repair response. Over the following hours, the damaged area draws in fluid and immune "
                          "cells, first neutrophils and then macrophages, which clear debris and start rebuilding. "
                          "Along the way, chemical signals are released that sensitise the nerve endings in and "
                          "around the muscle, so ordinary stretching and pressure start to register as pain. Because "
                          "this clean-up and rebuilding takes a day or two to ramp up, the soreness builds and peaks "
                          "well after you have left the gym.",
                      "Directly explains why the pain is delayed: the inflammatory repair response and nerve sensitisation."),
                piece(9, "The lactic acid myth. Many people still blame lactic acid 'building up' in the muscles. "
                         "Lactate does rise during hard exercise, but it is cleared from the blood within about an "
                         "hour of stopping, and the body reuses much of it as fuel. It is long gone by the time DOMS "
                         "peaks, so it cannot explain soreness two days later.",
                      "Corrects a common misconception relevant to the question."),
                piece(7, "When to see a professional: ordinary DOMS is uncomfortable but harmless. Seek medical "
                         "advice if pain is severe or sharp, a limb is badly swollen, soreness lasts more than a "
                         "week, or your urine turns dark brown after extreme exercise; this can signal "
                         "rhabdomyolysis, a rare but serious breakdown of muscle tissue.",
                      "Safety guidance; useful but secondary."),
                piece(2, "Book an assessment with one of our physiotherapists today. Same-week appointments "
                         "available. Call 555-0147 or book online.",
                      "Clinic booking promotion; irrelevant."),
            ],
            images={
                1: image(draw_doms_timeline, "png", 10,
                         "A line chart titled 'Typical DOMS time course (illustrative)' with time after the workout "
                         "from 0 to 168 hours (day 0 to day 7) on the x-axis and soreness from 0 to 10 on the y-axis. "
                         "A crimson curve stays near zero for the first hours, rises steeply after about 12 hours, "
                         "peaks at about 8 around 48 hours inside a shaded band labelled 'peak: 24-72 h', and tails "
                         "off to near zero by day 5-7. Annotations read 'starts after 12-24 h' and 'fades by day "
                         "5-7', matching the timeline in the text.",
                         "https://riverside-sportsmed.example/wp-content/uploads/doms-timecourse.png"),
                2: image(draw_muscle_fibre, "png", 9,
                         "An annotated schematic titled 'Eccentric exercise leaves micro-damage in muscle fibres'. On "
                         "the left a pink oval muscle made of parallel fibres has a small square zoomed out to an "
                         "enlarged striped fibre on the right. In the enlarged fibre some dark vertical Z-lines are "
                         "straight while two are jagged ('jagged = disrupted Z-lines'), red zig-zags mark micro-tears, "
                         "and purple dots around the fibre are labelled 'immune cells arrive over hours to days'. A "
                         "note says 'Little pain at first: soreness follows the repair process 1-3 days later'.",
                         "https://riverside-sportsmed.example/wp-content/uploads/fibre-microdamage.png"),
            }),
        dict(
            title="Sore After Training? 7 DOMS Questions Our Clients Always Ask — IronWill Coaching",
            url=COACH,
            snippet="Is soreness a sign of a good workout? Why do squats and downhill runs hurt the most? Why does it "
                    "get easier the second time? Straight answers from our coaches.",
            pieces=[
                piece(2, "IronWill Coaching · Programs · Coaches · Success Stories · FAQ · Start Free Trial",
                      "Site navigation."),
                piece(8, "Q: Is being sore a sign that I had a good workout?\nA: Not really. Soreness mostly tells "
                         "you that you did something your muscles aren't used to: a new exercise, more volume, or a "
                         "lot of lowering under control. Well-trained lifters can have excellent sessions and feel "
                         "almost nothing the next day. Chasing soreness is a poor way to measure progress; tracking "
                         "your weights, reps and recovery is better.",
                      "Clarifies what soreness does and doesn't mean; relevant context."),
                piece(9, "Q: Why do some exercises make me way sorer than others?\nA: The lowering part of a "
                         "movement is the culprit. When you lower into a squat, lower a dumbbell in a curl, or run "
                         "downhill, your muscles are working while being stretched. This 'eccentric' work generates "
                         "high force in relatively few fibres and creates more microscopic damage than lifting or "
                         "running on the flat. That's why a hilly hike can leave your thighs wrecked for days while a "
                         "flat bike ride of the same length doesn't.",
                      "Explains eccentric exercise as the main trigger of delayed soreness."),
                piece(9, "Q: Why is it so much easier the second time?\nA: This is called the repeated bout effect. "
                         "After one session of an unfamiliar exercise, your muscles, connective tissue and nervous "
                         "system adapt quickly, so the same workout a week or two later causes much less damage and "
                         "much less soreness. The protection lasts for weeks. <IMAGE_PLACEHOLDER>[1]",
                      "Explains the repeated bout effect, which supports the damage-and-repair explanation."),
                piece(8, "Q: What actually helps?\nA: Time is the main cure: DOMS goes away on its own within about "
                         "a week. Gentle movement such as walking, easy cycling or a light version of the workout "
                         "tends to ease the stiffness for a while. Good sleep and enough protein support repair, and "
                         "massage may take the edge off. Stretching before or after exercise does little for "
                         "next-day soreness, and painkillers only mask it.",
                      "Practical relief advice; useful follow-up."),
                piece(6, "Q: Should I train through it?\nA: Mild soreness is fine to train through, especially for "
                         "different muscle groups. If you're so sore that your technique changes, pick an easier "
                         "session or rest that body part; moving badly under load is how injuries happen.",
                      "Training advice; somewhat relevant."),
                piece(1, "<IMAGE_PLACEHOLDER>[2] New Year, New Strength: our 12-week coached program is 20% off this "
                         "month with code SORE20. Spaces are limited!",
                      "Promotional offer; irrelevant."),
            ],
            images={
                1: image(draw_repeated_bout, "webp", 8,
                         "A bar chart titled 'Repeated bout effect (illustrative)' comparing peak soreness on day 2 "
                         "(0-10 scale) after the same downhill-running workout: a tall orange bar for 'First session' "
                         "at 7.0 and a short teal bar for 'Same session 2 weeks later' at 2.5. A footnote reads 'Same "
                         "downhill-running workout, same person', illustrating that repeating an unfamiliar workout "
                         "causes far less soreness.",
                         "https://ironwill-coaching.example/media/faq/repeated-bout.webp"),
                2: image(draw_coaching_promo, "jpeg", 2,
                         "A promotional banner with a bold red background and a white dumbbell icon, the headline "
                         "'New Year, New Strength', the line '20% off 12-week coaching · code SORE20' and a 'Join "
                         "now' button, marked 'Sponsored'. It advertises a coaching program and does not explain "
                         "muscle soreness.",
                         "https://ironwill-coaching.example/media/promos/new-year-sore20.jpg"),
            }),
        dict(
            title="The Two-Day Ache: Inside Your Body's Overnight Repair Crew — Daily Pulse",
            url=PULSE,
            snippet="You felt fine at the end of the hike, then woke up two days later unable to sit down. Here's "
                    "the slow-motion repair process behind delayed muscle soreness.",
            pieces=[
                piece(6, "You felt great at the end of Saturday's long hill hike. Sunday was a little stiff. By "
                         "Monday morning, getting out of a chair required a strategy, and walking downstairs was "
                         "worse. If that sounds familiar, you have met delayed onset muscle soreness, and its strange "
                         "timing is the clue to what causes it. <IMAGE_PLACEHOLDER>[1]",
                      "Relatable introduction describing the delayed pattern; sets up the explanation."),
                piece(9, "Think of a hard, unfamiliar workout as a storm that knocks a few tiles off a roof. The "
                         "storm itself is over quickly, and from the street everything looks fine. The noise and "
                         "disruption come later, when the repair crew arrives, cordons off the area and starts "
                         "hauling out debris. In your muscles, the 'storm' is tiny structural damage to fibres and "
                         "the connective tissue around them, and the 'repair crew' is your immune system.",
                      "Helpful analogy for why pain follows the damage with a delay."),
                piece(9, "The crew works on its own schedule. Within hours, white blood cells called neutrophils "
                         "start to gather; over the next day or two, macrophages move in to clear damaged material "
                         "and release growth signals for rebuilding. The area becomes slightly swollen. Chemical "
                         "messengers produced along the way (researchers point to substances such as bradykinin and "
                         "nerve growth factor) make pain-sensing nerve endings more sensitive, so stretching or "
                         "pressing the muscle now hurts. That slow build-up is why the ache arrives late and peaks a "
                         "day or two after exercise.",
                      "Explains the timing of the immune response and nerve sensitisation; directly answers the question."),
                piece(7, "The good news: this is how muscles become more robust. The repair leaves fibres and "
                         "connective tissue better prepared for the same stress, which is why your second big hike of "
                         "the month will hurt far less than the first.",
                      "Adaptation after repair; supporting point."),
                piece(1, "Trending on Daily Pulse: 12 celebrity smoothie recipes · Is your horoscope affecting your "
                         "sleep? · The one kitchen gadget doctors swear by",
                      "Clickbait links; irrelevant."),
                piece(0, "Comments are closed for this article.",
                      "No content."),
            ],
            images={
                1: image(draw_hill_hiker, "jpeg", 5,
                         "A flat-colour illustration of a hiker with a red backpack and a walking stick, drawn as a "
                         "dark silhouette, heading down a steep green grassy slope under a pale sky with a low yellow "
                         "sun. It sets the scene of a downhill hike, the kind of eccentric exercise that causes "
                         "soreness, but contains no information about how soreness develops.",
                         "https://dailypulse-health.example/images/2024/hill-hike-illustration.jpg"),
            }),
    ],
    aux_images=[
        image(draw_repair_cycle, "png", 8,
              "A cycle diagram titled 'Why soreness comes late' with four boxes joined by arrows: '1. Unfamiliar or "
              "eccentric exercise' leads to '2. Micro-damage in fibres (0 h: little pain yet)', then to '3. "
              "Inflammation + nerve sensitisation (12-72 h): SORENESS', then to '4. Repair and adaptation (3-7 "
              "days)'; a green arrow back to the start is labelled 'stronger next time (repeated bout effect)'. It "
              "summarises why the pain arrives a day or two after the workout.",
              "https://dailypulse-health.example/images/2024/soreness-cycle.png", PULSE),
        image(draw_protein_ad, "png", 1,
              "A product advert on a black background showing a cartoon tub labelled 'MAX WHEY 2 kg' next to the "
              "words 'Recover faster!', 'Buy 2, get 1 FREE' and 'Chocolate · Vanilla · Strawberry'. It is marketing "
              "material with no explanation of muscle soreness.",
              "https://ads.ironwill-coaching.example/creative/max-whey-offer.png", COACH),
    ],
)

NEURO = "https://neuro-basics.example/articles/caffeine-and-adenosine"
SLOW = "https://slowmornings.example/posts/30-days-without-coffee"
MINI_04 = dict(
    query_id="mini-04",
    content="How does caffeine keep you awake, and why does my morning coffee seem to stop working after a few weeks?",
    topic="Health",
    level=1,
    webpages=[
        dict(
            title="Caffeine and the Brain: Blocking the Sleepiness Signal | Neuro Basics",
            url=NEURO,
            snippet="Caffeine works by blocking adenosine receptors. With regular use the brain adds more receptors, "
                    "which is why tolerance and withdrawal headaches develop.",
            pieces=[
                piece(2, "Neuro Basics › Articles › Drugs & the Brain | Glossary | Quizzes | About the authors",
                      "Breadcrumb and navigation."),
                piece(10, "Why do we get sleepy? Part of the answer is a molecule called adenosine. Your brain cells "
                          "burn energy all day, and adenosine builds up as a by-product. Adenosine fits into "
                          "adenosine receptors on neurons like a key in a lock, and when it binds it slows those "
                          "neurons down. The longer you are awake, the more adenosine accumulates and the stronger "
                          "this 'sleep pressure' becomes. Sleep clears it, which is why you wake up refreshed. "
                          "<IMAGE_PLACEHOLDER>[1]",
                      "Explains adenosine and sleep pressure, the basis of how caffeine works."),
                piece(10, "Caffeine is a near look-alike of adenosine. It slots into the same receptors but doesn't "
                          "switch them on; it just sits there, blocking the lock so adenosine can't get in. The "
                          "adenosine is still there, but its 'slow down' message isn't received, so you feel more "
                          "alert. In other words, caffeine doesn't give you energy; it hides your tiredness. When it "
                          "wears off, the adenosine that was waiting can bind again, which is part of why people "
                          "often feel a slump later in the day.",
                      "Directly explains how caffeine keeps you awake: receptor blocking."),
                piece(7, "With the brakes partly off, other systems speed up: neurons fire more, the adrenal glands "
                         "release more adrenaline, and dopamine signalling in reward areas gets a small boost. That "
                         "explains the faster heartbeat, the jitters at high doses and part of why coffee feels "
                         "pleasant.",
                      "Secondary effects of caffeine; related detail."),
                piece(10, "Why it stops working: the brain adapts. When caffeine blocks receptors day after day, "
                          "neurons respond by making extra adenosine receptors. With more locks available, the usual "
                          "dose blocks a smaller share of them, so the same cup has less effect. This is tolerance, "
                          "and it can develop within a week or two of daily use. It also means that without "
                          "caffeine, all those extra receptors catch plenty of adenosine, and you feel more tired "
                          "than someone who never drinks coffee. Your morning coffee ends up mostly bringing you back "
                          "to normal.",
                      "Directly explains tolerance through receptor up-regulation: the second half of the question."),
                piece(8, "Withdrawal. If a regular user suddenly stops, symptoms usually begin 12 to 24 hours later: "
                         "headache, tiredness, low mood and difficulty concentrating. They peak after a day or two "
                         "and typically fade within about a week as receptor numbers return to normal. Cutting down "
                         "gradually avoids most of this.",
                      "Withdrawal timeline; follows from the tolerance mechanism."),
                piece(1, "© Neuro Basics. Content is for educational purposes only. Cite this page · Report an error "
                         "· Back to top",
                      "Footer; no content."),
            ],
            images={
                1: image(draw_adenosine_receptor, "png", 10,
                         "A three-panel schematic of green cup-shaped adenosine receptors on a beige neuron membrane. "
                         "Panel '1. Awake all day' shows blue circles (adenosine) sitting in all three receptors, "
                         "labelled 'adenosine fills receptors -> neuron slows -> sleepy'. Panel '2. After a coffee' "
                         "shows brown hexagons (caffeine) in the receptors while adenosine floats outside, labelled "
                         "'caffeine blocks receptors -> signal hidden -> alert'. Panel '3. Daily coffee for weeks' "
                         "shows six receptors, half filled by caffeine and half by adenosine, labelled 'brain adds "
                         "receptors: same dose blocks fewer -> tolerance'. A legend identifies adenosine, caffeine "
                         "and the receptor.",
                         "https://neuro-basics.example/figures/caffeine-adenosine-receptors.png"),
            }),
        dict(
            title="How Long Does Caffeine Last? Half-Life, Bedtime Cut-Offs and Daily Limits — WellWise",
            url="https://wellwise.example/nutrition/how-long-does-caffeine-last",
            snippet="Caffeine's half-life averages about 5 hours in healthy adults, so an afternoon coffee can still "
                    "affect your sleep. Plus: how much caffeine is in common drinks.",
            pieces=[
                piece(0, "Sign up for WellWise Weekly: evidence-based nutrition tips every Tuesday. [Email address] "
                         "[Subscribe] No spam, unsubscribe anytime.",
                      "Newsletter sign-up; no content."),
                piece(8, "Caffeine is absorbed quickly: levels in the blood peak around 30 to 60 minutes after a "
                         "drink, which is when you feel the strongest effect. Your liver then breaks it down. "
                         "Scientists describe the speed with the half-life, the time it takes for half of the "
                         "caffeine to be cleared. In healthy adults it averages about five hours, though it ranges "
                         "from roughly two to ten hours between people. Smoking speeds it up, while pregnancy and "
                         "some medicines slow it down considerably.",
                      "How long caffeine acts; explains the half-life."),
                piece(9, "That long tail matters for sleep. Say you drink a coffee with 95 mg of caffeine at 8 am: "
                         "by 11 pm, fifteen hours or three half-lives later, about 12 mg remains. Drink the same "
                         "coffee at 4 pm and about 36 mg is still in your system at 11 pm, more than a third of the "
                         "dose. Even when you can fall asleep, evening caffeine tends to make sleep lighter, and "
                         "poor sleep leaves more sleep pressure for the next morning's coffee to fight. Many sleep "
                         "experts suggest stopping caffeine at least six to eight hours before bed. "
                         "<IMAGE_PLACEHOLDER>[1]",
                      "Worked example of caffeine remaining at bedtime; relevant to why coffee seems to work less."),
                piece(8, "How much is too much? For most healthy adults, up to about 400 mg of caffeine a day is "
                         "generally considered safe, roughly four cups of brewed coffee. Pregnant people are usually "
                         "advised to stay under 200 mg. The amount varies widely between drinks, and a large "
                         "coffee-shop brew can contain far more than a home-made cup. <IMAGE_PLACEHOLDER>[2]",
                      "Daily limits and doses; useful context."),
                piece(5, "Hidden sources: chocolate, some pain relievers, pre-workout powders and even 'decaf' coffee "
                         "(which still has a few milligrams per cup) all add to the daily total.",
                      "Other caffeine sources; loosely relevant."),
                piece(2, "Related: 10 foods that help you sleep · Is sparkling water bad for your teeth? · Our "
                         "editorial standards",
                      "Related links; no content."),
            ],
            images={
                1: image(draw_caffeine_decay, "png", 9,
                         "A line chart titled 'Caffeine left in your body (95 mg coffee, 5 h half-life)' with time of "
                         "day from 6am to after midnight on the x-axis and caffeine remaining in mg on the y-axis. "
                         "A blue curve for 'coffee at 8am' jumps to 95 mg and decays to 12 mg by 11 pm; an orange "
                         "curve for 'coffee at 4pm' jumps to 95 mg at 4 pm and is still at 36 mg at a dashed line "
                         "labelled 'bedtime 11pm'. Absorption is simplified as instant. It shows why late coffee "
                         "lingers at bedtime.",
                         "https://wellwise.example/images/caffeine-half-life-chart.png"),
                2: image(draw_caffeine_drinks, "webp", 8,
                         "A horizontal bar chart titled 'Typical caffeine per serving', in shades of brown: brewed "
                         "coffee 240 ml 95 mg, energy drink 250 ml 80 mg, espresso 30 ml 63 mg, black tea 240 ml "
                         "47 mg, cola 355 ml 34 mg and green tea 240 ml 28 mg. A footnote reads 'Common guideline: "
                         "up to about 400 mg a day for most healthy adults', matching the article's section on "
                         "daily limits.",
                         "https://wellwise.example/images/caffeine-per-drink.webp"),
            }),
        dict(
            title="I Quit Coffee for 30 Days. Here's What Happened to My Energy — Slow Mornings",
            url=SLOW,
            snippet="Day two: the worst headache of my life. Week three: I woke up before my alarm. A personal "
                    "account of caffeine withdrawal and resetting tolerance.",
            pieces=[
                piece(5, "<IMAGE_PLACEHOLDER>[2] By Maya · 9 min read\nI used to need three cups before I felt "
                         "human. The first one barely made a dent any more, and by mid-afternoon I was reaching for "
                         "a fourth. So, half as an experiment and half out of stubbornness, I stopped completely for "
                         "a month.",
                      "Personal introduction describing tolerance in practice; some relevance."),
                piece(8, "Days 1-3 were rough. About a day after my last cup I had a dull, pounding headache that "
                         "painkillers only half fixed, plus the kind of brain fog where you reread the same email "
                         "four times. My GP later explained that my brain had built extra receptors for adenosine, "
                         "the 'tiredness' chemical, to compensate for all the caffeine, so without it I was feeling "
                         "the full force of my own sleepiness.",
                      "First-hand withdrawal account with the receptor explanation."),
                piece(8, "By the end of week one the headache was gone. In weeks two and three something surprising "
                         "happened: my mornings got easier. I wasn't bouncing off the walls, but I didn't feel like a "
                         "zombie at 7 am either. I think that was my tolerance resetting as my brain wound back "
                         "those extra receptors.",
                      "Describes tolerance resetting after quitting; supports the answer."),
                piece(7, "If you want to try it, learn from my mistakes and taper. Cut your intake by about a "
                         "quarter every three or four days (swap one coffee for half-caf, then for tea) and you'll "
                         "skip most of the withdrawal. And when you do go back, one cup a day with the odd "
                         "caffeine-free day keeps the effect from fading.",
                      "Practical advice for managing tolerance."),
                piece(1, "<IMAGE_PLACEHOLDER>[1] P.S. So many of you asked about the mug in my photos: it's the "
                         "hand-thrown stoneware one from my friend's shop, link in my bio!",
                      "Product mention; irrelevant."),
                piece(2, "42 comments · 'Day 2 was the WORST for me too!' · 'Did you try green tea instead?' · Load "
                         "more",
                      "Comment previews; no substance."),
            ],
            images={
                1: image(draw_coffee_mug, "jpeg", 3,
                         "A stylised still life of a white mug of black coffee with three wavy lines of steam, "
                         "standing on a wooden table against a soft beige background. It is a decorative blog photo "
                         "and does not explain how caffeine or tolerance works.",
                         "https://slowmornings.example/uploads/mug-on-table.jpg"),
                2: image(draw_author_avatar, "png", None, None,
                         "https://slowmornings.example/uploads/avatar-maya.png"),
            }),
    ],
    aux_images=[
        image(draw_withdrawal_timeline, "png", 7,
              "A timeline chart titled 'After stopping caffeine: a typical timeline' with days 0 to 9 on the x-axis. "
              "A red bar for 'headache, tiredness, poor focus' starts just before day 1, is darkest over days 1-2 "
              "(labelled 'peak') and fades out by about day 8; a teal bar for 'tolerance resetting (receptors back "
              "to normal)' fades across the whole period. Notes read 'starts 12-24 h after the last cup' and "
              "'mostly gone after about a week'.",
              "https://slowmornings.example/uploads/withdrawal-timeline.png", SLOW),
        image(draw_cafe_logo, "gif", 2,
              "A round coffee-shop logo: a dark brown ring around a cream disc containing a brown coffee bean, with "
              "the words 'BEANTOWN', 'ROASTERS' and 'EST. 2011'. It is a brand logo and gives no information about "
              "caffeine's effects.",
              "https://beantown-roasters.example/img/logo.gif", NEURO),
    ],
)

DOCS = "https://webcraft-docs.example/guides/from-url-to-pixels"
SPEEDY = "https://speedyhost.example/blog/where-the-milliseconds-go"
MINI_05 = dict(
    query_id="mini-05",
    content="What actually happens between typing a website address into my browser and seeing the page?",
    topic="Computers & Internet",
    level=2,
    webpages=[
        dict(
            title="From URL to Pixels: What Your Browser Does When You Press Enter — WebCraft Docs",
            url=DOCS,
            snippet="A step-by-step walkthrough: URL parsing, DNS lookup, TCP and TLS handshakes, the HTTP request "
                    "and response, and how the browser renders HTML, CSS and JavaScript.",
            pieces=[
                piece(8, "Typing an address and pressing Enter sets off a chain of steps that usually finishes in "
                         "well under a second. This guide follows one request, https://www.example.org/recipes, from "
                         "the address bar to the finished page.\n\nStep 1: Parse the address. The browser first "
                         "decides whether you typed a web address or a search term. If it is an address, it splits it "
                         "into parts: the scheme (https, meaning 'HTTP over an encrypted connection'), the host name "
                         "(www.example.org) and the path (/recipes). It also checks its cache in case it already has "
                         "a fresh copy of the page.",
                      "Introduces the sequence and covers URL parsing; relevant first step."),
                piece(10, "Step 2: Find the server's IP address (DNS). Computers on the internet are reached by "
                          "numeric IP addresses, not names, so the browser must translate the host name. It checks "
                          "its own cache, then the operating system's, and then asks a DNS resolver, usually run by "
                          "your internet provider or a public service. If the resolver doesn't know the answer, it "
                          "asks a root server which servers handle .org, then asks a .org server which servers "
                          "handle example.org, and finally asks example.org's authoritative server, which replies "
                          "with the IP address. Each answer is cached for a while, so later visits skip these steps. "
                          "<IMAGE_PLACEHOLDER>[1]",
                      "Explains DNS resolution step by step; a core part of the answer."),
                piece(10, "Step 3: Connect (TCP and TLS). With the IP address in hand, the browser opens a TCP "
                          "connection to the server, usually on port 443 for HTTPS, using a three-way handshake: SYN, "
                          "SYN-ACK, ACK. It then performs a TLS handshake: the server presents a certificate proving "
                          "it really is www.example.org, and the two sides agree on encryption keys. From then on "
                          "everything sent is encrypted, which is what the padlock icon means. "
                          "<IMAGE_PLACEHOLDER>[2]",
                      "Explains connection set-up and encryption; core step."),
                piece(9, "Step 4: Request and response (HTTP). The browser sends an HTTP request such as GET "
                         "/recipes, together with headers describing the languages and formats it accepts and any "
                         "cookies it holds for the site. The server, often after running application code and "
                         "querying a database, replies with a status code (200 OK, 301 for a redirect, 404 if nothing "
                         "is there) and the HTML of the page.",
                      "Explains the HTTP request/response; core step."),
                piece(9, "Step 5: Render. The browser parses the HTML into a tree of elements called the DOM. As it "
                         "reads, it finds links to stylesheets, scripts, images and fonts, and requests those too, "
                         "often in parallel. CSS is combined with the DOM to work out the style of every element, "
                         "layout computes where everything goes and how big it is, and paint draws the pixels. "
                         "JavaScript can change the page at any point, triggering more layout and painting. The page "
                         "appears progressively, which is why text often shows up before images.",
                      "Explains rendering, the final step that produces the visible page."),
                piece(1, "Was this page helpful? [Yes] [No] · Edit this page · Last updated by the WebCraft docs team",
                      "Feedback widget; no content."),
            ],
            images={
                1: image(draw_dns_lookup, "png", 10,
                         "A diagram titled 'DNS lookup: finding the IP address of www.example.org'. A laptop "
                         "labelled 'Your browser (+ OS cache)' sends '1. where is www.example.org?' to a tall yellow "
                         "'DNS resolver' box (noted 'caches answers for next time'). The resolver asks three servers "
                         "in turn with blue question arrows and gets green answers: the 'Root server' replies 'ask "
                         "the .org servers', the '.org TLD server' replies 'ask example.org's server', and the "
                         "'example.org authoritative server' replies 'IP is 203.0.113.10'; finally '5. 203.0.113.10' "
                         "returns to the browser. It visualises the resolution chain described in Step 2.",
                         "https://webcraft-docs.example/assets/guides/dns-lookup.png"),
                2: image(draw_handshake_sequence, "png", 10,
                         "A sequence diagram titled 'Before the page arrives: TCP, TLS, then HTTP' with two dashed "
                         "vertical lifelines, 'Browser' and 'Server :443', and time running downwards. Arrows "
                         "between them show, in order, a blue 'TCP handshake' (SYN, SYN-ACK, ACK), a purple 'TLS "
                         "handshake' (ClientHello, ServerHello + certificate, key exchange, Finished) and a green "
                         "'HTTP request' (GET /recipes, 200 OK + HTML), each group marked with a coloured bracket. "
                         "It shows the round trips needed before the HTML arrives.",
                         "https://webcraft-docs.example/assets/guides/handshake-sequence.png"),
            }),
        dict(
            title="ELI5: What actually happens when I type a website address and press enter? : askaround",
            url="https://askaround.example/t/what-happens-when-you-type-a-url/77120",
            snippet="Think of it like ordering a cake from a bakery you've never visited: look up the address, "
                    "call ahead, agree a secret code, place the order, then assemble the pieces.",
            pieces=[
                piece(1, "Sponsored · <IMAGE_PLACEHOLDER>[1] HostNova: blazing-fast web hosting from $1.99/month. "
                         "Free domain for the first year!",
                      "Sponsored advert; irrelevant."),
                piece(6, "Posted by u/curious_cat_88 · Explain Like I'm Five\nELI5: What actually happens when I "
                         "type a website address and press enter? Like physically, where does the page come from, "
                         "and why does it sometimes take ages?",
                      "Restates the question; context only."),
                piece(10, "u/packet_wrangler · Top answer · 5.1k points\nPretend you want to order a cake from a "
                          "bakery, but you only know its name. First you look the name up in a phone book to get its "
                          "street address: that's DNS, turning a name like 'sweetcakes' into a number computers can "
                          "find. Then you phone the bakery and do a quick 'hello, can you hear me? yes, can you hear "
                          "me?' check: that's the TCP handshake. Because you don't want anyone listening in, you and "
                          "the bakery agree on a secret code, and the bakery shows you an ID card proving it really "
                          "is the bakery: that's TLS, the padlock in your browser.",
                      "Clear ELI5 analogy for DNS, TCP and TLS; highly relevant."),
                piece(10, "Now you place your order, 'one chocolate cake, please': that's the HTTP request. The "
                          "bakery sends back a box, which is the HTML. But the box is like flat-pack furniture: "
                          "inside is a list saying 'you also need the frosting from shelf 3 and the candles from "
                          "shelf 7' (the CSS, images and scripts), so you send more orders for those. Finally you "
                          "follow the instructions and put it all together on the table: that's your browser "
                          "rendering the page. It's slow if the bakery is far away or busy, or if the instructions ask "
                          "for a hundred extra parts.",
                      "Completes the analogy with HTTP, sub-resources and rendering; directly answers the question."),
                piece(8, "u/dns_enjoyer · 1.2k points\nWorth adding: your computer remembers the phone-book answers "
                         "for a while (DNS caching), and your browser keeps copies of parts it already has (the "
                         "browser cache). That's why a site you visit every day loads faster than a brand-new one.",
                      "Adds caching, which explains why repeat visits are faster."),
                piece(2, "u/modbot · Rule reminder: top-level comments must attempt an explanation. Jokes and "
                         "anecdotes will be removed.",
                      "Moderator notice; no content."),
            ],
            images={
                1: image(draw_hosting_banner, "gif", 1,
                         "A web banner advert on a deep purple background with a yellow stacked-server icon, the "
                         "headline 'HostNova web hosting', the line 'From $1.99/mo · Free domain for the first "
                         "year!' and a yellow 'Get started' button, marked 'Sponsored'. It is an advert and contains "
                         "no information about how browsers load pages.",
                         "https://ads.askaround.example/creative/hostnova-728.gif"),
            }),
        dict(
            title="Where Do the Milliseconds Go? Anatomy of a Page Load — SpeedyHost Blog",
            url=SPEEDY,
            snippet="Round trips, not bandwidth, dominate most page loads. We break a typical first visit into DNS, "
                    "connection, server time, downloads and rendering.",
            pieces=[
                piece(8, "When customers ask why their site feels slow, we start by breaking a page load into "
                         "phases. On a first visit the browser pays a set-up cost before a single byte of HTML "
                         "arrives: a DNS lookup, a TCP handshake and a TLS handshake, each needing at least one round "
                         "trip across the network. If the server is 100 milliseconds away, that can easily be 300 ms "
                         "spent just saying hello.",
                      "Explains the set-up phases and their cost in round trips."),
                piece(8, "Next comes 'time to first byte': the server has to run code, query a database and "
                         "assemble the HTML. Then the real weight arrives. Modern pages pull in dozens of "
                         "stylesheets, scripts, fonts and images, often from several different servers, each of "
                         "which may need its own DNS lookup and connection. Finally the browser has to parse, lay out "
                         "and paint everything, and heavy JavaScript can keep it busy long after the network is "
                         "idle. <IMAGE_PLACEHOLDER>[1]",
                      "Covers server time, sub-resources and rendering with a breakdown chart."),
                piece(7, "What speeds things up? Caching at every level: DNS answers are cached, browsers keep "
                         "copies of files they have already downloaded, and content delivery networks (CDNs) keep "
                         "copies of your site on servers close to visitors, cutting the round-trip time. Newer "
                         "protocols help too: HTTP/2 and HTTP/3 let many files share one connection, and TLS 1.3 "
                         "needs fewer round trips to set up encryption.",
                      "Explains caching and protocol improvements; related."),
                piece(5, "Quick checklist for site owners: compress images and serve modern formats, defer "
                         "non-critical JavaScript, use a CDN, and keep the number of third-party domains small. Test "
                         "from a phone on a mobile network, not just from your office connection.",
                      "Optimisation checklist for site owners; loosely related."),
                piece(2, "Switch to SpeedyHost and get 3 months free on any annual plan. Migration is on us: our team "
                         "moves your site with zero downtime.",
                      "Hosting promotion; irrelevant."),
            ],
            images={
                1: image(draw_pageload_pie, "webp", 7,
                         "A pie chart titled 'Where the time goes: a first page load (illustrative)' with six slices "
                         "and a matching legend: DNS lookup 5%, TCP + TLS connection 15%, server think time (TTFB) "
                         "20%, HTML download 5%, CSS, JS, images, fonts 35%, and parse, layout & paint 20%. It shows "
                         "that a page load is spread across several phases, as the article describes.",
                         "https://speedyhost.example/blog/img/pageload-breakdown.webp"),
            }),
    ],
    aux_images=[
        image(draw_browser_mockup, "png", 7,
              "A simplified browser window with a tab titled 'Recipes - Example' and an address bar showing a green "
              "padlock followed by 'https://www.example.org/recipes'. Callout lines link each part to a step: the "
              "padlock to 'TLS encryption', 'https://' to 'scheme: HTTPS', 'www.example.org' to 'host name: looked "
              "up via DNS' and '/recipes' to 'path: sent in the HTTP GET'. It maps the typed address onto the steps "
              "that use it.",
              "https://webcraft-docs.example/assets/guides/address-bar-anatomy.png", DOCS),
        image(draw_network_pattern, "jpeg", 3,
              "An abstract decorative graphic of glowing light-blue dots joined by thin lines on a dark blue "
              "gradient, the kind of stock image used to suggest 'networks' or 'the cloud'. It has no labels and "
              "does not explain any step of loading a web page.",
              "https://speedyhost.example/blog/img/hero-network.jpg", SPEEDY),
    ],
)

SECNOTES = "https://secnotes.example/posts/password-storage-101"
EVERYDAY = "https://everydaytech.example/help/how-websites-store-passwords"
MINI_06 = dict(
    query_id="mini-06",
    content="How do websites store my password safely, and what do people mean when they say passwords should be "
            "'hashed and salted'?",
    topic="Computers & Internet",
    level=2,
    webpages=[
        dict(
            title="Password Storage 101: Hashing, Salting and Why Slow Is Good — SecNotes",
            url=SECNOTES,
            snippet="Well-run sites never store your password. They store a salted, deliberately slow hash. Here's "
                    "what that means and why it protects you after a breach.",
            pieces=[
                piece(8, "Databases leak. Servers get misconfigured, backups end up in the wrong place, attackers "
                         "get in. A well-designed login system assumes that one day its user table will be stolen, "
                         "and makes sure that even then the attacker doesn't simply get everybody's passwords. The "
                         "first rule follows directly: never store the password itself, not even encrypted with a key "
                         "that sits on the same server.",
                      "Motivates why passwords must not be stored directly."),
                piece(10, "Instead, sites store a hash. A cryptographic hash function takes any input and produces a "
                          "fixed-length 'fingerprint'. It is one-way: easy to compute from the password, but there "
                          "is no practical way to run it backwards. The same input always gives the same output, and "
                          "changing a single character produces a completely different result. When you log in, the "
                          "site hashes what you typed and compares it with the stored hash. If they match, the "
                          "password was right, without the site ever needing to keep the password. "
                          "<IMAGE_PLACEHOLDER>[1]",
                      "Defines hashing and how login checks work; core of the answer."),
                piece(9, "Plain hashing isn't enough, though. Because the same password always gives the same hash, "
                         "attackers precompute huge lookup tables (including so-called rainbow tables) of hashes for "
                         "common passwords and simply look up stolen hashes. Worse, every user who chose 'sunshine1' "
                         "has an identical hash, so cracking one cracks them all, and the attacker can see at a "
                         "glance which passwords are popular.",
                      "Explains the weakness that salting fixes."),
                piece(10, "That's where the salt comes in. A salt is a random value, generated fresh for each user "
                          "when they set their password, and mixed into the password before hashing. The salt is "
                          "stored right next to the hash; it isn't secret. Its job is to make every hash unique: two "
                          "users with the same password end up with completely different hashes, and precomputed "
                          "tables become useless because the attacker would need a separate table for every "
                          "possible salt. They are forced to attack each account one at a time. "
                          "<IMAGE_PLACEHOLDER>[2]",
                      "Defines salting and why it helps; directly answers the question."),
                piece(10, "Finally, use a slow hash. General-purpose hashes like SHA-256 are designed to be fast, and "
                          "a graphics card can test billions of guesses per second against them. Password hashing "
                          "functions such as bcrypt, scrypt and Argon2 are deliberately expensive, with a tunable "
                          "'cost' setting, so that each guess takes a noticeable amount of work. A user logging in "
                          "once never notices, but an attacker trying billions of guesses is slowed down by a factor "
                          "of many thousands or more. Argon2 and scrypt also demand lots of memory, which blunts the "
                          "advantage of specialised cracking hardware.",
                      "Explains slow password hashes, the third ingredient of safe storage."),
                piece(0, "Get new posts by email. We send about one a month. [you@example.com] [Subscribe]",
                      "Newsletter sign-up; no content."),
                piece(2, "Tags: security, authentication, web development · Previous: Why your API keys don't belong "
                         "in Git · Next: TOTP vs SMS codes",
                      "Tags and navigation; no content."),
            ],
            images={
                1: image(draw_hash_flow, "png", 10,
                         "A flow diagram titled 'How a site stores a password: salt + slow hash'. A pink box "
                         "'Password you typed: sunshine1' and a green box 'Salt (random, per user): q7Lp2xVr' both "
                         "feed arrows into a yellow box 'Slow hash function (bcrypt / scrypt / Argon2)', which "
                         "outputs to a blue box 'Stored hash' showing a string of hex characters. A dashed red arrow "
                         "from the hash back to the password is crossed out with the label 'one-way: the hash cannot "
                         "be turned back into the password'; notes say the database keeps only the salt and the hash "
                         "and that at login the typed password plus stored salt is hashed and compared.",
                         "https://secnotes.example/img/password-storage/salt-hash-flow.png"),
                2: image(draw_salt_table, "png", 9,
                         "A mock database table titled 'Same password, different salts, different hashes' with "
                         "columns 'username', 'salt' and 'password hash (first 32 hex characters)'. Users alice and "
                         "bob both chose 'sunshine1' but have different salts (q7Lp2xVr, Z9m4TcKe) and completely "
                         "different hash values, highlighted in yellow; a third user, carol, has her own salt and "
                         "hash. Notes explain that an attacker cannot spot the shared password or use a precomputed "
                         "lookup table.",
                         "https://secnotes.example/img/password-storage/salted-table.png"),
            }),
        dict(
            title="Is My Password Safe? How Websites Store Passwords, Explained — EverydayTech Help",
            url=EVERYDAY,
            snippet="Can the site see my password? Why can't they email it to me? Why does length matter so much? "
                    "Plain-English answers to common password questions.",
            pieces=[
                piece(2, "EverydayTech Help Centre › Security & Privacy › Passwords",
                      "Breadcrumb; no content."),
                piece(8, "Can the website see my password?\nOn a well-built site, nobody at the company can look up "
                         "your password. When you create it, the site runs it through a one-way 'hash' function and "
                         "keeps only the result. Each time you log in, it hashes what you type and checks whether the "
                         "results match. Your actual password exists only briefly in memory while it is being "
                         "checked.",
                      "Plain-language explanation of hashed storage."),
                piece(9, "Why won't they just email me my old password?\nBecause they don't have it! A 'reset "
                         "password' link is a good sign. If a site ever emails you your existing password in plain "
                         "text, it means they stored it in a readable form, which is a red flag. Use a unique "
                         "password there and consider closing the account.",
                      "Practical consequence of hashing that helps users judge a site's storage."),
                piece(9, "Why does password length matter so much?\nIf a site's hashes are stolen, attackers guess "
                         "passwords, hash each guess and look for matches. Every extra character multiplies the "
                         "number of possible passwords. At 10 billion guesses a second against a fast, unsalted "
                         "hash, every 8-letter lowercase password can be tried in about 21 seconds; at 12 letters it "
                         "takes about 110 days. Mixing upper- and lower-case letters and digits helps a lot: 12 such "
                         "characters would take around 10,000 years. Slow hashes such as bcrypt multiply all of "
                         "these times enormously. <IMAGE_PLACEHOLDER>[1]",
                      "Quantifies guessing attacks on stolen hashes and why slow hashing matters."),
                piece(7, "So what should I do?\nUse a password manager so every site gets a long, random, unique "
                         "password; then one leaked site can't unlock your other accounts. Turn on two-factor "
                         "authentication wherever it's offered, and if you hear a site was breached, change that "
                         "password first.",
                      "User advice; related."),
                piece(2, "<IMAGE_PLACEHOLDER>[2] Partner offer: protect up to 5 devices with ShieldPass Premium. "
                         "EverydayTech may earn a commission.",
                      "Affiliate offer; irrelevant."),
            ],
            images={
                1: image(draw_crack_time_chart, "png", 9,
                         "A bar chart titled 'Time to try every password at 10 billion guesses per second (fast, "
                         "unsalted hash; worst case for the attacker)' with a logarithmic time axis from 1 second to "
                         "10,000 years. For 8, 10 and 12 characters, grey bars for lowercase-only passwords read "
                         "21 s, 3.9 hours and 110 days, and blue bars for upper + lower + digits read 6.1 hours, 2.7 "
                         "years and 10,223 years. It shows how each extra character multiplies an attacker's work, "
                         "as the FAQ explains.",
                         "https://everydaytech.example/help/img/crack-time-by-length.png"),
                2: image(draw_shieldpass_logo, "png", 2,
                         "A partner logo with a green shield containing a white keyhole, the word 'ShieldPass' in "
                         "dark green and the tagline 'Premium security'. It is an advertising logo and does not "
                         "explain how passwords are stored.",
                         "https://everydaytech.example/partners/shieldpass-logo.png"),
            }),
        dict(
            title="Lesson 7: Hashing Explained with a Smoothie Blender — Byte-Size Learning",
            url="https://byte-size-learning.example/lessons/hashing-with-a-blender",
            snippet="Why can't websites un-hash your password? Because you can't un-blend a smoothie. A kid-friendly "
                    "lesson on hashing and salt.",
            pieces=[
                piece(1, "Byte-Size Learning · Lessons · Games · For Parents · Log in",
                      "Site navigation."),
                piece(9, "Imagine a magic blender. Put in a banana, two strawberries and some milk, and it always "
                         "makes exactly the same pink smoothie. But if someone hands you the smoothie, you can't pull "
                         "the banana back out. A hash function is like that blender for passwords: the same password "
                         "always makes the same 'smoothie' (the hash), but nobody can turn the hash back into the "
                         "password. Websites keep the smoothie, not the fruit. <IMAGE_PLACEHOLDER>[1]",
                      "Child-friendly analogy for one-way hashing; directly relevant."),
                piece(9, "When you log in, the website puts what you typed into the blender again. If the new "
                         "smoothie is exactly the same as the one it saved, you must have used the same ingredients, "
                         "so you typed the right password!",
                      "Explains how login checks work with hashes."),
                piece(9, "What's the salt for? Sneaky people could blend every popular password in advance and write "
                         "down what each smoothie looks like, then match a stolen smoothie against their list. So "
                         "the website adds a different random pinch of something for each person (a few blueberries "
                         "for you, a spoonful of honey for your friend) and writes down which pinch it used. Now even "
                         "if you and your friend pick the same fruit, your smoothies look different, and the list of "
                         "ready-made smoothies is no help.",
                      "Kid-level explanation of salting; directly relevant."),
                piece(5, "Try it yourself: with a grown-up, write down a 'recipe' of three fruits. Swap recipes with "
                         "a friend and see if you can guess the fruit from a description of the smoothie's colour "
                         "alone. Tricky, isn't it?",
                      "Activity that reinforces the idea; marginal."),
                piece(2, "Quiz time! Answer 3 questions to earn your Hashing Hero badge. [Start quiz]",
                      "Quiz prompt; no content."),
            ],
            images={
                1: image(draw_blender_analogy, "png", 8,
                         "A cartoon diagram titled 'Hashing is like a blender: easy to blend, impossible to "
                         "un-blend'. Fruit labelled 'password (banana, strawberries, milk)' and a small bowl "
                         "labelled 'salt: a different random pinch for every user' are fed by arrows into a blender "
                         "marked 'HASH FUNCTION', which outputs a pink glass labelled 'hash (the smoothie)'. A red "
                         "arrow pointing back from the glass is crossed out with the words 'can't un-blend!'.",
                         "https://byte-size-learning.example/lessons/img/hash-blender.png"),
            }),
    ],
    aux_images=[
        image(draw_avalanche_digests, "webp", 8,
              "A dark graphic titled 'Change one character, change the whole hash (SHA-256)' showing the 64-"
              "character hexadecimal SHA-256 hashes of 'sunshine1' and 'sunshine2', each written over two rows. "
              f"Characters that differ between the two hashes are highlighted in yellow; a footer reads "
              f"'{_AVALANCHE_DIFF} of 64 hex characters differ', illustrating that a tiny change in the password "
              "produces a completely different hash.",
              "https://secnotes.example/img/password-storage/avalanche.webp", SECNOTES),
        image(draw_padlock_pattern, "jpeg", 3,
              "A decorative stock-style image of rows of gold padlock icons in varying brightness on a dark navy "
              "gradient. It suggests 'security' but carries no information about hashing or salting.",
              "https://everydaytech.example/help/img/security-header.jpg", EVERYDAY),
    ],
)

QUERIES = [MINI_01, MINI_02, MINI_03, MINI_04, MINI_05, MINI_06]
