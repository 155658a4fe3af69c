"""Settings: one TOML file, documented keys, written by the Settings screen.

Where it is read from, first found wins: ``--config PATH``;
``$COMPANION_CONFIG``; ``$XDG_CONFIG_HOME/companion/companion.toml``
(``~/.config/companion/companion.toml``); ``/etc/companion/companion.toml``.
The Settings screen writes to the file it read, or to the user's XDG file when
none existed (a system file it cannot write is reported, never crashed on), and
changes in it only the settings changed on the device (comments and every other
key stay as written, issue 39).

Keys (all optional; see docs/config.md):

=================  =========  ====================================================
key                default    meaning
=================  =========  ====================================================
board              ""         board profile (``companion boards``); "" = simulator
contrast           128        OLED contrast 0..255
idle_blank_s       300        blank the OLED after this many idle seconds; 0 = never
rotation           0          0 or 180 degrees
hold_time          0.8        seconds a press must last to count as a hold
seed               ""         integer seed for reproducible draws; "" = random
players            []         player names offered at game setup (NFC, each cut to 12 characters)
boi_hints          true       Bag of Ice: show the bank/draw hint (B-9)
boi_advice         "win"      Bag of Ice advice: "win" (the chance to win, B-10, two players) or "score" (B-9)
bu_lone_pieces     false      Bottoms Up house rule: lone pieces score (BU-11)
bu_seat_color      true       Bottoms Up: while a player holds OK to see their secret color, the
                              device draws the color beside the seat page's QR code (true) or only
                              the code (false: every player reads it on their phone, issue 41)
serial             ""         serial console port or URL; "" = off
serial_baud        115200     serial console speed
read_only          true       serial console may only read, unless the players pair it on the device
language           ""         screens in ``en`` or ``fr``; "" = the locale's when one of them, else en
web                "auto"     scoreboard page: "auto" (local network on the device, 127.0.0.1 in the
                              simulator), "off", or the address to listen on ("192.168.1.20", "::")
web_port           8032       the page's TCP port
web_secret         ""         a secret of your own for the page's address; "" = the device's, made at
                              the first start and kept in its state directory (page_secret.py, 0600)
web_clients        32         pages open at once (live streams); the next one gets 503
=================  =========  ====================================================
"""
from __future__ import annotations

import ipaddress
import math
import os
import tomllib
from dataclasses import dataclass, fields, replace
from typing import Any

from .errors import ConfigError
from .names import clean_name


BAUD_RATES = (1200, 2400, 4800, 9600, 19200, 38400, 57600, 115200, 230400, 460800, 921600, 1000000)
"""The serial speeds the console accepts (what UARTs and USB gadgets offer)."""


