"""A look: every drawing choice of one made-up Minesweeper client, drawn at random from a seed.

Why: the skinless reader must read clients nobody here has seen. A :class:`Look` combines, each
chosen independently, the conventions real clients use (covered style, revealed style, theme, digit
font and colours, marks, geometry, surroundings, damage), so a benchmark over many seeds measures
generality instead of the clients development played. :meth:`Look.family` names the look's class
(covered style x theme) so results break down per family; :meth:`Look.axes` gives every choice.
"""

from __future__ import annotations

import colorsys
from dataclasses import dataclass, field

import numpy as np

from bot.render import DIGIT_COLORS

Color = tuple[int, int, int]
"""A BGR colour."""

COVERED_STYLES = ("bevel", "flat", "checker", "gradient", "dither", "noise", "rounded", "button")
"""How covered cells are drawn: bevelled (light top-left), flat with lines, a two-shade checkerboard, a
gloss that varies across the board, a 1-bit ordered dither, a noisy texture, rounded tiles with gaps,
and toolkit buttons."""
REVEALED_STYLES = ("flat", "checker", "lines", "shadow", "gaps")
"""How revealed cells are drawn: flat, a two-shade checkerboard, flat with 1 px lines, inner shadows
cast by raised (covered) neighbours, tiles with gaps."""
THEMES = ("light", "dark", "saturated", "low")
"""Colour themes; ``low`` puts covered and revealed a few grey levels apart."""
FONTS = ("ttf", "ttf-bold", "pixel", "segment")
INKS = ("classic", "modern", "one", "any", "ground")
"""Digit colours: winmine's, a modern web client's, one colour for all, any colour per digit, and one
ink on a per-digit coloured ground."""
FLAGS = ("pennant", "triangle", "filled", "emoji")
MINES = ("round", "spiked", "dot")
WRONGS = ("flag", "mine")
"""A wrong flag is drawn as a cross over a flag (on a covered tile) or over a mine (revealed)."""
SURROUNDINGS = ("bare", "classic", "modern", "toolbar", "desktop")
DAMAGES = ("jpeg", "gif256", "gif64", "blur", "tint", "gamma")

MODERN_DIGITS: dict[int, Color] = {
    1: (210, 118, 25),
    2: (60, 142, 56),
    3: (47, 47, 211),
    4: (162, 31, 123),
    5: (0, 143, 255),
    6: (167, 151, 0),
    7: (66, 66, 66),
    8: (158, 158, 158),
}
"""A modern web client's digit colours (BGR): blue, green, red, purple, orange, teal, dark grey, grey."""


@dataclass(frozen=True)
class Palette:
    """The colours of a look: tiles, lines, bevel light and shade, the window around the board."""

    covered: tuple[Color, Color]
    """Covered tile colours (two shades of a checkerboard; the same twice otherwise)."""
    revealed: tuple[Color, Color]
    line: Color
    light: Color
    shade: Color
    back: Color
    """Gaps between tiles and the window around the board."""
    dither: tuple[Color, Color]
    """The two colours a 1-bit dither mixes."""


