"""Resident memory of the dice detector's interpreter: RSS deltas at load and after invokes.

    .venv/bin/python bench/detector_memory.py [FILE.tflite ...]   (default: models/dice_detector.tflite)

Each file is measured in a fresh process (the runtime imported first, so its library pages are
not counted): VmRSS after the runtime's import, after Interpreter(...) + allocate_tensors() as
vision.model.DiceModel loads it (one thread, XNNPACK), and after 3 invokes on a 320x240 frame
(the activation arena is touched at the first); then the CPU time of one invoke (median of
TIMED, process time, one thread). A file whose .json names a second_finder: both files, summed.
Why: issue 14's memory target; a full-int8 file
should shrink the float32 arena (round 10 of models/DETECTOR_CARD.md).
"""
from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
INVOKES = 3
TIMED = 30


def measure(path: str) -> dict:
    import numpy as np
    sys.path.insert(0, str(ROOT))
    from vision.latency import rss_mb
    from vision.model import interpreter_class
    Interpreter = interpreter_class()
    before = rss_mb()
    interp = Interpreter(model_path=path, num_threads=1)
    interp.allocate_tensors()
    loaded = rss_mb()
    inp = interp.get_input_details()[0]
    x = np.random.default_rng(0).uniform(0, 255, inp["shape"]).astype(np.float32)
    for _ in range(INVOKES):
        interp.set_tensor(inp["index"], x)
        interp.invoke()
    invoked = rss_mb()
    cpu = []
    for _ in range(TIMED):
        t0 = time.process_time()
        interp.invoke()
        cpu.append(1000 * (time.process_time() - t0))
    return {"path": path, "bytes": Path(path).stat().st_size, "load_mb": round(loaded - before, 1),
            "invoked_mb": round(invoked - loaded, 1), "total_mb": round(invoked - before, 1),
            "cpu_ms": round(statistics.median(cpu), 1)}


def in_fresh_process(path: str) -> dict:
    """measure(path) in a process of its own (so that no other file's pages are counted); for a
    file whose .json names a second_finder (vision.model.TwoFinders), both files' figures summed."""
    meta = Path(path).with_suffix(".json")
    second = json.loads(meta.read_text(encoding="utf-8")).get("second_finder") if meta.is_file() else None
    if not second:
        return _one_fresh(path)
    parts = [_one_fresh(path), _one_fresh(str(Path(path).parent / second["file"]))]
    summed = {k: round(sum(m[k] for m in parts), 1) for k in ("load_mb", "invoked_mb", "total_mb", "cpu_ms")}
    return {"path": f"{path} + {second['file']}", "bytes": sum(m["bytes"] for m in parts), **summed}


def _one_fresh(path: str) -> dict:
    out = subprocess.run([sys.executable, __file__, "--one", path], capture_output=True, text=True)
    if out.returncode:
        raise SystemExit(f"{path}: could not be measured: {(out.stderr.strip().splitlines() or ['no output'])[-1]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def line(m: dict) -> str:
    return (f"{m['path']}: {m['bytes']} bytes; RSS +{m['load_mb']:.1f} MB at load, "
            f"+{m['invoked_mb']:.1f} MB more after {INVOKES} invokes (total +{m['total_mb']:.1f} MB); "
            f"CPU {m['cpu_ms']:.1f} ms per invoke (median of {TIMED})")


def main(argv: list[str]) -> int:
    if len(argv) == 2 and argv[0] == "--one":
        print(json.dumps(measure(argv[1])), flush=True)
        return 0
    for path in argv or [str(ROOT / "models" / "dice_detector.tflite")]:
        print(line(in_fresh_process(path)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
