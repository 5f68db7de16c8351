"""Where a spec went wrong, told for people: spans, diagnostics and their rendering.

Every error the compiler reports is a `Diagnostic` with a stable code (docs/errors.md),
a lower-case one-line message with names in backticks, the place, and a hint. Rendering
is done here only, so every stage prints the same frame.
"""
from __future__ import annotations

import difflib
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable


@dataclass(frozen=True)
class Source:
    """One spec text and the name it is shown under; spans point into it."""

    name: str
    text: str = field(repr=False)

    def line(self, number: int) -> str:
        """The text of a 1-based line, without its line break ('' past the end)."""
        lines = self.text.splitlines()
        return lines[number - 1] if 0 < number <= len(lines) else ""


@dataclass(frozen=True)
class Span:
    """A stretch of a source: 1-based lines and columns, end column exclusive."""

    source: Source = field(repr=False, compare=False)
    line: int
    column: int
    end_line: int
    end_column: int


@dataclass(frozen=True)
class Diagnostic:
    """One error: code, message, place and hint. `span` is None when there is no text."""

    code: str
    message: str
    span: Span | None = None
    hint: str | None = None
    path: str | None = None  # for errors about a file that has no text to point into

    @property
    def file(self) -> str | None:
        return self.span.source.name if self.span else self.path

    @property
    def line(self) -> int | None:
        return self.span.line if self.span else None

    @property
    def column(self) -> int | None:
        return self.span.column if self.span else None

    def render(self) -> str:
        """The error as a person reads it: header, place, source line, caret, hint."""
        out = [f"error[{self.code}]: {self.message}"]
        pad = " " * len(str(self.line)) if self.span else " "
        if self.span is None:
            if self.path:
                out.append(f"{pad}--> {shown(self.path)}")
        else:
            span = self.span
            number = str(span.line)
            text = span.source.line(span.line).replace("\t", " ")
            if span.end_line == span.line:
                width = max(1, span.end_column - span.column)
            else:
                width = max(1, len(text) - span.column + 1)
            out += [
                f"{pad}--> {shown(span.source.name)}:{span.line}:{span.column}",
                f"{pad} |",
                f"{number} | {text}".rstrip(),
                f"{pad} | {' ' * (span.column - 1)}{'^' * width}",
            ]
        if self.hint:
            out.append(f"{pad} = hint: {self.hint}")
        return "\n".join(out)


class SpecError(Exception):
    """A spec that does not compile; holds every diagnostic found, in source order."""

    def __init__(self, diagnostics: Iterable[Diagnostic]):
        self.diagnostics = list(diagnostics)
        super().__init__(self.render())

    def render(self) -> str:
        return "\n\n".join(d.render() for d in self.diagnostics)


def shown(name: str) -> str:
    """A file name as the reader typed it: relative to the working directory when inside it."""
    if name.startswith("<"):
        return name
    try:
        return os.path.relpath(name) if Path(name).resolve().is_relative_to(Path.cwd()) else name
    except (OSError, ValueError):
        return name


def did_you_mean(word: str, candidates: Iterable[str]) -> str | None:
    """A hint naming the closest known name, or None when nothing is close."""
    close = difflib.get_close_matches(word, sorted(set(candidates)), n=1, cutoff=0.6)
    return f"did you mean `{close[0]}`?" if close else None
