"""Scribbles: made-up icons, endless, for the embedding's training (vision.synth.glyphs draws them).

A family drawn from a number: each name "<look><n>" is its own icon of 1-4 random parts
(strokes, polygons, discs, rings, arcs, holes, a motif repeated) in the part format of
data/glyphs.toml. It is no printed set: it exists so the embedding learns to tell apart thousands
of shapes it has no name for, as a table's own dice will be. It is not in glyphs.FAMILIES (the
detector's trays and the held-out split know nothing of it); looks: "f" filled, "o" outlined, "m"
mixed, one look per die.
"""
from __future__ import annotations

import numpy as np

__all__ = ["SCRIBBLES", "LOOKS", "scribble_parts"]

SCRIBBLES = "scribbles"
LOOKS = "fom"


def _scribble_part(g: np.random.Generator, look: str) -> list[dict]:
    fill = look == "f" or (look == "m" and g.random() < 0.5)
    width = float(g.uniform(0.06, 0.14))
    kind = g.choice(["poly", "line", "circle", "ellipse", "arc", "motif"], p=[0.25, 0.2, 0.15, 0.15, 0.1, 0.15])
    if kind == "poly":
        n = int(g.integers(3, 8))
        c, r = g.uniform(0.3, 0.7, 2), g.uniform(0.2, 0.48)
        a = np.sort(g.uniform(0, 2 * np.pi, n))
        rad = r * g.uniform(0.35, 1.0, n)
        pts = np.clip(np.stack([c[0] + rad * np.cos(a), c[1] + rad * np.sin(a)], 1), 0, 1)
        return [{"poly": pts.tolist(), "fill": fill, "width": width}]
    if kind == "line":
        pts = g.uniform(0.05, 0.95, (int(g.integers(2, 5)), 2))
        return [{"line": pts.tolist(), "width": width}]
    if kind == "circle":
        x, y = g.uniform(0.25, 0.75, 2)
        return [{"circle": [float(x), float(y), float(g.uniform(0.08, 0.4))], "fill": fill, "width": width}]
    if kind in ("ellipse", "arc"):
        x, y = g.uniform(0.3, 0.7, 2)
        rx, ry = g.uniform(0.1, 0.45, 2)
        a0 = float(g.uniform(0, 360))
        sweep = 360.0 if kind == "ellipse" else float(g.uniform(90, 300))
        return [{"ellipse": [float(x), float(y), float(rx), float(ry), float(g.uniform(0, 180)), a0, a0 + sweep],
                 "fill": fill and kind == "ellipse", "width": width}]
    # A small motif repeated (as pips are): dots or bars in a row, a ring or a grid.
    count = int(g.integers(2, 6))
    r = float(g.uniform(0.06, 0.14))
    if g.random() < 0.5:
        a = g.uniform(0, 2 * np.pi) + np.arange(count) * 2 * np.pi / count
        rr = g.uniform(0.2, 0.35)
        spots = np.stack([0.5 + rr * np.cos(a), 0.5 + rr * np.sin(a)], 1)
    else:
        t = np.linspace(-1, 1, count)[:, None]
        d = g.normal(0, 1, 2)
        spots = 0.5 + 0.35 * t * d / np.linalg.norm(d)
    bar = g.random() < 0.3
    out = []
    for x, y in spots:
        if bar:
            out.append({"line": [[float(x), float(y - r)], [float(x), float(y + r)]], "width": width})
        else:
            out.append({"circle": [float(x), float(y), r], "fill": fill, "width": width})
    return out


def scribble_parts(name: str) -> list[dict]:
    """The parts of scribble `name` ("<look><n>"): the same name always draws the same icon."""
    look, number = name[:1], name[1:]
    if look not in LOOKS or not number.isdigit():
        raise ValueError(f"Unknown scribble {name!r}: a look (f, o, m) and a number, e.g. 'f123'.")
    g = np.random.default_rng([0x5C41B, int(number)])
    parts: list[dict] = []
    for _ in range(int(g.integers(1, 5))):
        parts += _scribble_part(g, look)
    if g.random() < 0.25 and any(p.get("fill", "line" not in p) for p in parts):
        x, y = g.uniform(0.3, 0.7, 2)
        parts.append({"circle": [float(x), float(y), float(g.uniform(0.06, 0.15))], "erase": True})
    return parts
