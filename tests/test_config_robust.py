"""Settings never brick the device, and a settings file written by hand keeps
its comments and lines where the device did not change them."""
from __future__ import annotations

import tomllib

from hypothesis import given, settings as hsettings, strategies as st

from companion import config
from companion.cli import main

from .screens_util import HAND, built, press


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


def test_saving_over_a_file_edited_by_hand_keeps_it_whole(tmp_path):
    """One typo made the device start with the defaults, and the next
    Settings press wrote them over the file: the roster, the board and the
    comments were gone. A file that is not TOML is kept as .bak."""
    p = tmp_path / "c.toml"
    hand = b'# my table\nplayers = ["Ann", "Bob"]\nboard = "diy\n'  # a missing quote: unreadable
    p.write_bytes(hand)
    s, _, problems = config.load_lenient(str(p))
    assert s == config.Settings() and "cannot be read" in problems[0]
    kept = config.save(config.change(s, contrast=90), str(p))
    assert kept == str(p) + ".bak" and (tmp_path / "c.toml.bak").read_bytes() == hand
    assert config.load(str(p))[0].contrast == 90
    # a file the device wrote itself is simply written again: the copy stays as it was
    assert config.save(config.change(s, contrast=91), str(p)) is None
    assert (tmp_path / "c.toml.bak").read_bytes() == hand
    # a readable file is edited in place: its comments and the keys this
    # version does not know stay, only the setting changed on the device is written
    p.write_text('# mine\ncontrast = 10\ncolour = "red"\n', encoding="utf-8")
    assert config.save(config.Settings(), str(p)) is None
    assert p.read_text(encoding="utf-8") == '# mine\ncontrast = 128\ncolour = "red"\n'



def test_the_settings_screen_says_where_the_hand_written_file_went(tmp_path):
    from companion.cli import build_app, parser
    from companion.io import Key
    from companion.ui.widgets import Message
    p = tmp_path / "c.toml"
    p.write_text('players = ["Ann", "Bob"\n', encoding="utf-8")  # unreadable
    app = build_app(parser().parse_args(["sim", "--config", str(p), "--journal", str(tmp_path / "j.db")]))
    app.handle(Key.OK)  # the first screen's message about the file
    for k in (Key.DOWN, Key.DOWN, Key.DOWN, Key.OK, Key.OK):  # Settings, its first row: Language
        app.handle(k)
    assert isinstance(app.top, Message) and str(p) + ".bak" in app.top.text
    assert (tmp_path / "c.toml.bak").read_text(encoding="utf-8") == 'players = ["Ann", "Bob"\n'
    app.handle(Key.OK)
    assert not isinstance(app.top, Message)  # the Settings screen it was shown over
    app.journal.close()


def test_a_settings_file_the_device_cannot_write_is_shadowed_by_the_users(tmp_path, monkeypatch):
    """Under the service /etc is read-only (ProtectSystem=strict), so with the
    settings in /etc/companion/companion.toml every change failed ("cannot save
    settings ... Read-only file system"). The settings go to the first place read
    before it, which is read first from then on."""
    import errno
    import os
    import random

    from companion.io import Key
    from companion.journal import Journal
    from companion.ui.app import App
    from companion.ui.widgets import Message
    system = tmp_path / "etc" / "companion.toml"
    system.parent.mkdir()
    system.write_text(config.dumps(config.Settings(players=("Ann", "Bob"))), encoding="utf-8")
    real_write = config._write_atomically

    def read_only_etc(path, data):  # as ProtectSystem=strict makes /etc (chmod does not stop root)
        if os.path.dirname(os.path.abspath(path)) == str(system.parent):
            raise OSError(errno.EROFS, "Read-only file system")
        real_write(path, data)
    monkeypatch.setattr(config, "_write_atomically", read_only_etc)
    home = tmp_path / "xdg"
    monkeypatch.delenv("COMPANION_CONFIG", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home))
    monkeypatch.setattr(config, "candidate_paths",
                        lambda: [str(home / "companion" / "companion.toml"), str(system)])
    settings, path = config.load()
    assert path == str(system) and settings.players == ("Ann", "Bob")
    app = App(Journal(str(tmp_path / "j.db")), settings, rng=random.Random(1), settings_path=path)
    for k in (Key.DOWN, Key.DOWN, Key.DOWN, Key.OK, Key.DOWN, Key.OK, Key.UP, Key.OK):  # Contrast + 1
        app.handle(k)
    assert isinstance(app.top, Message) and "is read first from now on" in app.top.text
    saved, where = config.load()
    assert where == str(home / "companion" / "companion.toml")
    assert saved.contrast == 129 and saved.players == ("Ann", "Bob")
    assert config.load(str(system))[0].contrast == 128  # the system file as it was
    app.journal.close()


# ---------------------------------------------------------------- a settings file written by hand


def test_a_hand_written_settings_file_changes_only_where_the_device_changed_it(tmp_path):
    from companion.ui.screens import SettingsMenu
    app, cfg = built(tmp_path, HAND)
    assert app.settings.players == ("Ann", "Bob")
    app.push(SettingsMenu())
    press(app, "ok")  # Language: Français
    assert app.settings.language == "fr"
    assert cfg.read_text(encoding="utf-8") == HAND + 'language = "fr"\n'
    assert not (tmp_path / "companion.toml.bak").exists()
    press(app, "ok")  # back to English: the file says so, the rest as written
    assert cfg.read_text(encoding="utf-8") == HAND + 'language = "en"\n'
    app.journal.close()