@dataclass(frozen=True)
class Look:
    """One client's look: every choice the generator made for it (all plain values, so it prints)."""

    seed: int
    covered_style: str
    revealed_style: str
    theme: str
    palette: Palette
    font: str
    font_file: str
    """A TrueType file for ``ttf``/``ttf-bold`` fonts ('' otherwise)."""
    ink: str
    digits: dict[int, Color]
    grounds: dict[int, Color]
    """Per-digit cell grounds (``ground`` ink only; empty otherwise)."""
    digit_height: float
    """The digits' height as a fraction of the cell's (0.4-0.9)."""
    flag: str
    flag_color: Color
    mine: str
    mine_color: Color
    mine_ground: Color
    """The ground of a ``dot`` mine (a dot on a coloured square)."""
    exploded_ground: Color
    wrong: str
    cross_color: Color
    pitch: tuple[float, float]
    """Drawn pitch (x, y) before any bitmap rescale: fractional under browser zoom, x > y for wide cells."""
    rescale: float
    """A bitmap rescale of the whole window after drawing (display scaling of an unaware app), 1 = none."""
    gap: int
    lines: bool
    """1 px lines between revealed cells."""
    surroundings: str
    damage: tuple[tuple[str, float], ...] = field(default=())
    """Damage steps in order, each with its strength (JPEG quality, blur sigma, gamma, ...)."""

    @property
    def final_pitch(self) -> tuple[float, float]:
        """The pitch in the final image, in pixels."""
        return self.pitch[0] * self.rescale, self.pitch[1] * self.rescale

    def family(self) -> str:
        """The look's family for per-family results: covered style x theme."""
        return f"{self.covered_style}/{self.theme}"

    def axes(self) -> dict[str, str]:
        """Every independent choice as a short string, for breaking results down along any axis."""
        px, py = self.final_pitch
        size = "small" if px < 16 else "medium" if px < 28 else "large"
        zoom = "wide" if px > py + 0.5 else "fractional" if px % 1 or self.rescale != 1 else "integer"
        return {
            "family": self.family(),
            "covered": self.covered_style,
            "revealed": self.revealed_style,
            "theme": self.theme,
            "font": self.font,
            "ink": self.ink,
            "flag": self.flag,
            "mine": self.mine,
            "wrong": self.wrong,
            "pitch": size,
            "geometry": zoom,
            "surroundings": self.surroundings,
            "damage": "+".join(name for name, _ in self.damage) or "none",
        }


# -- colours ----------------------------------------------------------------------------------------


def hsv(h: float, s: float, v: float) -> Color:
    """A BGR colour from hue, saturation and value in 0-1."""
    r, g, b = colorsys.hsv_to_rgb(h % 1.0, min(max(s, 0.0), 1.0), min(max(v, 0.0), 1.0))
    return round(b * 255), round(g * 255), round(r * 255)


def shade(color: Color, factor: float, offset: float = 0.0) -> Color:
    """The colour scaled by ``factor`` plus ``offset`` levels, clipped to 0-255."""
    return tuple(int(min(max(round(c * factor + offset), 0), 255)) for c in color)  # type: ignore[return-value]


def luma(color: Color) -> float:
    """Perceived brightness of a BGR colour (Rec. 601)."""
    b, g, r = color
    return 0.114 * b + 0.587 * g + 0.299 * r


def distance(a: Color, b: Color) -> float:
    """Euclidean BGR distance."""
    return float(np.linalg.norm(np.subtract(a, b, dtype=np.float64)))


def contrasting(color: Color, ground: Color, least: float = 70.0) -> Color:
    """``color`` moved towards black or white (away from ``ground``) until it stands out from it."""
    if abs(luma(color) - luma(ground)) >= least * 0.6 and distance(color, ground) >= least:
        return color
    target = 0.0 if luma(ground) > 128 else 255.0
    for step in np.linspace(0.1, 1.0, 10):
        moved = tuple(round(c + (target - c) * step) for c in color)
        if abs(luma(moved) - luma(ground)) >= least * 0.6 and distance(moved, ground) >= least:
            return moved  # type: ignore[return-value]
    return (0, 0, 0) if target == 0.0 else (255, 255, 255)


def grey(level: float, hue: float = 0.0, sat: float = 0.0) -> Color:
    """A grey of ``level`` (0-255), optionally faintly tinted."""
    return hsv(hue, sat, level / 255)


