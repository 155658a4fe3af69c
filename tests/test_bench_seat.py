"""The seat page's bench (bench/seat.py) in a tiny run: its keys are in
the contract's table, and seeing one's color again on the phone takes no press on
the device (skipped, with the reason, where there is no Chromium)."""
from __future__ import annotations

import pytest

import bench.__main__ as main
from bench import seat


def test_the_seat_keys_are_measured_and_in_the_table(tmp_path):
    fig = seat.measure(str(tmp_path), stretches=1)
    for k in ("web_seat_update_p95_ms", "presses_secret_color_phone"):
        assert k in fig and k in main.KEYS and k in main.GOALS
        assert k in main.table(fig)
    if fig["web_seat_update_p95_ms"] is None and "web_seat_reason" in fig:
        pytest.skip(fig["web_seat_reason"])
    assert fig["presses_secret_color_phone"] == 0          # the color came, and from the phone alone
    assert fig["web_seat_update_presses"] > 5 and fig["web_seat_update_missed"] == 0
    assert "A seat's own page" in main.report(fig, True)
