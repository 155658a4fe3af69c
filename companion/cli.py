"""The ``companion`` command: the composition root.

This is the one module of ``companion`` that reaches into ``hardware`` (our
own adapters package), and only inside the commands that need it, so the
pure core never imports a hardware library.

Its imports sit inside the commands and start-up steps on purpose: ``companion``
must draw its first frame fast on a Pi Zero (bench ``start_first_frame_s``), so
each command loads only what it uses (docs/architecture.md).

    companion                      run: the configured board, else the simulator
    companion sim [--keys K] [--screenshot F.png] [--text]
    companion replay FILE [--json]
    companion export ID [--format json|csv|png] [-o FILE] [--with-secrets]
    companion history
    companion boards | doctor
"""
from __future__ import annotations

import argparse
import json
import os
import queue
import signal
import sys
import time
from typing import TYPE_CHECKING, Any, Sequence

from . import __version__
from .errors import CompanionError, ConfigError, JournalError, NotAJournalError, RecordError

if TYPE_CHECKING:  # pragma: no cover
    import random

    from .ui.app import App


def _count(n: int, word: str, words: str | None = None) -> str:
    """``1 session``, ``3 sessions``: these command-line messages are not translated."""
    return f"{n} {word if n == 1 else (words or word + 's')}"


def _err(msg: str, code: int = 2) -> int:
    print(f"companion: {msg}", file=sys.stderr)
    return code


# ---------------------------------------------------------------- journal


def open_journal(path: str | None, notes: list[str] | None = None):
    """Open the journal. A file at the default place that SQLite cannot use as a
    journal is salvaged: every session that can still be read goes into a new
    journal there (``salvage.py``), and the file is kept aside untouched; a bad
    file the user named is refused. What happened is printed, and added to
    ``notes`` (lines for the screen)."""
    from .journal import Journal, default_path
    if path:
        return Journal(path)
    path = default_path()
    try:
        return Journal(path)
    except NotAJournalError as e:
        # Only a file SQLite cannot use as our journal gets here: a busy or locked one
        # raised JournalBusyError instead and is never moved (F4).
        problem = e
    from . import salvage
    try:
        found = salvage.salvage(path) if os.path.isfile(path) else salvage.Salvage()
    except OSError:
        found = salvage.Salvage()
    # The name carries the pid and is checked, so two processes never collide.
    stamp = time.strftime("%Y%m%d-%H%M%S")
    aside, n = f"{path}.bad-{stamp}-{os.getpid()}", 1
    while any(os.path.lexists(aside + s) for s in ("", "-wal", "-shm")):
        aside, n = f"{path}.bad-{stamp}-{os.getpid()}-{n}", n + 1
    try:
        if found.rows:
            salvage.write_journal(found, path + ".salvaged")  # complete before anything is moved
        for suffix in ("", "-wal", "-shm"):
            if os.path.lexists(path + suffix):
                os.replace(path + suffix, aside + suffix)
        if found.rows:
            os.replace(path + ".salvaged", path)
    except (OSError, JournalError) as oe:
        raise JournalError(f"{problem}; it could not be moved aside ({getattr(oe, 'strerror', None) or oe})") from None
    journal = Journal(path)
    if found.rows:
        cut = (f"; cut short at the damage: {', '.join(f'#{_number(journal, s)}' for s in found.cut)}"
               if found.cut else "")
        lines = [f"The journal was damaged: kept as {os.path.basename(aside)}.",
                 f"Saved {_count(found.sessions, 'session')} ({_count(len(found.rows), 'event')}); "
                 f"{_count(found.lost, 'event')} could not be read{cut}."]
    else:
        lines = [f"{problem}", f"It was kept as {os.path.basename(aside)}; a new journal was started."]
    print("\n".join(f"companion: {ln}" for ln in ([str(problem)] if found.rows else []) + lines), file=sys.stderr)
    if notes is not None:
        notes += lines
    return journal


def _number(journal, session: int) -> int:
    """The session's number as the table sees it (issue 34); its id if it has none."""
    try:
        return journal.number(session)
    except KeyError:
        return session


