"""Mini split content, part B: queries ``mini-07`` ... ``mini-12``.

Six hand-written M2RAG-style queries, one per topic (Sports, Business & Finance,
Society & Culture, Education & Reference, Family & Relationships, Politics &
Government).  Every web page, text piece, score, caption and picture here is
original material written for this package; the pictures are drawn with Pillow
primitives so the release can be rebuilt byte-for-byte from source.

The module only *describes* the content.  ``make_mini_release.py`` imports
``QUERIES`` and does the rendering and writing.  Each image's ``draw`` is a
callable ``draw(rng: random.Random) -> PIL.Image.Image`` that uses no randomness
other than ``rng``.

Layout of this file:
  1. small drawing helpers (text, arrows, boxes, bar/line charts, ad banners);
  2. the pictures, one function each, grouped by query;
  3. the ``QUERIES`` data.
"""

from __future__ import annotations

import math
import random
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

__all__ = ["QUERIES"]

# ---------------------------------------------------------------------------
# 1. Drawing helpers
# ---------------------------------------------------------------------------

Color = tuple[int, int, int]

WHITE: Color = (255, 255, 255)
INK: Color = (33, 37, 41)
GREY: Color = (120, 124, 130)
LIGHT: Color = (228, 230, 234)
BLUE: Color = (45, 98, 168)
LIGHT_BLUE: Color = (168, 198, 232)
RED: Color = (200, 50, 50)
GREEN: Color = (46, 139, 60)
LIGHT_GREEN: Color = (196, 230, 196)
PITCH: Color = (74, 150, 70)
PITCH_DARK: Color = (66, 138, 62)
ORANGE: Color = (236, 134, 36)
YELLOW: Color = (247, 206, 60)
PALE_YELLOW: Color = (255, 244, 196)
PURPLE: Color = (118, 78, 168)
TEAL: Color = (0, 133, 138)
PINK: Color = (232, 128, 166)
BROWN: Color = (128, 82, 46)

#: ten distinguishable flat colours for categorical charts
CATEGORICAL: tuple[Color, ...] = (
    (86, 119, 178), (221, 132, 82), (85, 167, 104), (196, 78, 82), (129, 114, 179),
    (147, 120, 96), (218, 139, 195), (140, 140, 140), (204, 185, 116), (100, 181, 205),
)


@lru_cache(maxsize=None)
def font(size: int) -> ImageFont.FreeTypeFont:
    """Pillow's bundled scalable font at ``size`` pixels."""
    return ImageFont.load_default(size=size)


def canvas(w: int, h: int, bg: Color = WHITE) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    img = Image.new("RGB", (w, h), bg)
    return img, ImageDraw.Draw(img)


def wrap(text: str, size: int, max_w: float | None) -> list[str]:
    """Greedy word wrap; ``\\n`` forces a break."""
    lines: list[str] = []
    for para in text.split("\n"):
        if max_w is None:
            lines.append(para)
            continue
        cur = ""
        for word in para.split():
            trial = f"{cur} {word}".strip()
            if cur and font(size).getlength(trial) > max_w:
                lines.append(cur)
                cur = word
            else:
                cur = trial
        lines.append(cur)
    return lines


def text(d: ImageDraw.ImageDraw, xy: tuple[float, float], s: str, size: int = 14, fill: Color = INK,
         align: str = "m", valign: str = "m", max_w: float | None = None, spacing: int = 3) -> None:
    """Draw possibly multi-line text.

    ``align`` is l/m/r (x is the left edge, centre or right edge of the block) and
    ``valign`` is t/m/b (y is the top, middle or bottom of the block).
    """
    lines = wrap(s, size, max_w)
    lh = size + spacing
    total = lh * len(lines) - spacing
    y0 = {"t": xy[1], "m": xy[1] - total / 2, "b": xy[1] - total}[valign]
    for i, line in enumerate(lines):
        d.text((xy[0], y0 + i * lh + size / 2), line, font=font(size), fill=fill, anchor=align + "m")


def arrow(d: ImageDraw.ImageDraw, p0: tuple[float, float], p1: tuple[float, float], fill: Color = INK,
          width: int = 3, head: int = 11) -> None:
    """Straight arrow from p0 to p1 with a filled triangular head at p1."""
    ang = math.atan2(p1[1] - p0[1], p1[0] - p0[0])
    stem_end = (p1[0] - head * 0.8 * math.cos(ang), p1[1] - head * 0.8 * math.sin(ang))
    d.line([p0, stem_end], fill=fill, width=width)
    left = (p1[0] - head * math.cos(ang - 0.45), p1[1] - head * math.sin(ang - 0.45))
    right = (p1[0] - head * math.cos(ang + 0.45), p1[1] - head * math.sin(ang + 0.45))
    d.polygon([p1, left, right], fill=fill)


def elbow_arrow(d: ImageDraw.ImageDraw, points: list[tuple[float, float]], fill: Color = INK,
                width: int = 3, head: int = 11) -> None:
    """Poly-line whose last segment ends in an arrow head."""
    if len(points) > 2:
        d.line(points[:-1], fill=fill, width=width, joint="curve")
    arrow(d, points[-2], points[-1], fill=fill, width=width, head=head)


def dashed(d: ImageDraw.ImageDraw, p0: tuple[float, float], p1: tuple[float, float], fill: Color = INK,
           width: int = 2, dash: int = 9, gap: int = 6) -> None:
    length = math.dist(p0, p1)
    if length == 0:
        return
    ux, uy = (p1[0] - p0[0]) / length, (p1[1] - p0[1]) / length
    pos = 0.0
    while pos < length:
        end = min(pos + dash, length)
        d.line([(p0[0] + ux * pos, p0[1] + uy * pos), (p0[0] + ux * end, p0[1] + uy * end)], fill=fill, width=width)
        pos += dash + gap


def box(d: ImageDraw.ImageDraw, rect: tuple[float, float, float, float], label: str = "", fill: Color = WHITE,
        outline: Color | None = INK, size: int = 14, text_fill: Color = INK, radius: int = 8,
        width: int = 2, pad: int = 8) -> None:
    """Rounded box with centred, wrapped label."""
    d.rounded_rectangle(rect, radius=radius, fill=fill, outline=outline, width=width if outline else 0)
    if label:
        cx, cy = (rect[0] + rect[2]) / 2, (rect[1] + rect[3]) / 2
        text(d, (cx, cy), label, size=size, fill=text_fill, max_w=rect[2] - rect[0] - 2 * pad)


def title(d: ImageDraw.ImageDraw, w: int, s: str, y: int = 20, size: int = 18, fill: Color = INK) -> None:
    text(d, (w / 2, y), s, size=size, fill=fill)


def circle(d: ImageDraw.ImageDraw, c: tuple[float, float], r: float, fill: Color | None,
           outline: Color | None = None, width: int = 2) -> None:
    d.ellipse([c[0] - r, c[1] - r, c[0] + r, c[1] + r], fill=fill, outline=outline, width=width)


def money(v: float) -> str:
    return f"${v:,.0f}"


def bar_chart(w: int, h: int, heading: str, categories: list[str], series: list[tuple[str, list[float], Color]],
              y_max: float, y_step: float, y_fmt=str, value_fmt=None, y_label: str | None = None,
              note: str | None = None, margin_left: int = 70) -> tuple[Image.Image, ImageDraw.ImageDraw, callable]:
    """Vertical (grouped) bar chart with axes, gridlines, value labels and legend.

    Returns the image, its draw object and ``to_y(value) -> pixel`` for annotations.
    """
    img, d = canvas(w, h)
    title(d, w, heading)
    legend = len(series) > 1
    top = 60 if legend else 48
    bottom = h - (62 if note else 44)
    left, right = margin_left, w - 20

    def to_y(v: float) -> float:
        return bottom - (bottom - top) * v / y_max

    v = 0.0
    while v <= y_max + 1e-9:
        y = to_y(v)
        d.line([(left, y), (right, y)], fill=LIGHT, width=1)
        text(d, (left - 6, y), y_fmt(v), size=12, fill=GREY, align="r")
        v += y_step
    if y_label:
        lab = Image.new("RGBA", (int(font(12).getlength(y_label)) + 4, 16), (0, 0, 0, 0))
        ImageDraw.Draw(lab).text((2, 1), y_label, font=font(12), fill=GREY)
        lab = lab.rotate(90, expand=True)
        img.paste(lab, (4, int((top + bottom) / 2 - lab.height / 2)), lab)
    d.line([(left, top - 4), (left, bottom)], fill=INK, width=2)
    d.line([(left, bottom), (right, bottom)], fill=INK, width=2)

    group_w = (right - left) / len(categories)
    bar_w = min(70, group_w * 0.7 / len(series))
    for gi, cat in enumerate(categories):
        gx = left + group_w * (gi + 0.5)
        x0 = gx - bar_w * len(series) / 2
        for si, (_, values, color) in enumerate(series):
            val = values[gi]
            bx = x0 + si * bar_w
            d.rectangle([bx + 2, to_y(val), bx + bar_w - 2, bottom - 1], fill=color)
            if value_fmt:
                text(d, (bx + bar_w / 2, to_y(val) - 9), value_fmt(val), size=12)
        text(d, (gx, bottom + 8), cat, size=12, valign="t", max_w=group_w - 4, spacing=2)
    if legend:
        lx = left + 10
        for name, _, color in series:
            d.rectangle([lx, 36, lx + 14, 50], fill=color)
            text(d, (lx + 20, 43), name, size=12, align="l")
            lx += 40 + font(12).getlength(name)
    if note:
        text(d, (w / 2, h - 14), note, size=11, fill=GREY)
    return img, d, to_y


def hbar_chart(w: int, h: int, heading: str, labels: list[str], values: list[float], colors: list[Color],
               x_max: float, value_fmt=str, label_w: int = 190, row_h: int = 34, top: int = 52,
               note: str | None = None) -> tuple[Image.Image, ImageDraw.ImageDraw, callable]:
    """Horizontal bar chart with category labels on the left and values at bar ends."""
    img, d = canvas(w, h)
    title(d, w, heading)
    left, right = label_w, w - 70

    def to_x(v: float) -> float:
        return left + (right - left) * v / x_max

    for i, (lab, val, col) in enumerate(zip(labels, values, colors)):
        y = top + i * row_h
        text(d, (left - 10, y + row_h / 2), lab, size=13, align="r")
        d.rectangle([left, y + 6, to_x(val), y + row_h - 6], fill=col)
        text(d, (to_x(val) + 6, y + row_h / 2), value_fmt(val), size=13, align="l")
    d.line([(left, top), (left, top + row_h * len(labels))], fill=INK, width=2)
    if note:
        text(d, (w / 2, h - 14), note, size=11, fill=GREY)
    return img, d, to_x


def line_chart(w: int, h: int, heading: str, series: list[tuple[str, list[tuple[float, float]], Color]],
               x_range: tuple[float, float], y_range: tuple[float, float], x_ticks: list[float],
               y_ticks: list[float], x_fmt=str, y_fmt=str, x_label: str = "", margin_left: int = 70,
               legend: bool = True) -> tuple[Image.Image, ImageDraw.ImageDraw, callable]:
    """Line chart with gridlines and legend; returns ``to_px((x, y)) -> (px, py)`` for annotations."""
    img, d = canvas(w, h)
    title(d, w, heading)
    left, right, top, bottom = margin_left, w - 80, 62 if legend else 48, h - 50

    def to_px(p: tuple[float, float]) -> tuple[float, float]:
        fx = (p[0] - x_range[0]) / (x_range[1] - x_range[0])
        fy = (p[1] - y_range[0]) / (y_range[1] - y_range[0])
        return left + fx * (right - left), bottom - fy * (bottom - top)

    for yv in y_ticks:
        _, py = to_px((x_range[0], yv))
        d.line([(left, py), (right, py)], fill=LIGHT, width=1)
        text(d, (left - 6, py), y_fmt(yv), size=12, fill=GREY, align="r")
    for xv in x_ticks:
        px, _ = to_px((xv, y_range[0]))
        d.line([(px, bottom), (px, bottom + 5)], fill=INK, width=2)
        text(d, (px, bottom + 14), x_fmt(xv), size=12, fill=GREY)
    if x_label:
        text(d, ((left + right) / 2, h - 14), x_label, size=12, fill=GREY)
    d.line([(left, top - 4), (left, bottom)], fill=INK, width=2)
    d.line([(left, bottom), (right, bottom)], fill=INK, width=2)
    for _, pts, color in series:
        d.line([to_px(p) for p in pts], fill=color, width=4, joint="curve")
    if legend:
        lx = left + 10
        for name, _, color in series:
            d.line([(lx, 43), (lx + 22, 43)], fill=color, width=4)
            text(d, (lx + 28, 43), name, size=12, align="l")
            lx += 50 + font(12).getlength(name)
    return img, d, to_px


def confetti(d: ImageDraw.ImageDraw, rng: random.Random, w: int, h: int, n: int, colors: list[Color],
             r: tuple[int, int] = (2, 5), avoid: tuple[float, float, float, float] | None = None) -> None:
    """Scatter ``n`` dots; dots falling inside ``avoid`` (x0, y0, x1, y1) are skipped."""
    for _ in range(n):
        x, y, rad = rng.uniform(0, w), rng.uniform(0, h), rng.randint(*r)
        color = rng.choice(colors)
        if avoid and avoid[0] <= x <= avoid[2] and avoid[1] <= y <= avoid[3]:
            continue
        d.ellipse([x - rad, y - rad, x + rad, y + rad], fill=color)


def ad_banner(rng: random.Random, w: int, h: int, bg: Color, accent: Color, headline: str, sub: str,
              button: str, text_x: int) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """Generic web advert: flat background, confetti, headline, sub-line and a button."""
    img, d = canvas(w, h, bg)
    confetti(d, rng, w, h, 40, [accent, WHITE, YELLOW], avoid=(text_x - 12, h * 0.12, w - 8, h * 0.90))
    text(d, (text_x, h * 0.30), headline, size=30, fill=WHITE, align="l")
    text(d, (text_x, h * 0.52), sub, size=17, fill=YELLOW, align="l")
    bw = font(15).getlength(button) + 36
    box(d, (text_x, h * 0.66, text_x + bw, h * 0.66 + 36), button, fill=accent, outline=None, size=15,
        text_fill=WHITE, radius=18)
    text(d, (w - 6, h - 8), "Ad", size=10, fill=LIGHT, align="r")
    return img, d


def rotated_label(img: Image.Image, xy: tuple[int, int], s: str, size: int, fill: Color) -> None:
    """Paste text rotated 90 degrees (reading bottom-to-top) with its centre at ``xy``."""
    tw = int(font(size).getlength(s)) + 4
    lab = Image.new("RGBA", (tw, size + 6), (0, 0, 0, 0))
    ImageDraw.Draw(lab).text((2, 2), s, font=font(size), fill=fill)
    lab = lab.rotate(90, expand=True)
    img.paste(lab, (int(xy[0] - lab.width / 2), int(xy[1] - lab.height / 2)), lab)


# ---------------------------------------------------------------------------
# 2. Pictures
# ---------------------------------------------------------------------------

# --- mini-07  Sports: the offside rule ------------------------------------

def _pitch(d: ImageDraw.ImageDraw, rect: tuple[int, int, int, int], stripe: int = 50) -> None:
    x0, y0, x1, y1 = rect
    for i, x in enumerate(range(x0, x1, stripe)):
        d.rectangle([x, y0, min(x + stripe, x1), y1], fill=PITCH if i % 2 == 0 else PITCH_DARK)


def _player(d: ImageDraw.ImageDraw, c: tuple[float, float], color: Color, label: str = "", r: int = 11) -> None:
    circle(d, c, r, fill=color, outline=WHITE, width=2)
    if label:
        text(d, c, label, size=11, fill=WHITE)


