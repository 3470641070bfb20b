"""Speed of skinless reading with the same readings (session 16): each faster step gives what the
slower one gave, to the bit."""

from __future__ import annotations

import math

import numpy as np
import pytest

from bot.vision import generic
from bot.vision.generic import uneven_shifts


def _every_step_weighed(profile: np.ndarray, start: float, pitch: float, count: int) -> tuple[float, ...]:
    """:func:`uneven_shifts` as it was: every cell weighed at every step before any is ruled out."""
    reach = max(2, math.floor(pitch * generic.UNEVEN_REACH))
    if count < generic.MIN_SIDE or pitch < 2 * reach:
        return ()
    steps = np.arange(-reach * generic.UNEVEN_STEPS, reach * generic.UNEVEN_STEPS + 1) / generic.UNEVEN_STEPS
    places = start + np.arange(count)[:, None] * pitch + np.arange(math.ceil(pitch))[None, :]
    axis = np.arange(len(profile), dtype=np.float64)
    stretches = np.interp(places[None] + steps[:, None, None], axis, profile)
    even = len(steps) // 2
    reference = np.median(stretches[even], axis=0)
    misfit = np.abs(stretches - reference).mean(axis=2)
    best = misfit.argmin(axis=0)
    found = steps[best]
    spread = float(np.abs(stretches[even] - reference.mean()).mean())
    clear = misfit[best, np.arange(count)] < generic.UNEVEN_FIT * misfit[even]
    moved = (np.abs(found) >= 1.0) & clear & (misfit[even] > generic.UNEVEN_MISFIT * spread)
    shifts = np.where(moved, found, 0.0)
    step = max(2, math.ceil(pitch * generic.UNEVEN_STEP))
    kept = ~moved
    for order in (range(1, count), range(count - 2, -1, -1)):
        for i in order:
            j = i - 1 if order.step == 1 else i + 1
            kept[i] |= kept[j] and abs(shifts[i] - shifts[j]) <= step
    shifts = np.where(kept, shifts, 0.0)
    return tuple(float(v) for v in shifts) if shifts.any() else ()


def _profile(rng: np.random.Generator, start: float, sizes: np.ndarray, noise: float) -> np.ndarray:
    """A board's brightness across one axis: dark grid lines at the cells' edges, on noise."""
    edges = start + np.concatenate([[0.0], np.cumsum(sizes)])
    xs = np.arange(int(edges[-1]) + 4, dtype=np.float64)
    profile = rng.normal(100.0, noise, len(xs))
    for edge in edges:
        profile[np.abs(xs - edge) < 1.5] -= rng.uniform(20, 80)
    return profile


@pytest.mark.parametrize("seed", range(4))
def test_uneven_shifts_weigh_only_misfits_with_the_same_result(seed: int) -> None:
    """Only cells misfitting the median stretch on the even pitch are weighed at every step; the shifts
    are those of weighing every cell at every step (boards of even cells, of two cell sizes, of noise;
    whole and fractional pitches, in float64 and float32)."""
    rng = np.random.default_rng(seed)
    moved = 0
    for case in range(200):
        pitch = float(rng.integers(8, 60)) if case % 2 else float(rng.uniform(8, 60))
        count = int(rng.integers(3, 32))
        start = float(rng.uniform(0, 5))
        sizes = np.full(count, pitch)
        if case % 3 == 0:  # the last cells a pixel or two smaller (GNOME Mines)
            sizes[rng.integers(0, count) :] -= rng.integers(1, 3)
        profile = _profile(rng, start, sizes, float(rng.uniform(0.1, 20)))
        if case % 5 == 0:
            profile = rng.uniform(0, 255, len(profile))
        if case % 4 == 1:
            profile = profile.astype(np.float32)
        expected = _every_step_weighed(profile, start, pitch, count)
        assert uneven_shifts(profile, start, pitch, count) == expected, (case, pitch, count, start)
        moved += bool(expected)
    assert moved >= 3  # the boards of two cell sizes do move cells: the weighing is exercised
