"""The classifier network, its training loop and TFLite conversion (the only TensorFlow user)."""
from __future__ import annotations

import tempfile
import time

import numpy as np
import tensorflow as tf


def build(num_classes: int, input_size: int, width: int = 32) -> tf.keras.Model:
    """A small CNN: float RGB 0..255 in, class probabilities out (~190k parameters at width 32)."""
    L = tf.keras.layers

    def conv(x, filters):
        x = L.Conv2D(filters, 3, padding="same", use_bias=False)(x)
        x = L.BatchNormalization()(x)
        return L.ReLU()(x)

    inp = tf.keras.Input((input_size, input_size, 3), name="crop")
    x = L.Rescaling(1.0 / 255.0)(inp)
    x = conv(x, width // 2)
    x = L.MaxPooling2D()(x)
    x = conv(conv(x, width), width)
    x = L.MaxPooling2D()(x)
    x = conv(conv(x, width * 2), width * 2)
    x = L.MaxPooling2D()(x)
    x = conv(conv(x, width * 3), width * 3)
    x = L.GlobalAveragePooling2D()(x)
    x = L.Dropout(0.2)(x)
    out = L.Dense(num_classes, activation="softmax", name="faces")(x)
    return tf.keras.Model(inp, out)


def _augment(x, y, quarter_turns: bool = False):
    # Every pip layout is mirror-symmetric, so a left-right flip keeps the label. No quarter
    # turns by default: the renderer already turns dice every way, and in steep views and the
    # real phone photos the side faces lie at the bottom of the frame, a cue to which face is on
    # top that turning would erase; quarter_turns erases it (a camera turned, or looking straight
    # down, breaks that cue: DETECTOR_ROUNDS round 34).
    x = tf.image.random_flip_left_right(x)
    if quarter_turns:
        x = tf.image.rot90(x, tf.random.uniform([], 0, 4, dtype=tf.int32))
    # A few pixels of shift: detectors box a die a little off centre, and the network should
    # not learn where in the crop the rendered dice happen to sit (it over-fitted without).
    size = x.shape[0]
    x = tf.image.random_crop(tf.pad(x, [[3, 3], [3, 3], [0, 0]], mode="REFLECT"), [size, size, 3])
    x = tf.cast(x, tf.float32)
    x = x * tf.random.uniform([], 0.8, 1.2) + tf.random.uniform([], -20.0, 20.0)
    return tf.clip_by_value(x, 0.0, 255.0), y


def train(model, x, y, x_val, y_val, epochs: int, batch: int, seed: int, log=print,
          peak_lr: float = 3e-3, label_smoothing: float = 0.0, quarter_turns: bool = False) -> float:
    """Train in place; returns seconds spent.

    label_smoothing > 0 trains towards 1 - e + e/K for the true face and e/K for each other (K
    classes): a network that may never be sure to the last digit, so that a slanted die read as
    its side face (issue 14 round 7) can sit below the ask threshold instead of at the ceiling.
    0 is plain cross-entropy on integer labels, the recipe of the shipped file."""
    tf.keras.utils.set_random_seed(seed)
    ds = (tf.data.Dataset.from_tensor_slices((x, y)).shuffle(len(x), seed=seed)
          .map(lambda a, b: _augment(a, b, quarter_turns), num_parallel_calls=1))
    if label_smoothing > 0:
        # Keras smooths only one-hot targets (its sparse loss has no smoothing).
        classes = int(model.output_shape[-1])
        ds = ds.map(lambda a, b: (a, tf.one_hot(b, classes)), num_parallel_calls=1)
        y_val = tf.keras.utils.to_categorical(y_val, classes)
        loss = tf.keras.losses.CategoricalCrossentropy(label_smoothing=label_smoothing)
        metric = tf.keras.metrics.CategoricalAccuracy(name="accuracy")
    else:
        loss, metric = "sparse_categorical_crossentropy", "accuracy"
    ds = ds.batch(batch).prefetch(2)
    steps = epochs * int(np.ceil(len(x) / batch))
    lr = tf.keras.optimizers.schedules.CosineDecay(0.0, steps, alpha=0.02, warmup_target=peak_lr,
                                                   warmup_steps=max(1, steps // 20))
    model.compile(optimizer=tf.keras.optimizers.Adam(lr), loss=loss, metrics=[metric])

    class Progress(tf.keras.callbacks.Callback):
        def on_epoch_end(self, epoch, logs=None):
            logs = logs or {}
            log(f"  epoch {epoch + 1}/{epochs}: loss {logs.get('loss', 0):.4f} acc {logs.get('accuracy', 0):.4f} "
                f"val_acc {logs.get('val_accuracy', 0):.4f} ({time.monotonic() - start:.0f} s)")

    start = time.monotonic()
    model.fit(ds, epochs=epochs, validation_data=(x_val.astype(np.float32), y_val), verbose=0,
              callbacks=[Progress()])
    return time.monotonic() - start


def to_tflite(model, quantize: str, representative: np.ndarray) -> bytes:
    """Convert: "float32", "float16" (half weights) or "int8" (int8 weights and activations,
    float32 input and output so callers feed pixels 0..255 whatever the choice)."""
    # Through a SavedModel: variables are frozen there, which int8 calibration needs.
    with tempfile.TemporaryDirectory(prefix="dice-savedmodel-") as saved:
        model.export(saved, format="tf_saved_model", verbose=False)
        conv = tf.lite.TFLiteConverter.from_saved_model(saved)
        return _convert(conv, quantize, representative)


def _convert(conv, quantize: str, representative: np.ndarray) -> bytes:
    if quantize == "float16":
        conv.optimizations = [tf.lite.Optimize.DEFAULT]
        conv.target_spec.supported_types = [tf.float16]
    elif quantize == "int8":
        conv.optimizations = [tf.lite.Optimize.DEFAULT]

        def rep():
            for crop in representative:
                yield [crop[None].astype(np.float32)]
        conv.representative_dataset = rep
        conv.target_spec.supported_ops = [tf.lite.OpsSet.TFLITE_BUILTINS_INT8]
    elif quantize != "float32":
        raise ValueError(f"quantize is float32, float16 or int8, not {quantize!r}.")
    return conv.convert()
