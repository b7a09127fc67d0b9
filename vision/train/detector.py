"""The learned dice detector's network, targets and loss (CenterNet, "Objects as Points").

One forward pass: a heatmap per face (6 channels, a peak at each die's centre on the channel of
its top face) and a box head (log width, log height, sub-cell offset) on a grid STRIDE times
coarser than the input. No anchors and no NMS: a 3x3 max-pool keeps the peaks (vision.model).
Why this shape: the reader needs every die and its face, dice are near-square and seldom
overlap, and one small fully-convolutional network on a 2-core CPU (and a Pi) has to do both
for a whole photo in a few milliseconds; a per-face heatmap reads the face where it finds the
die, so no second crop classifier is needed.
"""
from __future__ import annotations

import numpy as np
import tensorflow as tf

from ..model import OTHER  # the face head's class for a die of no pip face
from .trays import check_size

FACES = 6
FACE_CLASSES = 7
STRIDE = 4
INPUT_W, INPUT_H = 320, 240
# The 1/32 level's layers are named (the rest are named by Keras in build order), so that a
# network grown from a 1/16 one finds every old layer under its old name (grow).
DEEP32 = "deep32"


def build(width: int = 32, face_head: bool = True, size: tuple[int, int] = (INPUT_W, INPUT_H),
          deepest: int = 16) -> tf.keras.Model:
    return build_pair(width, face_head, size, deepest)[0]


