"""./run's set-up on ARM Linux, on and off a Pi, with the system's
commands stubbed: uname, id, sudo, apt-get, apt-cache and python3 (its venv
and the venv's pip) are small shell scripts on a PATH that holds nothing else
but the few tools run itself uses, and /proc/device-tree/model is a file
named by RUN_DT_MODEL. Every test runs the real ./run on a copy of the
tree's run, pyproject.toml and requirements/ in a temporary directory.

The fake apt-get refuses an install naming a package its archive lacks, as
the real one does ("Unable to locate package"), and installs nothing then;
the fake pip fails the way a real build without headers does (``Python.h: No such file or
directory``) when it must build an sdist without the Python headers."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# the archives the stubbed apt knows: plain Debian has no python3-lgpio or python3-rpi-lgpio
DEBIAN = ["python3-dev", "gcc", "python3-spidev", "python3.11-venv", "python3-venv", "chromium", "chromium-driver",
          "zbar-tools"]
RASPBERRY_PI_OS = DEBIAN + ["python3-lgpio", "python3-rpi-lgpio"]
PI_MODEL = "Raspberry Pi 4 Model B Rev 1.4\0"
SPIDEV = "spidev-3.8.tar.gz"

TOOLS = ["sh", "env", "cat", "grep", "sed", "sha256sum", "cut", "dirname", "ls", "tail", "rm", "touch",
         "mkdir", "tr", "head", "chmod", "cp", "basename", "printf", "true",
         "awk", "cmp", "install", "stat", "find", "sort", "wc", "mktemp", "rmdir", "timeout"]  # install's, test's

FAKE_PYTHON3 = r"""#!/bin/sh
S="$FAKE_STATE"
headers() { [ -e "$S/installed/python3-dev" ] || [ -n "${FAKE_HEADERS:-}" ]; }
venv_ok() { [ -z "${FAKE_NO_VENV:-}" ] || [ -e "$S/installed/python3-venv" ] || [ -e "$S/installed/python3.11-venv" ]; }
case "$1" in
    -c) case "$2" in
            *Python.h*) headers; exit $? ;;
            *"import ensurepip, venv"*) venv_ok; exit $? ;;
            *"import venv"*) exit 0 ;;
            *"import lgpio, spidev"*)
                [ -e "$S/installed/python3-lgpio" ] && [ -e "$S/installed/python3-spidev" ]; exit $? ;;
            *"importlib.metadata"*) exit 0 ;;
            *get_config_var*) echo gcc; exit 0 ;;
            *">= (3, 11)"*) exit 0 ;;
            *"%d.%d"*) echo 3.11; exit 0 ;;
        esac ;;
    --version) echo "Python 3.11.2"; exit 0 ;;
    -m) if [ "$2" = venv ]; then
            venv_ok || { echo "The virtual environment was not created successfully because ensurepip is not available." >&2; exit 1; }
            shift 2; flags=""
            while [ $# -gt 1 ]; do flags="$flags $1"; shift; done
            echo "venv$flags" >> "$S/log"
            mkdir -p "$1/bin" && cp "$FAKE_VENV_PY" "$1/bin/python"
            exit 0
        fi ;;
esac
echo "fake python3: unexpected $*" >&2; exit 2
"""

FAKE_VENV_PYTHON = r"""#!/bin/sh
S="$FAKE_STATE"
headers() { [ -e "$S/installed/python3-dev" ] || [ -n "${FAKE_HEADERS:-}" ]; }
if [ "$1" = -c ]; then
    case "$2" in *"import lgpio, spidev"*)
        [ -e "$S/installed/python3-lgpio" ] && [ -e "$S/installed/python3-spidev" ]; exit $? ;;
    esac
    exit 0
fi
if [ "$1" = -m ] && [ "$2" = pytest ]; then
    echo "pytest COMPANION_NO_BROWSER=${COMPANION_NO_BROWSER:-}" >> "$S/log"; exit 0
