"""Write a file whole or not at all: every file the command writes (`play --log`,
`simulate --out`, the verifier's traces) goes through `write`.

The text goes to a temporary file beside the target, is synced to disk and renamed over
the target, so an error, Ctrl-C or a crash leaves the old file or the new one, never half
of one. The old file's mode is kept; a symlink is written through, so it stays a link.
A write that fails or is interrupted removes its temporary file. A process killed outright
(SIGKILL, or SIGTERM to a verifier worker) runs no cleanup: its temporary file is named
`.NAME.tmp-PID`, and the next write of the same file removes those whose process is gone
(`verify` also clears its trace folder after its workers end).

It lives in the verifier, the lowest layer that writes files: the traces, written by
worker processes that may be killed, are why killed writers are swept. The rulebook (its
site's staging folder) and the CLI (`--log`, `--out`) sit above it and use it from here.
"""
from __future__ import annotations

import os
import shutil
from contextlib import suppress
from glob import escape
from pathlib import Path

from spec import Refusal


class Unwritable(Refusal):
    """A path the command cannot write, named with the option that gave it."""

    def __init__(self, option: str, path: Path, why: str, hint: str = "") -> None:
        super().__init__(f"cannot write {option} `{path}`: {why}", hint or f"choose another {option} path")
        self.made = (option, path, why, hint)

    def __reduce__(self):
        """Rebuilt whole when it comes back from a worker process."""
        return type(self), self.made


def write(path: Path, text: str, option: str, folders: bool = False) -> None:
    """Write `text` (UTF-8) to `path`, given by `option`; with `folders`, create the missing
    folders first. An `Unwritable` error leaves nothing written."""
    target, temporary = _paths(path)
    try:
        if folders:
            target.parent.mkdir(parents=True, exist_ok=True)
        sweep(target.parent, escape(target.name))
        mode = target.stat().st_mode & 0o7777 if target.exists() else None
        handle = _create(temporary)
    except OSError as error:
        raise unwritable(option, path, error) from None
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            if mode is not None:
                os.fchmod(out.fileno(), mode)
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, target)
    except BaseException as error:
        with suppress(FileNotFoundError):
            os.unlink(temporary)
        if isinstance(error, OSError):
            raise unwritable(option, path, error) from None
        raise
    _sync(target.parent)


def check(path: Path, option: str) -> None:
    """Refuse, before any work, a path that cannot be written: a trial temporary file is
    made and removed (a test that holds for root and read-only file systems too)."""
    target, temporary = _paths(path)
    try:
        if Path(path).is_dir():
            raise IsADirectoryError(path)
        os.close(_create(temporary))
        os.unlink(temporary)
    except OSError as error:
        raise unwritable(option, path, error) from None


def unwritable(option: str, path: Path, error: OSError) -> Unwritable:
    """The error for `path`, saying which part of it is in the way."""
    folder = Path(os.path.realpath(path)).parent
    blocking = next((parent for parent in (folder, *folder.parents) if parent.exists()), folder)
    if not blocking.is_dir():
        return Unwritable(option, path, f"`{blocking}` is a file, not a folder")
    if blocking != folder:
        return Unwritable(option, path, f"no folder `{folder}`", f"create the folder or choose another {option} path")
    if isinstance(error, IsADirectoryError) or Path(path).is_dir():
        return Unwritable(option, path, "it is a folder", f"give {option} a file name")
    why = error.strerror or ("permission denied" if isinstance(error, PermissionError) else type(error).__name__)
    return Unwritable(option, path, why[0].lower() + why[1:])


def sweep(folder: Path, pattern: str) -> None:
    """Remove the temporary files (or a site's staging folders, rulebook.build) that killed
    writers left in `folder` for the names that match `pattern` (a glob): a process that is
    gone will never finish them."""
    for leftover in folder.glob(f".{pattern}.tmp-*"):
        pid = leftover.name.rpartition(".tmp-")[2]
        if pid.isdigit() and not _alive(int(pid)):
            with suppress(FileNotFoundError):
                if leftover.is_dir() and not leftover.is_symlink():
                    shutil.rmtree(leftover)
                else:
                    leftover.unlink()


def _paths(path: Path) -> tuple[Path, Path]:
    """The file to write (a symlink's target) and the temporary file beside it."""
    target = Path(os.path.realpath(path))
    return target, target.parent / f".{target.name}.tmp-{os.getpid()}"


def _create(temporary: Path) -> int:
    return os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o666)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:         # someone else's process
        return True
    return True


def _sync(folder: Path) -> None:
    """Make the rename itself durable (the folder's entry), where the system allows it."""
    with suppress(OSError):
        handle = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(handle)
        finally:
            os.close(handle)
