"""Same record, same screen, in every process.

Python randomises ``str`` and ``Enum`` hashes per process (PYTHONHASHSEED), so
anything that iterates a set or picks among equals by hash order changes from
one start of the device to the next. tests/hashprobe.py digests every replay,
export and scripted frame; here it runs under several hash seeds and every
line must agree.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from companion import records
from tests.hashprobe import TWO_WAY_TURN, two_way_record

ROOT = Path(__file__).resolve().parent.parent
SEEDS = ("0", "1", "2", "3", "4")


def run_probe(seed: str, *extra: str) -> list[str]:
    env = dict(os.environ, PYTHONHASHSEED=seed, PYTHONPATH=str(ROOT))
    p = subprocess.run([sys.executable, "-m", "tests.hashprobe", *extra], cwd=ROOT, env=env,
                       capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr
    return p.stdout.splitlines()


def test_every_replay_export_and_frame_is_the_same_under_every_hash_seed():
    first = run_probe(SEEDS[0])
    assert len(first) > 80  # records x (replay, json, csv, png) + scripted sessions
    assert any(line.startswith("script") for line in first)
    for seed in SEEDS[1:]:
        other = run_probe(seed, "--no-scripts") if seed != SEEDS[1] else run_probe(seed)
        differ = [a for a, b in zip(first, other) if a != b]
        assert not differ and len(other) <= len(first), f"PYTHONHASHSEED={seed}: {differ[:5]}"


def test_a_turn_of_two_arrangements_scores_one_under_every_hash_seed(tmp_path):
    # B-5: the turn yL gL cL pM cM gM yS pS pS scores 30 as three mixed trees; among the
    # equal arrangements the engine takes the first in sorted order, in every process.
    path = tmp_path / "turn.jsonl"
    path.write_text(two_way_record(bank=False), encoding="utf-8")
    seen = set()
    for seed in SEEDS:
        env = dict(os.environ, PYTHONHASHSEED=seed, PYTHONPATH=str(ROOT))
        p = subprocess.run([sys.executable, "-m", "companion", "replay", str(path), "--json"], cwd=ROOT,
                           env=env, capture_output=True, text=True, timeout=120)
        assert p.returncode == 0, p.stderr
        arr = json.loads(p.stdout)["state"]["arrangement"]
        seen.add(json.dumps(arr))
    assert len(seen) == 1
    arr = json.loads(seen.pop())
    assert arr["score"] == 30
    assert [t["pieces"] for t in arr["trees"]] == [["cL", "cM", "pS"], ["gL", "gM", "pS"], ["yL", "pM", "yS"]]
    drawn = records.replay(records.parse_lines(two_way_record(bank=False).splitlines())).fold.state.drawn
    assert [str(p) for p in drawn] == TWO_WAY_TURN


@pytest.mark.parametrize("game", ["undercut", "bottoms_up"])
def test_refusals_name_the_same_thing_in_every_process(game, tmp_path):
    # Undercut: a bid of pieces the bidder lacks names the first short piece in the bid's
    # order (U-9); Bottoms Up check mode's reasons go through the colors in BU-1's order.
    code = {
        "undercut": (
            "from companion.games import spec\n"
            "from companion.errors import IllegalMoveError\n"
            "s = spec('undercut').new({'players': ['A', 'B', 'C'], 'start': 0})\n"
            "from companion.engine import pick_chance\n"
            "import random\n"
            "r = random.Random(3)\n"
            "while s.is_chance_node() or s.forced_move():\n"
            "    s = s.apply(pick_chance(s, r) if s.is_chance_node() else s.forced_move())\n"
            "while not any(str(m).startswith('bid') for m in s.legal_moves()):\n"
            "    s = s.apply(pick_chance(s, r) if s.is_chance_node() else (s.forced_move() or s.legal_moves()[0]))\n"
            "for text in ('bid A rS gS bS yS cS', 'bid A cL yL rL'):\n"
            "    try:\n"
            "        s.apply_text(text)\n"
            "    except (IllegalMoveError, ValueError) as e:\n"
            "        print(e)\n"),
        "bottoms_up": (
            "from tests.hashprobe import random_record\n"
            "print(random_record('bottoms_up', 1)[:2000])\n"),
    }[game]
    outs = set()
    for seed in SEEDS[:4]:
        env = dict(os.environ, PYTHONHASHSEED=seed, PYTHONPATH=str(ROOT))
        p = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                           timeout=120)
        assert p.returncode == 0, p.stderr
        assert p.stdout.strip()
        outs.add(p.stdout)
    assert len(outs) == 1, outs


RESUMED_SUMMARY = """
import random, sys
from companion.journal import Journal
from companion.session import Session
from companion.ui.bag_of_ice import result_screens
from companion.ui.draw import Canvas
j = Journal(sys.argv[1])
s = Session.resume(j, int(sys.argv[2]), random.Random(1))
i = max(k for k, p in enumerate(s.fold.moves) if p.text == "bank")
c = Canvas()
result_screens(s, i)[0].render(c)
sys.stdout.write(c.image.tobytes().hex())
"""


def test_the_bank_summary_shown_live_is_the_one_a_resume_shows_in_any_process(tmp_path):
    # B-5: the arrangement shown when the turn was banked, and the one drawn from the same
    # journal after a restart (another process, another hash seed), are the same picture.
    import random

    from companion.journal import Journal
    from companion.session import Session
    from companion.ui.bag_of_ice import Summary, result_screens
    from companion.ui.draw import Canvas

    rec = records.parse_lines(two_way_record().splitlines())
    path = tmp_path / "journal.db"
    j = Journal(str(path))
    s = Session.start(j, "bag_of_ice", rec.setup, random.Random(1))
    for e in rec.events[:-1]:
        s.play(e.data["move"])
    n0 = len(s.fold.moves)
    s.play("bank")
    live = result_screens(s, n0)[0]
    assert isinstance(live, Summary)
    c = Canvas()
    live.render(c)
    j.close()
    for seed in SEEDS[1:4]:
        env = dict(os.environ, PYTHONHASHSEED=seed, PYTHONPATH=str(ROOT))
        p = subprocess.run([sys.executable, "-c", RESUMED_SUMMARY, str(path), str(s.id)], cwd=ROOT, env=env,
                           capture_output=True, text=True, timeout=120)
        assert p.returncode == 0, p.stderr
        assert p.stdout == c.image.tobytes().hex(), f"PYTHONHASHSEED={seed}"
