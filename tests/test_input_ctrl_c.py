"""Ctrl-C always stops a run (:mod:`bot.agent.stopping`), also when its ``KeyboardInterrupt`` is raised
where Python drops it: in a finaliser, as mss's X11 capture runs one for every reply it frees (the lost
Ctrl-C of about one live run in a hundred)."""

from __future__ import annotations

import signal
import sys
import threading
import weakref

import pytest

from bot.agent import Player, PlayOptions
from bot.agent.stopping import check_stop, ctrl_c_stops
from bot.input import _interrupts_deferred
from bot.mock import SimClient


class _Reply:
    """Stands for a library object freed by a finaliser (mss frees each X reply so)."""


def _ctrl_c_inside_a_finaliser() -> None:
    """A Ctrl-C handled while a finaliser runs: its ``KeyboardInterrupt`` is raised there and dropped."""
    reply = _Reply()
    weakref.finalize(reply, signal.raise_signal, signal.SIGINT)
    del reply


def test_a_ctrl_c_swallowed_by_a_finaliser_still_stops_the_run(monkeypatch):
    """The Ctrl-C lands while a finaliser runs during the third look at the screen: Python prints
    "Exception ignored" and drops the KeyboardInterrupt, yet the run stops at the play loop's next step
    with the report of any Ctrl-C (before, it played every game)."""
    client = SimClient("beginner", seed=3, rule="zero")
    dropped: list[BaseException | None] = []
    monkeypatch.setattr(sys, "unraisablehook", lambda u: dropped.append(u.exc_value))
    grab, looks = client.capture.grab, []

    def grab_with_a_finaliser(region=None):  # type: ignore[no-untyped-def]
        looks.append(region)
        if len(looks) == 3:
            _ctrl_c_inside_a_finaliser()
        return grab(region)

    monkeypatch.setattr(client.capture, "grab", grab_with_a_finaliser)
    summary = Player(client.capture, client.input, PlayOptions(games=5), sleep=lambda s: None).run()
    assert len(dropped) == 1 and isinstance(dropped[0], KeyboardInterrupt)  # Python did drop it
    assert summary.stopped == "interrupted (Ctrl-C)" and summary.games <= 1
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # put back after the run


def test_a_ctrl_c_held_back_during_an_x_send_is_raised_and_remembered():
    """Inside a run, a send on the X connection holds Ctrl-C back to its end as before
    (:func:`~bot.input._interrupts_deferred`), then Python's handler is the run's again; a Ctrl-C is
    remembered for the run's checks even after its ``KeyboardInterrupt`` was caught, until a new run."""
    with ctrl_c_stops():
        run_handler = signal.getsignal(signal.SIGINT)
        with pytest.raises(KeyboardInterrupt), _interrupts_deferred():
            signal.raise_signal(signal.SIGINT)
            assert signal.getsignal(signal.SIGINT) is not run_handler  # held back here
        assert signal.getsignal(signal.SIGINT) is run_handler
        check_stop()  # held back and raised by the block: nothing lost, nothing remembered
        with pytest.raises(KeyboardInterrupt):
            signal.raise_signal(signal.SIGINT)
        with pytest.raises(KeyboardInterrupt):
            check_stop()
    with ctrl_c_stops():
        check_stop()  # a new run starts afresh
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_no_handler_is_set_outside_the_main_thread():
    """Only the main thread can set a signal handler: elsewhere the block runs with nothing changed."""
    errors: list[BaseException] = []

    def body() -> None:
        try:
            with ctrl_c_stops():
                check_stop()
        except BaseException as exc:  # noqa: BLE001 - reported to the main thread
            errors.append(exc)

    thread = threading.Thread(target=body)
    thread.start()
    thread.join()
    assert errors == [] and signal.getsignal(signal.SIGINT) is signal.default_int_handler