def q07_offside_position(rng: random.Random) -> Image.Image:
    w, h = 600, 400
    img, d = canvas(w, h)
    title(d, w, "Offside position at the moment of the pass")
    _pitch(d, (0, 40, w, h))
    line = WHITE
    d.line([(30, 40), (30, h)], fill=line, width=3)                        # halfway line
    d.arc([-30, 160, 90, 280], start=-90, end=90, fill=line, width=3)      # centre circle
    d.line([(570, 40), (570, h)], fill=line, width=3)                      # goal line
    d.rectangle([420, 110, 570, 330], outline=line, width=3)               # penalty area
    d.rectangle([520, 180, 570, 260], outline=line, width=3)               # goal area
    d.rectangle([570, 196, 588, 244], outline=line, width=3)               # goal
    arrow(d, (50, 60), (150, 60), fill=WHITE, width=3)
    text(d, (160, 60), "attacking direction", size=12, fill=WHITE, align="l")

    off_x = 430
    dashed(d, (off_x, 44), (off_x, h - 4), fill=YELLOW, width=3)
    box(d, (off_x - 95, h - 30, off_x + 95, h - 8), "offside line (2nd-last defender)", fill=YELLOW,
        outline=None, size=11, radius=4)
    # defenders (blue) and goalkeeper
    for c in [(off_x, 150), (395, 268), (370, 330)]:
        _player(d, c, BLUE)
    _player(d, (548, 220), (30, 60, 120), "GK")
    # attackers (red) and the passer with the ball
    passer, ball = (250, 232), (266, 240)
    _player(d, passer, RED)
    circle(d, ball, 5, fill=WHITE, outline=INK, width=1)
    a_off, a_on = (480, 190), (402, 112)
    _player(d, a_off, RED)
    _player(d, a_on, RED)
    dashed(d, ball, (a_off[0] - 14, a_off[1] + 4), fill=WHITE, width=2)
    dashed(d, ball, (a_on[0] - 10, a_on[1] + 10), fill=WHITE, width=2)
    box(d, (a_off[0] - 38, a_off[1] + 16, a_off[0] + 38, a_off[1] + 36), "OFFSIDE", fill=RED, outline=WHITE,
        size=12, text_fill=WHITE, radius=4, width=1)
    box(d, (a_on[0] - 64, a_on[1] - 36, a_on[0] - 2, a_on[1] - 16), "ONSIDE", fill=GREEN, outline=WHITE,
        size=12, text_fill=WHITE, radius=4, width=1)
    text(d, (548, 274), "last defender", size=11, fill=WHITE)
    text(d, (250, 258), "passer", size=11, fill=WHITE)
    # legend
    d.rectangle([40, 340, 250, 392], fill=(40, 96, 40))
    _player(d, (56, 354), RED, r=7)
    text(d, (70, 354), "attacker", size=12, fill=WHITE, align="l")
    _player(d, (150, 354), BLUE, r=7)
    text(d, (164, 354), "defender", size=12, fill=WHITE, align="l")
    circle(d, (56, 377), 5, fill=WHITE, outline=INK, width=1)
    text(d, (70, 377), "ball", size=12, fill=WHITE, align="l")
    dashed(d, (140, 377), (170, 377), fill=WHITE, width=2)
    text(d, (176, 377), "pass", size=12, fill=WHITE, align="l")
    return img


def q07_judged_at_pass(rng: random.Random) -> Image.Image:
    w, h = 600, 300
    img, d = canvas(w, h)
    title(d, w, "Judged at the moment of the pass", y=18)
    for k, heading in enumerate(["1. Pass is played", "2. Ball arrives"]):
        x0 = 10 + k * 295
        text(d, (x0 + 142, 48), heading, size=15)
        _pitch(d, (x0, 62, x0 + 285, 250), stripe=40)
        lx = x0 + 160
        dashed(d, (lx, 66), (lx, 246), fill=YELLOW, width=3)
        _player(d, (lx, 200), BLUE)
        if k == 0:
            _player(d, (x0 + 55, 150), RED)
            circle(d, (x0 + 70, 158), 5, fill=WHITE, outline=INK, width=1)
            _player(d, (lx, 110), RED)
            arrow(d, (x0 + 76, 152), (lx + 40, 100), fill=WHITE, width=2)
            box(d, (lx - 70, 74, lx - 10, 92), "level", fill=GREEN, outline=None, size=11, text_fill=WHITE, radius=4)
        else:
            dashed(d, (lx, 110), (lx + 72, 96), fill=WHITE, width=2)
            _player(d, (lx + 85, 96), RED)
            circle(d, (lx + 96, 108), 5, fill=WHITE, outline=INK, width=1)
            text(d, (lx - 4, 122), "ran past", size=11, fill=WHITE, align="r")
    box(d, (20, 258, 290, 290), "ONSIDE: level with 2nd-last defender", fill=GREEN, outline=None, size=12,
        text_fill=WHITE, radius=6)
    box(d, (310, 258, 590, 290), "Still onside: position judged when the pass is made", fill=GREEN,
        outline=None, size=12, text_fill=WHITE, radius=6)
    return img


def _figure(d: ImageDraw.ImageDraw, x: float, ground: float, shirt: Color, stride: float) -> tuple[float, float]:
    """Simple side-on footballer; returns (knee_x, heel_x) of the leading leg."""
    circle(d, (x, ground - 118), 11, fill=(224, 180, 140))
    d.rounded_rectangle([x - 13, ground - 105, x + 13, ground - 55], radius=5, fill=shirt)
    d.rectangle([x - 12, ground - 57, x + 12, ground - 44], fill=WHITE)
    knee = (x + stride * 0.55, ground - 26)
    foot = (x + stride, ground - 2)
    d.line([(x + 4, ground - 46), knee, foot], fill=(224, 180, 140), width=7, joint="curve")
    d.line([(x - 4, ground - 46), (x - stride * 0.4, ground - 24), (x - stride * 0.7, ground - 4)],
           fill=(224, 180, 140), width=7, joint="curve")
    return knee[0], foot[0]


def q07_var_check(rng: random.Random) -> Image.Image:
    w, h = 560, 315
    img, d = canvas(w, h, (40, 44, 52))
    confetti(d, rng, w, 70, 120, [(90, 94, 104), (120, 124, 134), (70, 74, 84), (160, 60, 60)], r=(2, 4))
    _pitch(d, (0, 70, w, h), stripe=56)
    ground = 280
    knee_x, _ = _figure(d, 300, ground, RED, 36)
    _, heel_x = _figure(d, 250, ground, BLUE, -30)
    heel_x = 250 - 30 * 0.7
    d.line([(knee_x, 70), (knee_x, h)], fill=(255, 70, 70), width=3)
    d.line([(heel_x, 70), (heel_x, h)], fill=(80, 160, 255), width=3)
    d.rectangle([0, 0, w, 34], fill=(20, 20, 28))
    text(d, (w / 2, 17), "VAR CHECK - OFFSIDE", size=18, fill=YELLOW)
    box(d, (370, 92, 540, 132), "attacker's knee 12 cm ahead of defender", fill=(20, 20, 28), outline=YELLOW,
        size=12, text_fill=WHITE, radius=4, width=1)
    arrow(d, (370, 112), (knee_x + 6, 190), fill=YELLOW, width=2)
    text(d, (knee_x + 4, 56), "attacker", size=11, fill=(255, 120, 120), align="l")
    text(d, (heel_x - 4, 56), "2nd-last defender", size=11, fill=(140, 190, 255), align="r")
    arrow(d, (390, 296), (520, 296), fill=WHITE, width=2, head=9)
    text(d, (384, 296), "towards goal", size=12, fill=WHITE, align="r")
    return img


def q07_decision_flowchart(rng: random.Random) -> Image.Image:
    w, h = 540, 590
    img, d = canvas(w, h)
    title(d, w, "Is it an offside offence?", y=22, size=20)
    qx0, qx1, ox0, ox1 = 20, 330, 380, 525
    questions = [
        (52, 106, "Is the attacker in the opponents' half?", "No", "ONSIDE"),
        (148, 218, "Nearer the goal line than the ball AND the 2nd-last defender when a team-mate plays it?",
         "No", "ONSIDE"),
        (260, 318, "Received straight from a goal kick, throw-in or corner?", "Yes", "NO OFFENCE"),
        (360, 438, "Involved in active play? (plays the ball, blocks or challenges an opponent, gains an "
         "advantage from a rebound)", "No", "NO OFFENCE"),
    ]
    for i, (y0, y1, q, side, outcome) in enumerate(questions):
        box(d, (qx0, y0, qx1, y1), q, fill=PALE_YELLOW, outline=(190, 160, 40), size=13)
        cy = (y0 + y1) / 2
        arrow(d, (qx1, cy), (ox0, cy), fill=GREY, width=3)
        text(d, ((qx1 + ox0) / 2, cy - 11), side, size=12, fill=GREY)
        box(d, (ox0, cy - 20, ox1, cy + 20), outcome, fill=LIGHT_GREEN, outline=GREEN, size=13)
        nxt = questions[i + 1][0] if i + 1 < len(questions) else 480
        down = "No" if side == "Yes" else "Yes"
        arrow(d, ((qx0 + qx1) / 2, y1), ((qx0 + qx1) / 2, nxt), fill=GREY, width=3)
        text(d, ((qx0 + qx1) / 2 + 8, (y1 + nxt) / 2), down, size=12, fill=GREY, align="l")
    box(d, (qx0, 480, qx1, 540), "OFFSIDE: indirect free kick to the defending team", fill=(246, 205, 205),
        outline=RED, size=14)
    text(d, (w / 2, 568), "Level with the 2nd-last defender counts as onside.", size=12, fill=GREY)
    return img


def q07_boot_ad(rng: random.Random) -> Image.Image:
    img, d = ad_banner(rng, 468, 200, (22, 30, 60), ORANGE, "STRIKER X9", "New season boots - 30% OFF",
                       "SHOP NOW", text_x=190)
    # a stylised boot
    d.polygon([(28, 112), (40, 70), (92, 66), (108, 96), (160, 110), (168, 132), (28, 134)], fill=ORANGE)
    d.rectangle([28, 134, 170, 142], fill=WHITE)
    for i in range(5):
        d.rectangle([40 + i * 26, 142, 50 + i * 26, 152], fill=(200, 200, 200))
    for i in range(3):
        d.line([(70 + i * 12, 76), (78 + i * 12, 100)], fill=WHITE, width=3)
    return img


# --- mini-08  Business & Finance: compound interest ------------------------

def q08_simple_vs_compound(rng: random.Random) -> Image.Image:
    years = list(range(0, 31))
    simple = [(n, 1000 + 50 * n) for n in years]
    compound = [(n, 1000 * 1.05 ** n) for n in years]
    img, d, to_px = line_chart(
        600, 400, "$1,000 at 5%: simple vs. compound interest",
        [("Compound interest (yearly)", compound, GREEN), ("Simple interest", simple, GREY)],
        (0, 30), (0, 5000), [0, 5, 10, 15, 20, 25, 30], [0, 1000, 2000, 3000, 4000, 5000],
        x_fmt=lambda v: f"{v:g}", y_fmt=lambda v: money(v), x_label="years")
    poly = [to_px(p) for p in compound] + [to_px(p) for p in reversed(simple)]
    shade = Image.new("RGBA", img.size, (0, 0, 0, 0))
    ImageDraw.Draw(shade).polygon(poly, fill=(46, 139, 60, 50))
    img.paste(shade, (0, 0), shade)
    d = ImageDraw.Draw(img)
    d.line([to_px(p) for p in compound], fill=GREEN, width=4, joint="curve")
    d.line([to_px(p) for p in simple], fill=GREY, width=4)
    text(d, (to_px((30, 4322))[0] + 6, to_px((30, 4322))[1]), "$4,322", size=13, fill=GREEN, align="l")
    text(d, (to_px((30, 2500))[0] + 6, to_px((30, 2500))[1]), "$2,500", size=13, fill=GREY, align="l")
    text(d, to_px((10, 1629 + 380)), "$1,629", size=12, fill=GREEN)
    circle(d, to_px((10, 1629)), 4, fill=GREEN)
    text(d, to_px((21.5, 3350)), "interest on interest", size=12, fill=GREEN, align="r")
    arrow(d, to_px((21.7, 3250)), to_px((25, 2950)), fill=GREEN, width=2, head=8)
    return img


def q08_bank_logo(rng: random.Random) -> Image.Image:
    img, d = canvas(240, 160)
    circle(d, (62, 80), 46, fill=(16, 62, 110))
    for k in range(3):
        y = 66 + k * 14
        d.arc([26, y - 8, 62, y + 8], start=0, end=180, fill=WHITE, width=3)
        d.arc([62, y - 8, 98, y + 8], start=180, end=360, fill=WHITE, width=3)
    text(d, (118, 70), "Harborline", size=20, fill=(16, 62, 110), align="l")
    text(d, (118, 94), "BANK", size=14, fill=(60, 140, 190), align="l")
    return img


def q08_frequency_bars(rng: random.Random) -> Image.Image:
    cats = ["Annually", "Quarterly", "Monthly", "Daily"]
    vals = [16288.95, 16436.19, 16470.09, 16486.65]
    img, d, to_y = bar_chart(
        560, 380, "$10,000 at 5% after 10 years, by compounding frequency", cats, [("balance", vals, BLUE)],
        y_max=18000, y_step=3000, y_fmt=lambda v: f"${v / 1000:g}k", value_fmt=lambda v: money(v),
        note="Daily compounding adds about $198 more than annual over ten years.")
    dashed(d, (70, to_y(10000)), (540, to_y(10000)), fill=ORANGE, width=2)
    box(d, (380, to_y(10000) - 11, 536, to_y(10000) + 11), "starting deposit $10,000", fill=WHITE,
        outline=ORANGE, size=11, radius=4, width=1)
    return img


def q08_two_savers(rng: random.Random) -> Image.Image:
    cats = ["Saver A: $2,000/yr, ages 25-34", "Saver B: $2,000/yr, ages 35-64"]
    img, d, to_y = bar_chart(
        600, 400, "Starting early: two savers at a 7% yearly return", cats,
        [("Money put in", [20000, 60000], (150, 190, 150)), ("Balance at 65", [225073, 202146], GREEN)],
        y_max=250000, y_step=50000, y_fmt=lambda v: f"${v / 1000:g}k", value_fmt=lambda v: money(v),
        note="Saver A invests a third as much but ends up ahead: ten extra years of compounding.")
    return img


def q08_rule_of_72(rng: random.Random) -> Image.Image:
    rates = [2, 4, 6, 8, 10, 12]
    est = [72 / r for r in rates]
    exact = [math.log(2) / math.log(1 + r / 100) for r in rates]
    img, d, to_y = bar_chart(
        520, 360, "Rule of 72: years for money to double", [f"{r}%" for r in rates],
        [("estimate 72 / rate", est, (245, 190, 120))], y_max=40, y_step=10, y_fmt=lambda v: f"{v:g}",
        y_label="years to double", note="interest rate per year")
    left, right = 70, 500
    group_w = (right - left) / len(rates)
    for i, (e, x) in enumerate(zip(exact, est)):
        gx = left + group_w * (i + 0.5)
        text(d, (gx, to_y(0) - 12), f"{x:g}", size=13)
        circle(d, (gx, to_y(e)), 5, fill=ORANGE, outline=INK, width=1)
    circle(d, (330, 62), 5, fill=ORANGE, outline=INK, width=1)
    text(d, (340, 62), "exact doubling time", size=12, align="l")
    d.rectangle([330, 76, 340, 86], fill=(245, 190, 120))
    text(d, (346, 81), "Rule of 72 estimate", size=12, align="l")
    return img


def q08_piggy_ad(rng: random.Random) -> Image.Image:
    img, d = canvas(400, 250, (255, 236, 242))
    confetti(d, rng, 400, 250, 30, [(255, 210, 225), (250, 220, 120)], r=(3, 6))
    pig = (235, 130, 160)
    d.ellipse([30, 90, 190, 200], fill=pig)
    d.polygon([(60, 100), (72, 68), (92, 96)], fill=pig)
    d.ellipse([20, 130, 52, 166], fill=(220, 110, 145))
    circle(d, (31, 146), 3, fill=INK)
    circle(d, (41, 150), 3, fill=INK)
    circle(d, (72, 124), 5, fill=INK)
    for x in (60, 90, 140, 165):
        d.rectangle([x, 190, x + 16, 220], fill=pig)
    d.rectangle([100, 94, 136, 100], fill=(160, 70, 100))
    circle(d, (118, 62), 16, fill=(245, 196, 60), outline=(200, 150, 30), width=3)
    text(d, (118, 62), "$", size=18, fill=(150, 100, 20))
    text(d, (215, 70), "Open a Saver+", size=24, fill=(160, 40, 90), align="l")
    text(d, (215, 100), "account today", size=24, fill=(160, 40, 90), align="l")
    box(d, (215, 130, 385, 166), "Bonus $50*", fill=(160, 40, 90), outline=None, size=18, text_fill=WHITE, radius=16)
    text(d, (215, 188), "*terms apply. Member bank.", size=11, fill=GREY, align="l")
    return img


# --- mini-09  Society & Culture: the moving Lunar New Year ------------------

def _moon(d: ImageDraw.ImageDraw, c: tuple[float, float], r: float, f: float) -> None:
    """Moon at phase fraction f (0 new, 0.5 full) as seen from the northern hemisphere."""
    dark, lit = (58, 62, 84), (250, 236, 170)
    x, y = c
    circle(d, c, r, fill=dark)
    if 0.02 < f < 0.98:
        k = math.cos(2 * math.pi * f)         # 1 new ... -1 full
        start = -90 if f < 0.5 else 90       # waxing: right half lit
        d.pieslice([x - r, y - r, x + r, y + r], start=start, end=start + 180, fill=lit)
        half = abs(k) * r
        d.ellipse([x - half, y - r, x + half, y + r], fill=dark if k > 0 else lit)
    circle(d, c, r, fill=None, outline=(140, 140, 160), width=1)


def q09_moon_phases(rng: random.Random) -> Image.Image:
    w, h = 560, 300
    img, d = canvas(w, h, (24, 28, 48))
    confetti(d, rng, w, h, 40, [(90, 90, 120), (150, 150, 180)], r=(1, 2), avoid=(0, 40, w, 280))
    text(d, (w / 2, 24), "The moon's cycle sets the length of a month", size=18, fill=WHITE)
    n = 9
    for i in range(n):
        f = i / (n - 1)
        cx = 40 + i * 60
        _moon(d, (cx, 110), 24, f % 1.0)
        text(d, (cx, 150), f"day {29.53 * f:.1f}".replace(".0", ""), size=11, fill=(200, 200, 220))
    for i, name in [(0, "New moon"), (2, "First quarter"), (4, "Full moon"), (6, "Last quarter"), (8, "New moon")]:
        text(d, (40 + i * 60, 72), name, size=11, fill=YELLOW)
    d.line([(40, 180), (40, 192), (520, 192), (520, 180)], fill=WHITE, width=2)
    text(d, (w / 2, 210), "one lunar month = about 29.5 days", size=15, fill=WHITE)
    text(d, (w / 2, 250), "Each Chinese calendar month starts on the day of a new moon;", size=13, fill=YELLOW)
    text(d, (w / 2, 270), "12 months = about 354 days, 11 days short of a solar year.", size=13, fill=YELLOW)
    return img


