"""The one way model files are read and written: the networks' ``.npz`` files (`read_npz`) and the linear
value's JSON (`read_json`), each checked against its format before anything it declares is believed.

A file is read only if it is a regular file (a folder, FIFO, device or socket is refused without a
blocking read), and at most a given number of bytes of it, counted as they are read.  An ``.npz`` is a zip
archive of ``.npy`` members: its members must be the format's (`Layout`), stored or deflated, unencrypted,
each declaring no more bytes than the largest array the format allows (so no member is unpacked past
that: a zip bomb is refused before it is opened); each ``.npy`` header's dtype (float16, float32 or
float64; the JSON header a string) and shape (the format's, its named sizes within their bounds) are
checked before its data is read, the data must fill the shape exactly and pass the zip's CRC check, and
every weight must be a finite number of magnitude at most `WEIGHT_LIMIT`.  JSON is parsed within
`amigos.jsontext`'s bounds.  Every failure is a `NetError` (or the ``error`` given) whose one-line
message names the file.  `write_file` writes a model file whole or not at all.

Standard library only at import (numpy is imported to read an ``.npz``): the linear value reads its file
through here and the command line starts without numpy.
"""

from __future__ import annotations

import io
import math
import tokenize
import zipfile
import zlib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, Final, NamedTuple

from amigos import files, jsontext
from amigos.errors import AmigosError

if TYPE_CHECKING:
    import numpy as np


class NetError(AmigosError):
    """A file that is not a model for today's inputs, or no file a model could be read from; the message
    names the file and says why in one line."""


#: Hidden units a network may have: trained ones have 64; a value network with 1024 is about 6 MB.
MAX_HIDDEN: Final = 1024
NET_BYTES: Final = 64 << 20    # an .npz file at most (the packaged network: 0.4 MB)
JSON_BYTES: Final = 1 << 20    # a linear value's file at most (the packaged one: 3 KB)
HEADER_CHARS: Final = 1 << 16  # an .npz's JSON header at most, in characters (the packaged one: 2,281)
NPY_HEADER_BYTES: Final = 4096  # an .npy header's own text at most (numpy writes 118 bytes for ours)
NPY_PREFIX: Final = 12          # the magic string, version and header length before that text (2.0: 12)
MAX_MEMBERS: Final = 16         # zip members at most (ours have 5 to 7)
WEIGHT_LIMIT: Final = 1e6       # a weight's magnitude at most: trained ones are a few units, and larger ones
#                                 overflow the arithmetic that sums them
FLOAT_SIZES: Final = (2, 4, 8)  # the float dtypes a weight may be stored in (float16, float32, float64), by size
_CENTRAL_ENTRY: Final = b"PK\x01\x02"  # the signature that opens each member's entry in a zip's directory

Dim = int | str  # an array's dimension: an exact size, or a named size (`Layout.sizes`) every array shares


class Layout(NamedTuple):
    """What an ``.npz`` of one format holds besides its JSON header (member ``header.npy``): the shape of
    each array it must hold (``required``) and of each it may hold (``optional``), each dimension an exact
    size or a name; the sizes each name may take (``sizes``), one size per name in a file."""

    required: dict[str, tuple[Dim, ...]]
    optional: dict[str, tuple[Dim, ...]]
    sizes: dict[str, Sequence[int]]

    def shapes(self) -> dict[str, tuple[Dim, ...]]:
        return {**self.required, **self.optional}

    def largest(self, shape: tuple[Dim, ...]) -> int:
        """The most numbers an array of ``shape`` may hold."""
        count = 1
        for dim in shape:
            count *= dim if isinstance(dim, int) else max(self.sizes[dim])
        return count

    def described(self, shape: tuple[Dim, ...]) -> str:
        """``shape`` in words: ``(inputs, hidden) with hidden from 1 to 1024, inputs 1482 or 1533``."""
        names = sorted({dim for dim in shape if isinstance(dim, str)})
        bounds = [f"{name} {_sizes(self.sizes[name])}" for name in names]
        text = "(" + ", ".join(str(dim) for dim in shape) + ("," if len(shape) == 1 else "") + ")"
        return text + (f" with {', '.join(bounds)}" if bounds else "")


def _sizes(sizes: Sequence[int]) -> str:
    if isinstance(sizes, range) and len(sizes) > 2:
        return f"from {sizes[0]} to {sizes[-1]}"
    return " or ".join(str(size) for size in sizes)