def _read_only_journal(path: str | None):
    """history and export never create, move or write a journal (issue 14, F4)."""
    from .journal import Journal, default_path
    return Journal(path or default_path(), read_only=True)


def build_app(args: argparse.Namespace, *, rng: random.Random | None = None) -> App:
    import random
    from . import config
    from .ui.app import App
    # the device never refuses to start over its settings: bad values are said on the
    # screen and replaced by their defaults
    settings, settings_path, problems = config.load_lenient(args.config)
    if args.seed is not None:
        settings = config.change(settings, seed=str(args.seed))
    if getattr(args, "web_port", None) is not None:  # for this run only: not written to the settings
        settings = config.change(settings, web_port=args.web_port)
    if rng is None and settings.seed_value() is not None:
        rng = random.Random(settings.seed_value())
    notes: list[str] = []  # open_journal prints its own
    journal = open_journal(args.journal, notes)
    continued = continue_damaged(journal)
    app = App(journal, settings, rng=rng, settings_path=settings_path)
    for line in continued:
        print(f"companion: {line}", file=sys.stderr)
    if notes or continued:
        app.message("\n".join(notes + continued), title="Damaged journal")
    if problems:
        for line in problems:
            print(f"companion: {line}", file=sys.stderr)
        app.message("\n".join(problems), title="Settings")
    return app


def continue_damaged(journal) -> list[str]:
    """Play on after damage (issue 14): each damaged session not yet ended continues
    as a new session holding its events before the damage; one line says each."""
    from .words.titles import title_of
    try:
        done = journal.continue_damaged()
    except JournalError as e:  # a full or read-only disk: the damaged sessions stay as they are
        return [f"A damaged game could not be continued: {e}"]
    return [f"{title_of(c.game)} #{journal.number(c.damaged)} was damaged after {_count(c.kept, 'event')}: "
            f"{'it goes' if c.kept == 1 else 'they go'} on as #{journal.number(c.session)}; "
            f"{_count(c.lost, 'later event')} {'was' if c.lost == 1 else 'were'} lost." for c in done]


# ---------------------------------------------------------------- commands


def cmd_sim(args) -> int:
    from hardware import sim
    try:
        keys = sim.parse_key_list(args.keys) if args.keys is not None else None
    except ValueError as e:
        return _err(str(e))
    throwaway = None
    if keys is not None and args.journal is None:
        # a headless run (screenshots, scripts) never writes the real journal: its session
        # would otherwise become the main menu's Resume
        import tempfile
        throwaway = tempfile.TemporaryDirectory(prefix="companion-sim-")
        args.journal = os.path.join(throwaway.name, "journal.db")
    app = build_app(args)
    try:
        if keys is None:
            return run_interactive_sim(app, args)
        sim.run_headless(app, keys)
        img = app.frame()
        if args.screenshot:
            shot = img if args.scale == 1 else img.resize((img.width * args.scale, img.height * args.scale))
            try:
                shot.save(args.screenshot)
            except (OSError, ValueError) as e:  # no such folder, an unknown extension (issue 14, F7)
                return _err(f"cannot save the screenshot {args.screenshot}: {getattr(e, 'strerror', None) or e}")
        if args.text:
            from .ui.app import frame_to_text
            print(frame_to_text(img))
        if app.last_error:
            print(f"companion: last message: {app.last_error}", file=sys.stderr)
        return 0
    finally:
        app.journal.close()
        if throwaway is not None:
            throwaway.cleanup()


