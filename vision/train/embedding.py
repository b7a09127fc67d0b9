"""The face embedding network (TensorFlow, training only): a die crop -> an L2-normalised vector.

A small VGG-like CNN on 48x48 RGB crops (the crop convention of vision.crops), global average
pooling, a linear projection and L2 normalisation. It is trained with a prototypical loss on
cosine similarity (scaled by a learned temperature): each episode holds several dice, each die's
faces get prototypes from 1 to 3 renders and the other renders of that die are classified among
that die's six prototypes. That is exactly the task at the table: tell one die's faces apart
from a few taught looks of each.

A prototypical loss alone hardly moves a network from scratch here (the glyph is a small part
of a crop full of tray, neighbours and die edges: 300 episodes stayed at chance), so a CosFace
head over every training glyph class (additive cosine margin) trains beside it: each crop pulls
toward its class's fixed direction from the first step. Only the embedding ships.
"""
from __future__ import annotations

import cv2
import numpy as np
import tensorflow as tf

SIZE = 48
DIM = 64


def build(width: int = 24, dim: int = DIM) -> tf.keras.Model:
    inp = tf.keras.Input((SIZE, SIZE, 3), name="crop_rgb")  # RGB 0..255 float32
    # Each crop standardised on its own (bodies and inks of any colour, any lamp): only contrast
    # patterns are left to learn.
    x = tf.keras.layers.LayerNormalization(axis=(1, 2, 3), center=False, scale=False, epsilon=1.0)(inp)
    for k, (ch, reps) in enumerate(((width, 1), (width * 2, 2), (width * 4, 2), (width * 6, 1))):
        for _ in range(reps):
            x = tf.keras.layers.Conv2D(ch, 3, padding="same", use_bias=False)(x)
            x = tf.keras.layers.BatchNormalization()(x)
            x = tf.keras.layers.ReLU()(x)
        if k < 3:
            x = tf.keras.layers.MaxPool2D()(x)
    x = tf.keras.layers.GlobalAveragePooling2D()(x)
    x = tf.keras.layers.Dense(dim)(x)
    out = tf.keras.layers.UnitNormalization(name="embedding")(x)
    return tf.keras.Model(inp, out, name="dice_embedding")


class Cosine(tf.keras.optimizers.schedules.LearningRateSchedule):
    """Linear warm-up to peak, then cosine decay to 2% of it at `total` (a variable: the training
    loop may move the end to fit a deadline)."""

    def __init__(self, peak: float, total: tf.Variable, warmup: int):
        self.peak, self.total, self.warmup = float(peak), total, int(warmup)

    def __call__(self, step):
        step = tf.cast(step, tf.float32)
        total = tf.cast(self.total, tf.float32)
        warm = self.peak * step / self.warmup
        progress = tf.clip_by_value((step - self.warmup) / tf.maximum(1.0, total - self.warmup), 0.0, 1.0)
        decayed = self.peak * (0.02 + 0.98 * 0.5 * (1.0 + tf.cos(np.pi * progress)))
        return tf.where(step < self.warmup, warm, decayed)

    def get_config(self):
        return {"peak": self.peak, "warmup": self.warmup}


def episode_loss(emb: tf.Tensor, dice: int, shots: int, queries: int, scale: tf.Tensor):
    """emb: (dice * 6 * (shots + queries), DIM) ordered die, face, render (shots first).

    Returns (loss, accuracy) of classifying each query among its own die's six prototypes.
    """
    e = tf.reshape(emb, (dice, 6, shots + queries, -1))
    proto = tf.math.l2_normalize(tf.reduce_mean(e[:, :, :shots], axis=2), axis=-1)     # (d, 6, D)
    q = e[:, :, shots:]                                                                   # (d, 6, q, D)
    logits = scale * tf.einsum("dfqk,dgk->dfqg", q, proto)                              # (d, 6, q, 6)
    labels = tf.broadcast_to(tf.range(6)[None, :, None], (dice, 6, queries))
    loss = tf.reduce_mean(tf.keras.losses.sparse_categorical_crossentropy(labels, logits, from_logits=True))
    acc = tf.reduce_mean(tf.cast(tf.equal(tf.argmax(logits, -1, output_type=tf.int32), labels), tf.float32))
    return loss, acc


