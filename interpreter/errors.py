"""A rule of the spec that goes wrong at run time, told like a spec error: the place of the
rule in the spec and the moment of the game that reached it (docs/errors.md, E5xx).

The checks of `boardrules check` keep most such rules out; the engine holds for any IR it is
given (an IR edited by hand, a loop under a condition the checks cannot decide), so it stops
the game with this error instead of a crash.
"""
from __future__ import annotations

# the most moves (landings) and card draws one turn may make: a turn of the bundled editions
# makes at most 8; a move made by a rule runs inside the landing that ran the rule (a few
# Python frames each, ten in a deeply nested rule), so the limit keeps the game far from
# Python's recursion limit (a thousand frames) and from the end of the C stack (compiled engine)
LIMIT = 50
TRAIL = 12          # the last moves and draws before the limit, to name the loop
# the largest payment: the largest whole number a JSON reader keeps exactly (2**53 - 1);
# money past it only grows from a rule that multiplies it without bound
LARGEST_PAYMENT = 9_007_199_254_740_991

HINTS = {
    "E501": "a rule moves the token or draws a card again and again in one turn: "
            "give the loop a way out (a condition that stops it, or another square to go to)",
    "E502": "the divisor is 0 here: guard it, e.g. `if N > 0 then X / N else 0`",
    "E503": "a number grew too large to work with: bound what the rule pays or multiplies",
    "E504": "a list is read from index 0 to its length - 1: bound the index, "
            "e.g. `if N < 6 then printed[N] else printed[5]`",
}


class RuleError(Exception):
    """A rule went wrong at run time: `code` (E5xx) and `message`; the rule being run
    (`rule`, in the game's words, and its place: `file`, `line`, `column`, `width`) and
    when (`turn`, `seat` whose turn it was), filled in as the error leaves the rule."""

    def __init__(self, code: str, message: str):
        super().__init__(code, message)       # the arguments and the fields below survive pickling (simulate's workers)
        self.code, self.message = code, message
        self.rule: str | None = None
        self.file: str | None = None
        self.line: int | None = None
        self.column: int | None = None
        self.width = 1
        self.turn: int | None = None
        self.seat: int | None = None
        self.strategy: str | None = None

    @classmethod
    def of(cls, error: BaseException) -> RuleError:
        """The run-time error a Python exception raised by a rule is."""
        if isinstance(error, RuleError):
            return error
        if isinstance(error, ZeroDivisionError):
            return cls("E502", "division by zero")
        return cls("E503", f"a number out of range ({error})")

    @classmethod
    def payment(cls, amount: int) -> RuleError:
        return cls("E503", f"a payment of {amount} is out of range (the largest is {LARGEST_PAYMENT})")

    def __str__(self) -> str:
        when = "" if self.turn is None else f" (turn {self.turn}, seat {self.seat}, {self.strategy})"
        return self.message + (f", in {self.rule}" if self.rule else "") + when

    def render(self) -> str:
        """The error as `boardrules` prints it: the frame of a spec error (grammar/diagnostics.py)."""
        from grammar.diagnostics import Diagnostic
        return Diagnostic(self.code, str(self), self.file, self.line, self.column, HINTS.get(self.code),
                          self.width).render()


# what a rule may raise while it runs: caught where the engine runs a rule, and turned into
# that rule's located `RuleError` (`EffectsMixin.located`)
GOES_WRONG = (ArithmeticError, RuleError)
