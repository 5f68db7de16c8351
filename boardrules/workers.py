"""Worker processes that Ctrl-C stops. A terminal sends SIGINT to the whole process group:
only the command turns it into KeyboardInterrupt (workers ignore it, so none prints a
traceback), and leaving the `with` block in any way ends the workers at once, even one
deep in a Z3 call that would not look at a signal until it returns."""
from __future__ import annotations

import multiprocessing
import multiprocessing.pool
import signal
from contextlib import contextmanager
from typing import Callable, Iterator


def _deaf(initializer: Callable | None, initargs: tuple) -> None:
    """A worker's start: Ctrl-C is the command's to handle (a SIGINT that came while the
    worker was being born is dropped with it), then the caller's own initializer."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    if initializer is not None:
        initializer(*initargs)


@contextmanager
def workers(count: int, initializer: Callable | None = None,
            initargs: tuple = ()) -> Iterator[multiprocessing.pool.Pool]:
    """A pool of `count` worker processes, killed (SIGTERM) when the block ends, normally or
    by an exception (KeyboardInterrupt included). SIGINT is blocked while the workers are
    forked, so they are born blocking it and none is lost: a Ctrl-C in that moment reaches
    the command as soon as the pool stands."""
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        pool = multiprocessing.Pool(count, _deaf, (initializer, initargs))
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    try:
        yield pool
    finally:
        pool.terminate()
