"""Settings never brick the device (issue 14, F6 and F7's config cases)."""
from __future__ import annotations

import tomllib

from hypothesis import given, settings as hsettings, strategies as st

from companion import config
from companion.cli import main


@given(st.lists(st.text(max_size=20), max_size=6), st.text(max_size=10))
@hsettings(max_examples=200, deadline=None)
def test_settings_round_trip_over_any_text(names, seed_text):
    # F6: a name with a newline or a control character made the Settings screen write
    # invalid TOML, and every later start was refused
    s = config.Settings(players=tuple(names))
    text = config.dumps(s)
    back = config.from_dict(tomllib.loads(text))
    assert back == s


def test_a_bad_value_is_said_and_replaced_by_its_default(tmp_path):
    p = tmp_path / "c.toml"
    p.write_text('contrast = inf\nrotation = 90\nplayers = ["Ann"]\nwhat = 1\n', encoding="utf-8")
    s, path, problems = config.load_lenient(str(p))
    assert s.contrast == 128 and s.rotation == 0 and s.players == ("Ann",)
    assert len(problems) == 3 and any("contrast" in x for x in problems) and any("what" in x for x in problems)


def test_a_file_that_is_not_utf8_or_not_toml_gives_the_defaults(tmp_path):
    for data in (b"contrast = 10\n\xff\xfe", b"contrast = [\n"):
        p = tmp_path / "c.toml"
        p.write_bytes(data)
        s, _, problems = config.load_lenient(str(p))
        assert s == config.Settings() and "cannot be read" in problems[0]


def test_the_app_starts_and_shows_what_was_wrong(tmp_path, capsys):
    p = tmp_path / "c.toml"
    p.write_text("contrast = nan\n", encoding="utf-8")
    code = main(["sim", "--config", str(p), "--journal", str(tmp_path / "j.db"), "--keys", "", "--text"])
    out = capsys.readouterr()
    assert code == 0 and "contrast" in out.err
    from companion.cli import build_app, parser
    app = build_app(parser().parse_args(["sim", "--config", str(p), "--journal", str(tmp_path / "k.db")]))
    assert app.top.title == "Settings" and "contrast" in app.top.text  # the first screen says it
    app.journal.close()


def test_the_device_command_starts_with_a_bad_settings_file(tmp_path, monkeypatch):
    # `companion` (no subcommand) read the settings strictly and exited on a typo
    from companion import cli
    p = tmp_path / "c.toml"
    p.write_text("contrast = 'high'\n", encoding="utf-8")
    started = []
    monkeypatch.setattr(cli, "cmd_sim", lambda args: started.append(args) or 0)
    assert main(["--config", str(p), "--journal", str(tmp_path / "j.db")]) == 0
    assert started
