"""Candidate cell faces found on a screenshot: bounding boxes and their centres, as numpy columns."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass
class Boxes:
    """Axis-aligned boxes (corner, size) in continuous pixel coordinates; the board finders' raw material."""

    x: np.ndarray
    y: np.ndarray
    w: np.ndarray
    h: np.ndarray

    @property
    def cx(self) -> np.ndarray:
        return self.x + self.w / 2

    @property
    def cy(self) -> np.ndarray:
        return self.y + self.h / 2

    def take(self, index: np.ndarray) -> Boxes:
        """The boxes at ``index`` (an index array or a boolean mask)."""
        return Boxes(self.x[index], self.y[index], self.w[index], self.h[index])

    def plus(self, other: Boxes) -> Boxes:
        """These boxes followed by ``other``'s."""
        return Boxes(*(np.concatenate([a, b]) for a, b in zip(self.columns(), other.columns(), strict=True)))

    def columns(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        return self.x, self.y, self.w, self.h
