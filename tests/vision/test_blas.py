"""vision.blas: loading a dice model puts NumPy's BLAS on one thread (its spare threads only spin)."""
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import json, numpy, threadpoolctl
def blas():
    return [i["num_threads"] for i in threadpoolctl.threadpool_info() if i["user_api"] == "blas"]
before = blas()
from vision.model import interpreter_class
interpreter_class()
print(json.dumps({"before": before, "after": blas()}))
"""


def test_loading_a_model_leaves_numpys_blas_one_thread():
    env = {k: v for k, v in os.environ.items() if not k.endswith("_NUM_THREADS")}
    out = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True,
                         check=True, timeout=120)
    seen = json.loads(out.stdout.strip().splitlines()[-1])
    assert seen["before"], "NumPy's BLAS was not found by threadpoolctl"
    assert seen["after"] and set(seen["after"]) == {1}   # NumPy's, and OpenCV's own OpenBLAS loaded since
    if (os.cpu_count() or 1) > 1:
        assert max(seen["before"]) > 1   # the probe saw the limit change, not a BLAS that had one thread already