fi
if [ "$1" = -m ] && [ "$2" = pip ]; then
    shift 2
    [ "$1" = --version ] && { echo "pip 23.0.1"; exit 0; }
    echo "pip $*" >> "$S/log"
    report=""; dry=""; req=""
    case " $* " in *" -e "*)   # the project: its console script, which logs and answers FAKE_DOCTOR_RC
        printf '#!/bin/sh\necho "companion $*" >> "$FAKE_STATE/log"\nexit ${FAKE_DOCTOR_RC:-0}\n' \
            > "$(dirname "$0")/companion"
        chmod +x "$(dirname "$0")/companion" ;;
    esac
    while [ $# -gt 0 ]; do
        case "$1" in --report) report=$2; shift ;; --dry-run) dry=1 ;; -r) req=$2; shift ;; esac
        shift
    done
    if [ -n "$dry" ]; then   # pip's report: indent 2, one key a line
        {
            echo '{"install": ['
            for f in ${FAKE_SDISTS:-}; do
                printf '    {\n      "download_info": {\n        "url": "https://files.example/%s",\n' "$f"
                printf '        "archive_info": {}\n      }\n    },\n'
            done
            printf '    {\n      "download_info": {\n        "url": "https://files.example/%s"\n      }\n    }\n' \
                "pillow-13.0.0-cp311-cp311-manylinux_2_28_aarch64.whl"
            echo ']}'
        } > "$report"
        exit 0
    fi
    case "$req" in *device.txt|*test.txt)
        for f in ${FAKE_SDISTS:-}; do
            headers && command -v gcc >/dev/null 2>&1 && continue
            echo "spidev_module.c:28:10: fatal error: Python.h: No such file or directory" >&2
            echo "ERROR: Failed building wheel for ${f%%-*}" >&2
            exit 1
        done ;;
    esac
    exit 0
fi
echo "fake venv python: unexpected $*" >&2; exit 2
"""

FAKE_APT_GET = r"""#!/bin/sh
S="$FAKE_STATE"
[ "$(id -u)" = 0 ] || { echo "E: Could not open lock file - open (13: Permission denied)" >&2; exit 100; }
echo "apt-get $*" >> "$S/log"
[ "$1" = install ] || exit 0
shift
pkgs=""
for a in "$@"; do case "$a" in -*) ;; *) pkgs="$pkgs $a" ;; esac; done
for p in $pkgs; do
    grep -qx "$p" "$S/archive" || { echo "E: Unable to locate package $p" >&2; exit 100; }
done
for p in $pkgs; do
    touch "$S/installed/$p"
    if [ "$p" = gcc ]; then printf '#!/bin/sh\nexit 0\n' > "$FAKE_BIN/gcc"; chmod +x "$FAKE_BIN/gcc"; fi
    case "$p" in chromium|chromium-driver|zbar-tools)   # a browser that starts unless FAKE_CHROMIUM_RC says
        b=$(echo "$p" | sed 's/chromium-driver/chromedriver/; s/zbar-tools/zbarimg/')
        printf '#!/bin/sh\necho "%s $*" >> "$FAKE_STATE/log"\nexit ${FAKE_CHROMIUM_RC:-0}\n' "$b" > "$FAKE_BIN/$b"
        chmod +x "$FAKE_BIN/$b" ;;
    esac
    if [ "$p" = i2c-tools ]; then printf '#!/bin/sh\nexit 0\n' > "$FAKE_BIN/i2cdetect"; chmod +x "$FAKE_BIN/i2cdetect"; fi
done
"""

FAKE_APT_CACHE = r"""#!/bin/sh
[ "$1" = policy ] || exit 0
if grep -qx "$2" "$FAKE_STATE/archive"; then
    printf '%s:\n  Installed: (none)\n  Candidate: 1.0-1\n' "$2"
fi
"""

FAKE_SUDO = r"""#!/bin/sh
[ "$1" = -n ] && shift
[ "${FAKE_SUDO:-}" = ok ] || { echo "sudo: a password is required" >&2; exit 1; }
echo "sudo $*" >> "$FAKE_STATE/log"
FAKE_UID=0 exec "$@"
"""

FAKE_ID = r"""#!/bin/sh
[ "$1" = -u ] && { echo "${FAKE_UID:-1000}"; exit 0; }
if [ "$1" = -nG ]; then   # the user and the groups usermod added it to
    grep -qx "$2" "$FAKE_STATE/passwd" 2>/dev/null || { echo "id: '$2': no such user" >&2; exit 1; }
    echo "$2" $(cat "$FAKE_STATE/groups-of-$2" 2>/dev/null); exit 0