@dataclass(frozen=True)
class Settings:
    board: str = ""
    contrast: int = 128
    idle_blank_s: int = 300
    rotation: int = 0
    hold_time: float = 0.8
    seed: str = ""
    players: tuple[str, ...] = ()
    boi_hints: bool = True
    boi_advice: str = "win"
    bu_lone_pieces: bool = False
    bu_seat_color: bool = True
    serial: str = ""
    serial_baud: int = 115200
    read_only: bool = True
    language: str = ""
    web: str = "auto"
    web_port: int = 8032
    web_secret: str = ""
    web_clients: int = 32

    def __post_init__(self) -> None:
        # names enter here too (the config file, the serial console): cleaned as
        # the keyboard cleans them (NFC, at most NAME_MAX characters), empty and
        # repeated ones dropped, so every screen gets names it can lay out (issue 13)
        kept: list[str] = []
        for n in self.players:
            c = clean_name(n)
            if c and c not in kept:
                kept.append(c)
        if tuple(kept) != tuple(self.players):
            object.__setattr__(self, "players", tuple(kept))

    def seed_value(self) -> int | None:
        return int(self.seed) if str(self.seed).strip().lstrip("-").isdigit() else None

    def validate(self) -> "Settings":
        if not 0 <= self.contrast <= 255:
            raise ConfigError("contrast must be 0..255")
        if self.rotation not in (0, 180):
            raise ConfigError("rotation must be 0 or 180")
        if self.idle_blank_s < 0:
            raise ConfigError("idle_blank_s must be 0 (never) or more")
        if not 0.2 <= self.hold_time <= 5:
            raise ConfigError("hold_time must be 0.2..5 seconds")
        if self.boi_advice not in ("win", "score"):
            raise ConfigError('boi_advice must be "win" or "score"')
        if self.language not in ("", "en", "fr"):
            raise ConfigError("language must be en, fr or empty (the locale's)")
        if self.serial_baud not in BAUD_RATES:
            raise ConfigError("serial_baud must be a standard rate, e.g. 9600, 57600 or 115200")
        if self.seed and self.seed_value() is None:
            raise ConfigError("seed must be an integer or empty")
        if self.web not in ("auto", "off"):
            try:
                ipaddress.ip_address(self.web)
            except ValueError:
                raise ConfigError('web must be "auto", "off" or an address to listen on, '
                                  'e.g. "0.0.0.0" or "192.168.1.20"') from None
        if not 1 <= self.web_port <= 65535:
            raise ConfigError("web_port must be 1..65535")
        if self.web_secret and not (16 <= len(self.web_secret) <= 64 and all(
                c.isascii() and (c.isalnum() or c in "-_") for c in self.web_secret)):
            raise ConfigError("web_secret must be empty or 16 to 64 letters, digits, - or _")
        if not 1 <= self.web_clients <= 256:
            raise ConfigError("web_clients must be 1..256")
        return self


def candidate_paths() -> list[str]:
    out = []
    if os.environ.get("COMPANION_CONFIG"):
        out.append(os.environ["COMPANION_CONFIG"])
    xdg = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    out.append(os.path.join(xdg, "companion", "companion.toml"))
    out.append("/etc/companion/companion.toml")
    return out


def from_dict(data: dict[str, Any], where: str = "config") -> Settings:
    known = {f.name: f for f in fields(Settings)}
    kwargs: dict[str, Any] = {}
    for k, v in data.items():
        if k not in known:
            raise ConfigError(f"{where}: unknown key {k!r} (known: {', '.join(known)})")
        default = getattr(Settings(), k)
        if isinstance(v, float) and not math.isfinite(v):
            raise ConfigError(f"{where}: {k} must be a number, not {v}")
        if k == "players":
            if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
                raise ConfigError(f"{where}: players must be a list of names")
            v = tuple(v)
        elif k == "seed":
            v = "" if v in ("", None) else str(v)
        elif isinstance(default, bool):
            if not isinstance(v, bool):
                raise ConfigError(f"{where}: {k} must be true or false")
        elif isinstance(default, (int, float)):
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                raise ConfigError(f"{where}: {k} must be a number")
            v = type(default)(v)
        elif isinstance(default, str) and not isinstance(v, str):
            raise ConfigError(f"{where}: {k} must be a string")
        kwargs[k] = v
    try:
        return Settings(**kwargs).validate()
    except ConfigError as e:
        raise ConfigError(f"{where}: {e}") from None


def load(path: str | None = None) -> tuple[Settings, str]:
    """Settings and the path to save them to."""
    paths = [path] if path else candidate_paths()
    for p in paths:
        if os.path.exists(p):
            try:
                with open(p, "rb") as f:
                    data = tomllib.load(f)
            except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
                raise ConfigError(f"cannot read {p}: {e}") from None
            return from_dict(data, p), p
    return Settings(), paths[0]


def load_lenient(path: str | None = None) -> tuple[Settings, str, list[str]]:
    """``load`` for the device: it never refuses to start over a settings file. An
    unreadable file, or one that is not TOML, gives the defaults; a bad value gives its
    key's default. Each problem comes back as one line to show on the screen."""
    paths = [path] if path else candidate_paths()
    for p in paths:
        if not os.path.exists(p):
            continue
        try:
            with open(p, "rb") as f:
                data = tomllib.load(f)
        except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
            return Settings(), p, [f"settings file {p} cannot be read ({e}): using the defaults"]
        problems: list[str] = []
        good: dict[str, Any] = {}
        for k, v in data.items():
            try:
                from_dict({k: v}, p)
            except ConfigError as e:
                problems.append(f"{e}; using the default")
            else:
                good[k] = v
        try:
            return from_dict(good, p), p, problems
        except ConfigError as e:  # values fine alone but not together
            return Settings(), p, problems + [f"{e}; using the defaults"]
    return Settings(), paths[0], []


