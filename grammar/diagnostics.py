"""Where a spec went wrong, told for people: spans, diagnostics and their rendering.

Every error the compiler reports is a `Diagnostic` with a stable code (docs/errors.md),
a lower-case one-line message with names in backticks, the place, and a hint. Rendering
is done here only, so every stage prints the same frame.
"""
from __future__ import annotations

import difflib
import os
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Iterable

# The most diagnostics one error report shows.
SHOWN = 20
# A source line up to WHOLE characters long is shown whole (a long example line); of a
# longer one, a frame shows the WIDEST characters around the caret.
WHOLE = 160
WIDEST = 100


@dataclass(frozen=True)
class Source:
    """One spec text and the name it is shown under; spans point into it."""

    name: str
    text: str = field(repr=False)

    def line(self, number: int) -> str:
        """The text of a 1-based line, without its line break ('' past the end)."""
        lines = self.lines
        return lines[number - 1] if 0 < number <= len(lines) else ""

    @cached_property
    def lines(self) -> list[str]:
        """The text split once (every comment the lexer meets asks for its line)."""
        return self.text.splitlines()


@dataclass(frozen=True)
class Span:
    """A stretch of a source: 1-based lines and columns, end column exclusive."""

    source: Source = field(repr=False, compare=False)
    line: int
    column: int
    end_line: int
    end_column: int

    def words(self) -> str:
        """The words the span covers on its first line (a message quotes them)."""
        line = self.source.line(self.line)
        end = self.end_column if self.end_line == self.line else len(line) + 1
        return line[self.column - 1:end - 1]


@dataclass(frozen=True)
class Diagnostic:
    """One error or warning: code, message, place and hint.

    `file`, `line` and `column` say where (line and column may be None for an error about
    a whole file); `width` is how many carets to draw; `text` is the source line, kept
    so that the frame renders without reading the file again; `note` says where else the
    error shows (where the parser noticed an unclosed `{`). `end_line` and `end_column`
    (exclusive) are where the words at fault end, for an editor that underlines them; a
    diagnostic made without them ends where its carets do. `severity` is `error`, or
    `warning` for a lint (a `W` code), which `check` reports without failing.
    """

    code: str
    message: str
    file: str | None = None
    line: int | None = None
    column: int | None = None
    hint: str | None = None
    width: int = 1
    text: str | None = field(default=None, repr=False)
    note: str | None = None
    severity: str = "error"
    end_line: int | None = None
    end_column: int | None = None

    @classmethod
    def at(cls, code: str, message: str, span: Span, hint: str | None = None, note: str | None = None,
           severity: str = "error") -> Diagnostic:
        """A diagnostic that underlines `span` (to the end of its first line if it runs on)."""
        text = span.source.line(span.line)
        end = span.end_column if span.end_line == span.line else len(text) + 1
        return cls(code, message, span.source.name, span.line, span.column, hint,
                   max(1, end - span.column), text, note, severity, span.end_line, span.end_column)

    def end(self) -> tuple[int | None, int | None]:
        """Where the words at fault end (line, exclusive column): the span's end, else the carets'."""
        if self.end_line is not None:
            return self.end_line, self.end_column
        return self.line, None if self.column is None else self.column + self.width

    def as_json(self) -> dict:
        """The diagnostic as data, for an editor or CI (`boardrules check --json`, docs/command-line.md)."""
        end_line, end_column = self.end()
        return {"code": self.code, "severity": self.severity, "file": None if self.file is None else shown(self.file),
                "line": self.line, "column": self.column, "end_line": end_line, "end_column": end_column,
                "message": self.message, "hint": self.hint, "note": self.note}

    def render(self) -> str:
        """The error as a person reads it: header, place, source line, caret, hint."""
        out = [f"{self.severity}[{self.code}]: {self.message}"]
        number = str(self.line) if self.line else ""
        pad = " " * max(1, len(number))
        text = self.text if self.text is not None else _line_of(self.file, self.line)
        if self.file and self.line and self.column and text is not None:
            text, column, width = excerpt(text.replace("\t", " "), self.column, self.width)
            out += [
                f"{pad}--> {shown(self.file)}:{self.line}:{self.column}",
                f"{pad} |",
                f"{number} | {text}".rstrip(),
                f"{pad} | {' ' * (column - 1)}{'^' * width}",
            ]
        elif self.file:
            place = ":".join(str(p) for p in (self.line, self.column) if p)
            out.append(f"{pad}--> {shown(self.file)}" + (f":{place}" if place else ""))
        if self.note:
            out.append(f"{pad} = note: {self.note}")
        if self.hint:
            out.append(f"{pad} = hint: {self.hint}")
        return "\n".join(out)


