"""Reading and writing bonepile's files safely: size-limited reads, atomic writes.

Reads refuse what is not a regular file (a directory, a FIFO, a device: opening a FIFO with no
writer would hang) and anything over a size limit, before reading it; text is UTF-8, with or
without a byte-order mark; every problem is one :class:`~bonepile.errors.InputFileError` line.
Writes go to a temporary file in the target's folder, are flushed to disk and then renamed over
the target, so a failed write never leaves a half-written file, and an existing good file
survives it.
"""

from __future__ import annotations

import codecs
import contextlib
import json
import os
import secrets
import stat
import sys
from pathlib import Path
from typing import IO, Any

from bonepile.errors import InputFileError, MissingFileError, quoted

MAX_FILE_BYTES = 16 * 1024 * 1024
"""The largest record or board file bonepile reads (16 MiB), standard input included."""


def size_text(limit: int) -> str:
    """A byte count as people write it: ``16 MiB``, ``1,000 bytes``."""
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if limit >= size and limit % size == 0:
            return f"{limit // size} {unit}"
    return f"{limit:,} bytes"


def display_name(path: str | os.PathLike[str]) -> str:
    """A path for a message: as given when it is short and printable, else :func:`quoted`."""
    text = os.fspath(path)
    return text if len(text) <= 200 and text.isprintable() else quoted(text, 80)


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "it is a directory"
    if stat.S_ISFIFO(mode):
        return "it is a pipe (FIFO), not a regular file"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "it is a device, not a regular file"
    if stat.S_ISSOCK(mode):
        return "it is a socket, not a regular file"
    return "not a regular file"


def decode_text(data: bytes, name: str) -> str:
    """``data`` (the content of ``name``) as UTF-8 text, a byte-order mark at its start
    dropped (editors on Windows write one), or :class:`InputFileError` saying in plain words
    why it is not text."""
    try:
        return _utf8(data)
    except InputFileError as e:
        raise InputFileError(f"cannot read {name}: {e}") from None


def _utf8(data: bytes) -> str:
    """UTF-8 text with or without a byte-order mark, or :class:`InputFileError` (why)."""
    skip = len(codecs.BOM_UTF8) if data.startswith(codecs.BOM_UTF8) else 0
    try:
        return data[skip:].decode("utf-8")
    except UnicodeDecodeError as e:
        if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
            raise InputFileError("it is UTF-16 text, not UTF-8 (save it as UTF-8)") from None
        raise InputFileError(f"not UTF-8 text (byte {skip + e.start})") from None


def read_text_limited(path: str | os.PathLike[str], limit: int = MAX_FILE_BYTES) -> str:
    """The UTF-8 text of the regular file ``path``, at most ``limit`` bytes long.

    Raises :class:`InputFileError` (one line naming the file) when it is missing, not a
    regular file, larger than ``limit`` (checked before reading, and again while reading),
    unreadable or not UTF-8. Never blocks on a FIFO or reads a device.
    """
    name = display_name(path)
    try:
        mode = os.stat(path).st_mode
        if not stat.S_ISREG(mode):
            raise InputFileError(f"cannot read {name}: {_kind(mode)}")
        flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
        fd = os.open(path, flags | getattr(os, "O_CLOEXEC", 0))
        with open(fd, "rb") as f:
            st = os.fstat(f.fileno())
            if not stat.S_ISREG(st.st_mode):  # replaced since the stat above
                raise InputFileError(f"cannot read {name}: {_kind(st.st_mode)}")
            if st.st_size > limit:
                raise InputFileError(f"{name} is larger than {size_text(limit)}")
            data = f.read(limit + 1)
    except InputFileError:
        raise
    except FileNotFoundError:
        raise MissingFileError(f"cannot read {name}: no such file") from None
    except OSError as e:
        raise InputFileError(f"cannot read {name}: {e.strerror or e}") from None
    except ValueError:  # a NUL character in the name
        raise InputFileError(f"cannot read {name}: not a file name") from None
    if len(data) > limit:
        raise InputFileError(f"{name} is larger than {size_text(limit)}")
    return decode_text(data, name)


