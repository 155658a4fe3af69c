"""Headless Chromium for the page's tests, screenshots and benchmarks (issue 32):
Debian's ``chromium`` and ``chromium-driver`` driven by Selenium, with the flags
that keep it off the network (no background fetches, no updates, no sync).

``chromium(width, height)`` returns a WebDriver or raises ``Unavailable`` with the
reason (no browser installed: ``./run test`` installs it with apt when it runs as
root)."""
from __future__ import annotations

import os
import shutil
import tempfile

BROWSERS = ("/usr/bin/chromium", "/usr/bin/chromium-browser")
DRIVERS = ("/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver")


class Unavailable(RuntimeError):
    """No headless Chromium here (the reason says what to install)."""


def _first(paths) -> str | None:
    return next((p for p in paths if os.path.exists(p)), None)


NO_BROWSER = "COMPANION_NO_BROWSER"
"""Set by ``./run test`` where Chromium cannot start (its reason): ``chromium`` says
so at once instead of trying, in every module that asks (issue 51)."""


def chromium(width: int = 412, height: int = 915, *, scale: float = 1.0):
    why = os.environ.get(NO_BROWSER)
    if why:
        raise Unavailable(why)
    browser, driver = _first(BROWSERS), _first(DRIVERS)
    if browser is None or driver is None:
        raise Unavailable("no Chromium here: apt-get install chromium chromium-driver (./run test does it as root)")
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError as e:
        raise Unavailable(f"selenium is not installed ({e}): ./run test installs the test lock") from None
    profile = tempfile.mkdtemp(prefix="companion-chromium-")
    opts = webdriver.ChromeOptions()
    opts.binary_location = browser
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage", "--disable-extensions", "--mute-audio",
                 f"--user-data-dir={profile}", f"--window-size={width},{height}",
                 f"--force-device-scale-factor={scale}"):
        opts.add_argument(flag)
    try:
        d = webdriver.Chrome(service=Service(driver), options=opts)
    except Exception as e:  # a browser that does not start: said, the caller skips
        shutil.rmtree(profile, ignore_errors=True)
        raise Unavailable(f"Chromium does not start: {type(e).__name__}: {str(e).splitlines()[0][:200]}") from None
    d.set_window_size(width, height)
    quit_ = d.quit

    def quit_and_clean() -> None:
        try:
            quit_()
        finally:
            shutil.rmtree(profile, ignore_errors=True)
    d.quit = quit_and_clean
    return d