def _palette(rng: np.random.Generator, theme: str, covered_style: str) -> Palette:
    hue, tint = float(rng.random()), float(rng.choice([0.0, 0.0, rng.uniform(0.02, 0.12)]))
    raised = covered_style in ("bevel", "button", "dither", "gradient", "rounded")
    if theme == "light":
        cov = grey(rng.uniform(170, 215), hue, tint)
        rev_level = luma(cov) + (rng.choice([0.0, rng.uniform(15, 60)]) if raised else rng.uniform(25, 60))
        rev = grey(min(rev_level, 250), hue, tint)
        back = grey(rng.uniform(120, 250), hue, tint)
    elif theme == "dark":
        cov = grey(rng.uniform(70, 120), hue, tint)
        rev = grey(rng.uniform(22, 55), hue, tint)
        back = grey(rng.uniform(5, 40), hue, tint)
    elif theme == "saturated":
        cov = hsv(hue, rng.uniform(0.45, 0.8), rng.uniform(0.6, 0.9))
        rev = hsv(hue + rng.uniform(0.25, 0.75), rng.uniform(0.12, 0.35), rng.uniform(0.82, 0.96))
        back = shade(cov, rng.uniform(0.45, 0.75))
    else:  # low contrast: covered and revealed a few grey levels apart
        cov = grey(rng.uniform(150, 225), hue, tint)
        rev = shade(cov, 1.0, float(rng.choice([-1, 1]) * rng.uniform(3, 12)))
        back = grey(rng.uniform(100, 240), hue, tint)
    step = rng.uniform(6, 16) * (1 if luma(cov) < 128 else -1)
    rev_step = rng.uniform(5, 14) * (1 if luma(rev) < 128 else -1)
    light = shade(cov, 1.0, rng.uniform(40, 70))
    dark = shade(cov, rng.uniform(0.4, 0.65))
    line = shade(rev, rng.uniform(0.55, 0.8)) if luma(rev) > 60 else shade(rev, 1.0, rng.uniform(25, 45))
    ink_pair = ((0, 0, 0), (255, 255, 255)) if rng.random() < 0.6 else (shade(cov, 0.5), shade(cov, 1.0, 60))
    return Palette(
        covered=(cov, shade(cov, 1.0, step)),
        revealed=(rev, shade(rev, 1.0, rev_step)),
        line=line,
        light=light,
        shade=dark,
        back=back,
        dither=ink_pair,
    )


def _digits(rng: np.random.Generator, ink: str, ground: Color) -> tuple[dict[int, Color], dict[int, Color]]:
    """Digit colours that stand out from the revealed ground (and per-digit grounds for ``ground``)."""
    if ink == "classic":
        digits = dict(DIGIT_COLORS)
    elif ink == "modern":
        digits = dict(MODERN_DIGITS)
    elif ink == "one":
        one = hsv(rng.random(), rng.uniform(0, 0.9), rng.uniform(0, 1))
        digits = dict.fromkeys(range(1, 9), one)
    elif ink == "any":
        digits = {n: hsv(rng.random(), rng.uniform(0.3, 1), rng.uniform(0.2, 1)) for n in range(1, 9)}
    else:
        hues = rng.permutation(8) / 8 + rng.uniform(0, 1 / 8)
        light = luma(ground) > 110
        grounds = {
            n: hsv(
                hues[n - 1],
                rng.uniform(0.25, 0.6),
                rng.uniform(0.8, 0.97) if light else rng.uniform(0.3, 0.5),
            )
            for n in range(1, 9)
        }
        ink_color: Color = (30, 30, 30) if light else (235, 235, 235)
        return {n: contrasting(ink_color, grounds[n]) for n in range(1, 9)}, grounds
    return {n: contrasting(c, ground) for n, c in digits.items()}, {}


def _geometry(rng: np.random.Generator) -> tuple[tuple[float, float], float]:
    """Drawn pitch and bitmap rescale with a final pitch of 10-64 px."""
    final = float(np.exp(rng.uniform(np.log(10), np.log(64))))
    mode = rng.random()
    rescale = 1.0
    if mode < 0.45:  # an integer pitch
        pitch = float(max(round(final), 10))
    elif mode < 0.8:  # browser zoom 1-2: a fractional pitch drawn sharp
        zoom = float(rng.choice([1.1, 1.25, 1.5, 1.75, 2.0, rng.uniform(1, 2)]))
        pitch = max(round(final / zoom), 8) * zoom
    else:  # display scaling of an unaware app: drawn small, the bitmap scaled
        rescale = float(rng.choice([1.25, 1.5, 1.75, 2.0]))
        pitch = float(max(round(final / rescale), 8))
    pitch = min(max(pitch, 10 / rescale), 64 / rescale)
    aspect = float(rng.uniform(0.72, 0.95)) if rng.random() < 0.12 else 1.0
    return (pitch, max(pitch * aspect, 10 / rescale)), rescale


