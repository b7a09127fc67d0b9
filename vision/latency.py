"""Frame latency of the dice reader on rendered 640x480 trays, and the process's peak memory."""
from __future__ import annotations

import random
import resource
import sys
import time

import numpy as np

from .reader import DiceReader
from .synth import render_tray

__all__ = ["measure_latency", "peak_rss_mb", "rss_mb", "format_latency"]


def peak_rss_mb() -> float:
    """Peak resident memory of this process so far, in MiB."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    # Linux reports KiB, macOS bytes.
    return peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024


def rss_mb() -> float:
    """Resident memory of this process now, in MiB (Linux: /proc/self/status's VmRSS)."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS in /proc/self/status")


def measure_latency(reader: DiceReader | None = None, dice_counts=(1, 6, 12), frames: int = 40,
                    seed: int = 7) -> dict:
    """p50/p95 milliseconds per frame (detect + classify + colours) for each dice count."""
    reader = reader or DiceReader(keep_crops=False)
    rng = random.Random(seed)
    results = {}
    for n in dice_counts:
        scenes = [render_tray(rng, n, (640, 480)).image for _ in range(min(frames, 10))]
        reader.read(scenes[0])  # warm up: first interpreter run and batch resize
        times, cpu = [], []
        found = 0
        for i in range(frames):
            image = scenes[i % len(scenes)]
            t0, c0 = time.perf_counter(), time.process_time()
            reading = reader.read(image)
            times.append((time.perf_counter() - t0) * 1000.0)
            cpu.append((time.process_time() - c0) * 1000.0)
            found += len(reading.dice)
        # CPU time as well as wall time: on a shared machine the wall time includes waiting for a core.
        results[str(n)] = {"dice": n, "frames": frames, "p50_ms": round(float(np.percentile(times, 50)), 2),
                           "p95_ms": round(float(np.percentile(times, 95)), 2),
                           "cpu_p50_ms": round(float(np.percentile(cpu, 50)), 2),
                           "mean_dice_found": round(found / frames, 2)}
    return {"frame": "640x480", "latency": results, "peak_rss_mb": round(peak_rss_mb(), 1)}


def format_latency(result: dict) -> str:
    lines = [f"Dice reader latency per {result['frame']} frame (detect + classify + colour; "
             f"target: 12 dice p50 <= 30 ms):"]
    for r in result["latency"].values():
        lines.append(f"  {r['dice']:>2} dice: p50 {r['p50_ms']:.1f} ms, p95 {r['p95_ms']:.1f} ms "
                     f"(CPU p50 {r['cpu_p50_ms']:.1f} ms; {r['frames']} frames, "
                     f"{r['mean_dice_found']:.1f} dice found per frame)")
    lines.append(f"Peak memory (RSS): {result['peak_rss_mb']:.1f} MiB")
    return "\n".join(lines)
