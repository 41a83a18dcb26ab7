"""Where a dataset lives: a local folder, or a folder at an fsspec URL (``s3://``, ``memory://``).

Every stage takes either. This module tells them apart, opens the filesystem of a URL and turns
what a remote filesystem raises (a protocol nobody installed, a bucket that is not there, a
server that does not answer) into one :class:`DatasetError` line naming the URL, so no storage
error reaches a user as a traceback. ``file://`` URLs are local folders (the local layout, with
its hard links, renames and ``flock``).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from mjstats.errors import DatasetError, MjstatsError

__all__ = [
    "dataset_location",
    "is_remote",
    "is_url",
    "local_path",
    "remote_errors",
    "url_filesystem",
]

# the package that brings each common protocol's fsspec implementation
_PACKAGES = {"s3": "s3fs", "s3a": "s3fs", "gs": "gcsfs", "gcs": "gcsfs", "az": "adlfs", "abfs": "adlfs",
             "abfss": "adlfs", "hdfs": "pyarrow", "sftp": "paramiko", "http": "aiohttp",
             "https": "aiohttp"}
# errors of the storage clients under fsspec, named by module so none of them must be installed
_CLIENT_MODULES = ("botocore", "aiobotocore", "s3fs", "gcsfs", "google", "adlfs", "azure", "aiohttp")


def is_url(path: object) -> bool:
    """True for ``scheme://...`` strings (a pathlib.Path is always local)."""
    return isinstance(path, str) and "://" in path and not path.startswith("/")


def local_path(url: str) -> Path | None:
    """The local folder of a ``file://`` URL (None for any other scheme)."""
    if url.startswith("file://"):
        return Path(url.removeprefix("file://"))
    return None


def is_remote(path: object) -> bool:
    """True for a URL that is not ``file://``: the dataset is read and written through fsspec."""
    return is_url(path) and local_path(str(path)) is None


def dataset_location(text: str) -> str | Path:
    """A DATASET argument: a URL stays a string (``file://`` becomes its local path), else a Path."""
    if is_url(text):
        local = local_path(text)
        return text.rstrip("/") if local is None else local
    return Path(text)


def url_filesystem(url: str) -> tuple[Any, str]:
    """The fsspec filesystem of ``url`` and the dataset folder on it (no trailing slash)."""
    protocol = url.split("://", 1)[0]
    try:
        from fsspec.core import url_to_fs
    except ImportError as exc:  # fsspec comes with the dask extra
        raise MjstatsError(f"{url}: datasets at URLs need fsspec: pip install mjstats[s3]") from exc
    try:
        fs, path = url_to_fs(url)
    except ImportError:
        package = _PACKAGES.get(protocol)
        hint = f": pip install {package}" if package else ""
        raise DatasetError(
            f"{url}: no fsspec filesystem for {protocol}:// is installed{hint}"
        ) from None
    except ValueError as exc:
        if "protocol" in str(exc).lower():
            raise DatasetError(f"{url}: fsspec knows no protocol {protocol}://") from None
        raise DatasetError(f"{url}: {exc}") from None
    except Exception as exc:  # a client that fails while configuring (credentials, endpoint)
        raise DatasetError(f"{url}: cannot open the filesystem: {_short(exc)}") from None
    root = path.rstrip("/")
    if not root.strip("/"):
        raise DatasetError(f"{url}: a dataset needs a folder, not the root of the filesystem")
    return fs, root


@contextmanager
def remote_errors(url: str, doing: str) -> Iterator[None]:
    """Turn a storage error raised inside the block into one line: ``URL: cannot DOING: why``."""
    try:
        yield
    except MjstatsError:
        raise
    except FileNotFoundError as exc:
        raise DatasetError(f"{url}: cannot {doing}: not found ({_short(exc)})") from None
    except PermissionError as exc:
        raise DatasetError(f"{url}: cannot {doing}: permission denied ({_short(exc)})") from None
    except OSError as exc:
        raise DatasetError(f"{url}: cannot {doing}: {_short(exc)}") from None
    except Exception as exc:
        if type(exc).__module__.split(".", 1)[0] in _CLIENT_MODULES:
            raise DatasetError(f"{url}: cannot {doing}: {_short(exc)}") from None
        raise


def _short(exc: BaseException) -> str:
    """An exception's message on one line, at most 200 characters."""
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text if len(text) <= 200 else text[:197] + "..."
