"""The CLI the tests compare with: built from the same workspace (`cargo build -p packlab-cli`),
or the binary named by PACKLAB_CLI."""

import json
import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[3]


@pytest.fixture(scope="session")
def cli():
    binary = os.environ.get("PACKLAB_CLI")
    if not binary:
        subprocess.run(["cargo", "build", "--quiet", "-p", "packlab-cli"], cwd=ROOT, check=True)
        target = pathlib.Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
        binary = str(target / "debug" / "packlab")

    def run(*args):
        out = subprocess.run([binary, *args], cwd=ROOT, check=True, capture_output=True, text=True)
        return out.stdout

    def run_json(*args):
        return [json.loads(line) for line in run(*args, "--json").splitlines()]

    run.json = run_json
    return run
