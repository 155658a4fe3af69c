"""Shared fixtures. Hardware tests use the libraries' own mocks (gpiozero's
MockFactory, luma's dummy device, pyserial's loop://)."""
from __future__ import annotations

import random

import pytest


@pytest.fixture
def rng() -> random.Random:
    return random.Random(1234)