def shown(value: Any, width: int = 40) -> str:
    """A value read from a file, for a message: its ``ascii`` text, at most ``width`` characters."""
    text = ascii(value)
    return text if len(text) <= width else text[:width - 3] + "..."


def _dtype(dtype: np.dtype) -> str:
    """A dtype read from a file, for a message (a structured one's field names are the file's)."""
    text = ascii(str(dtype))[1:-1]
    return text if len(text) <= 40 else text[:37] + "..."


# -- files ---------------------------------------------------------------------------------------------

def read_regular(path: Path, limit: int, what: str, error: type[AmigosError] = NetError) -> bytes:
    """`amigos.files.read_regular`, its failures a `NetError` by default."""
    return files.read_regular(path, limit, what, error)


def read_json(path: Path, limit: int, what: str, error: type[AmigosError] = NetError) -> Any:
    """`amigos.files.read_json`, its failures a `NetError` by default."""
    return files.read_json(path, limit, what, error)


def write_file(path: Path, write: Callable[[IO[bytes]], object], what: str, error: type[AmigosError] = NetError) -> None:
    """Write a file at ``path`` by ``write(f)`` whole or not at all (`amigos.files.write_atomic`: a new file
    beside it renamed over it; a folder, device, FIFO or socket is never written through nor replaced);
    ``error`` naming the file in one line if it cannot be written."""
    files.check_writable(path, what, error)
    buffer = io.BytesIO()
    write(buffer)
    files.write_atomic(path, buffer.getvalue(), error, what=what)


def check_writable(path: Path, what: str, error: type[AmigosError] = NetError) -> None:
    """`amigos.files.check_writable`, its failure a `NetError` by default."""
    files.check_writable(path, what, error)


def _clip(exc: BaseException) -> str:
    """An exception's message on one line, at most 80 characters."""
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text if len(text) <= 80 else text[:77] + "..."


# -- .npz ----------------------------------------------------------------------------------------------

#: What a broken archive or member raises while it is read (zipfile's own errors, a bad deflate stream,
#: numpy's refusal of an .npy header, or its tokenizer's of a header it tries to mend, a short read), each
#: turned into one line.
_BROKEN: Final = (zipfile.BadZipFile, zipfile.LargeZipFile, zlib.error, EOFError, OSError, ValueError,
                  OverflowError, RecursionError, NotImplementedError, tokenize.TokenError)


def read_npz(path: Path, layout: Layout, what: str) -> tuple[Any, dict[str, np.ndarray]]:
    """The JSON header (any JSON value) and the arrays (float64, shaped as ``layout`` says) of the ``.npz``
    at ``path``: every required array of ``layout``, and those of its optional ones the file holds;
    `NetError` ("PATH: not a WHAT (...)", one line) for any other file (see the module docstring)."""
    data = read_regular(path, NET_BYTES, what)
    if data.count(_CENTRAL_ENTRY) > MAX_MEMBERS:  # (before zipfile makes an object of each entry)
        raise NetError(f"{path}: not a {what} (more than {MAX_MEMBERS} zip members)")
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            members = _members(archive, layout)
            header = _header(archive, members.pop("header"))
            sizes: dict[str, int] = {}
            arrays = {name: _array(archive, info, name, layout, sizes) for name, info in members.items()}
    except _Refused as exc:
        raise NetError(f"{path}: not a {what} ({exc})") from None
    except _BROKEN as exc:
        raise NetError(f"{path}: not a {what} ({_clip(exc)})") from None
    return header, arrays


class _Refused(Exception):
    """A member that is not the format's; the message says why (`read_npz` names the file)."""


def _members(archive: zipfile.ZipFile, layout: Layout) -> dict[str, zipfile.ZipInfo]:
    """The archive's members by array name (``header`` for the JSON header), each checked: the format's
    names only, each once, the required ones all there, stored or deflated, unencrypted, declaring no more
    bytes than the largest array of its shape."""
    shapes = layout.shapes()
    out: dict[str, zipfile.ZipInfo] = {}
    for info in archive.infolist():
        name = info.filename[:-4] if info.filename.endswith(".npy") else ""
        if name != "header" and name not in shapes:
            raise _Refused(f"a zip member {shown(info.filename)} that is not one of its arrays")
        if name in out:
            raise _Refused(f"zip member {name}.npy twice")
        if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED) or info.flag_bits & 0x1:
            raise _Refused(f"zip member {name}.npy compressed or encrypted otherwise than stored or deflated")
        most = NPY_PREFIX + NPY_HEADER_BYTES + (4 * HEADER_CHARS if name == "header"
                                                else layout.largest(shapes[name]) * max(FLOAT_SIZES))
        if info.file_size > most:
            raise _Refused(f"zip member {name}.npy unpacks to {info.file_size} bytes, over the {most} its shape allows")
        out[name] = info
    missing = [name for name in ("header", *layout.required) if name not in out]
    if missing:
        raise _Refused(f"no {', '.join(missing)} array")
    return out