def read_stream_limited(
    stream: IO[bytes] | IO[str], limit: int = MAX_FILE_BYTES, name: str = "standard input"
) -> str:
    """The text of an open stream (``sys.stdin.buffer`` for ``-``) up to ``limit`` bytes.

    Reads at most ``limit + 1`` bytes, so an endless stream (``/dev/zero``) fails fast with
    :class:`InputFileError` ("standard input is larger than 16 MiB"), as do bytes that are
    not UTF-8 and read errors.
    """
    try:
        data: Any = stream.read(limit + 1)
    except OSError as e:
        raise InputFileError(f"cannot read {name}: {e.strerror or e}") from None
    except UnicodeDecodeError as e:  # a text stream
        raise InputFileError(f"cannot read {name}: not UTF-8 text (byte {e.start})") from None
    if data is None:  # a non-blocking stream with nothing ready
        data = b""
    if len(data) > limit:
        raise InputFileError(f"{name} is larger than {size_text(limit)}")
    return data if isinstance(data, str) else decode_text(data, name)


def load_json_text(text: str | bytes) -> Any:
    """``json.loads(text)``, or :class:`InputFileError` ``not valid JSON (why)`` on one line,
    also for what ``json`` raises beside :class:`json.JSONDecodeError`: a nest too deep
    (:class:`RecursionError`) and an integer of more than 4300 digits (:class:`ValueError`).

    A byte-order mark at the start is skipped; bytes must be UTF-8 (:func:`decode_text`)."""
    if isinstance(text, bytes | bytearray):
        text = _utf8(bytes(text))
    text = text.removeprefix("\ufeff")
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        why = f"line {e.lineno}, column {e.colno}: {e.msg}"
    except RecursionError:
        why = "nested too deeply"
    except ValueError as e:  # bad encoding, or an integer too long to convert
        why = str(e).splitlines()[0] if str(e) else type(e).__name__
        if "integer string conversion" in why:
            why = f"a number has more than {sys.get_int_max_str_digits()} digits"
    raise InputFileError(f"not valid JSON ({why[:80]})")


def write_bytes_atomic(path: str | os.PathLike[str], data: bytes, *, private: bool = False) -> None:
    """Write ``data`` to ``path`` all or nothing.

    The bytes go to a temporary file beside ``path``, are flushed and fsynced, and the file is
    then renamed onto ``path`` (:func:`os.replace`). On any error the temporary file is removed
    and whatever was at ``path`` is left untouched; the error (an :class:`OSError`) is raised.
    A new file gets the usual permissions (``0o666`` less the umask), a replaced one keeps its
    own; with ``private`` the file is readable by its owner only (``0o600``) from its first
    byte (for secrets: seat tokens, a saved game's deal). A target that exists and is not a
    regular file (``/dev/null``, a pipe) is written directly, as there is nothing to replace.
    """
    target = Path(path)
    if target.is_symlink():  # replace the file the link points to, not the link
        target = Path(os.path.realpath(target))
    try:
        old = target.stat()
    except (FileNotFoundError, NotADirectoryError):
        old = None
    if old is not None and not stat.S_ISREG(old.st_mode) and not stat.S_ISDIR(old.st_mode):
        with open(target, "wb") as f:
            f.write(data)
        return
    folder = target.parent
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
    while True:
        temp = folder / f".{target.name[:100]}.{secrets.token_hex(6)}.tmp"
        try:
            fd = os.open(temp, flags, 0o600 if private else 0o666)
            break
        except FileExistsError:
            continue
    try:
        with open(fd, "wb") as f:
            if private:
                os.fchmod(f.fileno(), 0o600)
            elif old is not None:
                os.fchmod(f.fileno(), stat.S_IMODE(old.st_mode))
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(temp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
    with contextlib.suppress(OSError, AttributeError):  # make the rename itself durable
        dir_fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)


def write_text_atomic(path: str | os.PathLike[str], text: str, *, private: bool = False) -> None:
    """Write ``text`` as UTF-8 to ``path`` all or nothing (see :func:`write_bytes_atomic`)."""
    write_bytes_atomic(path, text.encode("utf-8"), private=private)


__all__ = [
    "MAX_FILE_BYTES",
    "decode_text",
    "display_name",
    "load_json_text",
    "read_stream_limited",
    "read_text_limited",
    "size_text",
    "write_bytes_atomic",
    "write_text_atomic",
]