def q09_solstice_timeline(rng: random.Random) -> Image.Image:
    w, h = 640, 260
    img, d = canvas(w, h)
    title(d, w, "2024: New Year = 2nd new moon after the winter solstice", size=17)
    # day 0 = Dec 15, 2023; Jan 1 = 17, Feb 1 = 48, window Jan 21 (37) .. Feb 20 (67)
    x0, x1, y = 30, 610, 140

    def X(day: float) -> float:
        return x0 + (x1 - x0) * day / 74

    d.rectangle([X(37), 64, X(67), 196], fill=(252, 222, 222))
    text(d, ((X(37) + X(67)) / 2, 186), "window for New Year: Jan 21 - Feb 20", size=12, fill=RED)
    d.line([(x0, y), (x1, y)], fill=INK, width=3)
    for day, lab in [(0, "Dec 15"), (17, "Jan 1, 2024"), (48, "Feb 1"), (74, "Feb 28")]:
        d.line([(X(day), y - 6), (X(day), y + 6)], fill=INK, width=2)
        text(d, (X(day), y + 18), lab, size=11, fill=GREY)
    # solstice (Dec 22 = day 7)
    sx = X(7)
    for a in range(0, 360, 45):
        d.line([(sx, y), (sx + 17 * math.cos(math.radians(a)), y + 17 * math.sin(math.radians(a)))],
               fill=ORANGE, width=2)
    circle(d, (sx, y), 10, fill=ORANGE)
    text(d, (sx + 4, 212), "Winter solstice\nDec 22, 2023", size=12, align="m")
    # first new moon Jan 11 (day 27), second Feb 10 (day 57)
    n1, n2 = X(27), X(57)
    circle(d, (n1, y), 11, fill=(58, 62, 84), outline=INK)
    text(d, (n1, 212), "1st new moon, Jan 11\n(12th month begins)", size=12)
    circle(d, (n2, y), 15, fill=(58, 62, 84), outline=RED, width=4)
    box(d, (n2 - 80, 208, n2 + 80, 246), "2nd new moon, Feb 10 = LUNAR NEW YEAR", fill=RED, outline=None,
        size=12, text_fill=WHITE, radius=6)
    arrow(d, (sx + 22, y - 32), (n1 - 6, y - 32), fill=GREY, width=2, head=8)
    arrow(d, (n1 + 6, y - 32), (n2 - 8, y - 32), fill=GREY, width=2, head=8)
    text(d, ((sx + n1) / 2, y - 46), "20 days", size=11, fill=GREY)
    text(d, ((n1 + n2) / 2, y - 46), "about 29.5 days", size=11, fill=GREY)
    return img


NEW_YEAR_DATES = [  # (year, days after Jan 21, label)
    (2019, 15, "Feb 5"), (2020, 4, "Jan 25"), (2021, 22, "Feb 12"), (2022, 11, "Feb 1"),
    (2023, 1, "Jan 22"), (2024, 20, "Feb 10"), (2025, 8, "Jan 29"), (2026, 27, "Feb 17"),
    (2027, 16, "Feb 6"), (2028, 5, "Jan 26"), (2029, 23, "Feb 13"), (2030, 13, "Feb 3"),
]
LEAP_MONTH_YEARS = (2020, 2023, 2025, 2028)


def q09_new_year_dates(rng: random.Random) -> Image.Image:
    pts = [(yr, off) for yr, off, _ in NEW_YEAR_DATES]
    img, d, to_px = line_chart(
        600, 380, "Chinese New Year date, 2019-2030", [("New Year's Day", pts, RED)], (2018.5, 2030.5), (-7, 32),
        list(range(2019, 2031)), [0, 10, 20, 30], x_fmt=lambda v: f"'{int(v) % 100:02d}",
        y_fmt=lambda v: {0: "Jan 21", 10: "Jan 31", 20: "Feb 10", 30: "Feb 20"}[v], legend=False,
        x_label="year (leap-month years marked in orange)")
    for i, (yr, off, lab) in enumerate(NEW_YEAR_DATES):
        px, py = to_px((yr, off))
        circle(d, (px, py), 6, fill=RED, outline=WHITE, width=2)
        neighbours = [NEW_YEAR_DATES[k][1] for k in (i - 1, i + 1) if 0 <= k < len(NEW_YEAR_DATES)]
        if off >= max(neighbours):
            text(d, (px, py - 16), lab, size=11)
        elif off <= min(neighbours):
            text(d, (px, py + 16), lab, size=11)
        else:
            text(d, (px + 10, py), lab, size=11, align="l")
        if yr in LEAP_MONTH_YEARS:
            bx = to_px((yr, -7))
            box(d, (bx[0] - 16, bx[1] - 22, bx[0] + 16, bx[1] - 6), "leap", fill=ORANGE, outline=None,
                size=10, text_fill=WHITE, radius=3)
    return img


ZODIAC = ["Rat", "Ox", "Tiger", "Rabbit", "Dragon", "Snake", "Horse", "Goat", "Monkey", "Rooster", "Dog", "Pig"]


def q09_zodiac_wheel(rng: random.Random) -> Image.Image:
    w, h = 420, 440
    img, d = canvas(w, h)
    title(d, w, "The 12-year animal cycle", size=17)
    cx, cy, r = 210, 240, 185
    for i, animal in enumerate(ZODIAC):
        start = -90 + i * 30
        d.pieslice([cx - r, cy - r, cx + r, cy + r], start=start, end=start + 30, fill=CATEGORICAL[i % 10]
                   if i < 10 else [(236, 170, 90), (120, 170, 150)][i - 10], outline=WHITE, width=2)
        mid = math.radians(start + 15)
        tx, ty = cx + r * 0.7 * math.cos(mid), cy + r * 0.7 * math.sin(mid)
        text(d, (tx, ty - 8), animal, size=13, fill=WHITE)
        text(d, (tx, ty + 8), str(2020 + i), size=12, fill=WHITE)
    circle(d, (cx, cy), 62, fill=WHITE)
    text(d, (cx, cy), "animal changes\non Lunar New Year,\nnot Jan 1", size=11)
    return img


def q09_lanterns(rng: random.Random) -> Image.Image:
    w, h = 400, 200
    img, d = canvas(w, h, (120, 16, 24))
    gold = (240, 190, 60)
    confetti(d, rng, w, h, 35, [gold, (200, 80, 60)], r=(1, 3))
    for i in range(7):
        x = 30 + i * 56 + rng.uniform(-6, 6)
        y = rng.uniform(70, 120)
        d.line([(x, 0), (x, y - 30)], fill=gold, width=2)
        d.rectangle([x - 10, y - 34, x + 10, y - 26], fill=gold)
        d.ellipse([x - 26, y - 30, x + 26, y + 24], fill=(225, 40, 40))
        for dx in (-13, 0, 13):
            d.arc([x - 26 + abs(dx), y - 30, x + 26 - abs(dx), y + 24], start=0, end=360, fill=(190, 24, 24), width=1)
        d.rectangle([x - 10, y + 22, x + 10, y + 30], fill=gold)
        for dx in (-4, 0, 4):
            d.line([(x + dx, y + 30), (x + dx, y + 48)], fill=gold, width=1)
    return img


def q09_year_lengths(rng: random.Random) -> Image.Image:
    img, d, to_x = hbar_chart(
        480, 320, "Lunar months vs. the solar year",
        ["12 lunar months", "1 solar year", "13 lunar months (leap year)"], [354, 365.24, 384],
        [(120, 130, 170), ORANGE, (90, 100, 150)], x_max=420, value_fmt=lambda v: f"{v:g} days",
        label_w=200, row_h=56, top=60, note="Leap months are added about 7 times every 19 years.")
    y = 60 + 56 * 3 + 30
    d.line([(to_x(354), 80), (to_x(354), y)], fill=GREY, width=1)
    d.line([(to_x(365.24), 130), (to_x(365.24), y)], fill=GREY, width=1)
    arrow(d, (to_x(354) - 30, y), (to_x(354), y), fill=RED, width=2, head=8)
    arrow(d, (to_x(365.24) + 30, y), (to_x(365.24), y), fill=RED, width=2, head=8)
    text(d, (to_x(354) - 36, y), "11-day gap", size=13, fill=RED, align="r")
    return img


# --- mini-10  Education & Reference: the Dewey Decimal System ---------------

DEWEY_CLASSES = [
    ("000", "Computer science, information & general works"), ("100", "Philosophy & psychology"),
    ("200", "Religion"), ("300", "Social sciences"), ("400", "Language"), ("500", "Science"),
    ("600", "Technology"), ("700", "Arts & recreation"), ("800", "Literature"), ("900", "History & geography"),
]


def q10_ten_classes(rng: random.Random) -> Image.Image:
    w, h = 600, 420
    img, d = canvas(w, h)
    title(d, w, "The ten main classes of the Dewey Decimal System", size=17)
    for i, (num, name) in enumerate(DEWEY_CLASSES):
        col, row = divmod(i, 5)
        x0, y0 = 15 + col * 292, 48 + row * 72
        color = CATEGORICAL[i]
        d.rounded_rectangle([x0, y0, x0 + 280, y0 + 62], radius=8, fill=color)
        d.rounded_rectangle([x0 + 4, y0 + 4, x0 + 70, y0 + 58], radius=6, fill=WHITE)
        text(d, (x0 + 37, y0 + 31), num, size=20, fill=color)
        text(d, (x0 + 78, y0 + 31), name, size=14, fill=WHITE, align="l", max_w=196)
    return img


def _spine(img: Image.Image, d: ImageDraw.ImageDraw, rect: tuple[float, float, float, float], color: Color,
           call: list[str], size: int = 13, highlight: bool = False) -> None:
    x0, y0, x1, y1 = rect
    d.rectangle(rect, fill=color, outline=YELLOW if highlight else INK, width=4 if highlight else 1)
    d.rectangle([x0, y0 + 14, x1, y0 + 20], fill=(255, 255, 255))
    lab_h = (size + 4) * len(call) + 10
    d.rectangle([x0 + 6, y1 - lab_h - 10, x1 - 6, y1 - 10], fill=WHITE, outline=INK, width=1)
    for i, line in enumerate(call):
        text(d, ((x0 + x1) / 2, y1 - lab_h - 5 + (size + 4) * i + size / 2 + 4), line, size=size)


def q10_spine_label(rng: random.Random) -> Image.Image:
    w, h = 520, 420
    img, d = canvas(w, h)
    title(d, w, "Reading a spine label", size=18)
    d.rectangle([70, 40, 190, 410], fill=(36, 98, 72), outline=INK, width=2)
    for yy in (58, 64, 372):
        d.line([(70, yy), (190, yy)], fill=(210, 190, 120), width=2)
    rotated_label(img, (130, 160), "Soccer Skills - R. Pelham", 16, WHITE)
    d.rectangle([84, 262, 176, 360], fill=WHITE, outline=INK, width=1)
    rows = [("796", 282), (".334", 310), ("PEL", 338)]
    for s, yy in rows:
        text(d, (130, yy), s, size=20)
    notes = [
        ("796 = class: athletic & outdoor sports", (40, 60, 140)),
        (".334 = more specific topic: soccer", (40, 110, 60)),
        ("PEL = first 3 letters of the author's last name (Pelham)", (150, 60, 30)),
    ]
    for (s, yy), (note, col), ny in zip(rows, notes, (120, 210, 300)):
        arrow(d, (276, ny), (172, yy), fill=col, width=2, head=9)
        box(d, (276, ny - 32, 510, ny + 32), note, fill=WHITE, outline=col, size=13, text_fill=col, radius=6)
    return img


def q10_shelf_order(rng: random.Random) -> Image.Image:
    w, h = 640, 320
    img, d = canvas(w, h)
    title(d, w, "Finding 796.334 PEL: shelves read left to right", size=17, y=18)
    arrow(d, (40, 44), (600, 44), fill=GREY, width=3)
    books = [("796.3", "ABB"), ("796.33", "KIM"), ("796.334", "LOP"), ("796.334", "PEL"), ("796.35", "BAR"),
             ("796.4", "ZHU")]
    heights = [168, 180, 160, 178, 174, 164]
    shelf = 258
    for i, ((num, cut), ht) in enumerate(zip(books, heights)):
        x0 = 40 + i * 96
        _spine(img, d, (x0, shelf - ht, x0 + 84, shelf), CATEGORICAL[(i * 3) % 10], [num, cut], size=14,
               highlight=cut == "PEL")
    d.rectangle([20, shelf, 620, shelf + 12], fill=BROWN)
    text(d, (40 + 3 * 96 + 42, shelf - 192), "your book", size=12, fill=(190, 140, 0))
    text(d, (w / 2, 288), "Compare decimals digit by digit: 796.3 < 796.33 < 796.334 < 796.35 < 796.4", size=13)
    text(d, (w / 2, 308), "Same number? Sort by the author letters: LOP comes before PEL.", size=13, fill=GREY)
    return img