def run_interactive_sim(app, args) -> int:
    import threading
    from hardware import sim
    from .loop import Call, Loop, STOP
    if not sys.stdin.isatty():
        return _err("the simulator needs a terminal; for scripts use: companion sim --keys up,ok --text")
    why = sim.needs_utf8(sys.stdout)
    if why:  # the frames would not show, and nothing would say so (QA 5)
        return _err(why)
    inputs: queue.Queue = queue.Queue()
    display = sim.TerminalDisplay()
    loop = Loop(app, display, inputs, idle_blank_s=app.settings.idle_blank_s)
    fd = sys.stdin.fileno()
    saved = sim.raw_terminal(fd)  # raw before the first frame: no key typed at once is echoed

    def redraw() -> None:  # on the loop's thread, as everything that draws
        inputs.put(Call(lambda app: display.redraw(), redraw=False))
    reader = threading.Thread(target=sim.read_terminal_keys, args=(fd, inputs, loop.stop),
                              kwargs={"raw": False, "redraw": redraw}, daemon=True)
    _on_sigterm(lambda: inputs.put(STOP))
    reader.start()
    console = _serial_console(args, app, loop)

    def say(text: str) -> None:  # the line under the frame, set on the loop's thread
        inputs.put(Call(lambda a: display.set_footer(text), redraw=False))

    def footer(page) -> None:  # under the simulator's frame: open it in a browser on this machine
        _watch_page(page, loop.stop, say)
    held = _hold_logs()  # nothing written over the frame: the log's lines come after it
    pages = _page(app, loop, simulator=True, started=footer, quiet=True)
    try:
        loop.run()
    except KeyboardInterrupt:
        pass
    finally:
        loop.stop.set()
        reader.join(timeout=1)
        sim.restore_terminal(fd, saved)
        if console:
            console.close()
        for page in pages:
            page.close()
        sys.stdout.write("\x1b[2J\x1b[H")
        held.release()
        print("companion: bye (everything is in the journal)")
    return 0


def _watch_page(page, stop, say) -> None:
    """The simulator's line under the frame follows the page (issue 48): its address
    only once it answers, else why it does not run (a port another program holds:
    said there once, not over the frame), from a thread of its own."""
    import threading

    def watch() -> None:
        shown = None
        while not stop.is_set():
            if page.server.started.is_set():
                text = f"Scoreboard page: {page.address}"
            elif page.problem:
                text = f"Scoreboard page off: {page.problem}; --web-port N picks another port"
            else:
                text = ""
            if text != shown:
                say(text)
                shown = text
            stop.wait(0.25)
    threading.Thread(target=watch, name="companion-sim-page", daemon=True).start()


class _HeldLogs:
    """The log's lines while the simulator draws its frame (the page's process relays its
    own): kept, the last ``keep`` of them, and written out after the frame is gone."""

    def __init__(self, keep: int = 20) -> None:
        import collections
        import logging
        self.lines: collections.deque[str] = collections.deque(maxlen=keep)
        self.handler = logging.Handler(logging.WARNING)
        self.handler.emit = lambda record: self.lines.append(record.getMessage())  # type: ignore[method-assign]
        logging.getLogger().addHandler(self.handler)

    def release(self) -> None:
        import logging
        logging.getLogger().removeHandler(self.handler)
        for line in self.lines:
            print(f"companion: {line}", file=sys.stderr)


def _hold_logs() -> _HeldLogs:
    return _HeldLogs()


def _serial_console(args, app, loop):
    """The serial console (docs/console.md) when ``--serial`` or the ``serial`` setting names a port."""
    url = getattr(args, "serial", None) or app.settings.serial
    if not url:
        return None
    from hardware.serial_console import start_console
    return start_console(url, loop, baudrate=app.settings.serial_baud, read_only=app.settings.read_only)


def _page(app, loop, *, simulator: bool, notifier=None, started=None, quiet: bool = False) -> list:
    """The scoreboard page (issue 32, docs/web.md) unless the ``web`` setting is off.
    It is set up by a ``Call`` the loop runs after the first frame (its web stack is not
    imported on the way to it); ``started(page)`` then runs on the loop's thread. Returns
    the list the page is put in, for the caller to close. A fault is said once: on stderr
    (the service's log; not with ``quiet``: the simulator's terminal holds its frame and
    says it under it), in systemd's status and in a message on the device; the game
    goes on and the server tries again."""
    from .loop import Call
    pages: list = []
    if app.settings.web != "off":
        loop.inputs.put(Call(lambda a: _start_page(a, loop, pages, simulator, notifier, started, quiet),
                             redraw=False))
    return pages


