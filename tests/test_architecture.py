"""The layers hold (docs/architecture.md).

The import graph of ``companion/``, ``hardware/`` and ``bench/`` is read from
the sources (no import runs): every ``import`` and ``from ... import``,
those under ``if TYPE_CHECKING:`` and those inside functions included, and
``importlib.import_module`` / ``__import__`` calls with a literal name. No
circle between files; the views off the device (the projection, the
console, the page and its server) and the words under them import nothing
from ``companion.ui``; an import left inside a function says why.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("companion", "hardware", "bench")


def _modules() -> dict[str, tuple[Path, bool]]:
    """Module name -> (file, is a package's ``__init__``)."""
    out = {}
    for pkg in PACKAGES:
        for f in sorted((ROOT / pkg).rglob("*.py")):
            parts = list(f.relative_to(ROOT).with_suffix("").parts)
            init = parts[-1] == "__init__"
            out[".".join(parts[:-1] if init else parts)] = (f, init)
    return out


MODULES = _modules()


def _known(name: str) -> str | None:
    """The project module ``name`` is or lies in (``companion.ui.app.App`` -> ``companion.ui.app``)."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def _base(module: str, init: bool, level: int, name: str | None) -> str:
    if not level:
        return name or ""
    parts = module.split(".")
    if not init:
        parts = parts[:-1]
    parts = parts[: len(parts) - (level - 1)]
    return ".".join(parts + ([name] if name else []))


def _literal_import(module: str, init: bool, call: ast.Call) -> str | None:
    """``importlib.import_module("x")`` (also relative, with ``__package__``) or ``__import__("x")``."""
    f = call.func
    named = (isinstance(f, ast.Attribute) and f.attr == "import_module") or (
        isinstance(f, ast.Name) and f.id in ("import_module", "__import__"))
    if not named or not call.args or not isinstance(call.args[0], ast.Constant) \
            or not isinstance(call.args[0].value, str):
        return None
    target: str = call.args[0].value
    if target.startswith("."):
        level = len(target) - len(target.lstrip("."))
        return _base(module, init, level, target.lstrip(".") or None)
    return target


def imports_of(module: str) -> list[tuple[str, int, bool]]:
    """(imported project module, line, inside a function) for every import in ``module``."""
    path, init = MODULES[module]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    in_function: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            for sub in ast.walk(node):
                if sub is not node:
                    in_function.add(id(sub))
    out = []
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = _base(module, init, node.level, node.module)
            names = [base] + [f"{base}.{a.name}" for a in node.names]
        elif isinstance(node, ast.Call):
            target = _literal_import(module, init, node)
            names = [target] if target else []
        for name in names:
            known = _known(name)
            if known and known != module:
                out.append((known, node.lineno, id(node) in in_function))
    return out


GRAPH = {m: {t for t, _line, _f in imports_of(m)} for m in MODULES}


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_the_walk_sees_every_kind_of_import():
    """The walk itself: a TYPE_CHECKING import, one inside a function and a literal
    ``importlib.import_module`` are edges (else a circle could hide in them)."""
    assert "companion.ui.host" in GRAPH["companion.ui.widgets"]  # under TYPE_CHECKING
    assert "companion.games.boi_win" in GRAPH["companion.plugins.bag_of_ice"]  # inside a function
    assert "companion.ui.history" in GRAPH["companion.ui.screens"]  # importlib, relative
    assert "bench.web" in GRAPH["bench.__main__"]  # __import__
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_circle_of_imports_between_files():
    assert circles(GRAPH) == []


@pytest.mark.parametrize("module", ["companion.public", "companion.console", "companion.web",
                                    "hardware.web_server", "companion.export", "companion.braille",
                                    "companion.chart", "companion.stats", "companion.bgstats"])
def test_the_views_off_the_device_import_nothing_from_the_ui(module):
    """The projection, the console, the page and its server, the exports: below or
    beside the OLED's screens, never on them (V-1: one projection, no view's words)."""
    assert sorted(t for t in GRAPH[module] if t == "companion.ui" or t.startswith("companion.ui.")) == []


VIEWS = ("companion.ui", "companion.console", "companion.web", "companion.public", "companion.export",
         "companion.cli", "companion.loop", "hardware", "bench")


@pytest.mark.parametrize("module", sorted(m for m in MODULES if m.startswith(("companion.words", "companion.plugins"))))
def test_the_words_import_no_view(module):
    """companion.words and the games' plug-ins are under every view: they
    import the core and each other only."""
    assert sorted(t for t in GRAPH[module] if any(t == v or t.startswith(v + ".") for v in VIEWS)) == []


def test_the_screens_know_the_app_through_the_seam():
    """No screen imports ui/app.py (the ``Host`` protocol is what they know of it)."""
    users = sorted(m for m, targets in GRAPH.items() if "companion.ui.app" in targets
                   and m.startswith("companion.ui."))
    assert users == []


def _is_import_line(text: str) -> bool:
    s = text.strip()
    return s.startswith(("import ", "from ")) or s.startswith("#")


def unexplained_function_imports() -> list[str]:
    """Imports inside functions in companion/ and hardware/ with no comment on their
    line, on another line of their run of imports, or on the line before the run.
    cli.py's reason is in its docstring (start-up on a Pi Zero)."""
    out = []
    for module, (path, _init) in MODULES.items():
        if not module.startswith(("companion", "hardware")) or module == "companion.cli":
            continue
        lines = path.read_text(encoding="utf-8").splitlines()
        tree = ast.parse("\n".join(lines))
        for fn in ast.walk(tree):
            if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for node in ast.walk(fn):
                if not isinstance(node, (ast.Import, ast.ImportFrom)):
                    continue
                k = node.lineno - 1
                start, end = k, k
                while start > 0 and _is_import_line(lines[start - 1]):
                    start -= 1
                while end + 1 < len(lines) and _is_import_line(lines[end + 1]):
                    end += 1
                run = lines[max(0, start - 1):end + 1]
                if not any("#" in line for line in run):
                    out.append(f"{path.relative_to(ROOT)}:{node.lineno}: {lines[k].strip()}")
    return sorted(set(out))


