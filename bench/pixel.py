"""Press-to-pixel time at 100 kHz I2C for a burst of presses (issue 16).

The Pi's I2C runs at 100 kHz unless set faster: every byte on the bus takes
9 clock bits, so a full frame (1,030 bytes with the addressing) holds the bus
for about 93 ms. The scripted sessions of the bench are replayed as bursts:
one press every ``GAP_MS`` (a player flicking fast through a list), each press's
CPU time as measured here, each frame packed by the real partial-update
driver on a recording bus, and the bus time modelled from the bytes sent:

* **with the display writer** (``companion.display_writer``): the loop hands
  the frame over and takes the next press; the writer sends the newest frame
  whenever the bus is free (a frame not sent yet is dropped);
* **without it** (the loop sends each frame before the next press).

A press's press-to-pixel time is from the press to the end of the first
transfer that shows its frame (or a newer one). The figure is the p95 over
every press of every script.
"""
from __future__ import annotations

import statistics
import time

GAP_MS = 60.0         # a burst: about 16 presses a second, faster than full frames can go at 100 kHz
BUS_HZ = 100_000      # the Pi's default I2C clock
OVERHEAD_BYTES = 2    # address and control byte of each transfer


def bus_ms(transfers: list[tuple[int, bytes]]) -> float:
    nbytes = sum(len(d) + OVERHEAD_BYTES for _, d in transfers)
    return nbytes * 9 * 1000 / BUS_HZ


def _scripts(quick: bool):
    """Each script's frames and CPU times: a list of [(image, cpu_ms), ...] per script."""
    from bench.walks import ui_events
    scripts: list[list] = []
    for app, key in ui_events(quick):
        if key is None:
            scripts.append([("first", app.frame(), 0.0)])
            continue
        t0 = time.thread_time()
        app.handle(key)
        img = app.frame()
        scripts[-1].append(("press", img, (time.thread_time() - t0) * 1000))
    return scripts


def _meter():
    from bench.bus import RecordingBus, drivers
    from luma.core.interface.serial import i2c
    bus = RecordingBus()
    device = drivers()[0][1](i2c(bus=bus, address=0x3C))
    bus.transfers.clear()
    return bus, device


def simulate(script, writer: bool) -> list[float]:
    """Press-to-pixel times (ms) of one script's presses."""
    bus, device = _meter()
    device.display(script[0][1])  # the first frame is not a press
    bus.transfers.clear()
    presses = script[1:]

    def send(img) -> float:
        device.display(img)
        ms = bus_ms(bus.transfers)
        bus.transfers.clear()
        return ms

    out: list[float] = []
    if not writer:
        free = 0.0
        for i, (_, img, cpu) in enumerate(presses):
            t = i * GAP_MS
            done = max(t, free) + cpu + send(img)
            out.append(done - t)
            free = done
        return out
    ready: list[float] = []
    loop_free = 0.0
    for i, (_, _img, cpu) in enumerate(presses):
        loop_free = max(i * GAP_MS, loop_free) + cpu
        ready.append(loop_free)
    bus_free, shown = 0.0, 0  # presses [0, shown) are on the panel
    while shown < len(presses):
        start = max(bus_free, ready[shown])
        j = shown
        while j + 1 < len(presses) and ready[j + 1] <= start:
            j += 1  # the newest frame handed over by then: the older ones are dropped
        done = start + send(presses[j][1])
        out += [done - k * GAP_MS for k in range(shown, j + 1)]
        shown, bus_free = j + 1, done
    return out


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20)[-1] if len(values) > 1 else values[0]


def measure(quick: bool) -> dict:
    scripts = _scripts(quick)
    with_w = [ms for s in scripts for ms in simulate(s, True)]
    without = [ms for s in scripts for ms in simulate(s, False)]
    return {"press_to_pixel_burst_100k_ms": round(p95(with_w), 1),
            "press_to_pixel_burst_100k_sync_ms": round(p95(without), 1),
            "press_to_pixel_burst_presses": len(with_w)}


if __name__ == "__main__":
    import json
    import sys
    print(json.dumps(measure("--quick" in sys.argv)))
