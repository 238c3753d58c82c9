"""Shared fixtures: the project's seed files of every format and the command-line tool, both
built with cargo from this checkout unless CI hands them over:

- GTASTREAM_SEEDS: a directory written by `cargo run --manifest-path fuzz/Cargo.toml
  --example seeds -- DIR` (the files are in DIR/decode/);
- GTASTREAM_CLI: the `gtastream` binary (cli/).
"""

import os
import pathlib
import subprocess
import sys

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).parent))

ROOT = pathlib.Path(__file__).resolve().parents[3]


def _cargo(*args):
    subprocess.run(["cargo", *args], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)


@pytest.fixture(scope="session")
def seeds(tmp_path_factory):
    """{name: bytes} of the seed files of every format (fuzz/src/seeds.rs)."""
    given = os.environ.get("GTASTREAM_SEEDS")
    if given:
        directory = pathlib.Path(given)
    else:
        directory = tmp_path_factory.mktemp("seeds")
        _cargo("run", "--quiet", "--manifest-path", "fuzz/Cargo.toml", "--example", "seeds",
               "--", str(directory))
    files = {p.name: p.read_bytes() for p in sorted((directory / "decode").iterdir())}
    assert files, f"no seed files in {directory}/decode"
    return files


@pytest.fixture(scope="session")
def cli():
    """Runs `gtastream ARGS...`; returns the CompletedProcess (text output)."""
    given = os.environ.get("GTASTREAM_CLI")
    if given:
        binary = pathlib.Path(given)
    else:
        _cargo("build", "--quiet", "-p", "gtastream-cli")
        binary = ROOT / "target" / "debug" / "gtastream"
    assert binary.exists(), binary

    def run(*args):
        return subprocess.run([str(binary), *map(str, args)], capture_output=True, text=True)

    return run
