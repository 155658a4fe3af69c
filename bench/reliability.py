"""Write docs/reliability.md from real harness runs (issue 8).

    python -m bench.reliability            # long mode: 200 kills, 100,000 presses
    python -m bench.reliability --quick    # short mode (CI): prints, writes nothing

Runs the power-cut harness, the key masher, the fault injector and the
corruption harness (bench.corrupt), reads the
systemd unit's exposure score, and (in long mode) rewrites
docs/reliability.md with the figures. Every figure in that file comes from
this run; none is typed by hand.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
UNIT = os.path.join(ROOT, "systemd", "companion.service")


def harness(module: str, *args: str) -> dict:
    p = subprocess.run([sys.executable, "-m", module, *args], capture_output=True, text=True, cwd=ROOT)
    lines = [ln for ln in p.stdout.strip().splitlines() if ln.startswith("{")]
    if not lines:
        raise RuntimeError(f"{module} printed no figures: {p.stderr[-2000:]}")
    out = json.loads(lines[-1])
    out["exit_status"] = p.returncode
    if p.returncode:
        out["stderr"] = p.stderr[-2000:]
    return out


def exposure() -> dict:
    tool = shutil.which("systemd-analyze")
    if not tool or not os.path.exists(UNIT):
        return {"exposure": None, "exposure_note": "systemd-analyze or the unit is missing"}
    p = subprocess.run([tool, "security", "--offline=yes", UNIT], capture_output=True, text=True)
    m = re.search(r"Overall exposure level for \S+: ([0-9.]+) (\S+)", p.stdout + p.stderr)
    if not m:
        return {"exposure": None, "exposure_note": (p.stdout + p.stderr)[-300:]}
    return {"exposure": float(m.group(1)), "exposure_level": m.group(2)}


def render(fig: dict, cmd: str) -> str:
    pc, mash, faults, exp = fig["powercut"], fig["mash"], fig["faults"], fig["exposure"]
    cor = fig["corrupt"]
    ok = lambda good: "yes" if good else "NO"  # noqa: E731
    lines = [
        "# Reliability",
        "",
        f"Every figure below was produced by `{cmd}` on {fig['date']} "
        f"({fig['seconds']:.0f} s); the raw JSON of each harness follows the table. "
        "The short modes of the same harnesses run in CI (`.ci/run`).",
        "",
        "| what | figure | goal | met |",
        "| --- | ---: | --- | --- |",
        f"| SIGKILLs of a running companion | {pc['kills']} | 200 | {ok(pc['kills'] >= 200)} |",
        f"| events confirmed on screen before a kill (largest journal) | {pc['events_confirmed']} | | |",
        f"| confirmed events lost | {pc['events_lost']} | 0 | {ok(pc['events_lost'] == 0)} |",
        f"| journals failing `PRAGMA integrity_check` | {pc['integrity_failures']} | 0 | {ok(pc['integrity_failures'] == 0)} |",
        f"| resumed screens compared with the screen before the kill | {pc['screens_compared']} | | |",
        f"| resumed screens that differed | {pc['screens_mismatched']} | 0 | {ok(pc['screens_mismatched'] == 0)} |",
        f"| random presses and holds | {mash['presses']} | 100000 | {ok(mash['presses'] >= 100000)} |",
        f"| crashes | {mash['crashes']} | 0 | {ok(mash['crashes'] == 0)} |",
        f"| frames that failed to render | {mash['bad_frames']} | 0 | {ok(mash['bad_frames'] == 0)} |",
        f"| sessions whose journal replayed to a different state | {mash['replay_mismatches']} | 0 | {ok(mash['replay_mismatches'] == 0)} |",
        f"| faults injected | {faults['faults_injected']} | | |",
        f"| faults survived | {faults['faults_survived']} | all | {ok(faults['faults_survived'] == faults['faults_injected'])} |",
        f"| damaged journals (a byte replaced, a bit flipped, truncated) | {cor['trials']} | | |",
        f"| ... on which the app started | {cor['starts_pct']}% | 100% | {ok(cor['starts'] == cor['trials'])} |",
        f"| ... sessions lost other than the damaged ones | {cor['sessions_lost_other']} | 0 | "
        f"{ok(cor['sessions_lost_other'] == 0)} |",
        f"| ... events lost before the damage | {cor['events_lost_before_damage']} | 0 | "
        f"{ok(cor['events_lost_before_damage'] == 0)} |",
        f"| ... sessions replayed with a hidden change | {cor['wrong_replays']} | 0 | {ok(cor['wrong_replays'] == 0)} |",
        f"| `systemd-analyze security` exposure | {exp.get('exposure')} | <= 2.0 | "
        f"{ok(exp.get('exposure') is not None and exp['exposure'] <= 2.0)} |",
        "",
        "Kinds of session played under the power cuts: " + ", ".join(pc["kinds"]) + ".",
        "",
        "## How",
        "",
        "* `python -m bench.powercut --kills N`: a child process plays scripted sessions of every kind "
        "through the app, printing after each key the journal's event count and a hash of the frame on "
        "screen; the parent SIGKILLs it at a random moment, checks that every confirmed event is in the "
        "journal and `PRAGMA integrity_check` is ok, then resumes in a fresh process: the resumed game "
        "screen must equal the game screen as first shown after the last confirmed event (popups and "
        "cursor moves are not events, so they are not resumed; the pages of the last decision, shown "
        "again over the resumed game screen, are closed with BACK first).",
        "* `python -m bench.mash --presses N`: random presses and holds through every screen; every frame "
        "must render and every session must replay from the journal to the state the app held.",
        "* `python -m bench.faults`: display errors on luma's real driver (a bus raising EREMOTEIO), "
        "disk full and read-only journal, corrupt and foreign journal files at start.",
        "* `python -m bench.corrupt --trials N`: a journal of real games (Undercut, Bag of Ice, Bottoms Up "
        f"and a die; {cor['journal_sessions']} sessions, {cor['journal_events']} events, {cor['journal_bytes']} "
        "bytes) is damaged at seeded random places, one trial each: a byte replaced, a bit flipped, or the "
        "file truncated; the app is started on the copy at the default path (`cli.build_app`) and must draw "
        "its first frame. Each damaged byte is traced through the undamaged file's pages to the event rows "
        "it touches; their sessions are the damaged ones. Every other session must be whole, and a damaged "
        "one must keep (itself, or the session that continues it) every event before its first damaged row. "
        f"{cor['trials_hitting_event_rows']} of the trials touched an event row.",
        "* Serial port vanishing and returning: `tests/test_console_serial.py`.",
        "* Watchdog: `tests/test_faults.py::test_a_stuck_loop_stops_the_watchdog_pings`.",
        "",
        "## Raw figures",
        "",
        "```json",
        json.dumps({k: fig[k] for k in ("powercut", "mash", "faults", "corrupt", "exposure")}, indent=1),
        "```",
        "",
    ]
    return "\n".join(lines)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.reliability", description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="short mode: fewer kills and presses, no doc written")
    p.add_argument("--kills", type=int)
    p.add_argument("--presses", type=int)
    p.add_argument("--trials", type=int, help="damaged journals for bench.corrupt")
    a = p.parse_args(argv)
    kills = a.kills or (12 if a.quick else 200)
    presses = a.presses or (5000 if a.quick else 100_000)
    trials = a.trials or (150 if a.quick else 1500)
    t0 = time.time()
    fig = {
        "powercut": harness("bench.powercut", "--kills", str(kills)),
        "mash": harness("bench.mash", "--presses", str(presses)),
        "faults": harness("bench.faults"),
        "corrupt": harness("bench.corrupt", "--trials", str(trials)),
        "exposure": exposure(),
        "date": time.strftime("%Y-%m-%d"),
    }
    fig["seconds"] = time.time() - t0
    pc, mash = fig["powercut"], fig["mash"]
    summary = {"kills": pc["kills"], "events_lost": pc["events_lost"],
               "integrity_failures": pc["integrity_failures"], "screens_mismatched": pc["screens_mismatched"],
               "presses": mash["presses"], "crashes": mash["crashes"], "bad_frames": mash["bad_frames"],
               "replay_mismatches": mash["replay_mismatches"],
               "faults_injected": fig["faults"]["faults_injected"],
               "faults_survived": fig["faults"]["faults_survived"], "exposure": fig["exposure"].get("exposure"),
               "corrupt_trials": fig["corrupt"]["trials"], "corrupt_starts": fig["corrupt"]["starts"],
               "corrupt_sessions_lost_other": fig["corrupt"]["sessions_lost_other"],
               "corrupt_events_lost_before_damage": fig["corrupt"]["events_lost_before_damage"],
               "corrupt_wrong_replays": fig["corrupt"]["wrong_replays"]}
    if not a.quick:
        cmd = "python -m bench.reliability" + (f" --kills {a.kills}" if a.kills else "") + \
              (f" --presses {a.presses}" if a.presses else "") + (f" --trials {a.trials}" if a.trials else "")
        with open(os.path.join(ROOT, "docs", "reliability.md"), "w", encoding="utf-8") as f:
            f.write(render(fig, cmd))
    print(json.dumps(summary))
    bad = [k for k in ("powercut", "mash", "faults", "corrupt") if fig[k]["exit_status"]]
    for k in bad:
        print(f"bench.reliability: the {k} harness failed (exit {fig[k]['exit_status']}): "
              f"{fig[k].get('stderr', '')}", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
