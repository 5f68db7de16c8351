"""A request the program refuses (an unknown edition, a path it cannot write, a command-line
mistake): one line for the user, then a hint.

It sits at the bottom of the layers so that each layer raises its own kind (`spec.NotFound`,
`verifier.atomic.Unwritable`, `rulebook.site.SiteError`, the CLI's `UsageError`) and the
CLI renders every one the same way, with exit status 2 and no traceback.
"""
from __future__ import annotations


class Refusal(Exception):
    """A refused request: `message` says what is wrong, `hint` what to do instead."""

    def __init__(self, message: str, hint: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint

    def render(self) -> str:
        text = f"error: {self.message}"
        return f"{text}\n  = hint: {self.hint}" if self.hint else text