fi
echo "uid=${FAKE_UID:-1000}"
"""

# ./run install's system: users and groups in the state directory, systemctl's units as files
FAKE_GETENT = r"""#!/bin/sh
case "$1" in
    passwd) grep -qx "$2" "$FAKE_STATE/passwd" 2>/dev/null && echo "$2:x:999:999::/var/lib/$2:/usr/sbin/nologin" ;;
    group) grep -qx "$2" "$FAKE_STATE/system-groups" && echo "$2:x:900:" ;;
    *) exit 2 ;;
esac
"""
FAKE_USERADD = r"""#!/bin/sh
echo "useradd $*" >> "$FAKE_STATE/log"
for a in "$@"; do name=$a; done
echo "$name" >> "$FAKE_STATE/passwd"
"""
FAKE_USERMOD = r"""#!/bin/sh
echo "usermod $*" >> "$FAKE_STATE/log"
[ "$1" = -aG ] || exit 2
echo "$2" | tr ',' '
' >> "$FAKE_STATE/groups-of-$3"
"""
FAKE_USERDEL = r"""#!/bin/sh
echo "userdel $*" >> "$FAKE_STATE/log"
users=$(grep -vx "$1" "$FAKE_STATE/passwd"); echo "$users" > "$FAKE_STATE/passwd"
rm -f "$FAKE_STATE/groups-of-$1"
"""
FAKE_SYSTEMCTL = r"""#!/bin/sh
S="$FAKE_STATE"
echo "systemctl $*" >> "$S/log"
quiet=""; now=""; verb=""; units=""
for a in "$@"; do
    case "$a" in --quiet|-q) quiet=1 ;; --now) now=1 ;; -*) ;; *) [ -z "$verb" ] && verb=$a || units="$units $a" ;; esac
done
for u in $units; do
    case "$verb" in
        is-active) [ -e "$S/active-$u" ] || exit 3 ;;
        is-enabled) [ -e "$S/enabled-$u" ] || exit 1 ;;
        enable) touch "$S/enabled-$u"; [ -z "$now" ] || touch "$S/active-$u" ;;
        disable) rm -f "$S/enabled-$u"; [ -z "$now" ] || rm -f "$S/active-$u" ;;
        start|restart) touch "$S/active-$u" ;;
        stop) rm -f "$S/active-$u" ;;
    esac