def build_pair(width: int = 32, face_head: bool = True, size: tuple[int, int] = (INPUT_W, INPUT_H),
               deepest: int = 16) -> tuple[tf.keras.Model, tf.keras.Model]:
    """(model, base): a small encoder-decoder: float BGR 0..255 (H, W, 3) in, heat (H/4, W/4, 6), box (.., 4)
    and (face_head) face (.., 7: softmax over pip faces 1..6 and OTHER) out. Every layer is
    convolutional, so weights trained at one size load into a network of another (size: width, height).
    deepest 32 adds a 1/32 level (its layers named DEEP32_*; see grow) to the 1/16 network."""
    L = tf.keras.layers
    in_w, in_h = check_size(size, deepest)

    def conv(x, filters, stride=1, k=3, name=None):
        x = L.Conv2D(filters, k, strides=stride, padding="same", use_bias=False,
                     name=name and f"{name}_conv")(x)
        x = L.BatchNormalization(name=name and f"{name}_bn")(x)
        return L.ReLU(6.0, name=name and f"{name}_relu")(x)

    def sep(x, filters, name=None):
        x = L.DepthwiseConv2D(3, padding="same", use_bias=False, name=name and f"{name}_dw")(x)
        x = L.BatchNormalization(name=name and f"{name}_dwbn")(x)
        x = L.ReLU(6.0, name=name and f"{name}_dwrelu")(x)
        return conv(x, filters, k=1, name=name)

    inp = tf.keras.Input((in_h, in_w, 3), name="image")
    x = L.Rescaling(1.0 / 255.0)(inp)
    x = conv(x, width // 2, 2)                    # 1/2
    half = x
    c4 = sep(conv(x, width, 2), width)            # 1/4: pips of a 10 px die still show here
    c8 = sep(sep(conv(c4, width * 2, 2), width * 2), width * 2)          # 1/8
    # 1/16, three blocks deep: each 3x3 here sees 32 more input pixels, so a close-up die
    # (64 px at the input) lies inside one cell's view. (1/32 only with deepest=32: 240 / 32 is no integer.)
    c16 = sep(sep(sep(conv(c8, width * 3, 2), width * 3), width * 3), width * 3)
    if deepest == 32:
        # Round 28: at a 448-wide input the 1/16 level's view (about 64 px) no longer holds a
        # close-up die (up to 90 px), and L split such dice in two. Each 3x3 at 1/32 sees 64 more
        # pixels. Its way back is added to the 1/16 features through a 1x1 conv that starts at zero,
        # so a network grown from 1/16 weights (grow) starts out computing exactly what they did.
        deep = sep(sep(conv(c16, width * 4, 2, name=f"{DEEP32}_down"), width * 4, name=f"{DEEP32}_a"),
                   width * 4, name=f"{DEEP32}_b")
        deep = L.UpSampling2D(name=f"{DEEP32}_up")(deep)
        deep = L.Conv2D(width * 3, 1, use_bias=False, kernel_initializer="zeros", name=f"{DEEP32}_back")(deep)
        c16 = L.Add(name=f"{DEEP32}_add")([c16, deep])
    u = L.UpSampling2D()(c16)
    u = sep(L.Concatenate()([u, c8]), width * 2)
    u = L.UpSampling2D()(u)
    u = sep(L.Concatenate()([u, c4]), width)
    u = sep(u, width)
    # A prior of 1 % on every face channel (CenterNet's bias init): the focal loss starts calm.
    heat = L.Conv2D(FACES, 1, activation="sigmoid", name="heat",
                    bias_initializer=tf.keras.initializers.Constant(-4.6))(u)
    box = L.Conv2D(4, 1, name="box")(u)
    base = tf.keras.Model(inp, [heat, box])
    if not face_head:
        return base, base
    # The face head (built after the rest, so a file of the older two-head net loads by layer
    # name): the six heat channels also had to find dice and read only ~52 % of calib dice
    # right. Reading pips needs the fine detail of the 1/2 level (a 12 px die's pips are 2 px)
    # and more width than the heat head's 1x1 conv: its own 1/2 -> 1/4 conv, the decoder's and
    # encoder's 1/4 features, then three 3x3 blocks (a 7-cell view covers a 28 px die).
    fine = conv(half, width, 2)
    f = L.Concatenate()([u, c4, fine])
    for _ in range(3):
        f = sep(f, width * 2)
    face = L.Conv2D(FACE_CLASSES, 1, activation="softmax", name="face")(f)
    # base shares every layer but the face head's: a file of the two-head net loads into it.
    return tf.keras.Model(inp, [heat, box, face]), base


def grow(weights, width: int, size: tuple[int, int],
         deepest: int = 32) -> tuple[tf.keras.Model, tf.keras.Model]:
    """build_pair(width, size=size, deepest=deepest) with every layer of the 1/16 network in weights
    (a .weights.h5 of three heads) loaded: the deeper level's own layers start afresh, and its way
    back starts at zero, so the grown network reads as the file did. Keras 3 stores a file's
    layers by kind and build order, so the file loads into its own network first and each layer
    is then copied by name; Keras names layers by a session-wide count, cleared before each build."""
    tf.keras.backend.clear_session()
    source = build(width, size=size)
    source.load_weights(str(weights))
    saved = {layer.name: layer.get_weights() for layer in source.layers if layer.weights}
    tf.keras.backend.clear_session()
    model, base = build_pair(width, size=size, deepest=deepest)
    layers = {layer.name: layer for layer in model.layers}
    missing = sorted(set(saved) - set(layers))
    if missing:
        raise ValueError(f"{weights}: the grown network has no layer {missing[0]} ({len(missing)} missing)")
    for name, values in saved.items():
        layers[name].set_weights(values)
    return model, base


def targets(boxes: np.ndarray, faces: np.ndarray,
            size: tuple[int, int] = (INPUT_W, INPUT_H)) -> tuple[np.ndarray, np.ndarray]:
    """Heat (h, w, 6) and box targets (h, w, 7: log w, log h, dx, dy, mask, face class 0..6,
    face weight) for one image's dice (boxes in input pixels, faces 1..6 or OTHER; size: the
    input's width and height).

    A die of OTHER face peaks on all six heat channels (it is found; the heat's face
    cross-entropy skips it) and is class 6 of the face head. The face head is taught on the
    cells near a die's centre (the gaussian's top half), not at the peak only: the peak it is
    read at may land a cell off."""
    h, w = size[1] // STRIDE, size[0] // STRIDE
    heat = np.zeros((h, w, FACES), np.float32)
    reg = np.zeros((h, w, 7), np.float32)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    for (x0, y0, x1, y1), face in zip(boxes, faces):
        bw, bh = (x1 - x0) / STRIDE, (y1 - y0) / STRIDE
        cx, cy = (x0 + x1) / 2 / STRIDE, (y0 + y1) / 2 / STRIDE
        ix, iy = int(cx), int(cy)
        if not (0 <= ix < w and 0 <= iy < h) or bw <= 0 or bh <= 0:
            continue
        sigma = max(0.6, 0.16 * min(bw, bh))
        g = np.exp(-((xx - ix) ** 2 + (yy - iy) ** 2) / (2 * sigma * sigma))
        for ch in (heat[..., face - 1:face] if face != OTHER else heat).transpose(2, 0, 1):
            np.maximum(ch, g, out=ch)
            ch[iy, ix] = 1.0
        near = (g >= 0.5) & (g > reg[..., 6])
        reg[near, 5], reg[near, 6] = face - 1, g[near]
        reg[iy, ix, :5] = (np.log(bw), np.log(bh), cx - ix, cy - iy, 1.0)
    return heat, reg


def loss(heat_true, reg_true, heat_pred, box_pred, face_pred=None, face_weight: float = 1.0,
         head_weight: float = 2.0):
    """Focal loss on the heatmaps (per die), cross-entropy between the six faces near die centres,
    L1 on log size and offset at die centres, and (face_pred) the face head's cross-entropy over
    its seven classes near die centres, weighted head_weight.

    The cross-entropy is there because the focal loss alone taught where dice are long before
    which face they show: after 1,500 steps (24,000 trays) the faces read were at chance on
    renders and real photos alike, while most dice were found. Softmax over the six channels'
    logits where the target is at least half a peak makes the channels compete for each die.
    """
    p = tf.clip_by_value(heat_pred, 1e-4, 1 - 1e-4)
    pos = tf.cast(tf.equal(heat_true, 1.0), tf.float32)
    n = tf.maximum(tf.reduce_sum(pos), 1.0)
    pos_loss = tf.math.log(p) * tf.square(1 - p) * pos
    neg_loss = tf.math.log(1 - p) * tf.square(p) * tf.pow(1 - heat_true, 4) * (1 - pos)
    focal = -(tf.reduce_sum(pos_loss) + tf.reduce_sum(neg_loss)) / n
    q = tf.clip_by_value(heat_pred, 1e-6, 1 - 1e-6)
    logits = tf.math.log(q) - tf.math.log(1 - q)
    peak = tf.reduce_max(heat_true, axis=-1)
    near = tf.cast(peak >= 0.5, tf.float32) * peak * tf.cast(reg_true[..., 5] < OTHER - 1, tf.float32)
    face_ce = tf.nn.softmax_cross_entropy_with_logits(tf.one_hot(tf.argmax(heat_true, -1), FACES), logits)
    faces = tf.reduce_sum(face_ce * near) / tf.maximum(tf.reduce_sum(near), 1.0)
    focal = focal + face_weight * faces
    if face_pred is not None:
        wt = reg_true[..., 6]
        ce = -tf.math.log(tf.clip_by_value(tf.reduce_sum(
            tf.one_hot(tf.cast(reg_true[..., 5], tf.int32), FACE_CLASSES) * face_pred, -1), 1e-6, 1.0))
        focal = focal + head_weight * tf.reduce_sum(ce * wt) / tf.maximum(tf.reduce_sum(wt), 1.0)
    mask = reg_true[..., 4:5]
    size = tf.reduce_sum(tf.abs(box_pred[..., :2] - reg_true[..., :2]) * mask) / n
    offset = tf.reduce_sum(tf.abs(box_pred[..., 2:4] - reg_true[..., 2:4]) * mask) / n
    return focal + size + offset, focal, size + offset


def representative_renders(images: np.ndarray, count: int = 200) -> np.ndarray:
    """About count of the rendered trays, evenly spaced: an int8 file's representative set
    (its activation ranges) in learn_detector and convert_detector alike."""
    return images[:: max(1, len(images) // count)]


def to_tflite(model: tf.keras.Model, variant: str, representative: np.ndarray) -> bytes:
    """float32, float16 (weights), int8 (weights and activations; float32 in and out) or
    int8-float-ends (int8 but for the first convolution and the output heads: float32 there)."""
    conv = tf.lite.TFLiteConverter.from_keras_model(model)
    if variant == "float16":
        conv.optimizations = [tf.lite.Optimize.DEFAULT]
        conv.target_spec.supported_types = [tf.float16]
    elif variant in ("int8", "int8-float-ends"):
        conv.optimizations = [tf.lite.Optimize.DEFAULT]

        def rep():
            for img in representative:
                yield [img[None].astype(np.float32)]
        conv.representative_dataset = rep
        if variant == "int8-float-ends":
            # The converter quantises every op or none; its quantisation debugger can leave named
            # ops in float, named by their output tensors in the calibrated model it makes first.
            debugger = tf.lite.experimental.QuantizationDebugger(converter=conv, debug_dataset=rep)
            debugger.options = tf.lite.experimental.QuantizationDebugOptions(
                denylisted_nodes=float_end_nodes(debugger.calibrated_model))
            return debugger.get_nondebug_quantized_model()
    return conv.convert()


def float_end_nodes(calibrated: bytes) -> list[str]:
    """The output tensor names of a calibrated (float) .tflite's first convolution (the op that
    reads the image: its 0..255 input and the first features' range) and of each output head from
    its last convolution on (the heat peaks and face probabilities the reader thresholds)."""
    interp = tf.lite.Interpreter(model_content=calibrated)
    names = {t["index"]: t["name"] for t in interp.get_tensor_details()}
    ops = interp._get_ops_details()
    producer = {t: op for op in ops for t in op["outputs"]}
    image = interp.get_input_details()[0]["index"]
    keep = [names[t] for op in ops if image in op["inputs"] for t in op["outputs"]]
    for out in interp.get_output_details():
        op = producer[out["index"]]
        keep += [names[t] for t in op["outputs"]]
        while op["op_name"] != "CONV_2D":
            op = producer[op["inputs"][0]]
            keep += [names[t] for t in op["outputs"]]
    return keep
