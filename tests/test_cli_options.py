"""Shared options count wherever they are typed: before or after the subcommand."""
from __future__ import annotations

import pytest

from companion.cli import parser


@pytest.mark.parametrize("argv", [
    ["--journal", "X.db", "history"],
    ["history", "--journal", "X.db"],
])
def test_journal_before_or_after_the_subcommand(argv):
    assert parser().parse_args(argv).journal == "X.db"


@pytest.mark.parametrize("argv, name, value", [
    (["--board", "diy", "doctor"], "board", "diy"),
    (["doctor", "--board", "diy"], "board", "diy"),
    (["--seed", "7", "sim", "--keys", "ok"], "seed", 7),
    (["sim", "--seed", "7"], "seed", 7),
    (["--config", "c.toml", "boards"], "config", "c.toml"),
    (["--serial", "loop://", "sim"], "serial", "loop://"),
    (["--journal", "a.db", "export", "3", "--format", "csv"], "journal", "a.db"),
    (["--journal", "a.db", "replay", "r.jsonl"], "journal", "a.db"),
])
def test_every_shared_option_counts_wherever_typed(argv, name, value):
    assert getattr(parser().parse_args(argv), name) == value


def test_after_the_subcommand_wins_and_absent_means_the_default():
    assert parser().parse_args(["--seed", "1", "sim", "--seed", "2"]).seed == 2
    args = parser().parse_args(["history"])
    assert args.journal is None and args.board is None and args.seed is None


def test_history_reads_the_journal_named_before_the_subcommand(tmp_path, capsys):
    from companion.cli import main
    from companion.journal import Journal
    path = tmp_path / "j.db"
    with Journal(str(path)) as j:
        sid = j.start_session("die", {})
    assert main(["--journal", str(path), "history"]) == 0
    out = capsys.readouterr().out
    assert "no sessions yet" not in out and f"{sid:>6}" in out and "0 events" in out


def test_a_broken_hardware_import_is_reported_with_its_cause(monkeypatch, capsys):
    # "except ImportError" once hid the real error behind "no hardware checks yet"
    import builtins

    from companion.cli import main
    real_import = builtins.__import__

    def failing(name, *args, **kw):
        if name.startswith("hardware.doctor"):
            raise ImportError("libfoo.so.1: cannot open shared object file", name="luma.core")
        return real_import(name, *args, **kw)

    monkeypatch.setattr(builtins, "__import__", failing)
    assert main(["doctor", "--board", "diy"]) == 1
    err = capsys.readouterr().err
    assert "libfoo.so.1" in err and "luma.core" in err and "./run setup" in err


def test_a_headless_sim_uses_a_throwaway_journal(tmp_path, monkeypatch):
    # the README's screenshot example left a die session in the real journal
    from companion.cli import main
    from companion.journal import Journal
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.delenv("STATE_DIRECTORY", raising=False)
    shot = tmp_path / "die.png"
    assert main(["sim", "--keys", "down,ok,ok,ok,ok", "--screenshot", str(shot)]) == 0
    assert shot.exists()
    assert not (tmp_path / "state").exists()  # nothing written where the real journal lives
    # with --journal the session is kept
    j = tmp_path / "kept.db"
    assert main(["sim", "--journal", str(j), "--keys", "down,ok,ok,ok"]) == 0
    with Journal(str(j)) as journal:
        assert journal.sessions()


def test_history_says_who_won_a_finished_game(tmp_path, capsys):
    from companion.cli import main
    from companion.journal import Journal
    path = tmp_path / "j.db"
    with Journal(str(path)) as j:
        sid = j.start_session("undercut", {"players": ["Ann", "Bob", "Cat"], "level": "score", "start": 0})
        for m in ["tree", "tree", "triplets", "triplets", "done", "done", "done", "pips 5", "pips 7"]:
            j.append(sid, "move", {"move": m})
        open_sid = j.start_session("undercut", {"players": ["Ann", "Bob", "Cat"], "level": "score", "start": 0})
    assert main(["history", "--journal", str(path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    won = next(line for line in lines if line.startswith(f"{1:>6}"))  # the numbers, not the ids
    still = next(line for line in lines if line.startswith(f"{2:>6}"))
    assert won.endswith("won by Bob") and still.endswith("open")