def _start_page(app, loop, pages: list, simulator: bool, notifier, started, quiet: bool = False) -> None:
    try:
        from hardware.web_server import PageService
    except ImportError as e:  # a broken install: the device still plays
        print(f"companion: the scoreboard page cannot start: {e}", file=sys.stderr)
        return
    from .i18n import _
    from .loop import Call

    def fault(message: str) -> None:
        if not quiet:
            print(f"companion: scoreboard {message}; the game goes on, the page tries again", file=sys.stderr)
        if notifier is not None:
            notifier.status(f"scoreboard {message}")
        loop.inputs.put(Call(lambda a: a.message(
            _("The scoreboard page cannot run ({why}). The game goes on; it tries again.").format(why=message),
            title=_("Scoreboard page"))))
    try:
        page = PageService(app, simulator=simulator, on_fault=fault)
    except Exception as e:  # a bad setting the validation did not catch: never stop the table
        print(f"companion: the scoreboard page cannot start: {e}", file=sys.stderr)
        return
    app.web = page
    pages.append(page.start(loop))  # the loop publishes to it after this call
    if started is not None:
        started(page)


def _on_sigterm(action) -> None:
    def handler(signum, frame):
        action()
    signal.signal(signal.SIGTERM, handler)


def cmd_run(args) -> int:
    from . import config
    # lenient, like build_app: the device starts whatever the settings file holds (issue 14)
    settings, _, _problems = config.load_lenient(args.config)
    board = args.board or settings.board
    if not board:
        args.keys = None
        return cmd_sim(args)
    return run_board(args, board)


def _import_failure(what: str, e: ImportError) -> str:
    """An import that failed, with its cause (a missing or broken dependency), not hidden."""
    missing = f" (module {e.name!r})" if e.name else ""
    return (f"{what} cannot be loaded: {e}{missing}.\n"
            "Fix: reinstall the dependencies with './run setup' (on a Pi it also adds lgpio and spidev).")


FAULT_WAIT_S = 45
"""A fault screen stays up this long (or until a key), then the process exits with status 1 and
the unit starts again: well inside the unit's TimeoutStartSec=60, so that systemd sees that exit,
not a start timeout (QA 4)."""


def fault_text(e: BaseException) -> tuple[str, str]:
    """(title, text) for a start-up that failed: the reason and what to do, in a few short lines."""
    from .errors import JournalBusyError
    if isinstance(e, JournalBusyError):
        return "Journal busy", "Another program holds the journal. Close it; OK retries now."
    if isinstance(e, ConfigError):
        return "Bad settings", f"{e}"[:90] + ". Fix the settings file; OK retries."
    if isinstance(e, JournalError):
        return "Journal problem", f"{e}"[:90] + ". Free space or fix the file; OK retries."
    return "Cannot start", f"{type(e).__name__}: {e}"[:70] + ". See journalctl -u companion; OK retries."


def show_fault(display, inputs: "queue.Queue", e: BaseException, wait_s: float | None = None) -> int:
    """The fault screen (issue 14): start-up failed after the display was up. The reason is
    on the display and in the log; a key (or ``wait_s``) ends the process with status 1, and
    systemd starts it again."""
    from .ui.draw import Canvas
    from .ui.widgets import Message
    title, text = fault_text(e)
    print(f"companion: cannot start: {e}", file=sys.stderr)
    try:  # systemctl status says it too
        from hardware.notify import SystemdNotifier
        SystemdNotifier().status(f"cannot start: {e}")
    except ImportError:
        pass
    c = Canvas()
    Message(text, title=title).render(c)
    try:
        display.show(c.image)
    except Exception:  # the display itself failing: the log line above stays
        pass
    try:
        inputs.get(timeout=FAULT_WAIT_S if wait_s is None else wait_s)
    except queue.Empty:
        pass
    return 1