def class_loss(emb: tf.Tensor, labels: tf.Tensor, weights: tf.Variable, scale: float = 16.0, margin: float = 0.2):
    """CosFace: softmax over every glyph class of scale * (cosine - margin on the true class).
    Crops of label -1 (made-up icons, no class) are left out."""
    w = tf.math.l2_normalize(weights, axis=0)
    known = labels >= 0
    emb, labels = tf.boolean_mask(emb, known), tf.boolean_mask(labels, known)
    cos = emb @ w
    logits = scale * (cos - margin * tf.one_hot(labels, tf.shape(w)[1]))
    loss = tf.keras.losses.sparse_categorical_crossentropy(labels, logits, from_logits=True)
    return tf.math.divide_no_nan(tf.reduce_sum(loss), tf.cast(tf.size(loss), tf.float32))


def soften(rng: np.random.Generator, crop: np.ndarray) -> np.ndarray:
    """A crop as a smaller or less sharp camera gives it: seen at 35-80% of its pixels and
    scaled back (a small die far from the lens), or blurred (focus, motion); uint8 in and out."""
    size = crop.shape[0]
    if rng.random() < 0.6:
        small = max(8, int(round(size * rng.uniform(0.35, 0.8))))
        down = cv2.resize(crop, (small, small), interpolation=cv2.INTER_AREA)
        return cv2.resize(down, (size, size), interpolation=cv2.INTER_LINEAR)
    return cv2.GaussianBlur(crop, (0, 0), float(rng.uniform(0.5, 1.4)))


def spin(rng: np.random.Generator, crop: np.ndarray, scale=(0.9, 1.1)) -> np.ndarray:
    """A crop turned by any angle and scaled by a factor in `scale` about its centre, the border
    reflected (no black corners): a die lies at any angle, a detector's box is a little loose or
    tight, and the reader's taught views (vision.taught.Views) turn and scale crops this way."""
    from ..taught import turn_crop
    return turn_crop(crop, float(rng.uniform(0, 360)), float(rng.uniform(*scale)))


def augment(rng: np.random.Generator, crops: np.ndarray, blur: float = 0.0, turn_any: float = 0.0) -> np.ndarray:
    """Quarter turns, light, contrast and colour changes, a little shift; a share `blur` of the
    crops softened (soften), a share `turn_any` turned by any angle and scaled 0.9-1.1 (spin):
    (n, S, S, 3) uint8 -> float32. A die lies any way up under any lamp; mirror images are not
    dice, so no flips."""
    n = len(crops)
    out = np.empty(crops.shape, np.float32)
    for i in range(n):
        c = np.rot90(crops[i], int(rng.integers(4)))
        if turn_any and rng.random() < turn_any:
            c = spin(rng, np.ascontiguousarray(c))
        if rng.random() < 0.3:
            dx, dy = (int(v) for v in rng.integers(-3, 4, 2))
            c = np.roll(c, (dy, dx), (0, 1))
        if blur and rng.random() < blur:
            c = soften(rng, np.ascontiguousarray(c))
        out[i] = c
    gain = rng.uniform(0.75, 1.25, (n, 1, 1, 1)) * rng.uniform(0.88, 1.12, (n, 1, 1, 3))
    mean = out.mean(axis=(1, 2, 3), keepdims=True)
    contrast = rng.uniform(0.7, 1.3, (n, 1, 1, 1))
    out = (out - mean) * contrast + mean
    out = out * gain + rng.uniform(-20, 20, (n, 1, 1, 1))
    grey = rng.random(n) < 0.08
    out[grey] = out[grey].mean(axis=3, keepdims=True)
    return np.clip(out, 0, 255).astype(np.float32)
