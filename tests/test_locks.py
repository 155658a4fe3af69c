"""The pinned, hashed dependency sets: requirements/device.txt and
requirements/test.txt, made by ``./run lock`` (uv pip compile --generate-hashes)."""
from __future__ import annotations

import re
import sys
import tomllib
from importlib.metadata import distributions
from pathlib import Path

import pytest
from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parent.parent
LOCKS = ROOT / "requirements"
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;\\]+)\s*(?:;\s*([^\\]+?))?\s*\\?$")

# The platforms the locks are made for (docs/development.md, "Pinned dependencies"): Raspberry Pi OS
# Bookworm's Python 3.11 on aarch64 and armv7l, and Linux x86_64.
PLATFORMS = [
    {"platform_machine": m, "sys_platform": "linux", "python_version": "3.11",
     "python_full_version": "3.11.2", "platform_python_implementation": "CPython",
     "implementation_name": "cpython", "os_name": "posix", "platform_system": "Linux"}
    for m in ("x86_64", "aarch64", "armv7l")
]


def read_lock(name: str) -> dict[str, tuple[str, str | None, int]]:
    """{package: (version, marker, number of hashes)} of one lock file."""
    out: dict[str, tuple[str, str | None, int]] = {}
    current = None
    for line in (LOCKS / name).read_text().splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if line.startswith((" ", "\t")):
            assert current is not None, line
            if "--hash=sha256:" in line:
                v, m, n = out[current]
                out[current] = (v, m, n + 1)
            continue
        m = PIN.match(line)
        assert m, f"{name}: not a pinned requirement: {line!r}"
        current = canonicalize_name(m.group(1))
        assert current not in out, f"{name}: {current} twice"
        out[current] = (m.group(2), m.group(3), 0)
    return out


@pytest.mark.parametrize("name", ["device.txt", "test.txt", "build.txt", "uv.txt"])
def test_every_package_is_pinned_with_hashes(name):
    lock = read_lock(name)
    assert lock, name
    assert all(n >= 1 for _v, _m, n in lock.values()), [p for p, (_v, _m, n) in lock.items() if not n]


def _wanted(extras: tuple[str, ...]) -> list[Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    reqs = [Requirement(r) for r in project["dependencies"]]
    for e in extras:
        reqs += [Requirement(r) for r in project["optional-dependencies"][e]]
    build = tomllib.loads((ROOT / "pyproject.toml").read_text())["build-system"]["requires"]
    return reqs + [Requirement(r) for r in build]


@pytest.mark.parametrize("name, extras", [("device.txt", ("pi",)), ("test.txt", ("pi", "test"))])
def test_the_locks_pin_what_pyproject_asks_for_within_its_ranges(name, extras):
    lock = read_lock(name)
    for req in _wanted(extras):
        for env in PLATFORMS:
            if req.marker is not None and not req.marker.evaluate(env):
                continue
            key = canonicalize_name(req.name)
            assert key in lock, f"{name} lacks {req.name} (run ./run lock)"
            version, marker, _n = lock[key]
            assert marker is None or Marker(marker).evaluate(env), (name, key, env["platform_machine"])
            assert req.specifier.contains(version, prereleases=True), \
                f"{name}: {key}=={version} is outside pyproject.toml's {req} (run ./run lock)"


def test_the_test_lock_has_every_device_pin_at_the_same_version():
    device, test = read_lock("device.txt"), read_lock("test.txt")
    assert set(device) <= set(test)
    # the versions agree; a marker may be wider in the test lock (a test tool needs it everywhere)
    assert {k: v[0] for k, v in device.items()} == {k: test[k][0] for k in device}


def test_a_venv_made_by_run_test_holds_exactly_the_test_lock():
    """After ``./run test`` the venv has the lock's pins and nothing else (pip,
    the project itself aside). Skipped where the suite runs in another
    environment (``./run test --newest``, a developer's own venv)."""
    stamp = Path(sys.prefix) / ".lock-test"
    if not stamp.exists():
        pytest.skip("not the venv ./run test made (no .lock-test in sys.prefix)")
    env = PLATFORMS[0] | {"platform_machine": __import__("platform").machine(),
                          "python_version": "%d.%d" % sys.version_info[:2]}
    lock = {k: v for k, (v, m, _n) in read_lock("test.txt").items()
            if m is None or Marker(m).evaluate(env)}
    # sys.path of a --system-site-packages venv (on a Pi) also sees the OS's packages
    here = {canonicalize_name(d.metadata["Name"]): d.version for d in distributions(path=[
        p for p in sys.path if p.startswith(sys.prefix)])}
    here.pop("pip", None)
    here.pop("pyramid-companion", None)
    assert here == lock


def test_the_build_lock_pins_what_the_device_lock_pins():
    """requirements/build.txt (what ./run installs before a lock, so that builds from
    source use pinned tools) holds setuptools and, on 32-bit ARM, Pillow's and
    cbor2's build requirements, at the device lock's versions."""
    build, device = read_lock("build.txt"), read_lock("device.txt")
    assert {"setuptools", "pybind11", "setuptools-rust", "setuptools-scm"} <= set(build)
    for name, (version, _marker, _n) in build.items():
        assert name in device and device[name][0] == version, name
    assert build["setuptools"][1] is None  # on every platform: it builds the companion itself
    armv7l = next(env for env in PLATFORMS if env["platform_machine"] == "armv7l")
    x86 = next(env for env in PLATFORMS if env["platform_machine"] == "x86_64")
    assert Marker(build["pybind11"][1]).evaluate(armv7l) and not Marker(build["pybind11"][1]).evaluate(x86)
