"""The scoreboard page's secret (docs/web.md): the device's own lives in its state
directory, readable by the device's user alone, never in the settings file.

``web_secret`` in the settings is a secret of the user's own choosing, used as it is
and never written by the device. Without it the device makes one at the first start
(``new_secret``, 96 random bits) and keeps it in ``web_secret`` beside
the journal (``$STATE_DIRECTORY`` under systemd, else ``~/.local/state/companion``),
mode 0600, written atomically. A renewal (QR screen > New address) writes a new one
there. A settings file an older version wrote whole, secret included (it wrote every
key), gives its secret to the state directory at the next start and loses that key
only (issue 38: the secret sat in a 0644 file; issue 39: the file is the user's).
"""
from __future__ import annotations

import os
import re
import secrets as _secrets
from typing import Protocol

from .config import HEADER, Settings, change, save
from .errors import ConfigError
from .journal import Journal


class App(Protocol):
    """What the secret needs of the app: its settings, where they were read, its journal."""

    settings: Settings
    settings_path: str | None
    journal: Journal

FILE = "web_secret"
SECRET_BYTES = 12  # 96 random bits in every address (issue 32 asks for at least 64)
SECRET_RE = re.compile(r"^[A-Za-z0-9_-]{16,64}$")


def new_secret() -> str:
    """A fresh device secret for the page's addresses (URL-safe, 96 bits)."""
    return _secrets.token_urlsafe(SECRET_BYTES)


def valid_secret(text: str) -> bool:
    return bool(SECRET_RE.match(text or ""))


def secret_path(journal_path: str) -> str:
    """The device's secret file: in the journal's directory, its state directory."""
    return os.path.join(os.path.dirname(os.path.abspath(journal_path)), FILE)


def read(path: str) -> str | None:
    """The secret kept at ``path``, or None (none yet, unreadable, or not a secret)."""
    try:
        with open(path, encoding="ascii") as f:
            text = f.read().strip()
    except (OSError, UnicodeDecodeError):
        return None
    return text if valid_secret(text) else None


def write(path: str, secret: str) -> None:
    """Keep ``secret`` at ``path``, mode 0600 from its creation (never readable by
    others, not even for a moment), replacing the old one atomically."""
    os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
    tmp = f"{path}.tmp{os.getpid()}"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.fchmod(fd, 0o600)  # whatever the umask
        os.write(fd, (secret + "\n").encode("ascii"))
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(tmp, path)


def written_by_an_older_device(settings_path: str | None) -> bool:
    """Did an older version write this settings file (it wrote every key, under its
    own header line), so that its ``web_secret`` is the device's, not the user's?"""
    if not settings_path:
        return False
    try:
        with open(settings_path, encoding="utf-8") as f:
            first = f.readline().strip()
    except (OSError, UnicodeDecodeError):
        return False
    return first == f"# {HEADER}"


def device_secret(app: App) -> str:
    """The secret the page's addresses start with: the user's ``web_secret``, else the
    device's own from its state directory (made now at the first start)."""
    path = secret_path(app.journal.path)
    mine = app.settings.web_secret
    if mine and written_by_an_older_device(app.settings_path):  # migrate it (issue 38)
        if read(path) is None:
            write(path, mine)
        _forget_in_settings(app)
        return read(path) or mine
    if mine:
        return mine
    secret = read(path)
    if secret is None:
        secret = new_secret()
        write(path, secret)
    return secret


def renew(app: App) -> str:
    """A new secret of the device's own, kept in its state directory; a secret of the
    user's in the settings gives way to it (the user asked the device for it)."""
    secret = new_secret()
    write(secret_path(app.journal.path), secret)
    if app.settings.web_secret:
        _forget_in_settings(app)
    return secret


def _forget_in_settings(app: App) -> None:
    """``web_secret`` out of the app's settings and out of its settings file (that key
    only; the rest of the file stays as it is)."""
    app.settings = change(app.settings, web_secret="")
    if app.settings_path and os.path.exists(app.settings_path):
        try:
            save(app.settings, app.settings_path)
        except ConfigError:
            pass  # a file the device cannot write keeps it; the state directory's is used