def run_board(args, board: str) -> int:
    try:
        from hardware.board import open_board
        from hardware.errors import HardwareError
    except ImportError as e:
        return _err(_import_failure("the hardware support", e), 1)
    from . import config
    from .loop import Loop, STOP
    inputs: queue.Queue = queue.Queue()
    settings, _, _problems = config.load_lenient(args.config)
    try:  # the display first: whatever fails after it is shown on it
        b = open_board(board, post=inputs.put, rotation=settings.rotation,
                       contrast=settings.contrast, hold_time=settings.hold_time)
    except HardwareError as e:
        _say_settings_problems(_problems)  # build_app, which says them, is never reached (QA 3 L1)
        return _err(str(e), 1)
    try:
        app = build_app(args)
    except Exception as e:
        try:
            return show_fault(b.display, inputs, e)
        finally:
            b.close()
    notifier = None
    try:
        from hardware.notify import SystemdNotifier
        notifier = SystemdNotifier()
    except ImportError:
        pass
    from .display_writer import DisplayWriter
    writer = DisplayWriter(b.display)  # the loop hands frames over, never waits on the bus (issue 16)
    loop = Loop(app, writer, inputs, idle_blank_s=app.settings.idle_blank_s,
                heartbeat=(notifier.watchdog if notifier else None))
    _on_sigterm(lambda: inputs.put(STOP))
    console = _serial_console(args, app, loop)
    pages = _page(app, loop, simulator=False, notifier=notifier)
    if notifier:
        notifier.ready()
        notifier.status(ready_status(board, app))  # systemctl status: "Status: ..."
    try:
        loop.run()
    except KeyboardInterrupt:
        pass
    finally:
        if notifier:
            notifier.stopping()
        if console:
            console.close()
        for page in pages:
            page.close()
        writer.flush(timeout=2)  # the last frame out before the board closes
        b.close()
        app.journal.close()
    return 0


def ready_status(board: str, app: "App") -> str:
    """The service's status line once the display is up (``systemctl status``):
    the board, the journal and what Resume offers."""
    sessions = len(app.journal.sessions())
    open_games = len(app.unfinished())
    return (f"{board}: ready; journal {app.journal.path}, {_count(sessions, 'session')}, "
            f"{open_games} to resume")


def cmd_replay(args) -> int:
    from . import records
    try:
        rec = records.read(args.file)
        result = records.replay(rec)
    except FileNotFoundError:
        if args.json:  # --json prints one JSON object whatever happens (QA 3 L4); no line to name
            print(json.dumps({"ok": False, "file": args.file, "line": None, "error": "no such file"}))
        return _err(f"no such file: {args.file}")
    except RecordError as e:
        if args.json:
            print(json.dumps({"ok": False, "file": args.file, "line": e.line, "error": e.reason}))
        else:
            print(f"{args.file}:{e.line}: {e.reason}", file=sys.stderr)
        return 1
    except CompanionError as e:  # not expected (records.replay says every problem as a RecordError)
        if args.json:
            print(json.dumps({"ok": False, "file": args.file, "line": None, "error": str(e)}))
        return _err(str(e), 1)
    if args.json:
        print(json.dumps(result.to_json()))
    else:
        print(describe_result(result))
    return 0


def describe_result(result) -> str:
    from .words.titles import title_of
    state = result.fold.state
    out = [f"{title_of(result.record.game)}: {len(result.record.events)} events, "
           f"{len(result.fold.moves)} moves in effect, {len(result.fold.undone)} undone"]
    players = getattr(state, "players", None)
    scores = state.scores()
    names = list(players) if isinstance(players, (list, tuple)) else []
    if scores:
        if len(names) != len(scores):
            names = [f"P{i + 1}" for i in range(len(scores))]
        out.append("scores: " + ", ".join(f"{n} {s}" for n, s in zip(names, scores)))
    oc = state.outcome()
    if oc:
        # the winners by name with their seat (1-based): "Bob (seat 2)"
        won = [f"{names[w]} (seat {w + 1})" if 0 <= w < len(names) else f"seat {w + 1}" for w in oc.winners]
        out.append(f"ended ({oc.termination.value}); winner{'s' if len(won) > 1 else ''}: {', '.join(won)}"
                   + (f" - {oc.detail}" if oc.detail else ""))
    else:
        out.append("not finished")
    def by(seat: int | None) -> str:
        return names[seat] if seat is not None and 0 <= seat < len(names) else f"seat {seat}"
    for a in result.ambiguous:  # docs/records.md: the first reading is taken
        ways = "; ".join(
            f"{by(r['seat'])}'s move{' after ' + ', '.join(r['left_out']) + ' left out' if r['left_out'] else ''}"
            f"{' (the game ends)' if r['terminal'] else ''}" for r in a["readings"])
        out.append(f"line {a['line']} ({a['move']}) reads {len(a['readings'])} ways, the first taken: {ways}; "
                   "a \"seat\" on the move events decides")
    if not result.ambiguous_complete:
        out.append("not every other reading was tried (too many)")
    out.append(json.dumps(state.to_json(), indent=1))
    return "\n".join(out)


