"""minebot's own stroke fonts and digit references: the same pixels under every library release."""

from __future__ import annotations

import hashlib
import random

import cv2
import numpy as np
import pytest

from bot.hershey import FONTS, put_text, text_size
from bot.vision import glyphs

REFERENCES_SHA256 = "946c8dd96f30c45351ea510b127361e7821bbda3376c51ae4e4c2eea97248c2a"
"""Every digit reference :mod:`bot.vision.glyphs` reads with (``reference_fonts``, digits 1-8), hashed:
the same as OpenCV 5.0.0.93 drew them, when the reader was measured. A change here changes what the
generic reader reads: it must be made on purpose, with the benchmarks run again."""

TEXT_SHA256 = "168d1b4b63bfd861db4a4a042f1d6b63ea49d37f6089fbeea4b334387b5947af"
"""Every printable character of every stroke font drawn by :func:`put_text` (thin and thick, sharp and
anti-aliased), hashed: the simulated client's window text and the tests' drawn digits."""

OPENCV_HERSHEY = {
    "simplex": cv2.FONT_HERSHEY_SIMPLEX,
    "plain": cv2.FONT_HERSHEY_PLAIN,
    "duplex": cv2.FONT_HERSHEY_DUPLEX,
    "complex": cv2.FONT_HERSHEY_COMPLEX,
    "triplex": cv2.FONT_HERSHEY_TRIPLEX,
}

PRINTABLE = "".join(chr(code) for code in range(32, 127))


def _references_digest() -> str:
    digest = hashlib.sha256()
    for font, weight in glyphs.reference_fonts():
        for n in range(1, 9):
            mask = glyphs.reference_mask(n, font, weight)
            digest.update(f"{font} {weight} {n} {mask.shape} {mask.dtype};".encode())
            digest.update(np.ascontiguousarray(mask).tobytes())
    return digest.hexdigest()


def _text_digest() -> str:
    digest = hashlib.sha256()
    for font in FONTS:
        for scale, thickness, line_type in ((0.5, 1, cv2.LINE_8), (1.3, 3, cv2.LINE_AA)):
            for start in range(0, len(PRINTABLE), 16):
                text = PRINTABLE[start : start + 16]
                image = np.zeros((60, 16 * 45, 3), np.uint8)
                put_text(image, text, (3, 40), font, scale, (255, 128, 7), thickness, line_type)
                digest.update(image.tobytes())
    return digest.hexdigest()


def test_the_digit_references_are_the_ones_the_reader_was_measured_with():
    assert _references_digest() == REFERENCES_SHA256


def test_the_stroke_fonts_draw_the_same_pixels():
    assert _text_digest() == TEXT_SHA256


def test_every_font_has_every_printable_character_and_draws_others_as_a_question_mark():
    for font in FONTS:
        for char in PRINTABLE[1:]:  # a space draws nothing
            image = np.zeros((40, 40), np.uint8)
            put_text(image, char, (8, 30), font, 1.0, 255, 2)
            assert image.any(), (font, char)
        unknown, question = np.zeros((40, 40), np.uint8), np.zeros((40, 40), np.uint8)
        put_text(unknown, "é", (8, 30), font, 1.0, 255)
        put_text(question, "?", (8, 30), font, 1.0, 255)
        assert (unknown == question).all()
    with pytest.raises(KeyError, match="no stroke font 'gothic'"):
        put_text(np.zeros((9, 9), np.uint8), "1", (0, 8), "gothic", 1.0, 255)


@pytest.mark.skipif(
    int(cv2.__version__.split(".")[0]) >= 5, reason="OpenCV 5 draws other shapes for FONT_HERSHEY_*"
)
def test_put_text_draws_as_opencv_putText_did_before_release_5():
    """Where the installed OpenCV still draws Hershey's glyphs (4.x), :func:`put_text` and
    :func:`text_size` give its pixels and sizes exactly (but thin sharp strokes, drawn from whole pixels),
    over random texts, sizes, weights and pens."""
    rng = random.Random(31)
    for _ in range(600):
        font = rng.choice(list(FONTS))
        text = "".join(rng.choice(PRINTABLE) for _ in range(rng.randrange(1, 7)))
        scale = rng.choice([0.4, 0.5, 0.8, 1.0, 1.2, 2.0, rng.uniform(0.2, 3.0)])
        thickness = rng.randrange(1, 9)
        line_type = rng.choice([cv2.LINE_4, cv2.LINE_8, cv2.LINE_AA])
        if thickness == 1 and line_type == cv2.LINE_8:
            line_type = cv2.LINE_4  # drawn from whole pixels as LINE_4 was (OpenCV 4 drew LINE_8 finer)
        shape = (rng.randrange(10, 120), rng.randrange(10, 300)) + rng.choice([(), (3,)])
        org = (rng.randrange(-20, 80), rng.randrange(-10, 110))
        color = rng.randrange(256) if len(shape) == 2 else tuple(rng.randrange(256) for _ in range(3))
        theirs = np.full(shape, rng.randrange(256), np.uint8)
        ours = theirs.copy()
        cv2.putText(theirs, text, org, OPENCV_HERSHEY[font], scale, color, thickness, line_type)
        put_text(ours, text, org, font, scale, color, thickness, line_type)
        assert (ours == theirs).all(), (font, text, scale, thickness, line_type)
        assert text_size(text, font, scale, thickness) == cv2.getTextSize(
            text, OPENCV_HERSHEY[font], scale, thickness
        ), (font, text, scale, thickness)
