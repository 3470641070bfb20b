"""Freed memory kept for the next reading, not given back to the system at once.

Why: a skinless reading of a large board (:func:`bot.vision.generic.read_cells`) allocates and frees
about 100 MB of pixel arrays (the board in float, its blur, their difference; 18 MB each for a 30x16
board of 56 px cells). glibc's allocator serves arrays this size from fresh pages and gives them back
when they are freed, so every reading faults its arrays in again, page by page, each page zeroed by the
kernel: 10-35 ms of system time per reading there, a third of its processor time. With freed memory
kept (up to :data:`TRIM_THRESHOLD` of it), the next reading reuses the same pages. Only where the
memory comes from changes, never what is computed.
"""

from __future__ import annotations

import ctypes
import sys
import threading
from functools import cache

import numpy as np

M_TRIM_THRESHOLD = -1
"""glibc's ``mallopt`` parameter: free memory at the top of the heap above which it is given back."""
M_MMAP_THRESHOLD = -3
"""glibc's ``mallopt`` parameter: allocations at least this large get pages of their own (given back
on free)."""
MMAP_THRESHOLD = 4 * 1024 * 1024 * ctypes.sizeof(ctypes.c_long)
"""The largest glibc allows (32 MB on 64-bit systems): arrays up to this size come from the heap."""
TRIM_THRESHOLD = 256 * 1024 * 1024
"""Free memory kept at the top of the heap (a few readings' worth of arrays)."""


@cache
def keep_freed_memory() -> bool:
    """Set glibc's allocator, once per process, to keep freed memory for reuse (see the module); False
    where there is no glibc (the allocator is then left as it is)."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        mallopt = ctypes.CDLL(None).mallopt  # the process's own C library
    except (OSError, AttributeError):
        return False
    mallopt.argtypes, mallopt.restype = (ctypes.c_int, ctypes.c_int), ctypes.c_int
    return bool(mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD)) & bool(mallopt(M_TRIM_THRESHOLD, TRIM_THRESHOLD))


SCRATCH_SIZE = 1 << 20
"""Elements from which a work array is kept for the next reading (a board's, not a one-cell strip's)."""

_SCRATCH = threading.local()


def scratch(name: str, shape: tuple[int, ...], dtype: type) -> np.ndarray | None:
    """A work array ``name`` of ``shape`` kept for this thread's next call with the same shape (its old
    contents left: the caller overwrites it whole), or None for a small one (allocated as usual). Only
    for arrays that never leave the function that fills them."""
    if int(np.prod(shape)) < SCRATCH_SIZE:
        return None
    kept: dict[str, np.ndarray] = _SCRATCH.__dict__.setdefault("arrays", {})
    array = kept.get(name)
    if array is None or array.shape != shape or array.dtype != dtype:
        array = kept[name] = np.empty(shape, dtype)
    return array
