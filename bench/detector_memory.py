"""Resident memory of the dice detector's interpreter: RSS deltas at load and after invokes.

    .venv/bin/python bench/detector_memory.py [FILE.tflite ...]   (default: models/dice_detector.tflite)

Each file is measured in a fresh process (the runtime imported first, so its library pages are
not counted): VmRSS after the runtime's import, after Interpreter(...) + allocate_tensors() as
vision.model.DiceModel loads it (one thread, XNNPACK), and after 3 invokes on a 320x240 frame
(the activation arena is touched at the first); then the CPU time of one invoke (median of
TIMED, process time, one thread). A file whose .json names a second_finder: both interpreters
loaded in the one process, as the reader loads them (the runtime pages they share counted once),
and the CPU of one invoke of each, summed.
Why: issue 14's memory target; a full-int8 file
should shrink the float32 arena (round 10 of models/DETECTOR_ROUNDS.md).
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
    """RSS of path's interpreters (both files of a pair, loaded in this one process as the reader
    loads them, so the runtime's pages they share are counted once) and each one's CPU per invoke."""
    import numpy as np
    sys.path.insert(0, str(ROOT))
    from vision.latency import rss_mb
    from vision.model import detector_files, interpreter_class
    Interpreter = interpreter_class()
    files = [str(f) for f in detector_files(path)]
    before = rss_mb()
    interps = []
    for f in files:
        interps.append(Interpreter(model_path=f, num_threads=1))
        interps[-1].allocate_tensors()
    loaded = rss_mb()
    for interp in interps:
        inp = interp.get_input_details()[0]
        x = np.random.default_rng(0).uniform(0, 255, inp["shape"]).astype(np.float32)
        for _ in range(INVOKES):
            interp.set_tensor(inp["index"], x)
            interp.invoke()
    invoked = rss_mb()
    cpu = 0.0
    for interp in interps:
        times = []
        for _ in range(TIMED):
            t0 = time.process_time()
            interp.invoke()
            times.append(1000 * (time.process_time() - t0))
        cpu += statistics.median(times)
    return {"path": " + ".join(files), "bytes": sum(Path(f).stat().st_size for f in files),
            "load_mb": round(loaded - before, 1), "invoked_mb": round(invoked - loaded, 1),
            "total_mb": round(invoked - before, 1), "cpu_ms": round(cpu, 1)}


def in_fresh_process(path: str) -> dict:
    """measure(path) in a process of its own (so that no other file's pages are counted)."""
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