def excerpt(text: str, column: int, width: int) -> tuple[str, int, int]:
    """The part of a source line a frame shows, with the caret's column and width in it.

    A line longer than WHOLE is cut around the caret, `…` marking each cut, so that a
    megabyte line (a minified log, a generated spec) is not echoed whole.
    """
    if len(text) <= WHOLE:
        return text, column, width
    start = max(0, min(column - 1 - WIDEST // 3, len(text) - WIDEST))
    end = start + WIDEST
    width = max(1, min(width, end - (column - 1)))
    cut = ("…" if start else "") + text[start:end] + ("…" if end < len(text) else "")
    return cut, column - start + (1 if start else 0), width


def _line_of(file: str | None, line: int | None) -> str | None:
    """A line of a file on disk, for diagnostics made without their source at hand."""
    if not file or not line or file.startswith("<"):
        return None
    try:
        lines = Path(file).read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return None
    return lines[line - 1] if 0 < line <= len(lines) else None


def bad_byte(data: bytes, error: UnicodeDecodeError) -> tuple[int, int, str]:
    """Where the first byte that is not UTF-8 is: its 1-based line and column, and that
    line (decoded with a replacement mark) for the frame."""
    start = data.rfind(b"\n", 0, error.start) + 1
    end = data.find(b"\n", error.start)
    line = data.count(b"\n", 0, error.start) + 1
    column = len(data[start: error.start].decode("utf-8")) + 1     # all good bytes before the first bad one
    return line, column, data[start: None if end < 0 else end].decode("utf-8", errors="replace")


class SpecError(Exception):
    """A spec that does not compile; holds every diagnostic found, in source order."""

    def __init__(self, diagnostics: Iterable[Diagnostic]):
        self.diagnostics = list(diagnostics)
        super().__init__(self.render())

    def render(self) -> str:
        """The first SHOWN diagnostics, then how many more: a flood buries its first cause."""
        out = [d.render() for d in self.diagnostics[:SHOWN]]
        left = len(self.diagnostics) - SHOWN
        if left > 0:
            out.append(f"... and {left} more error{'s' * (left > 1)}; fix the ones above first")
        return "\n\n".join(out)


def shown(name: str) -> str:
    """A file name as the reader typed it: relative to the working directory when inside it."""
    if name.startswith("<"):
        return name
    try:
        return os.path.relpath(name) if Path(name).resolve().is_relative_to(Path.cwd()) else name
    except (OSError, ValueError):
        return name


def brief(text: str, limit: int = WIDEST // 2) -> str:
    """Words quoted in a message, cut to `limit` characters (a message is one short line)."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def did_you_mean(word: str, candidates: Iterable[str]) -> str | None:
    """A hint naming the closest known name, or None when nothing is close."""
    close = difflib.get_close_matches(word, sorted(set(candidates)), n=1, cutoff=0.6)
    return f"did you mean `{close[0]}`?" if close else None


def known(word: str, candidates: Iterable[str], what: str, listed: int = 5) -> str:
    """A hint for an unknown name: the closest known one, or else the first few known
    ones in their order (`what` names them: "squares", "deeds") and how many more."""
    names = list(dict.fromkeys(candidates))
    close = did_you_mean(word, names)
    if close or not names:
        return close or f"there are no {what}"
    more = f" and {len(names) - listed} more" if len(names) > listed else ""
    return f"the {what} are " + ", ".join(f"`{name}`" for name in names[:listed]) + more