def cmd_export(args) -> int:
    """A session as its JSON record, a CSV of scores per turn, or a PNG score sheet (needs -o)."""
    from . import export
    from .records import dumps
    fmt = args.format
    to_file = bool(args.output) and args.output != "-"
    if fmt == "png" and not to_file:
        return _err("--format png needs -o FILE.png")
    try:
        journal = _read_only_journal(args.journal)
    except JournalError as e:
        return _err(str(e))
    try:
        try:
            if not 0 < args.id < 2**63:  # SQLite's integers (issue 14, F7)
                raise KeyError(args.id)
            info = journal.by_number(args.id)  # the number the device and history show (issue 34)
        except KeyError:
            return _err(f"no session {args.id} (see: companion history)")
        events = journal.events(info.id)
        summary = export.summarize(info.id, info.game, info.setup, info.created, events, number=info.number)
        if fmt == "json":
            # RULINGS V-1: the owner's shell may see everything, but a record of a game not yet
            # over that holds a secret color (BU-3) is written only when asked for by name
            secrets = export.secrets_before_the_end(summary, events)
            if secrets and not args.with_secrets:
                return _err(f"session {args.id} is a game not yet over, and its record holds "
                            f"{_count(secrets, 'secret color')} (BU-3) that the table must not see "
                            "before the end: nothing was written. Add --with-secrets to export it "
                            "anyway, or export it once the game has ended.", 1)
            data: str | bytes = dumps(info.game, info.setup, events, session=info.number, created=info.created)
        else:  # the CSV and the PNG sheet never hold a secret color (V-1): a draw is no row
            if summary.fold is None:
                return _err(f"session {args.id} cannot be read: {summary.error}", 1)
            data = export.scores_csv(summary.fold, info.setup) if fmt == "csv" else export.score_sheet_png(summary)
    finally:
        journal.close()
    if to_file:
        try:
            export.write_atomic(args.output, data)
        except OSError as e:
            return _err(f"cannot write {args.output}: {e.strerror or e}")
    else:
        assert isinstance(data, str)  # a PNG needs -o (refused above)
        sys.stdout.write(data)
    return 0


def cmd_history(args) -> int:
    from .words.titles import title_of
    from .journal import default_path
    try:
        if not args.journal and not os.path.lexists(default_path()):
            print("no sessions yet")
            return 0
        journal = _read_only_journal(args.journal)
    except JournalError as e:
        return _err(str(e))
    with journal:
        sessions = journal.sessions()
        if not sessions:
            print("no sessions yet")
        from .export import session_summary
        # a damaged session the device continued: its new session's start names it (QA 3 L3)
        continued_as = {s.continues: s.number for s in sessions if s.continues is not None}
        numbers = {s.id: s.number for s in sessions}
        for s in sessions:
            # a game finished by its rules says who won (not "open"); an unreadable one says so
            result = session_summary(journal, s).result_text()
            damage = ""
            if s.damaged:  # (its end event lies past the damage: session_summary says "ended")
                new = continued_as.get(s.id)
                damage = (f"  damaged, continued as #{new}" if new is not None
                          else "  damaged: replay stops at the damage")
            elif s.continues is not None:
                damage = f"  continues #{numbers.get(s.continues) or journal.number(s.continues)}"
            print(f"{s.number:>6}  {s.created[:16].replace('T', ' ')}  {title_of(s.game):<14} "
                  f"{s.events:>5} events  {result}{damage}")
    return 0


def _journal_rows(path: str) -> list[tuple] | None:
    """Every stored event of the journal at ``path`` as (seq, session, time, type, payload)
    bytes, read only; None if it is not a journal."""
    import sqlite3
    from urllib.parse import quote
    try:
        db = sqlite3.connect(f"file:{quote(os.path.abspath(path))}?mode=ro", uri=True)
    except sqlite3.Error:
        return None
    try:
        db.text_factory = bytes
        return db.execute("SELECT seq, session, time, type, payload FROM events ORDER BY seq").fetchall()
    except sqlite3.Error:
        return None
    finally:
        db.close()