def q10_drill_down(rng: random.Random) -> Image.Image:
    w, h = 600, 360
    img, d = canvas(w, h)
    title(d, w, "Each extra digit narrows the subject", size=17)
    steps = [("700", "Arts & recreation"), ("790", "Recreational & performing arts"),
             ("796", "Athletic & outdoor sports"), ("796.3", "Ball games"),
             ("796.33", "Football games (ball kicked)"), ("796.334", "Soccer")]
    for i, (num, name) in enumerate(steps):
        x0, y0 = 24 + i * 44, 44 + i * 50
        shade = 210 - i * 26
        col = (shade // 3, int(shade * 0.55), shade)
        d.rounded_rectangle([x0, y0, x0 + 300, y0 + 40], radius=6, fill=col)
        text(d, (x0 + 12, y0 + 20), num, size=17, fill=WHITE, align="l")
        text(d, (x0 + 92, y0 + 20), name, size=14, fill=WHITE, align="l")
        if i:
            elbow_arrow(d, [(x0 - 30, y0 - 10), (x0 - 30, y0 + 20), (x0, y0 + 20)], fill=GREY, width=2, head=8)
    arrow(d, (574, 62), (574, 326), fill=GREY, width=3)
    text(d, (574, 50), "broad", size=13, fill=GREY)
    text(d, (574, 342), "specific", size=13, fill=GREY)
    return img


def q10_bookshelf(rng: random.Random) -> Image.Image:
    w, h = 400, 200
    img, d = canvas(w, h, (176, 124, 80))
    for top, bottom in ((10, 92), (106, 188)):
        d.rectangle([6, top, w - 6, bottom], fill=(92, 58, 34))
        x = 12
        while x < w - 24:
            bw = rng.randint(10, 22)
            bh = rng.randint(52, bottom - top - 4)
            col = rng.choice(CATEGORICAL)
            d.rectangle([x, bottom - bh, x + bw, bottom], fill=col)
            d.line([(x + 2, bottom - bh + 8), (x + bw - 2, bottom - bh + 8)], fill=(240, 230, 200), width=2)
            x += bw + rng.randint(0, 3)
    return img


# --- mini-11  Family & Relationships: reading a family tree ------------------

def _person(d: ImageDraw.ImageDraw, c: tuple[float, float], sex: str, r: int = 14, dead: bool = False) -> None:
    x, y = c
    if sex == "m":
        d.rectangle([x - r, y - r, x + r, y + r], fill=LIGHT_BLUE, outline=INK, width=2)
    elif sex == "f":
        circle(d, c, r, fill=(246, 190, 210), outline=INK, width=2)
    else:
        d.polygon([(x, y - r - 2), (x + r + 2, y), (x, y + r + 2), (x - r - 2, y)], fill=LIGHT, outline=INK)
    if dead:
        d.line([(x - r - 4, y + r + 4), (x + r + 4, y - r - 4)], fill=INK, width=2)


def q11_symbols(rng: random.Random) -> Image.Image:
    w, h = 560, 380
    img, d = canvas(w, h)
    title(d, w, "Family tree chart symbols", size=18)
    items = [("m", "male"), ("f", "female"), ("u", "sex unknown"), ("dead", "deceased (slash or X)")]
    for i, (kind, label) in enumerate(items):
        x, y = 50 + (i % 2) * 270, 70 + (i // 2) * 58
        _person(d, (x, y), "m" if kind == "dead" else kind, dead=kind == "dead")
        text(d, (x + 30, y), label, size=14, align="l")
    # married / divorced
    y = 196
    _person(d, (40, y), "m")
    _person(d, (120, y), "f")
    d.line([(54, y), (106, y)], fill=INK, width=3)
    text(d, (140, y), "married / partners", size=14, align="l")
    _person(d, (310, y), "m")
    _person(d, (390, y), "f")
    d.line([(324, y), (376, y)], fill=INK, width=3)
    for dx in (-6, 4):
        d.line([(350 + dx - 4, y + 10), (350 + dx + 4, y - 10)], fill=INK, width=2)
    text(d, (410, y), "divorced", size=14, align="l")
    # children hanging from a sibling bar
    y0 = 262
    _person(d, (60, y0), "m")
    _person(d, (140, y0), "f")
    d.line([(74, y0), (126, y0)], fill=INK, width=3)
    d.line([(100, y0), (100, y0 + 30)], fill=INK, width=3)
    d.line([(40, y0 + 30), (160, y0 + 30)], fill=INK, width=3)
    for cx, sex in ((40, "f"), (100, "m"), (160, "f")):
        d.line([(cx, y0 + 30), (cx, y0 + 52)], fill=INK, width=3)
        _person(d, (cx, y0 + 66), sex)
    text(d, (200, y0 + 10), "A vertical line drops from the couple to a", size=13, align="l")
    text(d, (200, y0 + 30), "sibling bar; children hang from it,", size=13, align="l")
    text(d, (200, y0 + 50), "oldest on the left.", size=13, align="l")
    text(d, (200, y0 + 80), "Each row = one generation (oldest at the top).", size=13, fill=GREY, align="l")
    return img


def q11_cousin_tree(rng: random.Random) -> Image.Image:
    w, h = 720, 520
    img, d = canvas(w, h)
    title(d, w, "Who is who? Relationships to YOU", size=18)
    rows = {1: 62, 2: 158, 3: 254, 4: 350, 5: 446}
    d.rectangle([10, rows[4] - 34, w - 10, rows[4] + 50], fill=PALE_YELLOW)
    text(d, (18, rows[4] + 40), "your generation: plain cousins", size=11, fill=(150, 110, 0), align="l")
    for g, y in rows.items():
        text(d, (w - 16, y), f"Gen {g}", size=12, fill=GREY, align="r")
    people = {  # name: (x, generation, sex, tag)
        "Ada": (300, 1, "f", None), "Walter": (420, 1, "m", None),
        "June": (200, 2, "f", "grandmother"), "Frank": (520, 2, "m", "great-uncle"),
        "Lisa": (110, 3, "f", "mother"), "Carol": (290, 3, "f", "aunt"), "Paul": (520, 3, "m", "1st cousin 1x removed"),
        "YOU": (110, 4, "u", None), "Sam": (290, 4, "m", "1st cousin"), "Nina": (520, 4, "f", "2nd cousin"),
        "Leo": (290, 5, "m", "1st cousin 1x removed"),
    }
    bw, bh = 96, 34

    def top(n: str) -> tuple[float, float]:
        x, g, _, _ = people[n]
        return x, rows[g] - bh / 2

    def bottom(n: str) -> tuple[float, float]:
        x, g, _, _ = people[n]
        return x, rows[g] + bh / 2

    # lines
    d.line([(348, rows[1]), (372, rows[1])], fill=INK, width=3)
    d.line([(360, rows[1]), (360, 115)], fill=INK, width=3)
    d.line([(200, 115), (520, 115)], fill=INK, width=3)
    for n in ("June", "Frank"):
        d.line([(people[n][0], 115), top(n)], fill=INK, width=3)
    d.line([bottom("June"), (200, 212)], fill=INK, width=3)
    d.line([(110, 212), (290, 212)], fill=INK, width=3)
    for n in ("Lisa", "Carol"):
        d.line([(people[n][0], 212), top(n)], fill=INK, width=3)
    for parent, child in (("Frank", "Paul"), ("Lisa", "YOU"), ("Carol", "Sam"), ("Paul", "Nina"), ("Sam", "Leo")):
        d.line([bottom(parent), top(child)], fill=INK, width=3)
    tag_colors = {"1st cousin": (46, 110, 180), "2nd cousin": (130, 70, 170), "1st cousin 1x removed": (200, 100, 30)}
    for n, (x, g, sex, tag) in people.items():
        y = rows[g]
        fill = {"m": LIGHT_BLUE, "f": (246, 196, 214), "u": YELLOW}[sex]
        if n in ("Ada", "Walter"):
            rect = (x - 48, y - bh / 2, x + 48, y + bh / 2)
        else:
            rect = (x - bw / 2, y - bh / 2, x + bw / 2, y + bh / 2)
        box(d, rect, n, fill=fill, outline=RED if n == "YOU" else INK, size=14, radius=6,
            width=3 if n == "YOU" else 2)
        if tag:
            col = tag_colors.get(tag, GREY)
            tw = font(11).getlength(tag) + 22
            tag_y = y + bh / 2 + 3
            box(d, (x + 6 - tw / 2 + 40, tag_y, x + 6 + tw / 2 + 40, tag_y + 17), tag, fill=col, outline=None,
                size=11, text_fill=WHITE, radius=8)
    text(d, (244, rows[1]), "great-grandparents\n(shared ancestors)", size=11, fill=GREY, align="r")
    text(d, (20, h - 14), "Spouses who married into the family are left out for clarity.", size=11, fill=GREY,
         align="l")
    return img


def q11_cousin_chart(rng: random.Random) -> Image.Image:
    w, h = 600, 468
    img, d = canvas(w, h)
    title(d, w, "Cousin chart: find each person's line from the common ancestor", size=15)
    heads = ["Child", "Grandchild", "Great-grandchild", "2x great-grandchild"]
    names = [
        ["Sibling", "Niece / nephew", "Grand-niece / nephew", "Great-grand-niece / nephew"],
        ["Aunt / uncle", "1st cousin", "1st cousin 1x removed", "1st cousin 2x removed"],
        ["Great-aunt / uncle", "1st cousin 1x removed", "2nd cousin", "2nd cousin 1x removed"],
        ["Great-grand-aunt / uncle", "1st cousin 2x removed", "2nd cousin 1x removed", "3rd cousin"],
    ]
    text(d, (w / 2, 44), "cell = what the column person is to the row person", size=12, fill=GREY)
    c0, cw, r0, rh, top = 130, 115, 52, 74, 58

    def cell(i: int, j: int) -> tuple[float, float, float, float]:
        x = 10 + (0 if j < 0 else c0 + j * cw)
        y = top + (0 if i < 0 else r0 + i * rh)
        return x, y, x + (c0 if j < 0 else cw), y + (r0 if i < 0 else rh)

    box(d, cell(-1, -1), "Common ancestor", fill=(80, 80, 90), outline=WHITE, size=13, text_fill=WHITE, radius=0)
    for k, head in enumerate(heads):
        box(d, cell(-1, k), head, fill=(80, 80, 90), outline=WHITE, size=12, text_fill=WHITE, radius=0)
        box(d, cell(k, -1), head, fill=(80, 80, 90), outline=WHITE, size=12, text_fill=WHITE, radius=0)
    for i in range(4):
        for j in range(4):
            name = names[i][j]
            same = i == j
            fill = LIGHT_GREEN if same else (214, 228, 246)
            if i == 0 or j == 0:
                fill = LIGHT
            box(d, cell(i, j), name, fill=fill, outline=WHITE, size=12, radius=0)
    ly = h - 22
    for x, fill, lab in ((20, LIGHT_GREEN, "same generation: plain cousins"),
                         (260, (214, 228, 246), "different generations: 'removed'"),
                         (500, LIGHT, "direct line")):
        d.rectangle([x, ly - 7, x + 14, ly + 7], fill=fill, outline=GREY)
        text(d, (x + 20, ly), lab, size=11, align="l")
    return img


def q11_dna_shared(rng: random.Random) -> Image.Image:
    labels = ["Full sibling", "Aunt / uncle", "1st cousin", "1st cousin 1x removed", "2nd cousin",
              "2nd cousin 1x removed", "3rd cousin"]
    vals = [50, 25, 12.5, 6.25, 3.13, 1.56, 0.78]
    cols = [(PURPLE if "removed" in lab else TEAL) for lab in labels]
    img, d, _ = hbar_chart(560, 340, "Average DNA shared with relatives", labels, vals, cols, x_max=55,
                           value_fmt=lambda v: f"{v:g}%", label_w=190, row_h=36,
                           note="Averages only: real amounts vary around each value.")
    return img


def q11_tree_clipart(rng: random.Random) -> Image.Image:
    w, h = 300, 300
    img, d = canvas(w, h, (252, 246, 230))
    d.polygon([(135, 290), (142, 170), (110, 130), (140, 140), (150, 110), (160, 140), (192, 124), (160, 172),
               (167, 290)], fill=BROWN)
    palette = [(96, 168, 80), (130, 190, 90), (236, 160, 60), (245, 206, 80), (70, 140, 70)]
    for _ in range(70):
        a = rng.uniform(0, 2 * math.pi)
        rr = rng.uniform(0, 100) ** 0.9
        x, y = 150 + rr * math.cos(a) * 1.1, 110 + rr * math.sin(a) * 0.75
        circle(d, (x, y), rng.randint(10, 20), fill=rng.choice(palette))
    d.ellipse([80, 282, 220, 298], fill=(214, 200, 170))
    return img


def q11_share_buttons(rng: random.Random) -> Image.Image:
    w, h = 400, 150
    img, d = canvas(w, h, (246, 246, 248))
    text(d, (w / 2, 34), "Share this article", size=16, fill=GREY)
    for i, (lab, col) in enumerate((("f", (59, 89, 152)), ("X", (20, 20, 20)), ("in", (0, 119, 181)),
                                    ("@", (120, 120, 120)))):
        x = 80 + i * 80
        box(d, (x - 26, 64, x + 26, 116), lab, fill=col, outline=None, size=22, text_fill=WHITE, radius=10)
    return img


# --- mini-12  Politics & Government: how a bill becomes a law ---------------

def q12_bill_flowchart(rng: random.Random) -> Image.Image:
    w, h = 600, 600
    img, d = canvas(w, h)
    title(d, w, "How a bill becomes a law (U.S. Congress)", size=19)
    steps = [
        "1. Bill introduced in the House or Senate",
        "2. Committee: hearings and markup",
        "3. Floor debate and vote in the first chamber",
        "4. Same steps in the other chamber",
        "5. Differences resolved (conference committee or amendments)",
        "6. President has 10 days to act",
    ]
    cx, bw, bh = 200, 330, 50
    ys = [70 + i * 75 for i in range(len(steps))]
    for i, (s, y) in enumerate(zip(steps, ys)):
        fill = PALE_YELLOW if i == 5 else (226, 236, 248)
        box(d, (cx - bw / 2, y - bh / 2, cx + bw / 2, y + bh / 2), s, fill=fill, outline=BLUE, size=14)
        if i:
            arrow(d, (cx, ys[i - 1] + bh / 2), (cx, y - bh / 2), fill=GREY, width=3)
    text(d, (cx + bw / 2 + 12, ys[1]), "most bills\ndie here", size=13, fill=RED, align="l")
    text(d, (cx + bw / 2 + 12, ys[2]), "House: majority\nSenate: usually 60\nto end debate", size=12, fill=GREY,
         align="l")
    law = (cx - 80, 520, cx + 80, 575)
    box(d, law, "LAW", fill=GREEN, outline=None, size=22, text_fill=WHITE)
    arrow(d, (cx, ys[5] + bh / 2), (cx, law[1]), fill=GREEN, width=4)
    text(d, (cx - 10, (ys[5] + bh / 2 + law[1]) / 2), "signs", size=13, fill=GREEN, align="r")
    veto_box = (420, ys[5] - 45, 590, ys[5] + 45)
    arrow(d, (cx + bw / 2, ys[5]), (veto_box[0], ys[5]), fill=RED, width=4)
    text(d, ((cx + bw / 2 + veto_box[0]) / 2, ys[5] - 12), "vetoes", size=13, fill=RED)
    box(d, veto_box, "Congress can override with 2/3 of BOTH chambers", fill=(248, 214, 214), outline=RED,
        size=13)
    elbow_arrow(d, [(505, veto_box[3]), (505, 548), (law[2], 548)], fill=RED, width=3)
    text(d, (512, 530), "override", size=12, fill=RED, align="l")
    return img


def q12_votes_needed(rng: random.Random) -> Image.Image:
    w, h = 600, 380
    img, d = canvas(w, h)
    title(d, w, "Votes needed when every seat is filled", size=18)
    groups = [
        ("House of Representatives (435 seats)", 435, [("Simple majority", 218, BLUE),
                                                     ("Veto override (2/3)", 290, RED)]),
        ("Senate (100 seats)", 100, [("Simple majority", 51, BLUE), ("Cloture: end a filibuster", 60, ORANGE),
                                     ("Veto override (2/3)", 67, RED)]),
    ]
    left, right, y = 200, 530, 52
    for heading, seats, rows in groups:
        text(d, (20, y + 10), heading, size=15, align="l")
        y += 30
        for lab, val, col in rows:
            text(d, (left - 10, y + 15), lab, size=13, align="r")
            d.rectangle([left, y + 4, right, y + 26], fill=LIGHT)
            d.rectangle([left, y + 4, left + (right - left) * val / seats, y + 26], fill=col)
            text(d, (right + 8, y + 15), f"{val}", size=14, align="l")
            y += 36
        y += 22
    mid = left + (right - left) / 2
    dashed(d, (mid, 80), (mid, y - 20), fill=INK, width=1)
    text(d, (mid, y - 8), "half of the seats", size=11, fill=GREY)
    return img


def q12_veto_paths(rng: random.Random) -> Image.Image:
    w, h = 680, 380
    img, d = canvas(w, h)
    box(d, (230, 12, 450, 52), "Bill reaches the President", fill=PALE_YELLOW, outline=INK, size=15)
    cols = [110, 340, 570]
    for cx, lab, col in zip(cols, ["Signs", "Vetoes", "No action for 10 days\n(Sundays excepted)"],
                            [GREEN, RED, GREY]):
        arrow(d, (340, 52), (cx, 92), fill=col, width=3)
        box(d, (cx - 100, 94, cx + 100, 140), lab, fill=WHITE, outline=col, size=14, text_fill=col)
    law = dict(fill=GREEN, outline=None, text_fill=WHITE, size=14)
    dead = dict(fill=(150, 40, 40), outline=None, text_fill=WHITE, size=14)
    arrow(d, (110, 140), (110, 290), fill=GREEN, width=3)
    box(d, (40, 292, 180, 340), "LAW", **law)
    arrow(d, (340, 140), (340, 172), fill=RED, width=3)
    box(d, (240, 174, 440, 230), "Back to Congress: 2/3 of House AND Senate vote to override?", fill=WHITE,
        outline=RED, size=13)
    arrow(d, (300, 230), (280, 290), fill=GREEN, width=3)
    text(d, (280, 256), "Yes", size=13, fill=GREEN, align="r")
    box(d, (210, 292, 320, 340), "LAW", **law)
    arrow(d, (380, 230), (400, 290), fill=RED, width=3)
    text(d, (400, 256), "No", size=13, fill=RED, align="l")
    box(d, (345, 292, 455, 340), "Bill dies", **dead)
    arrow(d, (530, 140), (530, 290), fill=GREY, width=3)
    arrow(d, (610, 140), (610, 290), fill=GREY, width=3)
    text(d, (524, 200), "Congress\nin session", size=11, fill=GREY, align="r")
    text(d, (616, 200), "Congress\nadjourned", size=11, fill=GREY, align="l")
    box(d, (470, 292, 565, 350), "LAW without signature", **law)
    box(d, (570, 292, 675, 350), "Pocket veto: bill dies", **dead)
    text(d, (w / 2, 366), "A vetoed or pocket-vetoed bill must start over as a new bill.", size=12, fill=GREY)
    return img


def q12_capitol(rng: random.Random) -> Image.Image:
    w, h = 480, 320
    img, d = canvas(w, h, (150, 200, 240))
    for _ in range(5):
        x, y = rng.uniform(20, 460), rng.uniform(15, 90)
        for dx in (-22, 0, 22):
            d.ellipse([x + dx - 26, y - 14, x + dx + 26, y + 14], fill=(245, 248, 252))
    d.rectangle([0, 260, w, h], fill=(96, 160, 80))
    stone, shadow = (240, 238, 230), (200, 196, 186)
    d.rectangle([60, 190, 420, 262], fill=stone)                    # wings
    for x in range(70, 420, 18):
        d.rectangle([x, 200, x + 6, 258], fill=shadow)
    d.rectangle([180, 160, 300, 262], fill=stone)                   # centre block
    d.polygon([(170, 162), (240, 130), (310, 162)], fill=stone, outline=shadow)
    d.rectangle([195, 100, 285, 135], fill=stone)                   # drum
    for x in range(198, 285, 10):
        d.rectangle([x, 104, x + 4, 133], fill=shadow)
    d.pieslice([190, 40, 290, 160], start=180, end=360, fill=stone, outline=shadow)   # dome
    d.rectangle([232, 26, 248, 42], fill=stone)
    d.line([(240, 8), (240, 26)], fill=(80, 80, 80), width=3)
    d.rectangle([140, 258, 340, 266], fill=shadow)                  # steps
    return img


def q12_flag_ad(rng: random.Random) -> Image.Image:
    img, d = ad_banner(rng, 468, 180, (18, 40, 90), RED, "FLAG DAY SALE", "20% off all flags & poles", "SHOP NOW",
                       text_x=190)
    fx, fy = 26, 40
    for i in range(7):
        d.rectangle([fx, fy + i * 14, fx + 140, fy + i * 14 + 7], fill=RED)
        d.rectangle([fx, fy + i * 14 + 7, fx + 140, fy + i * 14 + 14], fill=WHITE)
    d.rectangle([fx, fy, fx + 60, fy + 49], fill=(30, 50, 120))
    for r in range(4):
        for c in range(5):
            circle(d, (fx + 7 + c * 12, fy + 7 + r * 12), 2, fill=WHITE)
    d.line([(fx - 4, fy - 6), (fx - 4, 170)], fill=(200, 200, 200), width=4)
    return img


# ---------------------------------------------------------------------------
# 3. Queries
# ---------------------------------------------------------------------------

def piece(score: int, text_: str, evaluation: str) -> dict:
    """One text piece of a crawled page (``text_`` may hold ``<IMAGE_PLACEHOLDER>[id]`` markers)."""
    return dict(text=text_, score=score, evaluation=evaluation)


def image(draw, fmt: str, final_score: int | None, caption: str | None, source_url: str, **extra) -> dict:
    """An image entry; ``final_score=None`` and ``caption=None`` mark an image the filter dropped."""
    return dict(draw=draw, fmt=fmt, final_score=final_score, caption=caption, source_url=source_url, **extra)


# --- mini-07  Sports --------------------------------------------------------

MINI_07 = dict(
    query_id="mini-07",
    content="Explain like I'm five: how does the offside rule in soccer work, and why do some goals get "
            "disallowed for offside even when the striker seemed level with the defender?",
    topic="Sports",
    level=1,
    webpages=[
        dict(
            title="Offside, explained: the soccer rule every new fan asks about",
            url="https://pitchside-guide.example/rules/offside-explained",
            snippet="A plain-language walkthrough of Law 11: what an offside position is, when it becomes an "
                    "offence, and the restarts where offside cannot happen.",
            pieces=[
                piece(1, "We use cookies to remember your favourite teams and to measure site traffic. By continuing "
                         "to browse Pitchside Guide you agree to our cookie policy. Accept all | Manage preferences",
                      "Cookie consent banner; nothing about offside."),
                piece(9, "If you have ever watched a striker wheel away celebrating, only to see the assistant "
                         "referee's flag go up, you have met the offside rule. It is Law 11 of the Laws of the Game "
                         "and it exists for one simple reason: to stop attackers from camping next to the opposing "
                         "goalkeeper and waiting for a long ball. Without it, a team could leave a 'goal hanger' up "
                         "front all match and the game would turn into hopeful punts toward that player. Offside "
                         "forces attackers to stay roughly in line with the defence and to time their runs.",
                      "Introduces the rule and why it exists; directly relevant."),
                piece(10, "The key idea is the offside position. A player is in an offside position if any part of "
                          "their head, body or feet is in the opponents' half (the halfway line itself does not "
                          "count) and nearer to the opponents' goal line than both the ball and the second-last "
                          "opponent. Arms and hands are ignored, because a player cannot legally play the ball with "
                          "them anyway. Why the second-last opponent? Usually the goalkeeper is the last one, so in "
                          "practice the line is set by the deepest outfield defender. <IMAGE_PLACEHOLDER>[1] Being "
                          "exactly level with the second-last opponent, or level with the last two opponents, counts "
                          "as onside: ties go to the attacker.",
                      "Precise definition of offside position with a diagram; the core of the answer."),
                piece(9, "Being in an offside position is not an offence on its own. A player standing offside who "
                         "never touches the ball or affects the play is simply ignored. The referee only penalises "
                         "the player if, at the moment a team-mate plays or touches the ball, they then become "
                         "involved in active play in one of three ways: interfering with play (playing or touching "
                         "the ball), interfering with an opponent (for example blocking the goalkeeper's line of "
                         "sight or challenging for the ball), or gaining an advantage (such as collecting a rebound "
                         "off the post or the keeper).",
                      "Explains when an offside position becomes an offence; essential."),
                piece(9, "The part that confuses most new fans is timing. Offside is judged at the instant the pass "
                         "is made, not when the ball arrives. A striker who is level with the last defender when the "
                         "ball leaves the passer's foot can sprint past that defender and receive the ball well "
                         "behind the defensive line. That is perfectly legal, and it is exactly how most great "
                         "through-balls work. <IMAGE_PLACEHOLDER>[2] So if a goal looks fine on the replay of the "
                         "shot, check the earlier freeze-frame at the moment of the pass instead: that is the one "
                         "the officials use.",
                      "Clarifies that position is judged when the pass is played; answers the 'why disallowed' part."),
                piece(8, "There are also situations where offside simply cannot happen. You cannot be offside in your "
                         "own half, and you cannot be offside if you are level with or behind the ball. There is no "
                         "offside offence when a player receives the ball directly from a goal kick, a throw-in or a "
                         "corner kick. And if a defender deliberately plays the ball (rather than making a save or "
                         "suffering a deflection), an attacker who was in an offside position is normally not "
                         "penalised.",
                      "Lists the exceptions and restarts where offside does not apply; relevant detail."),
                piece(8, "When an offside offence is called, play stops and the defending team is awarded an indirect "
                         "free kick from the place where the offending player became involved. If the ball went in, "
                         "the goal does not count, which is why celebrations sometimes end abruptly.",
                      "States the penalty for offside and why goals are cancelled; relevant."),
                piece(1, "Next in this series: Handball explained | Related: How VAR works, The advantage rule, "
                         "Penalty kick basics | Share this article",
                      "Series navigation and share links; no information."),
            ],
            images={
                1: image(q07_offside_position, "png", 10,
                         "Top-down diagram of the attacking half of a green soccer pitch, with play moving toward the "
                         "goal on the right. Blue circles mark three outfield defenders and the goalkeeper, and a "
                         "dashed yellow line through the deepest outfield defender is labelled 'offside line (2nd-last "
                         "defender)'. A red attacker beyond that line is tagged 'OFFSIDE' while another red attacker "
                         "short of it is tagged 'ONSIDE'; dashed white arrows show the pass from the team-mate with "
                         "the ball, and a legend explains the symbols.",
                         "https://pitchside-guide.example/img/offside-position-diagram.png"),
                2: image(q07_judged_at_pass, "png", 8,
                         "Two-panel diagram titled 'Judged at the moment of the pass'. In panel 1, 'Pass is played', a "
                         "red attacker stands exactly on the dashed line of the second-last defender (tagged 'level') "
                         "as a team-mate plays the ball forward; the caption bar reads 'ONSIDE: level with 2nd-last "
                         "defender'. In panel 2, 'Ball arrives', the same attacker has run past the defender and "
                         "collects the ball, with the note 'Still onside: position judged when the pass is made'.",
                         "https://pitchside-guide.example/img/offside-timing.png"),
            },
        ),
        dict(
            title="Coach's Corner FAQ: teaching offside to young players",
            url="https://youthsoccer-coaches.example/faq/offside",
            snippet="Short answers to the offside questions parents and new coaches ask most, from 'is level "
                    "onside?' to how the offside trap works.",
            pieces=[
                piece(8, "Q: What is the shortest way to explain offside to a ten-year-old?\nA: 'When your team-mate "
                         "passes to you in the other team's half, at least two of their players - usually the goalie "
                         "plus one defender - must be level with you or between you and their goal line. If not, and "
                         "you then play the ball, it's offside.' Kids get it much faster when you walk it through on "
                         "the pitch with cones than when you draw it on a whiteboard.",
                      "Kid-friendly summary of the rule; strongly relevant to an ELI5 question."),
                piece(7, "Q: Is 'level' onside?\nA: Yes. If the attacker's head, body or feet are exactly level with "
                         "the second-last defender, the attacker is onside. Younger assistant referees sometimes flag "
                         "these too quickly, so remind your players to keep running until they hear the whistle.",
                      "Answers the level-with-the-defender question; relevant."),
                piece(4, "Q: Do small-sided games use offside?\nA: That depends on your league, so check the handbook "
                         "before the season. Many recreational formats for the youngest age groups drop it so that "
                         "children can focus on passing and moving; it is usually introduced when teams move up to "
                         "bigger pitches.",
                      "League-specific youth detail; only loosely tied to how the rule works."),
                piece(8, "Q: Who decides offside during a game?\nA: With a full officiating team, the assistant "
                         "referee on each touchline moves up and down to stay in line with the second-last defender, "
                         "which gives them the best view of the offside line. When they see an offence they raise "
                         "the flag and the referee blows the whistle. In youth games with only a centre referee, "
                         "expect more close calls to be missed: it is hard to judge a line from 30 metres away.",
                      "Explains how officials judge offside; relevant supporting detail."),
                piece(7, "Q: What is the 'offside trap'?\nA: A defensive tactic where the back line steps forward "
                         "together just before an opponent passes, leaving attackers stranded in an offside "
                         "position. It only works if the whole line moves as one; a single defender who lags behind "
                         "keeps every attacker onside. We don't recommend drilling it with under-12s - teach good "
                         "positioning first.",
                      "Describes the offside trap; related tactical context."),
                piece(2, "Join 12,000 coaches who get our free weekly practice plan! Enter your email below and we'll "
                         "send you 52 drills, printable session cards and a season planner. Unsubscribe at any time.",
                      "Newsletter sign-up; irrelevant."),
            ],
            images={},
        ),
        dict(
            title="ELI5: offside in soccer - why was that goal disallowed?",
            url="https://fanforum.example/threads/eli5-offside-why-disallowed",
            snippet="Forum thread where fans explain offside with a playground analogy, plus how VAR draws lines "
                    "to check tight calls.",
            pieces=[
                piece(2, "Forums > Football Talk > Rules & Refereeing | Log in | Register | Search threads",
                      "Forum breadcrumb navigation; no content."),
                piece(6, "lurker_22 wrote: Watching the match last night, our striker scored what looked like a great "
                         "goal, then it got cancelled after a long wait. The commentators said 'offside by a "
                         "toenail'. Can someone explain like I'm five what offside even is, and why it takes so long "
                         "to decide?",
                      "Restates the question the thread answers; sets context."),
                piece(9, "oldschool_keeper replied: Think of it like tag where you're not allowed to sneak in behind "
                         "the other team before the game starts. When your team-mate kicks the ball forward to you, "
                         "at least two of the other team (normally the keeper and one defender) have to be as close "
                         "to their goal as you are, or closer. If you were already past them at the moment of the "
                         "kick, you were 'hiding' near their goal: offside. If you were level or behind and then ran "
                         "past after the kick, that's fair - it's called beating the offside trap.",
                      "Clear ELI5 analogy covering the core rule and the timing."),
                piece(7, "var_watcher replied: The long wait was VAR. For a goal, the video officials find the exact "
                         "frame when the pass was played, then draw one line through the attacker's furthest-forward "
                         "body part that can legally score and another through the second-last defender. If the "
                         "attacker's line is nearer the goal, it's offside, however small the gap. "
                         "<IMAGE_PLACEHOLDER>[1] Arms don't count, which is why you see them lining up shoulders, "
                         "knees and heels rather than hands. Some competitions now use semi-automated tracking "
                         "cameras to speed this up.",
                      "Explains how VAR checks tight offside calls; relevant to the disallowed goal."),
                piece(1, "fantasy_fanatic replied: off topic but does anyone know if the striker is fit for the "
                         "weekend? I've got him captained in my fantasy team and I'm panicking lol",
                      "Off-topic fantasy football aside."),
                piece(6, "lurker_22 replied: Ahh that makes sense - so it's about where he was when the ball was "
                         "kicked, not where he was when he scored. Thanks all!",
                      "Summarises the key timing point; moderately useful."),
            ],
            images={
                1: image(q07_var_check, "webp", 6,
                         "Simulated VAR freeze-frame of a striped green pitch under a dark crowd, with a banner "
                         "reading 'VAR CHECK - OFFSIDE'. Two simple player figures stand side by side: a red vertical "
                         "line runs through the attacker's forward knee and a blue line through the second-last "
                         "defender's heel, and a callout says 'attacker's knee 12 cm ahead of defender'. An arrow at "
                         "the bottom marks the direction towards goal.",
                         "https://fanforum.example/attachments/var-lines-freeze-frame.webp"),
            },
        ),
        dict(
            title="A short history of the offside law",
            url="https://soccerhistory.example/laws/offside-history",
            snippet="From the three-opponent requirement of early football to the two-opponent version adopted in "
                    "1925, how the offside law has changed over time.",
            pieces=None,
            images={},
        ),
    ],
    aux_images=[
        image(q07_decision_flowchart, "png", 9,
              "Flowchart titled 'Is it an offside offence?' with four yellow question boxes stacked vertically: 'Is "
              "the attacker in the opponents' half?', 'Nearer the goal line than the ball AND the 2nd-last defender "
              "when a team-mate plays it?', 'Received straight from a goal kick, throw-in or corner?' and 'Involved "
              "in active play?'. Side arrows lead to green outcomes 'ONSIDE' or 'NO OFFENCE', and the final 'Yes' "
              "leads to a red box 'OFFSIDE: indirect free kick to the defending team'; a footnote says level counts "
              "as onside.",
              "https://refereeacademy.example/img/offside-decision-flowchart.png",
              context_url="https://refereeacademy.example/guides/offside-decision"),
        image(q07_boot_ad, "jpeg", 2,
              "Advertising banner for 'STRIKER X9' football boots with the line 'New season boots - 30% OFF' and an "
              "orange 'SHOP NOW' button beside a stylised orange boot on a dark navy background with confetti dots. "
              "It contains no information about the offside rule.",
              "https://sportsdeals.example/banners/striker-x9-468x200.jpg",
              context_url="https://sportsdeals.example/football/boots"),
    ],
)


# --- mini-08  Business & Finance -------------------------------------------

MINI_08 = dict(
    query_id="mini-08",
    content="Explain like I'm five: how does compound interest work, and why do people say it makes savings "
            "'snowball' over time?",
    topic="Business & Finance",
    level=1,
    webpages=[
        dict(
            title="Simple vs. compound interest: a plain-English guide",
            url="https://moneybasics.example/learn/simple-vs-compound-interest",
            snippet="See how $1,000 at 5% grows to $2,500 with simple interest but to about $4,322 with yearly "
                    "compounding over 30 years.",
            pieces=[
                piece(1, "This site uses cookies and similar technologies to personalise content and ads. You can "
                         "change your choices at any time in Privacy Settings. [Accept] [Reject non-essential]",
                      "Cookie notice; irrelevant."),
                piece(8, "Interest is the price of using money. When you put money in a savings account, the bank "
                         "pays you interest for letting it use your cash; when you borrow, you pay interest to the "
                         "lender. The starting amount is called the principal. What matters for your long-term "
                         "result is not only the rate, but whether interest is paid on the principal alone or on the "
                         "growing balance.",
                      "Defines interest and principal; foundational."),
                piece(9, "With simple interest you earn interest only on the original principal. Put $1,000 in an "
                         "account paying 5% simple interest and you earn $50 every year, no matter how long you wait: "
                         "$1,050 after one year, $1,500 after ten years and $2,500 after thirty. The growth is a "
                         "straight line, because every year adds the same amount.",
                      "Worked simple-interest example; needed for the comparison."),
                piece(10, "Compound interest pays interest on the principal and on the interest you have already "
                          "earned. At 5% compounded once a year, the first year still gives you $50. But in year two "
                          "you earn 5% of $1,050, which is $52.50, and in year three 5% of $1,102.50, about $55.13. "
                          "Each year's interest is a little bigger than the last. <IMAGE_PLACEHOLDER>[1] After ten "
                          "years the balance is about $1,629, after twenty about $2,653 and after thirty about "
                          "$4,322 - more than $1,800 ahead of simple interest, without adding a single extra dollar.",
                      "Core explanation with year-by-year numbers and a chart; directly answers the question."),
                piece(8, "The formula behind the curve is A = P x (1 + r)^n, where P is the principal, r the yearly "
                         "rate written as a decimal and n the number of years. For our example, A = 1,000 x 1.05^30, "
                         "which is about 4,321.94. If interest is added more often than once a year, divide the rate "
                         "by the number of periods and multiply the exponent by it: monthly compounding uses "
                         "(1 + 0.05/12)^(12 x years).",
                      "Gives the compound interest formula; useful for understanding the mechanism."),
                piece(8, "A handy shortcut is the Rule of 72: divide 72 by the interest rate to estimate how many "
                         "years it takes your money to double. At 6% that is about 12 years; at 9%, about 8. It works "
                         "because compound growth is exponential: every doubling takes the same time, so the later "
                         "doublings add far more dollars than the early ones. That is the 'snowball' people talk "
                         "about.",
                      "Rule of 72 and repeated doubling explain the snowball effect; relevant."),
                piece(2, "Related articles: What is an index fund? | How credit scores work | 10 budgeting apps "
                         "compared | Subscribe to MoneyBasics Weekly",
                      "Related-links list and subscription prompt; no content."),
            ],
            images={
                1: image(q08_simple_vs_compound, "png", 10,
                         "Line chart titled '$1,000 at 5%: simple vs. compound interest', with years 0-30 on the "
                         "x-axis and balance in dollars on the y-axis. A straight grey line for simple interest rises "
                         "to $2,500 at year 30, while a curved green line for yearly compounding bends upward to about "
                         "$4,322, with $1,629 marked at year 10. The shaded green gap between the lines is labelled "
                         "'interest on interest'.",
                         "https://moneybasics.example/img/simple-vs-compound-30yr.png"),
            },
        ),
        dict(
            title="How often does your interest compound - and does it matter?",
            url="https://harborline-bank.example/blog/compounding-frequency",
            snippet="Annual, monthly or daily compounding: what the difference means for your savings, and why "
                    "you should compare accounts by APY.",
            pieces=[
                piece(0, "<IMAGE_PLACEHOLDER>[1] Personal | Business | Mortgages | Savings | Blog | Find a branch | "
                         "Log in",
                      "Site header and navigation with the bank logo; no relevant content."),
                piece(7, "Most savings accounts don't wait a full year to add interest. Many compound daily or "
                         "monthly, which means earned interest joins your balance more often and starts earning "
                         "interest of its own sooner. The more often compounding happens, the slightly faster your "
                         "balance grows - but, as you'll see, the difference is smaller than many people expect.",
                      "Introduces compounding frequency; related to how compounding works."),
                piece(7, "Here's an example: $10,000 at a 5% annual rate, left alone for ten years. Compounded "
                         "annually it grows to $16,288.95. Quarterly compounding gives $16,436.19, monthly $16,470.09 "
                         "and daily $16,486.65. <IMAGE_PLACEHOLDER>[2] Going from annual to daily compounding adds "
                         "about $198 over a decade. Useful, but the rate you earn and how long you stay invested "
                         "matter far more.",
                      "Quantifies the effect of compounding frequency with a chart; supporting detail."),
                piece(7, "That's why U.S. banks advertise the APY, or annual percentage yield, alongside the interest "
                         "rate. APY folds compounding into one number: a 5% rate compounded monthly works out to an "
                         "APY of about 5.12%, and compounded daily about 5.13%. When comparing accounts, compare "
                         "APYs, not headline rates.",
                      "Explains APY as the way compounding is reported; relevant but secondary."),
                piece(8, "Compounding works against you, too. Credit card balances typically accrue interest daily, "
                         "and unpaid interest is added to what you owe. At a 24% APR, a $2,000 balance that you never "
                         "pay down grows by roughly $540 in a year. Paying in full each month stops the snowball "
                         "from rolling the wrong way.",
                      "Shows compounding on debt; relevant counterpoint."),
                piece(2, "Ready to put compounding to work? Open a Harborline High-Yield Saver in minutes. Member "
                         "FDIC. Rates subject to change; see account disclosures for details.",
                      "Promotional text for a bank product; not informative."),
            ],
            images={
                1: image(q08_bank_logo, "png", None, None,
                         "https://harborline-bank.example/static/logo-harborline.png"),
                2: image(q08_frequency_bars, "png", 7,
                         "Bar chart titled '$10,000 at 5% after 10 years, by compounding frequency', with four blue "
                         "bars: Annually $16,289, Quarterly $16,436, Monthly $16,470 and Daily $16,487. An orange "
                         "dashed line marks the starting deposit of $10,000. The bars are almost the same height, and "
                         "a footnote says daily compounding adds only about $198 more than annual over ten years.",
                         "https://harborline-bank.example/blog/img/compounding-frequency-10k.png"),
            },
        ),
        dict(
            title="ELI5 compound interest? My dad keeps saying 'start saving now'",
            url="https://pennywise-forum.example/t/eli5-compound-interest/4471",
            snippet="Community answers using a snowball analogy and the classic example of two savers who start "
                    "ten years apart.",
            pieces=[
                piece(6, "newgrad_jess: My dad keeps telling me to start putting money into a retirement account now, "
                         "even though it's only like $150 a month. He says compound interest will 'snowball'. Can "
                         "someone explain like I'm five why starting at 25 instead of 35 is such a big deal?",
                      "Question framing; establishes the context."),
                piece(9, "frugal_fox: Picture rolling a snowball down a hill. At first it's tiny and picks up only a "
                         "little snow each turn. But the bigger it gets, the more surface it has, so every roll picks "
                         "up more snow than the last. Your money works the same way: interest gets added to the pile, "
                         "and next year's interest is calculated on the bigger pile. The snow you picked up early is "
                         "what makes the later rolls huge - that's why time matters more than almost anything else.",
                      "Snowball analogy directly explains compounding."),
                piece(10, "spreadsheet_sam: Classic example, assuming a 7% average yearly return. Saver A puts in "
                          "$2,000 a year from age 25 to 34 and then never adds another cent: $20,000 in total. Saver "
                          "B waits, then puts in $2,000 a year from 35 all the way to 64: $60,000 in total. At 65, A "
                          "has about $225,000 and B about $202,000. <IMAGE_PLACEHOLDER>[1] A put in a third as much "
                          "money and still ends up ahead, purely because A's money had ten extra years to compound. "
                          "(Real returns bounce around, so treat this as an illustration, not a promise.)",
                      "Worked early-vs-late saver example with a chart; strongly answers the 'why start early' angle."),
                piece(2, "moonshot99: just put it all in the new coin my cousin told me about, 100x guaranteed",
                      "Off-topic, unhelpful speculation advice."),
                piece(7, "frugal_fox: @newgrad_jess also remember it cuts both ways - carrying a credit card balance "
                         "is compound interest working against you. Knock out high-interest debt first, then let the "
                         "snowball roll in your favour.",
                      "Reinforces that compounding also applies to debt; relevant practical point."),
                piece(1, "Forum rules | Privacy | Contact moderators | (c) PennyWise Community",
                      "Footer links; no content."),
            ],
            images={
                1: image(q08_two_savers, "png", 9,
                         "Grouped bar chart titled 'Starting early: two savers at a 7% yearly return'. Saver A "
                         "($2,000 a year, ages 25-34) put in $20,000 (light green bar) and has $225,073 at 65 (dark "
                         "green bar); Saver B ($2,000 a year, ages 35-64) put in $60,000 and has $202,146. A footnote "
                         "explains that Saver A invests a third as much but ends up ahead thanks to ten extra years "
                         "of compounding.",
                         "https://pennywise-forum.example/attachments/two-savers-7pct.png"),
            },
        ),
    ],
    aux_images=[
        image(q08_rule_of_72, "webp", 8,
              "Bar chart titled 'Rule of 72: years for money to double' with interest rates of 2%, 4%, 6%, 8%, 10% "
              "and 12% on the x-axis. Light orange bars show the Rule of 72 estimates (36, 18, 12, 9, 7.2 and 6 "
              "years) and darker orange dots mark the exact compound-interest doubling times, which sit almost on "
              "top of each bar, showing the shortcut is accurate.",
              "https://investor-ed.example/img/rule-of-72-chart.webp",
              context_url="https://investor-ed.example/tools/rule-of-72"),
        image(q08_piggy_ad, "jpeg", 3,
              "Advertisement showing a pink cartoon piggy bank with a gold dollar coin above its slot and the text "
              "'Open a Saver+ account today' with a 'Bonus $50*' button and small print 'terms apply'. It is a "
              "promotional graphic with no explanation of how interest compounds.",
              "https://savings-promos.example/ads/saver-plus-piggy.jpg",
              context_url="https://savings-promos.example/offers"),
    ],
)


# --- mini-09  Society & Culture ----------------------------------------------

MINI_09 = dict(
    query_id="mini-09",
    content="Why does Chinese New Year fall on a different date every year, when January 1 never moves?",
    topic="Society & Culture",
    level=2,
    webpages=[
        dict(
            title="Why the Lunar New Year moves around the calendar",
            url="https://culturecompass.example/festivals/why-lunar-new-year-moves",
            snippet="Chinese New Year follows a lunisolar calendar tied to the moon and the winter solstice, which "
                    "is why it always lands between January 21 and February 20.",
            pieces=[
                piece(9, "Ask a friend when Chinese New Year is and you may get a shrug: 'sometime in late January "
                         "or February.' That isn't vagueness - the festival genuinely moves. January 1 is fixed "
                         "because the Gregorian calendar used in most of the world is purely solar: it tracks "
                         "Earth's trip around the sun. The traditional Chinese calendar, which sets the date of the "
                         "New Year (also called the Spring Festival), is lunisolar. Its months follow the moon, but it "
                         "is adjusted to stay in step with the seasons.",
                      "States the core reason: a lunisolar calendar versus a solar one."),
                piece(8, "In the Chinese calendar every month begins on the day of a new moon, when the moon is "
                         "invisible from Earth. The moon takes about 29.5 days to go from new moon to full moon and "
                         "back, so months alternate between 29 and 30 days. <IMAGE_PLACEHOLDER>[1] Twelve of these "
                         "months add up to only about 354 days - roughly 11 days shorter than the 365-day solar year.",
                      "Explains lunar months and the 354-day year; key mechanism."),
                piece(9, "If nothing were done, that 11-day gap would pile up and the New Year would drift through "
                         "every season, which is exactly what happens with the purely lunar Islamic calendar. The "
                         "Chinese calendar avoids this by inserting an extra 'leap month' about seven times every "
                         "nineteen years. A year with a leap month has 13 months, around 383 to 385 days, and that "
                         "pulls the calendar back into line with the sun.",
                      "Explains how leap months keep the calendar aligned; essential to the answer."),
                piece(10, "The rule that pins down the date is tied to the winter solstice, the shortest day of the "
                          "year in the northern hemisphere, around December 21 or 22. The month containing the "
                          "solstice is always the 11th month, and in almost every year New Year's Day is the second "
                          "new moon after the solstice (in rare years with a leap month squeezed in between, it is "
                          "the third). For 2024, for example, the solstice fell on December 22, 2023, the next new "
                          "moon came on January 11, and the one after that - February 10 - was New Year's Day. "
                          "<IMAGE_PLACEHOLDER>[2]",
                      "Gives the precise date rule with a worked 2024 example; directly answers the question."),
                piece(2, "Love learning about festivals around the world? Get our monthly Culture Compass digest with "
                         "recipes, crafts and travel tips. Sign up now and download a free printable world holiday "
                         "calendar.",
                      "Newsletter promotion; irrelevant."),
                piece(9, "Because the New Year is the second new moon after a date that barely moves, it can only "
                         "land in a window of about 30 days: between January 21 and February 20 on the Gregorian "
                         "calendar. In practice it slides about 11 days earlier from one year to the next, then jumps "
                         "18 or 19 days later after a year that contained a leap month.",
                      "Explains the Jan 21 - Feb 20 window and the year-to-year pattern."),
            ],
            images={
                1: image(q09_moon_phases, "png", 7,
                         "Row of nine moon icons on a dark night-sky background showing the phases from new moon "
                         "through first quarter, full moon and last quarter back to the next new moon, each labelled "
                         "with its approximate day (day 0 to day 29.5). A bracket underneath reads 'one lunar month = "
                         "about 29.5 days', and a note says each Chinese calendar month starts on a new moon and 12 "
                         "months are about 354 days, 11 days short of a solar year.",
                         "https://culturecompass.example/img/moon-phase-month.png"),
                2: image(q09_solstice_timeline, "png", 9,
                         "Timeline from mid-December 2023 to the end of February 2024 titled '2024: New Year = 2nd new "
                         "moon after the winter solstice'. An orange sun marks the winter solstice on Dec 22, 2023, a "
                         "dark disc marks the first new moon on Jan 11 ('12th month begins'), and a red-ringed disc "
                         "marks the second new moon on Feb 10, labelled 'LUNAR NEW YEAR'. A pink band shades the "
                         "possible window from Jan 21 to Feb 20, and arrows note the gaps of 20 days and about 29.5 "
                         "days between the markers.",
                         "https://culturecompass.example/img/solstice-to-new-year-2024.png"),
            },
        ),
        dict(
            title="Lunar New Year dates 2019-2030: quick reference",
            url="https://holidaydates.example/lunar-new-year-dates",
            snippet="Chinese New Year dates and zodiac animals for 2019-2030, with a chart showing how the date "
                    "zigzags from year to year.",
            pieces=[
                piece(1, "Advertisement - Book cheap flights to Asia! Compare 500+ airlines. Deals from $399 round "
                         "trip.",
                      "Advert; irrelevant."),
                piece(8, "Chinese New Year (Spring Festival) dates: 2019 - February 5 | 2020 - January 25 | 2021 - "
                         "February 12 | 2022 - February 1 | 2023 - January 22 | 2024 - February 10 | 2025 - January 29 "
                         "| 2026 - February 17 | 2027 - February 6 | 2028 - January 26 | 2029 - February 13 | 2030 - "
                         "February 3. Dates are for China (UTC+8); family celebrations begin the evening before, on "
                         "New Year's Eve.",
                      "Concrete list of dates showing the variation; relevant evidence."),
                piece(9, "Plot the dates and a zigzag appears. <IMAGE_PLACEHOLDER>[1] Most years the date moves about "
                         "10 to 12 days earlier, because twelve lunar months are shorter than a solar year. Every two "
                         "or three years it jumps 18 or 19 days later instead: 2020, 2023, 2025 and 2028 each contain "
                         "a leap month, so the following New Year arrives late.",
                      "Chart and explanation of the zigzag caused by leap months; directly relevant."),
                piece(5, "Each year is also linked to one of twelve animals in a repeating cycle: Rat, Ox, Tiger, "
                         "Rabbit, Dragon, Snake, Horse, Goat, Monkey, Rooster, Dog and Pig. 2024 was the Year of the "
                         "Dragon, 2025 the Year of the Snake and 2026 the Year of the Horse. <IMAGE_PLACEHOLDER>[2] "
                         "The animal changes on Lunar New Year, not on January 1, so a baby born on January 20, 2025 "
                         "is still a Dragon.",
                      "Zodiac cycle; cultural context only indirectly about the date."),
                piece(6, "Other holidays move for similar reasons. Easter depends on the first full moon after the "
                         "March equinox, and Diwali and the Jewish holidays follow lunisolar calendars, so they also "
                         "wander within a window of a few weeks. Ramadan is different: the Islamic calendar has no "
                         "leap months, so it moves about 11 days earlier every year and travels through all the "
                         "seasons.",
                      "Comparison with other moving holidays; useful context."),
                piece(2, "Share this page: Facebook | X | Email | Print. Last updated by the HolidayDates team. "
                         "Spotted a mistake? Report an error.",
                      "Share buttons and footer; no content."),
            ],
            images={
                1: image(q09_new_year_dates, "png", 9,
                         "Line chart titled 'Chinese New Year date, 2019-2030', with years on the x-axis and dates "
                         "from Jan 21 to Feb 20 on the y-axis. Red points joined by a zigzag line are labelled with "
                         "each date (Feb 5, Jan 25, Feb 12, Feb 1, Jan 22, Feb 10, Jan 29, Feb 17, Feb 6, Jan 26, Feb "
                         "13, Feb 3). Orange 'leap' tags under 2020, 2023, 2025 and 2028 mark years with a leap "
                         "month, each followed by a jump to a later date.",
                         "https://holidaydates.example/img/lny-dates-2019-2030.png"),
                2: image(q09_zodiac_wheel, "png", 5,
                         "Circular wheel titled 'The 12-year animal cycle', split into twelve coloured segments for "
                         "the Rat (2020), Ox (2021), Tiger (2022), Rabbit (2023), Dragon (2024), Snake (2025), Horse "
                         "(2026), Goat (2027), Monkey (2028), Rooster (2029), Dog (2030) and Pig (2031). The centre "
                         "notes that the animal changes on Lunar New Year, not Jan 1. It shows the naming cycle but "
                         "not how the date is calculated.",
                         "https://holidaydates.example/img/zodiac-wheel-2020-2031.png"),
            },
        ),
        dict(
            title="Are Tet and Chinese New Year always on the same day?",
            url="https://expatforum.example/vietnam/tet-vs-chinese-new-year",
            snippet="Expats discuss why Vietnamese Tết and Chinese New Year usually coincide, how long the Spring "
                    "Festival lasts, and what stays open over the holiday.",
            pieces=[
                piece(5, "hanoi_newbie: My coworker says Tết is just Chinese New Year with a different name. But my "
                         "calendar app shows different dates for some years?? Also, why does the date change every "
                         "year at all - I booked flights for 'late January' and now it's in February.",
                      "User question that mentions the moving date; context."),
                piece(8, "long_time_local: Both follow the same kind of lunisolar calendar. Months start at the new "
                         "moon, New Year is normally the second new moon after the winter solstice, and a leap month "
                         "gets added every two or three years to keep everything lined up with the seasons. That's "
                         "why it wanders between about Jan 21 and Feb 20 instead of staying put like Jan 1.",
                      "Concise explanation of the lunisolar rule; directly relevant."),
                piece(7, "long_time_local: The rare differences come from time zones. Each calendar is worked out from "
                         "when the new moon happens locally. Vietnam uses UTC+7 and China UTC+8, so if a new moon "
                         "falls just before midnight in Hanoi, it is already after midnight in Beijing - the two "
                         "calendars then start that month, and occasionally the year, a day apart.",
                      "Explains occasional one-day differences via time zones; relevant nuance."),
                piece(6, "dumpling_dan: For planning: in China the Spring Festival season traditionally runs 15 days, "
                         "from New Year's Day to the Lantern Festival on the first full moon of the year. Official "
                         "public holidays are shorter, usually about a week, and trains are packed before and after.",
                      "Holiday length and the Lantern Festival; tangential."),
                piece(1, "foodie_in_hcmc: Off topic, but if anyone's staying in District 1 over the holiday, most "
                         "street food stalls close for a few days - the banh mi place near the market stays open "
                         "though!",
                      "Off-topic restaurant tip."),
            ],
            images={},
        ),
    ],
    aux_images=[
        image(q09_year_lengths, "png", 8,
              "Horizontal bar chart titled 'Lunar months vs. the solar year' comparing 12 lunar months (354 days), "
              "one solar year (365.24 days) and a 13-month leap year (384 days). Red arrows between the first two bar "
              "ends mark the '11-day gap', and a footnote says leap months are added about 7 times every 19 years.",
              "https://astronomy-for-all.example/img/lunar-vs-solar-year.png",
              context_url="https://astronomy-for-all.example/calendars/lunar-vs-solar"),
        image(q09_lanterns, "gif", 2,
              "Decorative pattern of seven red paper lanterns with gold caps and tassels hanging from gold strings "
              "on a dark red background scattered with small gold dots. It is festive clip art with no information "
              "about the calendar or the date of the New Year.",
              "https://festive-decor.example/img/red-lanterns-banner.gif",
              context_url="https://festive-decor.example/lanterns"),
    ],
)


# --- mini-10  Education & Reference ------------------------------------------

MINI_10 = dict(
    query_id="mini-10",
    content="How does the Dewey Decimal System organize library books, and how do I find a book with a call "
            "number like 796.334 PEL on the shelf?",
    topic="Education & Reference",
    level=1,
    webpages=[
        dict(
            title="The Dewey Decimal System in five minutes",
            url="https://lakeside-library.example/guides/dewey-decimal",
            snippet="Lakeside Public Library's guide to the ten Dewey classes and how each number gets more "
                    "specific as you add digits.",
            pieces=[
                piece(1, "Lakeside Public Library | Hours: Mon-Thu 9-8, Fri-Sat 9-5, Sun closed | Catalog | Events | "
                         "Kids & Teens | Renew items",
                      "Library header with opening hours; irrelevant."),
                piece(8, "Walk into almost any public or school library and the nonfiction shelves are arranged by "
                         "the Dewey Decimal Classification, first published by librarian Melvil Dewey in 1876. Its "
                         "big idea is to organise books by subject rather than by title or by the date the library "
                         "bought them, so that books on the same topic sit together. Each subject gets a number, and "
                         "the shelves run in number order.",
                      "Introduces Dewey and its subject-based ordering."),
                piece(10, "All knowledge is split into ten main classes, numbered by hundreds: 000 computer science, "
                          "information and general works; 100 philosophy and psychology; 200 religion; 300 social "
                          "sciences; 400 language; 500 science; 600 technology; 700 arts and recreation; 800 "
                          "literature; and 900 history and geography. <IMAGE_PLACEHOLDER>[1] Many libraries post a "
                          "chart like this at the end of each row of shelves so you can see at a glance which way to "
                          "walk.",
                      "Lists all ten main classes with a chart; core of the answer."),
                piece(10, "Each class is divided into ten divisions, and each division into ten sections, so the three "
                          "digits before the point go from broad to narrow. Digits after the decimal point narrow it "
                          "further still. Take soccer: 700 is arts and recreation, 790 recreational and performing "
                          "arts, 796 athletic and outdoor sports, 796.3 ball games, 796.33 football games where the "
                          "ball is kicked, and 796.334 soccer itself. The longer the number, the more specific the "
                          "topic.",
                      "Worked example of the hierarchy down to 796.334; directly explains the example number."),
                piece(6, "Fiction is the big exception. Most public libraries shelve novels separately, alphabetised "
                         "by the author's last name and labelled FIC or F, because readers usually look for a "
                         "favourite author rather than a subject. Biographies are often grouped too, under 92, B or "
                         "920, and arranged by the name of the person the book is about.",
                      "Notes the exceptions for fiction and biography; useful context."),
                piece(2, "Upcoming at Lakeside: Saturday Story Time (ages 3-5), Teen Anime Club, and free tax help "
                         "every Tuesday in February. See the full events calendar.",
                      "Event listings; irrelevant."),
            ],
            images={
                1: image(q10_ten_classes, "png", 10,
                         "Chart titled 'The ten main classes of the Dewey Decimal System' with ten coloured boxes in "
                         "two columns, each pairing a number with its subject: 000 Computer science, information & "
                         "general works; 100 Philosophy & psychology; 200 Religion; 300 Social sciences; 400 "
                         "Language; 500 Science; 600 Technology; 700 Arts & recreation; 800 Literature; 900 History "
                         "& geography.",
                         "https://lakeside-library.example/img/dewey-ten-classes.png"),
            },
        ),
        dict(
            title="How to find a library book using its call number (step by step)",
            url="https://studyskills.example/how-to/find-a-book-by-call-number",
            snippet="Four steps from catalog search to shelf: read the spine label, follow the numbers in order, "
                    "and compare decimals digit by digit.",
            pieces=[
                piece(8, "Step 1: Look it up in the catalog. Search the library catalog by title, author or subject. "
                         "The record tells you whether the book is on the shelf and gives its call number, which is "
                         "the book's address in the library. Write down the whole thing, letters included - for "
                         "example 796.334 PEL - and note the collection (Adult Nonfiction, Junior, Reference), "
                         "because each collection may have its own shelves.",
                      "First step of finding a book by call number; relevant."),
                piece(10, "Step 2: Understand the spine label. The same call number is printed on a label on the "
                          "book's spine, usually stacked on several lines. <IMAGE_PLACEHOLDER>[1] The top number is "
                          "the Dewey class (796 = sports), the digits after the point make it more specific (.334 = "
                          "soccer), and the letters underneath are usually the first three letters of the author's "
                          "last name - here PEL for an author called Pelham. Some libraries add a year or a volume "
                          "number at the bottom.",
                      "Explains each part of the spine label with an annotated image; directly answers the question."),
                piece(10, "Step 3: Follow the numbers. Find the row of shelves whose end sign covers 796, then read "
                          "each shelf left to right and top to bottom, like a page of text. Whole numbers come first: "
                          "every 795 comes before every 796. Within 796, compare the decimals one digit at a time: "
                          "796.3 comes before 796.33, which comes before 796.334, then 796.35 and 796.4. "
                          "<IMAGE_PLACEHOLDER>[2] When two books share exactly the same number, the author letters "
                          "break the tie alphabetically, so 796.334 LOP sits just before 796.334 PEL.",
                      "Gives the shelf-ordering rules with an illustration; core of the how-to."),
                piece(8, "Common mistake: reading the decimals as whole numbers. 796.4 is not 'smaller' than 796.334 "
                         "just because 4 is less than 334. Read it as 796.400 versus 796.334 - the .4 is bigger, so it "
                         "sits further along the shelf.",
                      "Clarifies a frequent decimal-ordering error; relevant."),
                piece(2, "Sponsored: Struggling with essays? Try WriteRight Premium free for 7 days - grammar checks, "
                         "a citation generator and a plagiarism scanner in one app.",
                      "Sponsored advert; irrelevant."),
                piece(7, "Step 4: Still can't find it? The book may be checked out, waiting on a cart to be "
                         "reshelved, or kept in an oversize section. Ask at the desk: librarians are happy to walk you "
                         "to the spot, and they can place a hold for you.",
                      "Practical fallback advice; moderately relevant."),
            ],
            images={
                1: image(q10_spine_label, "png", 9,
                         "Annotated drawing titled 'Reading a spine label': a dark green book spine with the title "
                         "'Soccer Skills - R. Pelham' printed sideways and a white label reading 796 / .334 / PEL on "
                         "three lines. Coloured arrows link each line to a note: '796 = class: athletic & outdoor "
                         "sports', '.334 = more specific topic: soccer' and 'PEL = first 3 letters of the author's "
                         "last name (Pelham)'.",
                         "https://studyskills.example/img/spine-label-796-334-pel.png"),
                2: image(q10_shelf_order, "png", 9,
                         "Illustration of six book spines on a shelf with an arrow showing that shelves are read left "
                         "to right: 796.3 ABB, 796.33 KIM, 796.334 LOP, 796.334 PEL, 796.35 BAR and 796.4 ZHU. The "
                         "796.334 PEL book is outlined in yellow as 'your book', and notes underneath say to compare "
                         "decimals digit by digit (796.3 < 796.33 < 796.334 < 796.35 < 796.4) and to sort matching "
                         "numbers by author letters (LOP before PEL).",
                         "https://studyskills.example/img/shelf-order-796.png"),
            },
        ),
        dict(
            title="Dewey Decimal FAQ for students",
            url="https://kidsref.example/faq/dewey-decimal",
            snippet="Answers to questions students ask about library numbers: why decimals, why computers are in "
                    "the 000s, and whether every library uses Dewey.",
            pieces=[
                piece(7, "Why are there decimals? Because there are far more topics than three-digit numbers. "
                         "Dewey's trick is that you can always add another digit after the point to make a narrower "
                         "topic without renumbering everything else. A book about dogs is 636.7; a book only about "
                         "training dogs gets a longer number that still starts with 636.7, so it lands right next to "
                         "the other dog books.",
                      "Explains why decimals allow ever more specific topics; relevant."),
                piece(6, "Why are computers in the 000s? The 000 class was always meant for general works that cover "
                         "everything, such as encyclopedias, almanacs and books about libraries and information "
                         "itself. When computing books started to appear, computer science was given numbers there "
                         "because it is about information in general.",
                      "Explains the 000 class; background detail."),
                piece(7, "Does every library use Dewey? No. Most public and school libraries do, but many university "
                         "and research libraries use Library of Congress Classification, whose call numbers start "
                         "with letters - GV, for example, covers recreation and sports. The idea is the same: subject "
                         "first, then more detail, then the author.",
                      "Notes the alternative system used by universities; relevant comparison."),
                piece(2, "Join the Summer Reading Challenge! Read 10 books, log them on our site and earn a digital "
                         "badge for each genre. Parents: register your child here.",
                      "Reading challenge promotion; irrelevant."),
                piece(6, "Is the number the same in every library? Usually the Dewey number is, because libraries "
                         "share catalog records. The letters after it can differ: some libraries use the first three "
                         "letters of the author's name, others a 'Cutter number' that mixes a letter with digits, "
                         "such as P385.",
                      "Explains how the author part of call numbers varies; relevant."),
            ],
            images={},
        ),
    ],
    aux_images=[
        image(q10_drill_down, "png", 8,
              "Staircase diagram titled 'Each extra digit narrows the subject', with six stepped boxes joined by "
              "arrows: 700 Arts & recreation, 790 Recreational & performing arts, 796 Athletic & outdoor sports, 796.3 "
              "Ball games, 796.33 Football games (ball kicked) and 796.334 Soccer. A vertical arrow on the right runs "
              "from 'broad' to 'specific', showing how added digits make a subject more specific.",
              "https://librarianship-basics.example/img/ddc-drill-down-796-334.png",
              context_url="https://librarianship-basics.example/ddc/hierarchy"),
        image(q10_bookshelf, "webp", 2,
              "Decorative illustration of a wooden bookcase with two shelves packed with plain, unlabelled book "
              "spines in assorted colours and heights. It is a stock-style graphic that shows no call numbers or "
              "classification information.",
              "https://cozy-reads.example/img/bookshelf-pattern.webp",
              context_url="https://cozy-reads.example/blog/reading-nook-ideas"),
    ],
)


# --- mini-11  Family & Relationships -----------------------------------------

MINI_11 = dict(
    query_id="mini-11",
    content="How do you read a family tree chart, and what is the difference between a second cousin and a first "
            "cousin once removed?",
    topic="Family & Relationships",
    level=3,
    webpages=[
        dict(
            title="How to read a family tree chart: symbols, lines and generations",
            url="https://rootsandbranches.example/blog/how-to-read-a-family-tree",
            snippet="A beginner's guide to the squares, circles and connecting lines in family tree charts, and how "
                    "to follow generations up and down.",
            pieces=[
                piece(1, "Roots & Branches uses cookies to save your research preferences and to show relevant "
                         "offers. Accept | Customize",
                      "Cookie banner; irrelevant."),
                piece(7, "A family tree chart can look like a circuit diagram the first time you see one, but it "
                         "follows a few simple conventions. Once you know what the shapes and lines mean, you can "
                         "trace any two people back to the ancestors they share - which is exactly what you need in "
                         "order to work out how they are related.",
                      "Introduces the purpose of reading a tree; relevant."),
                piece(9, "Shapes: in many charts, especially the pedigree charts used by genealogists and doctors, a "
                         "square is a male and a circle is a female; a diamond is used when the sex is unknown or not "
                         "stated. A diagonal slash or an X through a shape means the person has died. Lines: a "
                         "horizontal line joining two people shows a marriage or partnership, and a line crossed by "
                         "two short slashes marks a divorce or separation. <IMAGE_PLACEHOLDER>[1] From the middle of "
                         "the couple line a vertical line drops to a horizontal 'sibling bar', and each child hangs "
                         "from that bar in birth order, oldest on the left.",
                      "Explains chart symbols and connecting lines with a legend; core to reading a chart."),
                piece(8, "Generations: each row is one generation, with the oldest at the top. Everyone on the same "
                         "row belongs to the same generation - siblings, their spouses and their cousins. To move up "
                         "a generation, follow the vertical line from a person up to their parents' couple line; to "
                         "move down, follow the line from a couple to their children. Counting these steps is the key "
                         "to naming a relationship.",
                      "Explains generation rows and how to move between them; relevant to naming relationships."),
                piece(6, "Two common layouts: a pedigree (ancestor) chart starts with one person and branches out to "
                         "their two parents, four grandparents, eight great-grandparents and so on, often drawn "
                         "sideways from left to right. A descendant chart starts with one couple at the top and shows "
                         "all their children, grandchildren and later generations. Cousins only appear on descendant "
                         "charts, because a pedigree chart shows direct ancestors only.",
                      "Distinguishes the two chart layouts; useful context."),
                piece(6, "Reading tips: women are usually recorded under their birth surname, so a grandmother may "
                         "appear as 'Mary Kowalski' even though you knew her as Mary Brennan. Dates under a name are "
                         "usually birth and death years (b. 1921, d. 1998). Half-siblings are shown hanging from "
                         "separate couple lines that share one parent.",
                      "Practical reading tips; moderately relevant."),
            ],
            images={
                1: image(q11_symbols, "png", 8,
                         "Legend titled 'Family tree chart symbols': a blue square labelled 'male', a pink circle "
                         "'female', a grey diamond 'sex unknown' and a square with a diagonal slash 'deceased (slash "
                         "or X)'. Below, a square and circle joined by a line read 'married / partners', the same pair "
                         "with a double slash on the line reads 'divorced', and a couple with a vertical line down to "
                         "a sibling bar and three children illustrates that children hang from the bar, oldest on the "
                         "left, and that each row is one generation.",
                         "https://rootsandbranches.example/img/family-tree-symbols.png"),
            },
        ),
        dict(
            title="Cousins explained: what 'second' and 'removed' really mean",
            url="https://familyhistory-hub.example/guides/cousin-relationships",
            snippet="First cousins share grandparents, second cousins share great-grandparents, and 'removed' counts "
                    "the generation gap. Worked example and a printable cousin chart.",
            pieces=[
                piece(10, "The number in 'first', 'second' or 'third cousin' tells you how far back the closest shared "
                          "ancestors are. First cousins share grandparents: they are the children of your parents' "
                          "siblings. Second cousins share great-grandparents: they are the children of your parents' "
                          "first cousins. Third cousins share great-great-grandparents. Put simply, count how many "
                          "generations each of you is below the shared ancestor. If you are both the same distance "
                          "down, the cousin number is that distance minus one: grandchildren (2 steps) are first "
                          "cousins, great-grandchildren (3 steps) are second cousins.",
                      "Precise rule for the cousin degree; central to the question."),
                piece(10, "'Removed' means the two people belong to different generations, and each generation of "
                          "difference is one removal. Your first cousin's child is your first cousin once removed - "
                          "one generation below you. Your parent's first cousin is also your first cousin once "
                          "removed - one generation above you. The label works both ways, so you are their first "
                          "cousin once removed too. When the generations differ, the cousin number comes from the "
                          "person who is closer to the shared ancestor.",
                      "Defines 'removed' with examples; directly answers the difference."),
                piece(10, "A worked example. Great-grandparents Ada and Walter had two children, June and Frank. "
                          "June's daughters are Lisa (your mother) and Carol (mother of your first cousin Sam); "
                          "Frank's son Paul is therefore Lisa's first cousin. <IMAGE_PLACEHOLDER>[1] You and Paul's "
                          "daughter Nina are both great-grandchildren of Ada and Walter and sit on the same generation "
                          "row, so you are second cousins. Paul himself is one generation above you and is your "
                          "mother's first cousin, so he is your first cousin once removed. Likewise Leo, the son of "
                          "your first cousin Sam, is your first cousin once removed in the other direction.",
                      "Worked family tree contrasting second cousin and first cousin once removed; directly answers."),
                piece(9, "For anything more distant, use a cousin chart. Find the shared ancestor, then work out how "
                         "each person descends from that ancestor: child, grandchild, great-grandchild and so on. Find "
                         "one person's line along the top and the other's down the side; the box where they meet "
                         "names the relationship. <IMAGE_PLACEHOLDER>[2] For example, grandchild meets "
                         "great-grandchild at 'first cousin once removed', and great-grandchild meets "
                         "great-grandchild at 'second cousin'.",
                      "Explains how to use a relationship chart, with the chart; highly relevant tool."),
                piece(2, "Start your free 14-day trial and search 3 billion historical records. Cancel anytime.",
                      "Product trial promotion; irrelevant."),
            ],
            images={
                1: image(q11_cousin_tree, "png", 10,
                         "Five-generation family tree titled 'Who is who? Relationships to YOU'. Great-grandparents "
                         "Ada and Walter (marked 'shared ancestors') connect down to June ('grandmother') and Frank "
                         "('great-uncle'); June's daughters are Lisa ('mother') and Carol ('aunt'), and Frank's son is "
                         "Paul ('1st cousin 1x removed'). On the highlighted 'your generation' row, YOU (yellow box, "
                         "Lisa's child) sit beside Sam ('1st cousin') and Nina ('2nd cousin', Paul's daughter), and "
                         "Sam's son Leo below is tagged '1st cousin 1x removed'.",
                         "https://familyhistory-hub.example/img/cousin-example-tree.png"),
                2: image(q11_cousin_chart, "png", 9,
                         "Cousin relationship chart: a grid with 'Common ancestor' in the top-left corner and Child, "
                         "Grandchild, Great-grandchild and 2x great-grandchild along both the top and the side, with "
                         "the note 'cell = what the column person is to the row person'. Cells give relationships "
                         "such as Sibling, Niece / nephew, Aunt / uncle, 1st cousin, 1st cousin 1x removed, 2nd "
                         "cousin, 2nd cousin 1x removed and 3rd cousin. A legend explains that green diagonal cells "
                         "are same-generation 'plain cousins' and blue off-diagonal cells are 'removed'.",
                         "https://familyhistory-hub.example/img/cousin-chart.png"),
            },
        ),
        dict(
            title="Is my mom's cousin's daughter my second cousin?",
            url="https://askfamily.example/q/moms-cousins-daughter-second-cousin",
            snippet="Members explain why your mother's first cousin's child is your second cousin, and what DNA "
                    "tests show about cousin relationships.",
            pieces=[
                piece(7, "wedding_planner_mel asked: I'm planning my wedding guest list and my mom keeps saying "
                         "'invite your cousin Nina'. Nina is the daughter of my mom's cousin Paul. Is Nina my second "
                         "cousin or my cousin once removed? And what's Paul to me? I always mix these up.",
                      "Question nearly identical to the user's; sets up the answer."),
                piece(9, "genealogy_gary answered: Nina is your second cousin. You and she are in the same generation, "
                         "and your closest shared ancestors are your great-grandparents (your mom's grandparents, who "
                         "are also Paul's grandparents). Paul is your first cousin once removed: he is your mom's "
                         "first cousin, one generation above you. Quick trick: if they are in your generation, they "
                         "are a plain cousin (first, second, third...). If they are a generation up or down, add "
                         "'removed'.",
                      "Direct answer distinguishing second cousin from first cousin once removed."),
                piece(7, "dna_dabbler answered: If you ever take a DNA test, these relationships show up as different "
                         "amounts of shared DNA. On average first cousins share about 12.5%, first cousins once "
                         "removed about 6.25% and second cousins about 3.1%, halving with each step. "
                         "<IMAGE_PLACEHOLDER>[1] Real amounts vary quite a bit around these averages, so testing "
                         "sites suggest a range of possible relationships rather than one answer.",
                      "DNA sharing by relationship; supporting but secondary."),
                piece(2, "wedding_planner_mel commented: Thanks both! Now if anyone has tips for seating 14 cousins "
                         "who don't all get along, I'm listening...",
                      "Off-topic wedding seating aside."),
                piece(6, "history_buff_ann answered: Everyday speech is looser than genealogy. Some families call any "
                         "relative of their parents' generation 'cousin', and plenty of people say 'second cousin' "
                         "when they mean a first cousin once removed. Genealogists use the strict definitions above, "
                         "so stick to those when you fill in a tree.",
                      "Notes informal versus strict usage; mildly relevant."),
            ],
            images={
                1: image(q11_dna_shared, "webp", 6,
                         "Horizontal bar chart titled 'Average DNA shared with relatives': Full sibling 50%, Aunt / "
                         "uncle 25%, 1st cousin 12.5%, 1st cousin 1x removed 6.25%, 2nd cousin 3.13%, 2nd cousin 1x "
                         "removed 1.56% and 3rd cousin 0.78%, with 'removed' relationships in purple and the others "
                         "in teal. The bars halve at each step, and a footnote warns that real amounts vary around "
                         "these averages.",
                         "https://askfamily.example/uploads/average-shared-dna.webp"),
            },
        ),
    ],
    aux_images=[
        image(q11_tree_clipart, "png", 3,
              "Stylised clip-art tree with a brown trunk and a round crown of overlapping green, orange and yellow "
              "circles on a cream background. It is a decorative 'family tree' motif with no names, symbols or "
              "relationships.",
              "https://familycrafts.example/img/printable-tree-clipart.png",
              context_url="https://familycrafts.example/printables/tree"),
        image(q11_share_buttons, "png", None, None,
              "https://rootsandbranches.example/static/share-buttons.png",
              context_url="https://rootsandbranches.example/blog/how-to-read-a-family-tree"),
    ],
)


# --- mini-12  Politics & Government ------------------------------------------

MINI_12 = dict(
    query_id="mini-12",
    content="How does a bill become a law in the United States? Explain it simply, including what happens if "
            "the President says no.",
    topic="Politics & Government",
    level=1,
    webpages=[
        dict(
            title="From idea to law: the path of a federal bill",
            url="https://civics-classroom.example/lessons/how-a-bill-becomes-a-law",
            snippet="Step-by-step lesson: introduction, committee, floor votes in both chambers, reconciling the "
                    "two versions, and the President's signature or veto.",
            pieces=[
                piece(1, "Civics Classroom > Lessons > Congress | Printable worksheet | Teacher notes | Quiz",
                      "Breadcrumb navigation; no content."),
                piece(9, "Step 1: Introduction. Federal laws are made by Congress, which has two chambers: the House "
                         "of Representatives (435 voting members) and the Senate (100 senators). An idea for a law "
                         "can come from anyone - a citizen, an advocacy group, the President - but only a member of "
                         "Congress can formally introduce it as a bill. A bill can start in either chamber, with one "
                         "exception: bills for raising revenue, such as tax bills, must begin in the House.",
                      "Explains who introduces bills and where; the first step."),
                piece(9, "Step 2: Committee. After introduction, the bill is sent to a committee that specialises in "
                         "its subject, such as agriculture or armed services. The committee, often through a smaller "
                         "subcommittee, may hold hearings with experts and then 'mark up' the bill, debating and "
                         "amending it line by line. If the committee votes to approve it, the bill is 'reported' to "
                         "the full chamber. Most bills never get this far - they simply die in committee.",
                      "Describes the committee stage; core step."),
                piece(9, "Step 3: Floor action. The full chamber debates the bill and may amend it. In the House, the "
                         "Rules Committee usually sets how long debate lasts and which amendments are allowed, and "
                         "passing takes a simple majority of those voting - 218 votes if all 435 members vote. In the "
                         "Senate, debate is far less limited, and most bills need 60 votes to end debate before the "
                         "final majority vote can happen.",
                      "Floor debate and voting thresholds; core step."),
                piece(10, "Step 4: The other chamber. A bill passed by the House goes to the Senate (or the other way "
                          "round), where it goes through committee and floor votes again. Both chambers must pass "
                          "exactly the same text. If their versions differ, they either trade amended versions back "
                          "and forth or set up a conference committee of members from both chambers to write a "
                          "compromise, which then needs another vote in each chamber. <IMAGE_PLACEHOLDER>[1]",
                      "Covers the second chamber and reconciliation, with a full process flowchart."),
                piece(10, "Step 5: The President. The final bill goes to the President, who has 10 days (not counting "
                          "Sundays) to act. Signing it makes it law. Vetoing it sends it back to the chamber where it "
                          "started, together with the President's objections. Congress can still make it law by "
                          "overriding the veto with a two-thirds vote in both the House and the Senate, which is hard "
                          "and rare. If the President does nothing for 10 days while Congress is in session, the bill "
                          "becomes law without a signature.",
                      "Explains signing, veto and override; the final step of the answer."),
                piece(3, "Classroom activity: have students draft a bill for a new school rule, hold a 'committee "
                         "hearing' in small groups and then take a class vote. Download the printable role cards "
                         "(PDF).",
                      "Teacher activity note; only tangential."),
            ],
            images={
                1: image(q12_bill_flowchart, "png", 10,
                         "Vertical flowchart titled 'How a bill becomes a law (U.S. Congress)' with six numbered "
                         "boxes: 1 Bill introduced in the House or Senate; 2 Committee: hearings and markup (side note "
                         "'most bills die here'); 3 Floor debate and vote in the first chamber (note: House majority, "
                         "Senate usually 60 to end debate); 4 Same steps in the other chamber; 5 Differences resolved; "
                         "6 President has 10 days to act. A green arrow labelled 'signs' leads to a green 'LAW' box, "
                         "and a red 'vetoes' arrow leads to 'Congress can override with 2/3 of BOTH chambers', whose "
                         "'override' arrow also reaches 'LAW'.",
                         "https://civics-classroom.example/img/bill-to-law-flowchart.png"),
            },
        ),
        dict(
            title="Congress FAQ: how many votes does it take?",
            url="https://votersguide.example/faq/congress-votes",
            snippet="Vote thresholds for passing a bill, ending a filibuster and overriding a veto, plus what a "
                    "pocket veto is.",
            pieces=[
                piece(9, "How many votes does a bill need? A simple majority of the members present and voting in each "
                         "chamber. With every seat filled and everyone voting, that is 218 of 435 in the House and 51 "
                         "of 100 in the Senate; if the Senate ties 50-50, the Vice President can cast the deciding "
                         "vote. Overriding a veto takes two-thirds of those voting in each chamber: 290 in a full "
                         "House and 67 in a full Senate. <IMAGE_PLACEHOLDER>[1]",
                      "Lays out all the vote thresholds with a chart; directly relevant."),
                piece(8, "What is a filibuster? Senate rules let senators keep debating a bill for as long as they "
                         "like unless three-fifths of the Senate - 60 senators - vote for 'cloture' to end debate. In "
                         "practice this means most bills need 60 supporters in the Senate, not 51. A few kinds of "
                         "measures, such as certain budget bills passed under the special 'reconciliation' procedure, "
                         "cannot be filibustered and can pass with a simple majority.",
                      "Explains the filibuster and the cloture threshold; important nuance."),
                piece(8, "What is a pocket veto? If Congress adjourns before the President's 10-day window is up and "
                         "the President has not signed the bill, it does not become law. Because Congress is not in "
                         "session to receive a veto message and attempt an override, this is called a pocket veto. "
                         "To try again, Congress has to start over with a new bill.",
                      "Explains the pocket veto; relevant edge case."),
                piece(2, "Support nonpartisan voter education! Donate $10 today and get our pocket guide to the "
                         "Constitution. Sign up for election reminders by text.",
                      "Donation and newsletter request; irrelevant."),
                piece(7, "How many bills actually become law? Very few. In a typical two-year Congress, members "
                         "introduce well over 10,000 bills and resolutions, and only a few hundred become law - "
                         "usually under 5%. Many bills are introduced to make a point or to start a conversation, "
                         "with little expectation that they will pass.",
                      "Gives the success rate of bills; useful context."),
                piece(1, "About us | Methodology | Contact | Privacy policy | VotersGuide is not affiliated with any "
                         "party or candidate.",
                      "Footer; no content."),
            ],
            images={
                1: image(q12_votes_needed, "png", 9,
                         "Horizontal bar chart titled 'Votes needed when every seat is filled', in two groups. House "
                         "of Representatives (435 seats): simple majority 218 and veto override (2/3) 290. Senate (100 "
                         "seats): simple majority 51, cloture to end a filibuster 60, and veto override (2/3) 67. Each "
                         "coloured bar sits on a grey bar representing the full chamber, and a dashed line marks half "
                         "of the seats.",
                         "https://votersguide.example/img/votes-needed-house-senate.png"),
            },
        ),
        dict(
            title="Homework help: what happens after a veto?",
            url="https://homeworkhelp-forum.example/civics/what-happens-after-a-veto",
            snippet="A student's question answered by a tutor: the President's three options, veto overrides and "
                    "the pocket veto.",
            pieces=[
                piece(6, "jayden_8th asked: For civics we have to explain how a bill becomes a law. I get the Congress "
                         "part but I'm confused about the end. If the President says no, is the bill just dead? My "
                         "textbook says something about two-thirds.",
                      "Student question about the final stage; context."),
                piece(9, "tutor_maria (verified tutor) answered: Not necessarily dead! When the bill reaches the "
                         "President there are three paths. 1) Sign it: it becomes law. 2) Veto it: it goes back to "
                         "Congress, and if two-thirds of the House AND two-thirds of the Senate vote to override, it "
                         "becomes law anyway; if either chamber falls short, the bill dies. 3) Do nothing for 10 days "
                         "(Sundays excluded): if Congress is still in session it becomes law without a signature, but "
                         "if Congress has adjourned it is a pocket veto and the bill dies. <IMAGE_PLACEHOLDER>[1]",
                      "Clear answer covering all of the President's options, with a diagram."),
                piece(7, "tutor_maria added: Tip for your write-up - this is checks and balances at work. Congress "
                         "writes the laws, the President can check Congress with the veto, and Congress can check the "
                         "President by overriding it. Later, the courts can also strike down a law if it conflicts "
                         "with the Constitution.",
                      "Connects the process to checks and balances; relevant framing."),
                piece(1, "gamer_kid42 commented: anyone know the answers to the unit 4 quiz lol",
                      "Off-topic; no content."),
                piece(5, "jayden_8th: thanks!! so overriding is super rare right?\ntutor_maria: Yes. Presidents have "
                         "vetoed thousands of bills since George Washington, but Congress has overridden only a "
                         "little over a hundred of those vetoes.",
                      "Notes how rarely overrides succeed; mildly useful."),
            ],
            images={
                1: image(q12_veto_paths, "gif", 8,
                         "Decision diagram starting from 'Bill reaches the President' with three branches. 'Signs' "
                         "leads straight to 'LAW'. 'Vetoes' leads to 'Back to Congress: 2/3 of House AND Senate vote "
                         "to override?', with 'Yes' to 'LAW' and 'No' to 'Bill dies'. 'No action for 10 days (Sundays "
                         "excepted)' splits into 'Congress in session' to 'LAW without signature' and 'Congress "
                         "adjourned' to 'Pocket veto: bill dies'. A footnote says a vetoed bill must start over as a "
                         "new bill.",
                         "https://homeworkhelp-forum.example/uploads/veto-paths.gif"),
            },
        ),
        dict(
            title="Glossary of congressional terms",
            url="https://govterms.example/glossary/congress",
            snippet="Short definitions of bill, markup, cloture, conference committee, enrolled bill, veto and "
                    "override.",
            pieces=[
                piece(1, "Glossary A-Z: A B C D E F G H I J K L M N O P Q R S T U V W X Y Z | Search terms",
                      "Alphabet navigation; no content."),
                piece(7, "Bill: a proposed law introduced in the House (numbered H.R.) or the Senate (numbered S.). "
                         "Companion bill: an identical or similar bill introduced in the other chamber to speed "
                         "things up. Sponsor: the member who introduces a bill; co-sponsors sign on to show support.",
                      "Defines bill and sponsor; supporting vocabulary."),
                piece(7, "Markup: the committee meeting where members debate, amend and rewrite a bill before voting "
                         "on whether to report it. Reported: describes a bill the committee has approved and sent to "
                         "the full chamber. Calendar: the list of bills waiting for floor action.",
                      "Defines committee-stage terms; supporting vocabulary."),
                piece(7, "Cloture: the Senate procedure for ending debate, requiring 60 votes for most legislation. "
                         "Conference committee: a temporary panel of House and Senate members that reconciles two "
                         "versions of a bill. Enrolled bill: the final, identical version passed by both chambers and "
                         "sent to the President.",
                      "Defines cloture, conference committee and enrolled bill; supporting vocabulary."),
                piece(7, "Veto: the President's rejection of a bill, returned to Congress with objections. Override: a "
                         "two-thirds vote in both chambers that enacts a bill despite a veto. Pocket veto: a bill "
                         "that dies because the President did not sign it and Congress adjourned within the 10-day "
                         "window.",
                      "Defines veto, override and pocket veto; supporting vocabulary."),
            ],
            images={},
        ),
    ],
    aux_images=[
        image(q12_capitol, "jpeg", 4,
              "Simple illustration of a white domed capitol building with a columned drum, a central pediment and "
              "long colonnaded wings, under a blue sky with white clouds and above a green lawn. It sets a civic "
              "scene but shows none of the steps of the lawmaking process.",
              "https://dc-travel.example/img/capitol-illustration.jpg",
              context_url="https://dc-travel.example/sights/capitol"),
        image(q12_flag_ad, "jpeg", 2,
              "Advertising banner on a navy background reading 'FLAG DAY SALE' and '20% off all flags & poles' with "
              "a red 'SHOP NOW' button next to a stylised striped flag on a pole. It is a retail promotion unrelated "
              "to how bills are passed.",
              "https://flagshop.example/banners/flag-day-sale.jpg",
              context_url="https://flagshop.example/sale"),
    ],
)


QUERIES: list[dict] = [MINI_07, MINI_08, MINI_09, MINI_10, MINI_11, MINI_12]
