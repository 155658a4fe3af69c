"""Print a digest of everything a record or a scripted session shows.

    python -m tests.hashprobe            # one line per output: "<name> <sha256>"

Run under several ``PYTHONHASHSEED`` values by tests/test_hash_order.py: the
lines must be identical, since Python randomises ``str`` and ``Enum`` hashes
per process and nothing a player, a replay or an export sees may depend on
them. Covered:

* every golden record of the three games and tests/data's records;
* seeded random records of each game (Bag of Ice turns with several mixed
  trees included, banked before the end);
* for each record: ``companion replay --json`` (the ``ReplayResult`` JSON), and
  the exports: JSON record, CSV of scores per turn, PNG score sheet;
* the frames of the bench's scripted sessions, every frame after every key.
"""
from __future__ import annotations

import hashlib
import json
import random
import sys
import tempfile
from pathlib import Path
from typing import Iterator

ROOT = Path(__file__).resolve().parent.parent


def _digest(data: str | bytes) -> str:
    return hashlib.sha256(data.encode() if isinstance(data, str) else data).hexdigest()[:16]


def record_files() -> list[Path]:
    return sorted(ROOT.glob("tests/golden/*/*.jsonl")) + sorted(ROOT.glob("tests/data/*good*.jsonl"))


def random_record(game: str, seed: int) -> str:
    """A seeded random game of ``game`` as record text (every move legal, chance by the seed)."""
    from companion.engine import pick_chance
    from companion.records import Event, dumps
    from companion.games import spec

    rng = random.Random(seed)
    setups = {
        "undercut": {"players": ["Ann", "Bob", "Cat", "Dan"][: 3 + seed % 2], "start": 0},
        "bag_of_ice": {"players": ["Ann", "Bob"], "target": 60, "start": 0},
        "bottoms_up": {"players": ["Ann", "Bob", "Cat", "Dan"], "stash": 2},
    }
    setup = setups[game]
    st = spec(game).new(setup)
    events: list[Event] = []
    for seq in range(1, 3000):
        if st.is_terminal():
            break
        if st.is_chance_node():
            m = pick_chance(st, rng)
        else:
            moves = list(st.legal_moves())
            texts = [str(x) for x in moves]
            if game == "bag_of_ice" and "bank" in texts:
                # bank late: many pieces drawn, several mixed trees to arrange (B-5)
                m = moves[texts.index("bank")] if len(getattr(st, "drawn", ())) >= 7 else moves[0]
            else:
                m = rng.choice(moves)
        st = st.apply(m)
        events.append(Event(seq, "move", {"move": str(m)}))
    return dumps(game, setup, events)


# A record whose turn score has more than one arrangement: yL gL cL pM cM gM yS pS pS drawn one at a time, then banked (B-5).
TWO_WAY_TURN = ["yL", "gL", "cL", "pM", "cM", "gM", "yS", "pS", "pS"]


def two_way_record(bank: bool = True) -> str:
    from companion.games import spec
    from companion.records import Event, dumps

    setup = {"players": ["Ann", "Bob"], "bag": "physical", "die": "physical", "start": 0}
    st = spec("bag_of_ice").new(setup)
    texts: list[str] = []
    for piece in TWO_WAY_TURN:
        size = piece[1]
        face = {"S": "face S", "M": "face M", "L": "face L"}[size]
        for t in ("roll", face, f"got {piece}"):
            if t in {str(m) for m in st.legal_moves()}:
                st = st.apply_text(t)
                texts.append(t)
    if bank:
        st = st.apply_text("bank")
        texts.append("bank")
    return dumps("bag_of_ice", setup, [Event(i + 1, "move", {"move": t}) for i, t in enumerate(texts)])


def record_outputs(name: str, text: str) -> Iterator[tuple[str, str]]:
    from companion import export, records

    rec = records.parse_lines(text.splitlines())
    result = records.replay(rec)
    yield f"{name}:replay", _digest(json.dumps(result.to_json()))
    yield f"{name}:json", _digest(records.dumps(rec.game, rec.setup, rec.events, session=1,
                                                created="2026-05-01T12:00:00.000+00:00"))
    summary = export.summarize(1, rec.game, rec.setup, "2026-05-01T12:00:00.000+00:00", rec.events)
    if summary.fold is not None:
        yield f"{name}:csv", _digest(export.scores_csv(summary.fold, rec.setup))
        yield f"{name}:png", _digest(export.score_sheet_png(summary))


def bank_summary_frame(text: str) -> bytes:
    """The bank summary screen (B-5) of a record's last banked turn, as the device draws it."""
    from companion import records
    from companion.ui.bag_of_ice import Summary, bank_lines
    from companion.ui.draw import Canvas

    f = records.replay(records.parse_lines(text.splitlines())).fold
    i = max(k for k, p in enumerate(f.moves) if p.text == "bank")
    before, after = f.states[i], f.states[i + 1]
    c = Canvas()
    Summary("bank", bank_lines(before, after)).render(c)
    return c.image.tobytes()


def script_outputs() -> Iterator[tuple[str, str]]:
    from bench.scripts import all_scripts
    from companion.config import Settings
    from companion.io import Key
    from companion.journal import Journal
    from companion.ui.app import App

    for i, keys in enumerate(all_scripts(quick=True)):
        with tempfile.TemporaryDirectory() as tmp:
            clock = iter(range(10**9))
            journal = Journal(str(Path(tmp) / "j.db"),
                              clock=lambda: f"2026-05-01T12:00:{next(clock) % 60:02d}.000+00:00")
            app = App(journal, Settings(), rng=random.Random(11))
            h = hashlib.sha256(app.frame().tobytes())
            for k in keys:
                app.handle(Key.parse(k))
                h.update(app.frame().tobytes())
            journal.close()
        yield f"script{i}:frames", h.hexdigest()[:16]


def main() -> int:
    out: list[tuple[str, str]] = []
    for path in record_files():
        out += record_outputs(str(path.relative_to(ROOT)), path.read_text(encoding="utf-8"))
    for game in ("undercut", "bag_of_ice", "bottoms_up"):
        for seed in range(3):
            out += record_outputs(f"random-{game}-{seed}", random_record(game, seed))
    out += record_outputs("two-way-turn", two_way_record(bank=False))
    out += record_outputs("two-way-banked", two_way_record())
    out.append(("two-way-bank-summary:frame", _digest(bank_summary_frame(two_way_record()))))
    if "--no-scripts" not in sys.argv:
        out += script_outputs()
    for name, digest in out:
        print(name, digest)
    return 0


if __name__ == "__main__":
    sys.exit(main())
