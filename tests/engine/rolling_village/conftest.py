"""Fixtures for the Rolling Village tests."""
import pytest

from .helpers import Table


@pytest.fixture
def table():
    return Table()


@pytest.fixture
def two():
    return Table(("Ann", "Bo"))
