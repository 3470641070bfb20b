"""minebot's own stroke fonts and digit references: the same pixels under every library release."""

from __future__ import annotations

import hashlib

import cv2
import numpy as np
import pytest

from bot.hershey import FONTS, put_text, text_width
from bot.vision import glyphs

REFERENCES_SHA256 = "946c8dd96f30c45351ea510b127361e7821bbda3376c51ae4e4c2eea97248c2a"
"""Every digit reference :mod:`bot.vision.glyphs` reads with (``reference_fonts``, digits 1-8), hashed:
the same as OpenCV 5.0.0.93 drew them, when the reader was measured. A change here changes what the
generic reader reads: it must be made on purpose, with the benchmarks run again."""

TEXT_SHA256 = "168d1b4b63bfd861db4a4a042f1d6b63ea49d37f6089fbeea4b334387b5947af"
"""Every printable character of every stroke font drawn by :func:`put_text` (thin and thick, sharp and
anti-aliased), hashed: the simulated client's window text and the tests' drawn digits."""

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


def test_text_width_spans_the_ink_put_text_draws():
    for scale in (0.45, 0.75, 1.0):
        image = np.zeros((60, 200), np.uint8)
        put_text(image, "Medium", (0, 40), "simplex", scale, 255, 1)
        columns = np.nonzero(image.any(axis=0))[0]
        width = text_width("Medium", "simplex", scale)
        assert columns.max() < width <= columns.max() + 10


def test_generated_looks_draw_their_text_without_opencv_fonts(monkeypatch):
    """OpenCV 5.0 and 5.1 draw other shapes for their font names: the looks' header texts (a level box,
    a title) come from minebot's own strokes, so one seed gives one picture with any OpenCV release."""
    from bot.looks import generate

    def refuse(*args, **kwargs):
        raise AssertionError("cv2 text drawn")

    monkeypatch.setattr(cv2, "putText", refuse)
    monkeypatch.setattr(cv2, "getTextSize", refuse)
    seen = set()
    for seed in range(40):
        seen.add(generate(seed).look.surroundings)
    assert {"classic", "modern", "toolbar"} <= seen
