"""Every error the core raises on bad input, in one place.

All are ``ValueError`` subclasses (python-chess style) so callers can catch
broadly or precisely. Raising one never changes any state: engines are pure.
"""
from __future__ import annotations

__all__ = [
    "CompanionError", "InvalidMoveError", "IllegalMoveError", "AmbiguousMoveError",
    "SetupError", "RecordError", "JournalError", "NotAJournalError", "JournalWriteError",
    "StaleSessionError", "JournalBusyError", "ConfigError",
]


class CompanionError(ValueError):
    """Base class of every error the companion reports to a user."""


class InvalidMoveError(CompanionError):
    """A move's text cannot be parsed (syntax)."""


class IllegalMoveError(CompanionError):
    """A well-formed move that the rules do not allow in this state."""


class AmbiguousMoveError(CompanionError):
    """A move's text matches more than one legal move."""


class SetupError(CompanionError):
    """A game setup (players, options) the rules do not allow."""


class RecordError(CompanionError):
    """A game record that cannot be read or replayed; carries the line number."""

    def __init__(self, message: str, line: int | None = None):
        self.line = line
        self.reason = message
        super().__init__(f"line {line}: {message}" if line is not None else message)


class JournalError(CompanionError):
    """A journal problem a user must hear about."""


class NotAJournalError(JournalError):
    """The file is not a companion journal (corrupt or foreign); it is left untouched."""


class JournalWriteError(JournalError):
    """An event could not be made durable (disk full, read-only); it was not accepted."""


class JournalBusyError(JournalError):
    """Another process holds the journal locked (F4): retry later; it is never moved aside."""


class StaleSessionError(JournalError):
    """The session gained events elsewhere since this copy was opened; nothing was written."""


class ConfigError(CompanionError):
    """A configuration file or value that cannot be used."""


class ConsoleError(Exception):
    """A serial console command that cannot be done: its message is the ERR reason
    (``companion.console``; here so that the loop's runner raises it too)."""