def backup_refusal(journal_path: str, dest: str) -> tuple[str, bool] | None:
    """Why ``backup`` must not replace ``dest`` (QA 3 L7) and whether ``--force`` may
    override it, or None. Nothing is lost when it is missing, empty, or an earlier backup of
    this same journal (the journal is append-only: every event it holds is still in the
    journal, unchanged)."""
    if not os.path.lexists(dest):
        return None
    if os.path.isdir(dest):
        return f"{dest} is a folder: name the backup file (e.g. {os.path.join(dest, 'journal-backup.db')})", False
    try:
        if os.path.samefile(dest, journal_path):
            return f"{dest} is the journal itself", False
    except OSError:
        pass
    try:  # a backup never has a -wal; a stale one left beside the copy would spoil it
        wal = os.path.getsize(dest + "-wal")
    except OSError:
        wal = 0
    if wal:
        return f"{dest} is a journal in use (it has a -wal file beside it)", False
    try:
        if os.path.getsize(dest) == 0:
            return None
    except OSError as e:
        return f"{dest} cannot be read ({e.strerror or e})", True
    theirs = _journal_rows(dest)
    if theirs is None:
        return f"{dest} exists and is not a journal", True
    ours = _journal_rows(journal_path)
    if ours is None or theirs != ours[:len(theirs)]:
        return f"{dest} exists and is not an earlier backup of this journal (it holds other events)", True
    return None


def cmd_backup(args) -> int:
    """``companion backup DEST``: a consistent copy, safe while the app plays (issue 14, F10).
    An existing DEST is replaced only if it is an earlier backup of this journal, or with
    ``--force`` (QA 3 L7: a text file or another journal was lost without a word)."""
    try:
        with _read_only_journal(args.journal) as journal:
            refused = backup_refusal(journal.path, args.dest)
            if refused and not (args.force and refused[1]):
                why, forcible = refused
                return _err(f"{why}: nothing was written. Choose another DEST"
                            + (", or pass --force to replace it" if forcible else "") + ".")
            n = journal.backup(args.dest)
    except JournalError as e:
        return _err(str(e))
    print(f"{n} events copied to {args.dest}")
    return 0


def cmd_boards(args) -> int:
    try:
        from hardware.profiles import load_profiles_with_origin
    except ImportError as e:
        return _err(_import_failure("the board profiles", e), 1)
    from hardware.errors import HardwareError
    try:
        profiles = load_profiles_with_origin()
    except HardwareError as e:
        return _err(str(e), 1)
    for name, (p, origin) in profiles.items():
        print(f"{name:<26} {p.title}  [{origin}]")
    return 0


def cmd_doctor(args) -> int:
    from . import config
    try:
        from hardware.doctor import doctor
        from hardware.profiles import get_profile
        from hardware.errors import HardwareError
    except ImportError as e:
        return _err(_import_failure("the hardware checks", e), 1)
    # every bad settings value is said, one per key, and the board is checked all the same:
    # the app starts with that key's default (QA 3 L1)
    settings, _, problems = config.load_lenient(args.config)
    board = args.board or settings.board
    try:
        profile = get_profile(board) if board else None
    except HardwareError as e:
        _say_settings_problems(problems)
        return _err(str(e), 1)
    if profile is None:
        _say_settings_problems(problems)
        return _err("no board configured: pass --board NAME (see: companion boards)")
    return doctor(profile, settings_problems=problems, settings=settings)


def _say_settings_problems(problems: list[str]) -> None:
    for line in problems:
        print(f"companion: {line}", file=sys.stderr)


# ---------------------------------------------------------------- parser