def test_an_import_left_inside_a_function_says_why():
    assert unexplained_function_imports() == []


def _own_modules() -> set[str]:
    """Each registered game's own modules: its engine, its plug-in and its OLED screens
    (with the screen modules named after them, e.g. ``companion.ui.bottoms_up_check``)."""
    from companion.games import GAMES, TOOLS
    own = set()
    for e in [*GAMES.values(), *TOOLS.values()]:
        own |= {m for m in MODULES if m in (e.module, e.plugin) or (e.ui and m.startswith(e.ui))}
    return own


# every module but a game's own, so that a game is a plug-in: the shared layers, the views, the hardware,
# reach a game only through its registry line and its plug-in
SHARED = tuple(sorted(m for m in MODULES if m.split(".")[0] in ("companion", "hardware")
                      and m not in _own_modules() and m != "companion.games"  # the registry's lines
                      and not m.startswith("companion.games.")))


def _game_names() -> set[str]:
    from companion.games import GAMES
    return set(GAMES)


@pytest.mark.parametrize("module", SHARED)
def test_no_shared_module_names_a_game(module):
    """No shared module branches on a game's name, so a new game needs no edit there: no string in its code is
    a registered game's name (a game's words, table, ranking and secrets are its
    plug-in's); the registry's lines are the only place that names a game."""
    path, _init = MODULES[module]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    named = sorted({(n.value, n.lineno) for n in ast.walk(tree)
                    if isinstance(n, ast.Constant) and isinstance(n.value, str) and n.value in _game_names()})
    assert named == []


@pytest.mark.parametrize("script", sorted(p.name for p in (ROOT / "companion" / "web_assets").glob("*.js")))
def test_no_script_of_the_page_names_a_game(script):
    """The page's scripts draw every game's table from generic blocks, so a new game needs no script: no
    game's name in them, quoted or as a word."""
    import re
    text = (ROOT / "companion" / "web_assets" / script).read_text(encoding="utf-8")
    words = {"undercut", "bagofice", "bottomsup", *{n.replace("_", "") for n in _game_names()}}
    found = sorted({w for w in re.findall(r"[A-Za-z_]+", text) if w.replace("_", "").lower() in words})
    assert found == []


def test_the_core_reaches_the_plugins_only_through_the_registry():
    """The engines and the registry import no plug-in and no words: the
    plug-ins sit above their engines."""
    core = [m for m in MODULES if m.startswith("companion.games") or m in ("companion.engine", "companion.records")]
    assert sorted((m, t) for m in core for t in GRAPH[m] if t.startswith(("companion.plugins", "companion.words"))) == []


# ---------------------------------------------------------------- views get what the device shows as a value

VIEWS = ("companion/public.py", "companion/web.py", *sorted(
    str(f.relative_to(ROOT)) for f in (ROOT / "companion" / "words").glob("*.py")))


def _screen_classes() -> set[str]:
    """Every class the screens define (companion/ui)."""
    names = set()
    for f in (ROOT / "companion" / "ui").rglob("*.py"):
        names |= {n.name for n in ast.walk(ast.parse(f.read_text())) if isinstance(n, ast.ClassDef)}
    return names


@pytest.mark.parametrize("path", [*VIEWS, "companion/console.py"])
def test_views_never_name_a_screen_class(path):
    """What the device shows reaches the views as a value (``companion.shown``,
    published by ``App.showing``); a view that named a screen class (in code or in a
    string compared with ``type(x).__name__``) would change silently with a rename."""
    screens = _screen_classes()
    tree = ast.parse((ROOT / path).read_text())
    named = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)} | \
            {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)} | \
            {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)}
    assert not (named & screens), f"{path} names screen classes: {sorted(named & screens)}"


@pytest.mark.parametrize("path", VIEWS)
def test_views_never_take_the_app_nor_walk_its_screens(path):
    """The projection, the page and the words get ``(session, shown, settings)``: no
    parameter is the app, nothing reads a screen stack or the top screen."""
    tree = ast.parse((ROOT / path).read_text())
    params = {a.arg for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
              for a in (*n.args.posonlyargs, *n.args.args, *n.args.kwonlyargs)}
    names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    attrs = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
    assert "app" not in params and "app" not in names, f"{path} takes the app"
    assert not attrs & {"top", "showing", "on_game_key"}, f"{path} reads the app's screens"