done
exit 0
"""
FAKE_RUNUSER = r"""#!/bin/sh
[ "$1" = -u ] && [ "$3" = -- ] || exit 2
echo "runuser $2 in $(pwd)" >> "$FAKE_STATE/log"
shift 3
exec "$@"
"""
FAKE_UNAME = '#!/bin/sh\n[ "$1" = -m ] && { echo "$FAKE_ARCH"; exit 0; }\necho Linux\n'


def _script(path: Path, text: str) -> None:
    path.write_text(text)
    path.chmod(0o755)


class Machine:
    """A stubbed machine and a copy of the tree; ``run()`` runs ./run setup on it."""

    def __init__(self, tmp: Path, *, arch: str, archive: list[str], pi: bool, uid: int = 0,
                 sudo: bool = False, headers: bool = False, gcc: bool = True, sdists: tuple[str, ...] = (SPIDEV,),
                 venv: bool = True):
        tmp.mkdir(parents=True, exist_ok=True)
        self.tree = tmp / "tree"
        self.tree.mkdir()
        shutil.copy2(ROOT / "run", self.tree / "run")
        shutil.copy2(ROOT / "pyproject.toml", self.tree / "pyproject.toml")
        shutil.copytree(ROOT / "requirements", self.tree / "requirements")
        for part in ("hardware/boards.toml", "systemd/companion.service", "systemd/companion-page.service"):
            (self.tree / part).parent.mkdir(exist_ok=True)
            shutil.copy2(ROOT / part, self.tree / part)  # what ./run install reads
        self.state = tmp / "state"
        (self.state / "installed").mkdir(parents=True)
        (self.state / "archive").write_text("".join(p + "\n" for p in archive))
        (self.state / "log").write_text("")
        (self.state / "system-groups").write_text("gpio\ni2c\nspi\ndialout\n")  # a Pi's OS has them
        self.bin = tmp / "bin"
        self.bin.mkdir()
        tools = tmp / "tools"
        tools.mkdir()
        for t in TOOLS:
            real = shutil.which(t)
            assert real, t
            (tools / t).symlink_to(real)
        for name, text in [("python3", FAKE_PYTHON3), ("apt-get", FAKE_APT_GET), ("apt-cache", FAKE_APT_CACHE),
                           ("sudo", FAKE_SUDO), ("id", FAKE_ID), ("uname", FAKE_UNAME), ("getent", FAKE_GETENT),
                           ("useradd", FAKE_USERADD), ("usermod", FAKE_USERMOD), ("userdel", FAKE_USERDEL),
                           ("systemctl", FAKE_SYSTEMCTL), ("runuser", FAKE_RUNUSER)]:
            _script(self.bin / name, text)
        _script(tmp / "venv-python", FAKE_VENV_PYTHON)
        if gcc:
            _script(self.bin / "gcc", "#!/bin/sh\nexit 0\n")
        self.model = tmp / "device-tree-model"
        if pi:
            self.model.write_text(PI_MODEL)
        self.env = {"PATH": f"{self.bin}:{tools}", "HOME": str(tmp), "LC_ALL": "C", "FAKE_STATE": str(self.state),
                    "FAKE_BIN": str(self.bin), "FAKE_VENV_PY": str(tmp / "venv-python"), "FAKE_ARCH": arch,
                    "FAKE_UID": str(uid), "FAKE_SUDO": "ok" if sudo else "no",
                    "FAKE_HEADERS": "1" if headers else "", "FAKE_SDISTS": " ".join(sdists),
                    "RUN_DT_MODEL": str(self.model), "FAKE_NO_VENV": "" if venv else "1",
                    "RUN_PY_WHEELS": str(tmp / "no-python-wheels"), "RUN_ROOT": str(tmp / "root"),
                    "RUN_CHROMIUM": str(self.bin / "chromium"), "RUN_CHROMEDRIVER": str(self.bin / "chromedriver"),
                    "RUN_ZBARIMG": str(self.bin / "zbarimg"), "RUN_CPUINFO": str(tmp / "cpuinfo")}
        (tmp / "cpuinfo").write_text("processor\t: 0\nBogoMIPS\t: 108.00\nCPU implementer\t: 0x41\n")
        self.root = tmp / "root"  # ./run install's / (RUN_ROOT)

    def run(self, *args: str, stdin: str | None = None, **env: str) -> subprocess.CompletedProcess:
        return subprocess.run([str(self.tree / "run"), *(args or ("setup",))], env={**self.env, **env},
                              cwd=self.tree, capture_output=True, text=True, timeout=120,
                              input=stdin if stdin is not None else "")

    @property
    def log(self) -> list[str]:
        return (self.state / "log").read_text().splitlines()

    def apt_installs(self) -> list[list[str]]:
        return [[w for w in line.split()[2:] if not w.startswith("-")]
                for line in self.log if line.startswith("apt-get install")]

    def lock_install(self) -> str | None:
        """The pip command that installs the lock (not the dry run)."""
        found = [line for line in self.log if line.startswith("pip install") and "--dry-run" not in line
                 and "requirements/device.txt" in line]
        assert len(found) <= 1, found
        return found[0] if found else None

    def venv_flags(self) -> list[str]:
        return [line for line in self.log if line.startswith("venv")]


def _pinned_build(m: Machine) -> None:
    """The lock is installed without build isolation, after the locked build tools."""
    log = m.log
    tools = [i for i, line in enumerate(log) if line.startswith("pip install") and "requirements/build.txt" in line]
    lock = log.index(m.lock_install())
    assert len(tools) == 1 and tools[0] < lock, log
    assert "--require-hashes" in log[tools[0]]
    assert "--no-build-isolation" in log[lock] and "--require-hashes" in log[lock]
    dry = [i for i, line in enumerate(log) if "--dry-run" in line]
    assert len(dry) == 1 and tools[0] < dry[0] < lock  # the sdists are listed with the build tools in place


def test_off_a_pi_arm64_without_python3_dev_installs_it(tmp_path):
    """A container, chroot or plain arm64 Debian (no device tree): spidev has no
    aarch64 wheel, so run installs python3-dev before pip builds it, and says why."""
    m = Machine(tmp_path, arch="aarch64", archive=DEBIAN, pi=False)
    r = m.run()
    assert r.returncode == 0, r.stderr
    assert m.apt_installs() == [["python3-dev"]]  # gcc is there already
    assert SPIDEV in r.stderr and "installing python3-dev" in r.stderr
    assert m.venv_flags() == ["venv"]  # not a Pi: no --system-site-packages
    assert "Python.h" not in r.stderr
    _pinned_build(m)


def test_debian_on_a_pi_asks_apt_only_for_what_its_archive_has(tmp_path):
    """Plain Debian on a Pi has no python3-lgpio or python3-rpi-lgpio: the rest is
    installed, what it lacks is named, and the venv sees the system's packages."""
    m = Machine(tmp_path, arch="aarch64", archive=DEBIAN, pi=True)
    r = m.run()
    assert r.returncode == 0, r.stderr
    installs = m.apt_installs()
    assert installs == [["python3-spidev"], ["python3-dev"]], installs
    assert "the package archive has no python3-lgpio python3-rpi-lgpio" in r.stderr
    assert "Raspberry Pi 4 Model B" in r.stderr
    assert m.venv_flags() == ["venv --system-site-packages"]
    _pinned_build(m)


