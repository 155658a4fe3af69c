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


# Files whose every test is slow: they start the page's server or a bench and
# hold it under load for seconds. A test elsewhere says so itself with
# @pytest.mark.slow (or a module with pytestmark = pytest.mark.slow).
SLOW_FILES = frozenset({
    "test_web_guard.py",  # sieges and floods of the page's server, its own process
    "test_bench_web.py",  # the page's bench: a live table and its load generator
    "test_bench_seat.py",  # the seat page's bench
})


def _drives_a_browser(item: pytest.Item) -> bool:
    """A test that asks for a browser fixture (conftest's, or a module's own of that
    name), or whose function starts Chromium itself."""
    if "browser" in getattr(item, "fixturenames", ()):
        return True
    fn = getattr(item, "function", None)
    if fn is None:
        return False
    import inspect  # only for the tests that reach here, at collection
    try:
        return "chromium(" in inspect.getsource(fn)
    except (OSError, TypeError):
        return False


def pytest_collection_modifyitems(config, items):
    """Mark `browser` and `slow` by what a test uses (pyproject.toml declares them):
    -m "not browser and not slow" is the everyday subset, ./run test runs all."""
    for item in items:
        if _drives_a_browser(item):
            item.add_marker(pytest.mark.browser)
        if item.path.name in SLOW_FILES:
            item.add_marker(pytest.mark.slow)