def _shared_options(*, in_subcommand: bool) -> argparse.ArgumentParser:
    """The options every command takes, before or after the subcommand's name.

    In a subcommand their default is ``SUPPRESS``: an option typed before the
    subcommand (``companion --journal X history``) is then not replaced by the
    subcommand's default, and one typed after it wins."""
    extra: dict[str, Any] = {"default": argparse.SUPPRESS} if in_subcommand else {}
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--journal", metavar="PATH", help="journal file (default: $STATE_DIRECTORY or XDG state dir)",
                        **extra)
    common.add_argument("--config", metavar="PATH", help="settings file (TOML)", **extra)
    common.add_argument("--board", metavar="NAME", help="board profile (see: companion boards)", **extra)
    common.add_argument("--seed", type=int, metavar="N", help="seed for reproducible draws", **extra)
    common.add_argument("--serial", metavar="PORT", help="serial console on a port or pyserial URL "
                        "(/dev/ttyGS0, /dev/serial0, loop://, socket://HOST:PORT); see docs/console.md", **extra)
    common.add_argument("--web-port", type=_tcp_port, metavar="N", help="the scoreboard page's TCP port "
                        "(instead of the web_port setting: a second copy on one machine)", **extra)
    return common


def _tcp_port(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        n = 0
    if not 1 <= n <= 65535:
        raise argparse.ArgumentTypeError(f"{text!r} is not a TCP port (1..65535)")
    return n


def parser() -> argparse.ArgumentParser:
    top = _shared_options(in_subcommand=False)
    common = _shared_options(in_subcommand=True)
    p = argparse.ArgumentParser(prog="companion", parents=[top],
                                description="Pyramid Table Companion: scorekeeper and referee for Looney Pyramids.")
    p.add_argument("--version", action="version", version=f"companion {__version__}")
    sub = p.add_subparsers(dest="command")
    s = sub.add_parser("sim", parents=[common], help="run the terminal simulator (or headless with --keys)")
    s.add_argument("--keys", metavar="K,K,...", help="headless: keys to press (up down left right ok back hold-ok hold-back release)")
    s.add_argument("--screenshot", metavar="FILE.png", help="headless: save the final frame")
    s.add_argument("--scale", type=int, default=1, choices=range(1, 9), metavar="N",
                   help="headless: enlarge the screenshot N times (default 1: the real 128x64)")
    s.add_argument("--text", action="store_true", help="headless: print the final frame as text")
    r = sub.add_parser("replay", parents=[common], help="replay a game record and print the result")
    r.add_argument("file", help="a game record (.jsonl), e.g. from companion export ID -o FILE")
    r.add_argument("--json", action="store_true", help="print one JSON object")
    e = sub.add_parser("export", parents=[common],
                       help="write a session as a game record, a CSV of scores or a PNG score sheet")
    e.add_argument("id", type=int, help="the session's number: companion history lists them, the device shows "
                   "it as #N (1, 2, 3 ... in the order the sessions were started)")
    e.add_argument("--format", choices=["json", "csv", "png"], default="json",
                   help="json: the game record; csv: scores per turn; png: a score sheet (needs -o)")
    e.add_argument("-o", "--output", metavar="FILE", help="write to FILE (default: print; png needs it)")
    e.add_argument("--with-secrets", action="store_true",
                   help="json: write the record of a game not yet over even though it holds secret colors "
                        "(Bottoms Up, BU-3); without it such an export is refused. csv and png never hold one")
    sub.add_parser("history", parents=[common], help="list sessions with their numbers (what export takes)")
    b = sub.add_parser("backup", parents=[common], help="a consistent copy of the journal (SQLite's backup API)")
    b.add_argument("dest", metavar="DEST", help="the copy; an existing file is replaced only if it is an "
                   "earlier backup of this journal")
    b.add_argument("--force", action="store_true", help="replace DEST even if it holds something else")
    sub.add_parser("boards", parents=[common], help="list board profiles")
    sub.add_parser("doctor", parents=[common], help="check the configured board and say what to fix")
    return p


COMMANDS = {None: cmd_run, "sim": cmd_sim, "replay": cmd_replay, "export": cmd_export,
            "history": cmd_history, "backup": cmd_backup, "boards": cmd_boards, "doctor": cmd_doctor}


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if args.command == "sim" and args.keys is None and (args.screenshot or args.text):
        args.keys = ""
    try:
        return COMMANDS[args.command](args)
    except JournalError as e:
        return _err(str(e))
    except CompanionError as e:
        return _err(str(e))
    except BrokenPipeError:
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
