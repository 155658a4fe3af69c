"""Shared fixtures. Hardware tests use the libraries' own mocks (gpiozero's
MockFactory, luma's dummy device, pyserial's loop://)."""
from __future__ import annotations

import random

import pytest


@pytest.fixture
def rng() -> random.Random:
    return random.Random(1234)


@pytest.fixture(autouse=True)
def own_config_dir(tmp_path_factory, monkeypatch):
    """Every test reads and writes its settings in a directory of its own: a test
    that saves a setting (the language, a roster name) never touches the user's
    ~/.config/companion, and the user's file never changes what a test sees."""
    d = tmp_path_factory.mktemp("xdg-config")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(d))
    monkeypatch.delenv("COMPANION_CONFIG", raising=False)
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):  # English unless a test says otherwise
        monkeypatch.delenv(var, raising=False)
    yield
    from companion import i18n
    i18n.set_language("en")


@pytest.fixture(scope="module")
def browser():
    """Headless Chromium for a module's page tests (bench/browser.py); the module is
    skipped, with the reason, where there is none."""
    from bench.browser import Unavailable, chromium
    try:
        d = chromium()
    except Unavailable as e:
        pytest.skip(str(e))
    yield d
    d.quit()


def pytest_configure(config):
    # the page's tests in a real browser (slow on a Pi): `-m browser` selects them, `-m "not browser"` skips them
    config.addinivalue_line("markers", "browser: a test in headless Chromium")
