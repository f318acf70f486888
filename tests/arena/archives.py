"""Unpacking the archives of published runs (bench/results/*.tar.xz) for the tests that replay them."""

from __future__ import annotations

import tarfile
from pathlib import Path

RESULTS = Path(__file__).resolve().parents[2] / "bench" / "results"


def unpack(name: str, where: Path) -> Path:
    """bench/results/NAME.tar.xz unpacked below `where`; answers the run's folder, where/NAME."""
    with tarfile.open(RESULTS / f"{name}.tar.xz") as tar:
        if hasattr(tarfile, "data_filter"):  # Python 3.11.4 and later
            tar.extractall(where, filter="data")
        else:  # pragma: no cover - our own archive
            tar.extractall(where)
    return where / name