def _damage(rng: np.random.Generator) -> tuple[tuple[str, float], ...]:
    if rng.random() < 0.5:
        return ()
    steps: list[tuple[str, float]] = []
    if rng.random() < 0.3:
        steps.append(("gamma", float(rng.uniform(0.7, 1.4))))
    if rng.random() < 0.3:
        steps.append(("tint", float(rng.integers(1 << 30))))
    if rng.random() < 0.25:
        steps.append(("blur", float(rng.uniform(0.3, 0.8))))
    last = rng.random()
    if last < 0.35:
        steps.append(("jpeg", float(rng.integers(60, 96))))
    elif last < 0.55:
        steps.append(("gif256", 256.0))
    elif last < 0.7:
        steps.append(("gif64", 64.0))
    return tuple(steps) or (("jpeg", float(rng.integers(60, 96))),)


def random_look(seed: int, fonts: tuple[tuple[str, str], ...]) -> Look:
    """The look for ``seed``: every choice drawn independently from the seed's own random stream.

    ``fonts`` is the installed TrueType faces as ``(kind, path)`` pairs (kind ``ttf`` or ``ttf-bold``);
    with none, TrueType digits fall back to pixel digits.
    """
    rng = np.random.default_rng([seed, 101])
    covered_style = str(rng.choice(COVERED_STYLES))
    revealed_style = str(rng.choice(REVEALED_STYLES))
    theme = str(rng.choice(THEMES))
    palette = _palette(rng, theme, covered_style)
    font = str(rng.choice(FONTS))
    faces = [path for kind, path in fonts if kind == font]
    font_file = str(rng.choice(faces)) if faces else ""
    if font.startswith("ttf") and not font_file:
        font = "pixel"
    ink = str(rng.choice(INKS))
    rev = palette.revealed[0]
    digits, grounds = _digits(rng, ink, rev)
    cov = palette.covered[0]
    flag_color = contrasting(
        hsv(rng.choice([0.0, 0.0, rng.random()]), rng.uniform(0.6, 1), rng.uniform(0.6, 1)), cov
    )
    mine_color = contrasting(hsv(rng.random(), rng.uniform(0, 0.5), rng.uniform(0, 0.3)), rev)
    mine_ground = hsv(rng.random(), rng.uniform(0.5, 0.9), rng.uniform(0.6, 0.95))
    exploded = hsv(rng.choice([0.0, 0.0, rng.random()]), rng.uniform(0.6, 1), rng.uniform(0.7, 1))
    if distance(exploded, mine_ground) < 120:
        exploded = hsv((colorsys.rgb_to_hsv(*[c / 255 for c in mine_ground[::-1]])[0] + 0.5), 0.9, 0.9)
    pitch, rescale = _geometry(rng)
    gap = int(rng.choice([0, 0, 1, 2, 3])) if revealed_style == "gaps" or covered_style == "rounded" else 0
    if covered_style == "rounded" or revealed_style == "gaps":
        gap = max(gap, 1 if pitch[0] < 16 else 2)
    lines = revealed_style == "lines" or (revealed_style == "flat" and covered_style in ("flat", "noise"))
    return Look(
        seed=seed,
        covered_style=covered_style,
        revealed_style=revealed_style,
        theme=theme,
        palette=palette,
        font=font,
        font_file=font_file,
        ink=ink,
        digits=digits,
        grounds=grounds,
        digit_height=float(rng.uniform(0.4, 0.9)),
        flag=str(rng.choice(FLAGS)),
        flag_color=flag_color,
        mine=str(rng.choice(MINES)),
        mine_color=mine_color,
        mine_ground=mine_ground,
        exploded_ground=exploded,
        wrong=str(rng.choice(WRONGS)),
        cross_color=contrasting(hsv(rng.choice([0.0, rng.random()]), 0.9, 0.9), rev),
        pitch=pitch,
        rescale=rescale,
        gap=gap,
        lines=lines,
        surroundings=str(rng.choice(SURROUNDINGS)),
        damage=_damage(rng),
    )
