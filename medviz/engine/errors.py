"""The one error taxonomy of medviz.

Every error a user can cause is a ``MedvizError``; its message says what is wrong, where
(turn/phase, file, field) and why. The CLI prints it on one line and exits with status 2.
"""

from __future__ import annotations


class MedvizError(Exception):
    """Base of every error medviz raises on purpose."""


class MalformedInput(MedvizError, ValueError):
    """Bad input: a file that will not parse, a bad id, a value out of range."""


class IllegalAction(MedvizError):
    """A well-formed request that the rules forbid here; the message names the rule."""

    def __init__(self, message: str, rule: str | None = None) -> None:
        self.rule = rule
        super().__init__(f"{message} (rule {rule})" if rule else message)


class UnknownReference(MedvizError, KeyError):
    """A reference to something that does not exist: a roll id, an area, a power."""

    def __str__(self) -> str:  # KeyError would quote the message; keep it readable.
        return str(self.args[0]) if self.args else ""


class DataError(MedvizError):
    """Shipped or user-supplied game data failed validation; lists every problem found."""

    def __init__(self, problems: list[str], source: str = "game data") -> None:
        self.problems = list(problems)
        head = f"{source}: {len(self.problems)} problem(s)"
        super().__init__(head + ("\n  - " + "\n  - ".join(self.problems) if self.problems else ""))