def test_raspberry_pi_os_on_a_pi_takes_the_os_backends(tmp_path):
    """Raspberry Pi OS: its python3-lgpio, python3-spidev and python3-rpi-lgpio by
    apt, seen through --system-site-packages; python3-dev for the pinned spidev build."""
    m = Machine(tmp_path, arch="armv7l", archive=RASPBERRY_PI_OS, pi=True)
    r = m.run()
    assert r.returncode == 0, r.stderr
    assert m.apt_installs() == [["python3-lgpio", "python3-spidev", "python3-rpi-lgpio"], ["python3-dev"]]
    assert "has no" not in r.stderr
    assert m.venv_flags() == ["venv --system-site-packages"]
    assert any(line == "apt-get update -qq" for line in m.log)
    _pinned_build(m)


@pytest.mark.parametrize("pi", [False, True], ids=["off a Pi", "on a Pi"])
def test_no_root_prints_the_one_command_and_stops(tmp_path, pi):
    """Neither root nor passwordless sudo: run installs nothing, prints the one
    command (only packages the archive has), and stops before pip's compiler
    error, and before any venv or pip work (minutes lost for nothing)."""
    m = Machine(tmp_path, arch="aarch64", archive=DEBIAN, pi=pi, uid=1000, gcc=False)
    r = m.run()
    assert r.returncode == 1
    assert m.apt_installs() == [] and not any(line.startswith(("apt-get", "sudo")) for line in m.log)
    assert re.findall(r"as root run:  (.*)", r.stderr) == ["apt-get install -y python3-dev gcc"], r.stderr
    assert "spidev==3.8" in r.stderr and "pip builds it from source" in r.stderr
    assert m.lock_install() is None and "Python.h" not in r.stderr
    assert m.venv_flags() == [] and not any(line.startswith("pip") for line in m.log)


def test_a_build_the_table_does_not_know_still_stops_before_pip_fails(tmp_path):
    """The safety net behind run's NO_WHEEL table: a locked package pip's dry run
    says it must build (here spidev on a machine the table does not list) stops
    with the one command, after the dry run and before the lock's install."""
    m = Machine(tmp_path, arch="riscv64", archive=DEBIAN, pi=False, uid=1000, gcc=False)
    r = m.run()
    assert r.returncode == 1
    assert "as root run:  apt-get install -y python3-dev gcc" in r.stderr, r.stderr
    assert SPIDEV in r.stderr and "C compiler and the Python headers" in r.stderr
    assert m.lock_install() is None and "Python.h" not in r.stderr


