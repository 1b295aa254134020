"""Shared paths of the Python tests."""

import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[3]


@pytest.fixture
def scenes():
    return ROOT / "examples" / "scenes"


@pytest.fixture
def root():
    return ROOT
