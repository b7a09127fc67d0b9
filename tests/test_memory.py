"""companion.memory: freed heap pages go back to the system after a burst (glibc's malloc_trim)."""
from __future__ import annotations

import platform
import subprocess
import sys

import pytest

from companion.memory import release_freed_memory

# In a fresh interpreter, so that what other tests left on the heap does not blur the figure:
# 40 MB of 100 KB blocks (below malloc's mmap threshold: they come from the heap), one small
# block kept after them so that free() cannot simply shrink the heap from its top, then the big
# ones freed. The process keeps their pages until asked to hand them back.
BURST = """
import sys
from companion.memory import release_freed_memory
def rss_mb():
    with open("/proc/self/status") as status:
        return next(int(l.split()[1]) for l in status if l.startswith("VmRSS")) / 1024
blocks = [bytearray(100_000) for _ in range(400)]
for b in blocks:
    b[::4096] = b"x" * len(b[::4096])   # touch every page
keep = bytearray(1000)
del blocks
before = rss_mb()
released = release_freed_memory()
print(released, before - rss_mb())
"""


@pytest.mark.skipif(platform.system() != "Linux" or platform.libc_ver()[0] != "glibc",
                    reason="malloc_trim is glibc's")
def test_a_burst_of_freed_blocks_goes_back_to_the_system():
    out = subprocess.run([sys.executable, "-c", BURST], capture_output=True, text=True, check=True).stdout
    released, freed_mb = out.split()
    assert released == "True"
    assert float(freed_mb) > 30, f"only {freed_mb} MB of 40 MB freed went back"


def test_it_can_be_called_at_any_time():
    assert release_freed_memory() in (True, False)
    assert release_freed_memory() in (True, False)