def _npy(archive: zipfile.ZipFile, info: zipfile.ZipInfo, name: str,
         check: Callable[[tuple[int, ...], np.dtype], None]) -> np.ndarray:
    """The array of the ``.npy`` member ``info``, its shape and dtype passed to ``check`` (which raises
    `_Refused`) before its data is read; the data must fill the shape exactly, and the member's CRC is
    checked (by reading up to its end)."""
    import numpy as np
    from numpy.lib import format as npy

    with archive.open(info) as f:
        version = npy.read_magic(f)
        if version == (1, 0):
            shape, fortran, dtype = npy.read_array_header_1_0(f, max_header_size=NPY_HEADER_BYTES)
        elif version == (2, 0):
            shape, fortran, dtype = npy.read_array_header_2_0(f, max_header_size=NPY_HEADER_BYTES)
        else:
            raise _Refused(f"{name}.npy of .npy version {version[0]}.{version[1]}")
        if dtype.hasobject or dtype.fields is not None or dtype.subdtype is not None:
            raise _Refused(f"{name}.npy of dtype {_dtype(dtype)}")
        check(shape, dtype)
        size = math.prod(shape) * dtype.itemsize
        raw = f.read(size + 1)  # (reading to the member's end is what makes zipfile check its CRC)
    if len(raw) != size:
        raise _Refused(f"{name}.npy holds {len(raw)}{'+' if len(raw) > size else ''} bytes of data, "
                       f"not the {size} of its shape {shape}")
    return np.frombuffer(raw, dtype=dtype).reshape(shape, order="F" if fortran else "C")


def _header(archive: zipfile.ZipFile, info: zipfile.ZipInfo) -> Any:
    """The JSON value of the header member: a string of at most `HEADER_CHARS`, parsed within bounds."""
    def check(shape: tuple[int, ...], dtype: np.dtype) -> None:
        if shape != () or dtype.kind != "U" or dtype.itemsize > 4 * HEADER_CHARS:
            raise _Refused(f"a header of dtype {_dtype(dtype)} and shape {shown(shape)}, "
                           f"not a string of at most {HEADER_CHARS} characters")

    array = _npy(archive, info, "header", check)
    try:
        return jsontext.loads(str(array[()]))
    except ValueError as exc:
        raise _Refused(f"its header is not JSON: {_clip(exc)}") from None


def _array(archive: zipfile.ZipFile, info: zipfile.ZipInfo, name: str, layout: Layout,
           sizes: dict[str, int]) -> np.ndarray:
    """The float64 array ``name`` of ``layout``: of a float dtype, of its layout's shape (each named size
    within its bounds and equal to that name's size in the file's other arrays: ``sizes``), every number
    finite and at most `WEIGHT_LIMIT`."""
    import numpy as np

    pattern = layout.shapes()[name]

    def check(shape: tuple[int, ...], dtype: np.dtype) -> None:
        if dtype.kind != "f" or dtype.itemsize not in FLOAT_SIZES:
            raise _Refused(f"{name} of dtype {_dtype(dtype)}, not float16, float32 or float64")
        fits = len(shape) == len(pattern)
        seen = dict(sizes)
        for size, dim in zip(shape, pattern):
            if isinstance(dim, int):
                fits = fits and size == dim
            elif seen.setdefault(dim, size) != size or size not in layout.sizes[dim]:
                fits = False
        if not fits:
            raise _Refused(f"{name} of shape {shown(shape)}, not {layout.described(pattern)}"
                           + (f" (elsewhere {', '.join(f'{k} {v}' for k, v in sorted(sizes.items()))})" if sizes else ""))
        sizes.update(seen)

    array = _npy(archive, info, name, check).astype(np.float64)
    if not bool((np.abs(array) <= WEIGHT_LIMIT).all()):  # (NaN compares false: refused too)
        raise _Refused(f"{name} holds numbers that are not finite or over {WEIGHT_LIMIT:g} in magnitude")
    return array