def test_one_stop_names_every_missing_package_before_any_pip_work(tmp_path):
    """ARM, no sudo, no venv support, no compiler, no headers: the
    first ./run names python3-venv, python3-dev and gcc in one command and
    stops before any venv or pip work (it used to stop twice, the second time
    after minutes of pip). Once they are installed, the next ./run goes through."""
    m = Machine(tmp_path, arch="aarch64", archive=DEBIAN, pi=False, uid=1000, gcc=False, venv=False)
    r = m.run()
    assert r.returncode == 1
    cmds = re.findall(r"as root run:  (.*)", r.stderr)
    assert cmds == ["apt-get install -y python3-venv python3-dev gcc"], r.stderr
    assert "venv support" in r.stderr and "spidev==3.8" in r.stderr
    assert not any(line.startswith(("pip", "venv", "apt-get", "sudo")) for line in m.log), m.log
    # the owner runs that one command as root, then ./run again: no other stop
    for p in ("python3-venv", "python3-dev", "gcc"):
        (m.state / "installed" / p).touch()
    (m.bin / "gcc").write_text("#!/bin/sh\nexit 0\n")
    (m.bin / "gcc").chmod(0o755)
    r2 = m.run()
    assert r2.returncode == 0, r2.stderr
    assert "as root run" not in r2.stderr and m.lock_install() is not None


def test_one_stop_as_root_installs_everything_at_once(tmp_path):
    """As root, the same machine gets every missing package from one apt-get
    install, before the venv is made."""
    m = Machine(tmp_path, arch="aarch64", archive=DEBIAN, pi=False, uid=0, gcc=False, venv=False)
    r = m.run()
    assert r.returncode == 0, r.stderr
    assert m.apt_installs() == [["python3-venv", "python3-dev", "gcc"]], m.log
    first_apt = next(i for i, line in enumerate(m.log) if line.startswith("apt-get install"))
    assert all(not line.startswith(("venv", "pip")) for line in m.log[:first_apt])


def test_32_bit_arm_names_the_build_libraries_too(tmp_path):
    """armv7l: Pillow and cbor2 have no wheel either (requirements/build.in): their
    libraries are in the same one command."""
    m = Machine(tmp_path, arch="armv7l", archive=DEBIAN + ["libjpeg-dev", "zlib1g-dev", "cargo"], pi=False,
                uid=1000, gcc=False, venv=False)
    (m.bin / "dpkg-query").write_text("#!/bin/sh\nexit 1\n")  # nothing installed
    (m.bin / "dpkg-query").chmod(0o755)
    r = m.run()
    assert r.returncode == 1
    cmds = re.findall(r"as root run:  (.*)", r.stderr)
    assert cmds == ["apt-get install -y python3-venv python3-dev gcc libjpeg-dev zlib1g-dev cargo"], r.stderr


def test_the_no_wheel_table_matches_the_locks():
    """run's NO_WHEEL pins are the locked versions: when `./run lock` moves one,
    this fails, to have its wheels looked at again."""
    text = (ROOT / "run").read_text()
    table = re.search(r'^NO_WHEEL="(.*?)"$', text, re.M | re.S).group(1)
    locks = (ROOT / "requirements" / "device.txt").read_text()
    pins = [line.split()[0] for line in table.splitlines()]
    assert pins and all(re.search(rf"^{re.escape(pin)} *[;\\]", locks, re.M | re.I) for pin in pins), pins


def test_passwordless_sudo_installs_and_says_so(tmp_path):
    m = Machine(tmp_path, arch="aarch64", archive=DEBIAN, pi=False, uid=1000, sudo=True, gcc=False)
    r = m.run()
    assert r.returncode == 0, r.stderr
    assert m.apt_installs() == [["python3-dev", "gcc"]]
    assert "installing python3-dev gcc with sudo apt-get" in r.stderr
    assert any(line.startswith("sudo env DEBIAN_FRONTEND=noninteractive apt-get install") for line in m.log)


