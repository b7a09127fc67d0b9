"""`make bench`: run every benchmark script in this folder and print their figures.

Each script prints its own figures; this runner only runs them one after another (never in
parallel: they measure time on a 2-core machine) and reports any that failed.
"""
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ORDER = [
    "rolling_village_advisor.py",
    "app_startup.py",
    "vision_latency.py",
    "vision_accuracy.py",
    "centerville_sim.py",
    "civility_sim.py",
]
# Not benchmarks of what ships: each compares a candidate detector file, named on its command line, with the
# shipped one by a round's rule (models/DETECTOR_ROUNDS.md); run without one it can only stop with a usage error.
CANDIDATE_TOOLS = {"detector_rule.py", "cpu_pair.py"}


def main(argv):
    wanted = argv or None
    scripts = [HERE / name for name in ORDER if (HERE / name).exists()]
    scripts += sorted(p for p in HERE.glob("*.py") if p.name not in ORDER and p.name != "run_all.py"
                and p.name not in CANDIDATE_TOOLS)
    failed = []
    for script in scripts:
        if wanted and not any(w in script.name for w in wanted):
            continue
        print(f"\n=== {script.name} ===", flush=True)
        start = time.perf_counter()
        code = subprocess.call([sys.executable, str(script)], cwd=HERE.parent)
        print(f"--- {script.name}: exit {code}, {time.perf_counter() - start:.1f} s", flush=True)
        if code:
            failed.append(script.name)
    if failed:
        print(f"\nFailed: {', '.join(failed)}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
