"""NumPy's BLAS on one thread while dice are read.

NumPy's OpenBLAS starts a thread per core and, after each matrix product, lets them spin waiting
for the next one. The reader's products are small (a 160 x 120 picture's colour conversion, the
hand check's blur, the taught dice's similarities), so the spinning threads buy nothing and take a
core from the camera and the screen. Measured on this 2-core machine (2026-12-07,
build/r47/blas_cpu.py, the shipped reader, calib split, least of 3 reads a photo, two runs each):
CPU time per photo, median, 40.7-44.1 -> 23.1-24.2 ms (tilted-webcam, 22 photos) and 49.3-55.3 ->
25.1-33.0 ms (aws-workshop-dice, 29 photos), wall time the same within the runs' spread
(20.4-22.1 -> 23.1-24.3 ms, 24.6-27.7 -> 25.1-33.0 ms): the second core only spun.

threadpoolctl sets the thread count of whatever BLAS NumPy loaded (a wheel's OpenBLAS, or Debian's
on a Pi) at run time, so the order of imports does not matter, as it would for OPENBLAS_NUM_THREADS.
"""
from __future__ import annotations

import logging
from functools import cache

__all__ = ["one_blas_thread"]

log = logging.getLogger(__name__)


@cache
def one_blas_thread() -> None:
    """Limit NumPy's BLAS (imported already: vision.model imports NumPy first) to one thread for the rest
    of the process (once: later calls return at once). Without threadpoolctl the BLAS keeps its threads:
    slower, never wrong."""
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:
        log.warning("threadpoolctl is not installed: NumPy's BLAS keeps a thread per core while dice are read.")
        return
    threadpool_limits(limits=1, user_api="blas")
