"""Generate wiring/<profile>.md and wiring/<profile>.svg from boards.toml.

    python -m hardware.wiring_gen            # writes the files in wiring/
    python -m hardware.wiring_gen --check    # exit 1 if a committed file differs

A test regenerates everything in memory and compares it with the committed
files, so the wiring pages never disagree with the profiles.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path
from xml.sax.saxutils import escape

from .profiles import GROUND_PINS, HEADER, BoardProfile, package_profiles

WIRING_DIR = Path(__file__).resolve().parent.parent / "wiring"
BCM_OF = {phys: bcm for bcm, phys in HEADER.items()}

# Power lines each board uses (physical pin -> label). HATs take every power
# pin through the header; the list names the ones a DIY build must wire.
DISPLAY_POWER = {1: "3V3 (display VCC)", 6: "GND (display GND)"}
DIY_BUTTON_GROUNDS = {9: "GND (to the ground rail: every button's other leg)",
                      14: "GND (a second wire to the same ground rail)"}


def power_rows(p: BoardProfile) -> dict[int, str]:
    rows = dict(DISPLAY_POWER)
    if p.wired:  # a DIY build: the buttons' ground wires too
        rows.update(DIY_BUTTON_GROUNDS)
    return rows


def signal_rows(p: BoardProfile) -> list[tuple[str, int, str]]:
    """(BCM label, header pin, function), in header order, power included."""
    rows = [(f"GPIO{bcm}", phys, fn) for bcm, phys, fn in p.pin_table()]
    rows += [("-", phys, fn) for phys, fn in power_rows(p).items()]
    return sorted(rows, key=lambda r: r[1])


def markdown(p: BoardProfile) -> str:
    d = p.display
    out = [f"# Wiring: {p.title}", "",
           f"Profile `{p.name}` (`companion --board {p.name}`). Generated from `hardware/boards.toml` "
           f"by `python -m hardware.wiring_gen`; do not edit by hand.", "",
           f"Display: {d.describe()}.", ""]
    if not p.wired:
        out += ["This board plugs on the Pi's 40-pin header: no wires to connect. The table says which "
                "header pins it uses (keep them free for other add-ons).", ""]
    else:
        out += ["Connect each line below with a jumper wire. Every button goes between its GPIO and a GND "
                "pin; the Pi's internal pull-up is used, no resistors needed.", ""]
    out += ["| BCM | Header pin | Function |", "|---|---|---|"]
    out += [f"| {bcm} | {phys} | {fn} |" for bcm, phys, fn in signal_rows(p)]
    out += ["", "## Buttons", "",
            "A *tap* button posts its key when released (a hold posts the hold key instead, then RELEASE); "
            "a *press* button posts at once, with no hold and no repeat.", "",
            "| Button | BCM | Header pin | Mode | Key | Hold |", "|---|---|---|---|---|---|"]
    out += [f"| {b.name} | GPIO{b.pin} | {b.header_pin} | {b.mode} | {b.key.name} | {b.hold.name if b.hold else '-'} |"
            for b in p.buttons]
    out += ["", "## Parts", ""] + [f"- {part}" for part in p.parts]
    out += ["", "## Source", "", p.source, ""]
    if p.product:
        out += [f"Product: {p.product}", ""]
    out += [f"Diagram: [{p.name}.svg]({p.name}.svg). Pi set-up: [pi-setup.md](pi-setup.md).", ""]
    return "\n".join(out)


def svg(p: BoardProfile) -> str:
    """The 40-pin header seen from above (pin 1 top left), used pins labelled."""
    used = {phys: fn for _, phys, fn in signal_rows(p)}
    row_h, top, cx_l, cx_r, w = 22, 60, 330, 352, 700
    h = top + 20 * row_h + 30
    o = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" '
         f'font-family="sans-serif" font-size="11">',
         f'<rect x="0" y="0" width="{w}" height="{h}" fill="white"/>',
         f'<text x="{w // 2}" y="22" text-anchor="middle" font-size="15" font-weight="bold">'
         f'{escape(p.title)}</text>',
         f'<text x="{w // 2}" y="42" text-anchor="middle">Raspberry Pi 40-pin header, pin 1 top left '
         f'(profile {escape(p.name)})</text>',
         f'<rect x="{cx_l - 14}" y="{top - 14}" width="{cx_r - cx_l + 28}" height="{20 * row_h + 6}" '
         f'rx="4" fill="#333"/>']
    for phys in range(1, 41):
        row, right = (phys - 1) // 2, phys % 2 == 0
        cx, cy = (cx_r if right else cx_l), top + row * row_h
        fn = used.get(phys)
        if phys in (1, 17):
            base = "3V3"
        elif phys in (2, 4):
            base = "5V"
        elif phys in GROUND_PINS:
            base = "GND"
        else:
            base = f"GPIO{BCM_OF[phys]}"
        if fn is None:
            color = "#999"
        elif base == "GND":
            color = "#000"
        elif base in ("3V3", "5V"):
            color = "#d22"
        elif fn.startswith("button"):
            color = "#1a7f37"
        else:
            color = "#1f5fbf"
        o.append(f'<circle cx="{cx}" cy="{cy}" r="7" fill="{color}" stroke="white"/>')
        o.append(f'<text x="{cx}" y="{cy + 4}" text-anchor="middle" font-size="8" fill="white">{phys}</text>')
        if fn is not None:
            label = escape(f"{base}: {fn}" if not fn.startswith(base) else fn)
            if right:
                o.append(f'<text x="{cx + 14}" y="{cy + 4}" fill="{color}">{label}</text>')
            else:
                o.append(f'<text x="{cx - 14}" y="{cy + 4}" text-anchor="end" fill="{color}">{label}</text>')
    o.append(f'<text x="10" y="{h - 10}" fill="#555">blue: display bus, green: buttons (to GND when '
             f'pressed), red: power, black: ground. Generated from hardware/boards.toml.</text>')
    o.append("</svg>")
    return "\n".join(o) + "\n"


def render_all() -> dict[str, str]:
    """File name (in wiring/) -> content, for every profile the package ships
    (a user's boards.toml never changes the committed wiring/)."""
    files: dict[str, str] = {}
    for name, p in package_profiles().items():
        files[f"{name}.md"] = markdown(p)
        files[f"{name}.svg"] = svg(p)
    return files


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m hardware.wiring_gen", description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="compare instead of writing")
    ap.add_argument("--dir", default=str(WIRING_DIR), help="output directory (default: wiring/)")
    args = ap.parse_args(argv)
    out = Path(args.dir)
    stale = []
    for fname, text in render_all().items():
        path = out / fname
        if args.check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                stale.append(fname)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path}")
    if stale:
        print("out of date (run python -m hardware.wiring_gen): " + ", ".join(stale), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
