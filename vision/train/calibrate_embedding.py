"""Choose the embedding's flag thresholds on rendered calibration dice: training families (another
seed) and made-up icons (vision.synth.glyphs.SCRIBBLES, another seed: icons the network never saw,
the situation of a table's own dice; the training-family dice alone under-state the misreads of
unseen icons).

Each calibration die is taught 1 or 3 renders per face and its other renders are read among its
six faces. A die is flagged when its best face is far (similarity under far_below) or a second
face comes close (margin under close_below); the pair chosen flags the fewest dice while at most
SILENT_TARGET of them are read wrong unflagged (one pair for 1 and 3 taught together).
"""
from __future__ import annotations

import numpy as np

SILENT_TARGET = 0.002
SHOTS = (1, 3)


def embed_sets(embedder, sets: np.ndarray, batch: int = 16) -> np.ndarray:
    """(N, 6, R, S, S, 3) crops -> (N, 6, R, TURNS, dim): each crop's vectors in its quarter turns
    (vision.taught.Embedder.turned, as the reader embeds)."""
    flat = sets.reshape(-1, *sets.shape[3:])
    out = np.concatenate([embedder.turned(flat[i:i + batch]) for i in range(0, len(flat), batch)])
    return out.reshape(*sets.shape[:3], *out.shape[1:])


def few_shot_scores(emb: np.ndarray, shots: int, queries: int | None = None) -> np.ndarray:
    """Rows (best, second, correct) for every query render of every die (N, 6, R, TURNS, dim),
    taught its first `shots` renders of each face; queries: its last `queries` renders (else the
    rest). Examples and queries are made as TaughtReader makes them."""
    from ..taught import die_vectors, example_vectors, face_scores
    rows = []
    labels = [str(f) for f in range(6)]
    first = shots if queries is None else emb.shape[2] - queries
    for turned in emb:
        bank = {labels[f]: example_vectors(turned[f, :shots]) for f in range(6)}
        die = [die_vectors(turned[f]) for f in range(6)]
        for f in range(6):
            for q in die[f][first:]:
                scores = face_scores(q, bank, labels)
                rows.append((scores[0][1], scores[1][1], scores[0][0] == labels[f]))
    return np.array(rows, np.float64)


def choose(rows: np.ndarray, target: float = SILENT_TARGET) -> tuple[float, float]:
    best, margin, right = rows[:, 0], rows[:, 0] - rows[:, 1], rows[:, 2] > 0.5
    chosen, fewest = (1.0, 1.0), 2.0
    for far in np.arange(0.0, 0.99, 0.025):
        for close in np.arange(0.0, 0.61, 0.01):
            flagged = (best < far) | (margin < close)
            silent = np.mean(~right & ~flagged)
            if silent <= target and flagged.mean() < fewest:
                chosen, fewest = (round(float(far), 3), round(float(close), 3)), float(flagged.mean())
    return chosen


def figures(rows: np.ndarray, far: float, close: float) -> dict:
    best, margin, right = rows[:, 0], rows[:, 0] - rows[:, 1], rows[:, 2] > 0.5
    flagged = (best < far) | (margin < close)
    return {"dice": int(len(rows)), "read_right": round(float(right.mean()), 4),
            "flagged": round(float(flagged.mean()), 4), "silent_misreads": round(float(np.mean(~right & ~flagged)), 4)}


def calibrate(path, val_sets: np.ndarray, scale: float, log=print) -> dict:
    from ..taught import Embedder
    emb = embed_sets(Embedder(path), val_sets)
    rows = {k: few_shot_scores(emb, k) for k in SHOTS if k < val_sets.shape[2]}
    far, close = choose(np.concatenate(list(rows.values())))
    figs = {f"{k}-shot": figures(r, far, close) for k, r in rows.items()}
    log(f"calibration ({len(val_sets)} rendered dice, seeds apart from training): far_below {far}, "
        f"close_below {close}; {figs}")
    return {"far_below": far, "close_below": close, "calibrated_on": f"{len(val_sets)} rendered calibration dice",
            "calib_figures": figs}