HEADER = "Pyramid Table Companion settings (keys: docs/config.md)"


def _toml(settings: Settings, key: str) -> Any:
    """A setting's value as the file holds it: names as a list, the seed an integer
    (docs/config.md, QA #16) or ""."""
    v = getattr(settings, key)
    if isinstance(v, tuple):
        return list(v)
    if key == "seed":
        seed = settings.seed_value()
        return "" if seed is None else seed
    return v


def dumps(settings: Settings) -> str:
    """Every setting as TOML, written by a style-preserving TOML library (tomlkit):
    any text in a name (quotes, a line break, a control character) reads back as it was."""
    import tomlkit  # start-up: only saving the settings writes TOML
    doc = tomlkit.document()
    doc.add(tomlkit.comment(HEADER))
    for f in fields(Settings):
        doc[f.name] = _toml(settings, f.name)
    return tomlkit.dumps(doc)


def _changed(doc: Any, settings: Settings) -> bool:
    """Set in ``doc`` (a tomlkit document, the file as it is) each setting whose
    value differs from the file's; a key the file lacks is added only when its value
    is not the default; a value the file holds that this version refuses (load_lenient
    used the default) stays unless the device changed that setting. Everything else,
    comments and keys of other versions included, stays as it was written. A secret
    the device made never goes here (companion.page_secret): an emptied ``web_secret``
    leaves the file. Whether anything changed."""
    plain = doc.unwrap()
    default = Settings()
    changed = False
    for f in fields(Settings):
        key, new = f.name, getattr(settings, f.name)
        if key in plain:
            try:
                current: Any = getattr(from_dict({key: plain[key]}), key)
            except ConfigError:  # the file's value is refused: the default was used
                current = getattr(default, key)
            if current == new:
                continue
            if key == "web_secret" and not new:
                del doc[key]
            else:
                doc[key] = _toml(settings, key)
            changed = True
        elif new != getattr(default, key):
            doc[key] = _toml(settings, key)
            changed = True
    return changed


def save(settings: Settings, path: str) -> str | None:
    """Write the settings the device changed into the file at ``path``, atomically
    (temp file + rename); ``ConfigError`` if it cannot be written.

    A device changes only what was changed on it (issue 39): the file keeps every
    other key, its comments, its order and its layout (tomlkit edits it in place);
    a missing file is made with the settings that are not at their default. A file
    that is not TOML at all (a typo made it unreadable and the device start with
    the defaults) is first kept whole as ``PATH.bak``, and that path is returned for
    the screen to say; else ``None``."""
    # start-up: only saving the settings writes TOML
    import tomlkit
    from tomlkit.exceptions import ParseError
    kept = None
    try:
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        try:
            with open(path, "rb") as f:
                old: bytes | None = f.read()
        except FileNotFoundError:
            old = None
        doc = None
        if old is not None:
            try:
                doc = tomlkit.parse(old.decode("utf-8"))
                tomllib.loads(old.decode("utf-8"))  # what the device reads it with must agree
            except (ParseError, tomllib.TOMLDecodeError, UnicodeDecodeError):
                doc = None
                kept = path + ".bak"
                _write_atomically(kept, old)
        if doc is None:
            doc = tomlkit.document()
            doc.add(tomlkit.comment(HEADER))
        if _changed(doc, settings) or old is None or kept is not None:
            _write_atomically(path, tomlkit.dumps(doc).encode("utf-8"))
    except OSError as e:
        raise ConfigError(f"cannot save settings to {path}: {e.strerror}") from None
    return kept


def _write_atomically(path: str, data: bytes) -> None:
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def change(settings: Settings, **kw: Any) -> Settings:
    return replace(settings, **kw).validate()
