"""Spec text or file -> checked IR: parse, resolve `extends`, lower, validate against the schema;
and, for `check`, the lints of an edition that compiles (grammar/lints.py)."""
from __future__ import annotations

import gc
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator, Sequence

from grammar.diagnostics import Diagnostic, Source, SpecError
from grammar.extend import extend, overlay, read
from grammar.lints import lints
from grammar.lower import lower
from grammar.parse import parse
from grammar.sanity import sanity
from grammar.schema import first_problem


def compile_file(path: str | Path, variants: Sequence[str | Path] = ()) -> dict:
    """The IR of the edition in `path` (its parent is looked up beside it, then in `spec/`),
    with the variant files `variants` laid over it in order."""
    return check_file(path, variants, lint=False)[0]


def compile_text(text: str, filename: str = "<spec>", variants: Sequence[str | Path] = ()) -> dict:
    """The IR of a spec given as text; `filename` is shown in errors and locates the parent."""
    return check_text(text, filename, variants, lint=False)[0]


def check_file(path: str | Path, variants: Sequence[str | Path] = (),
               lint: bool = True) -> tuple[dict, list[Diagnostic]]:
    """`compile_file` and the edition's warnings (none unless `lint`)."""
    path = Path(path)
    return _guarded(str(path), lambda: _compile(read(path), path.parent, (path.resolve(),), variants, lint))


def check_text(text: str, filename: str = "<spec>", variants: Sequence[str | Path] = (),
               lint: bool = True) -> tuple[dict, list[Diagnostic]]:
    """`compile_text` and the edition's warnings (none unless `lint`)."""
    directory = None if filename.startswith("<") else Path(filename).parent
    chain = () if directory is None else (Path(filename).resolve(),)
    return _guarded(filename, lambda: _compile(Source(filename, text), directory, chain, variants, lint))


def _compile(source: Source, directory: Path | None, chain: tuple[Path, ...],
             variants: Sequence[str | Path] = (), lint: bool = False) -> tuple[dict, list[Diagnostic]]:
    edition = extend(parse(source), directory, chain)
    if variants:
        edition = overlay(edition, [parse(read(Path(v))) for v in variants])
    ir = lower(edition)
    problem = first_problem(ir)
    if problem is not None:
        path = "/".join(str(p) for p in problem.instance_path)
        raise SpecError([Diagnostic("E900", f"internal: the IR breaks its schema at `{path}`: {problem.message}",
                                    file=source.name, hint="this is a compiler bug; please report it with the spec")])
    problems = sanity(edition, ir)
    if problems:
        raise SpecError(problems)
    return ir, lints(edition, ir) if lint else []


def _guarded(name: str, run: Callable[[], tuple[dict, list[Diagnostic]]]) -> tuple[dict, list[Diagnostic]]:
    """Run a compile so that no Python traceback reaches the spec writer."""
    try:
        with _collector_paused():
            return run()
    except SpecError:
        raise
    except RecursionError:
        raise SpecError([Diagnostic("E105", "the spec nests too deeply to read", file=name,
                                    hint="split deeply nested expressions or blocks")]) from None
    except Exception as error:  # a compiler bug must still read as an error, not a traceback
        raise SpecError([Diagnostic("E900", f"internal: {type(error).__name__}: {error}", file=name,
                                    hint="this is a compiler bug; please report it with the spec")]) from error



@contextmanager
def _collector_paused() -> Iterator[None]:
    """Python's cycle collector paused for one compile. A compile makes a hundred thousand
    tree nodes and none of them is cyclic garbage (reference counting frees them all), yet
    each collection on the way walks the growing trees again: an eighth of the compile time.
    The collector runs as before once the compile ends (if it was on: a caller's choice stays)."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
