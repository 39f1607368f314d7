"""Shared fixtures of the Python binding tests.

Run by CTest (python/CMakeLists.txt), which puts the build tree's package first on PYTHONPATH
and names the command-line program in GAUSS_CLI. By hand, from the repository root:
    PYTHONPATH=build/python GAUSS_CLI=build/bin/gauss /usr/bin/python3 -m pytest python/tests
"""
import os
import pathlib

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
MODELS = REPO / "models"


@pytest.fixture(scope="session")
def repo():
    return REPO


@pytest.fixture(scope="session")
def models():
    return MODELS


@pytest.fixture(scope="session")
def gauss_cli():
    path = os.environ.get("GAUSS_CLI", str(REPO / "build" / "bin" / "gauss"))
    if not os.access(path, os.X_OK):
        pytest.fail(f"the gauss program is not at {path}: build it or set GAUSS_CLI")
    return path
