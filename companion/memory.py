"""Give back to the system the memory a one-off burst of work has freed.

glibc's malloc keeps what a burst frees (loading the dice models, the simulator drawing its
tray, the screens built at start-up) as its own, in free blocks scattered between live ones, so
without this the process stays as big as its busiest moment. malloc_trim(0) hands every whole
free page back. It is cheap (0.4-4.4 ms here after a simulator roll) and called only after such
bursts, never per frame: pages handed back and taken again each frame cost page faults (a fixed
malloc mmap threshold tried that: 8 ms of CPU per frame).
Elsewhere than glibc (musl, macOS) there is no malloc_trim and this does nothing.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import functools
import sys

__all__ = ["release_freed_memory"]


@functools.cache
def _malloc_trim():
    """glibc's malloc_trim, or None where there is none (not Linux, or not glibc)."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        trim = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").malloc_trim
    except (OSError, AttributeError):
        return None
    trim.argtypes, trim.restype = [ctypes.c_size_t], ctypes.c_int
    return trim


def release_freed_memory() -> bool:
    """Hand freed heap pages back to the system; True if any were (False: none, or no glibc)."""
    trim = _malloc_trim()
    return bool(trim(0)) if trim else False
