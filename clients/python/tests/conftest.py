"""Fixtures: one real ``privet serve --demo`` for the session (the demo analyst's share is ε = 1;
the tests spend well under it)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Iterator

import pytest

import privet
from servers import DemoServer, jar, start_demo_server


def require_jar() -> None:
    """In CI a missing jar fails the tests; elsewhere it skips them, saying how to build it."""
    if not jar().exists():
        message = (f"{jar()} is missing: build it with `mvn -B -ntp -DskipTests -pl privet-cli -am package`"
                   " (or run ./privet once), or set PRIVET_JAR")
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DemoServer]:
    require_jar()
    s = start_demo_server(tmp_path_factory.mktemp("serve"))
    try:
        yield s
    finally:
        s.stop()


@pytest.fixture(scope="session")
def client(server: DemoServer) -> privet.Client:
    return privet.Client(server.url, server.key)


@pytest.fixture(scope="session")
def adult_file() -> Path:
    return Path(__file__).resolve().parents[3] / "data" / "adult-raw" / "adult.data"