def test_nothing_to_build_asks_apt_for_nothing(tmp_path):
    """x86_64 (every locked package a wheel), or the headers already there: no apt at all,
    and a device-tree file off ARM is no Pi."""
    m = Machine(tmp_path, arch="x86_64", archive=DEBIAN, pi=True, sdists=())
    r = m.run()
    assert r.returncode == 0, r.stderr
    assert not any(line.startswith("apt-get") for line in m.log)
    assert m.venv_flags() == ["venv"]
    m2 = Machine(tmp_path / "2", arch="aarch64", archive=DEBIAN, pi=False, headers=True)
    r2 = m2.run()
    assert r2.returncode == 0, r2.stderr
    assert m2.apt_installs() == [] and SPIDEV in r2.stderr


X86_CPUINFO = "processor\t: 0\nvendor_id\t: AuthenticAMD\nflags\t\t: fpu vme de pse tsc msr pae sse sse2\n"


def _pytest_env(m: Machine) -> str:
    runs = [line for line in m.log if line.startswith("pytest ")]
    assert len(runs) == 1, m.log
    return runs[0].partition("COMPANION_NO_BROWSER=")[2]


def test_run_test_emulated_says_once_and_installs_no_chromium(tmp_path):
    """An arm64 root emulated on a PC (qemu-user: /proc/cpuinfo is the
    host's): ./run test says once that the browser tests will be skipped, asks
    apt for no Chromium, and the suite gets the reason (COMPANION_NO_BROWSER)."""
    m = Machine(tmp_path, arch="aarch64", archive=DEBIAN, pi=False, uid=0, headers=True)
    (tmp_path / "cpuinfo").write_text(X86_CPUINFO)
    r = m.run("test")
    assert r.returncode == 0, r.stderr
    assert r.stderr.count("the browser tests will be skipped") == 1, r.stderr
    assert not any("chromium" in p for p in sum(m.apt_installs(), [])), m.apt_installs()
    assert ["zbar-tools"] in m.apt_installs()
    assert "emulated" in _pytest_env(m)


def test_run_test_where_chromium_does_not_start_says_once(tmp_path):
    m = Machine(tmp_path, arch="x86_64", archive=DEBIAN, pi=False, uid=0, sdists=())
    r = m.run("test", FAKE_CHROMIUM_RC="1")
    assert r.returncode == 0, r.stderr
    assert r.stderr.count("the browser tests will be skipped") == 1, r.stderr
    assert "does not start" in _pytest_env(m)


def test_run_test_with_a_working_chromium_installs_it_and_asks_once(tmp_path):
    """A real ARM or PC as root: Chromium installed, tried once, the browser tests run;
    the next ./run test does not try it again (the answer kept for its version)."""
    m = Machine(tmp_path, arch="aarch64", archive=DEBIAN, pi=False, uid=0, headers=True)
    r = m.run("test")
    assert r.returncode == 0, r.stderr
    assert ["chromium", "chromium-driver", "zbar-tools"] in m.apt_installs()
    assert "skipped" not in r.stderr and _pytest_env(m) == ""
    assert sum("--headless=new" in line for line in m.log) == 1
    (m.state / "log").write_text("")
    assert m.run("test").returncode == 0
    assert not any("--headless=new" in line for line in m.log) and _pytest_env(m) == ""


def test_the_browser_helper_skips_with_run_tests_reason(monkeypatch):
    from bench.browser import Unavailable, chromium
    monkeypatch.setenv("COMPANION_NO_BROWSER", "emulated here")
    with pytest.raises(Unavailable, match="emulated here"):
        chromium()


def test_run_stays_posix_sh():
    text = (ROOT / "run").read_text()
    assert text.startswith("#!/bin/sh\n")
    for bashism in ("[[", "function ", "local ", "<<<", "pipefail"):
        assert bashism not in text, bashism
    assert not re.search(r"(^|[\s=])\$'", text, re.M)  # $'...' strings
    if shutil.which("dash"):
        assert subprocess.run(["dash", "-n", str(ROOT / "run")]).returncode == 0
    assert os.access(ROOT / "run", os.X_OK)
