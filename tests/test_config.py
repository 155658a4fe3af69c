"""The settings file (docs/config.md)."""
import pytest

from companion import config
from companion.errors import ConfigError


def test_defaults_when_no_file(tmp_path):
    s, path = config.load(str(tmp_path / "none.toml"))
    assert s == config.Settings() and path.endswith("none.toml")
    assert (s.idle_blank_s, s.hold_time, s.rotation) == (300, 0.8, 0)


def test_round_trip_through_the_file(tmp_path):
    p = str(tmp_path / "c" / "companion.toml")
    s = config.change(config.Settings(), contrast=200, players=("Ann", 'Bo "B"'), seed="42", rotation=180)
    config.save(s, p)
    again, where = config.load(p)
    assert again == s and where == p and again.seed_value() == 42


@pytest.mark.parametrize("text, msg", [
    ("contrast = 300", "contrast must be 0..255"),
    ("rotation = 90", "rotation must be 0 or 180"),
    ("colour = 1", "unknown key 'colour'"),
    ("players = 'Ann'", "players must be a list"),
    ("boi_hints = 1", "boi_hints must be true or false"),
    ("contrast = [", "cannot read"),
])
def test_bad_files_are_refused_with_the_key_named(tmp_path, text, msg):
    p = tmp_path / "companion.toml"
    p.write_text(text + "\n")
    with pytest.raises(ConfigError, match=msg.replace("[", r"\[")):
        config.load(str(p))


def test_search_order_prefers_user_over_system(tmp_path, monkeypatch):
    monkeypatch.delenv("COMPANION_CONFIG", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    paths = config.candidate_paths()
    assert paths == [str(tmp_path / "companion" / "companion.toml"), "/etc/companion/companion.toml"]
    monkeypatch.setenv("COMPANION_CONFIG", str(tmp_path / "x.toml"))
    assert config.candidate_paths()[0] == str(tmp_path / "x.toml")


def test_names_from_the_config_file_are_cleaned_like_typed_ones():
    """A name in the settings enters the screens like a typed one: NFC, at most
    NAME_MAX characters (every screen lays out 12), no empty or
    repeated name (a 15-character name cut the hand screen's title)."""
    from companion.config import Settings, from_dict
    from companion.names import NAME_MAX

    s = from_dict({"players": ["Alexandra-Marie", "  Ann  ", "Ann", "", "Cafe\u0301"]})
    assert s.players == ("Alexandra-Ma", "Ann", "Café")
    assert all(len(n) <= NAME_MAX for n in s.players)
    assert Settings(players=("Łukasz Wiśniewski",)).players == ("Łukasz Wiśni",)


def test_the_seed_is_saved_as_an_integer(tmp_path):
    """Saving from the Settings screen wrote ``seed = "7"``; docs/config.md
    documents an integer (and "" for random)."""
    import tomllib
    p = tmp_path / "companion.toml"
    p.write_text('seed = 7\nlanguage = "en"\n')
    s, _ = config.load(str(p))
    config.save(config.change(s, language="fr"), str(p))
    assert tomllib.loads(p.read_text())["seed"] == 7
    assert "seed = 7\n" in p.read_text()
    config.save(config.change(s, seed=""), str(p))
    assert tomllib.loads(p.read_text())["seed"] == ""
    assert config.load(str(p))[0].seed == ""
