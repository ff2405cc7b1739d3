"""The README's "From Python" commands: the install is the one CI runs, and the first query runs
(its URL pointed at the test's server) and prints the groups with their interval columns."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys

from servers import REPO


def from_python_commands() -> list:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## From Python"):]
    section = section[:section.index("\n## ", 1)]
    return [line.strip() for line in section.splitlines() if line.startswith("    ")]


def test_readme_installIsWhatCiRuns() -> None:
    install, _ = from_python_commands()
    assert install == "pip install './clients/python[pandas]'"
    assert "'./clients/python[pandas]'" in (REPO / ".ci" / "run").read_text(encoding="utf-8")


def test_readme_firstQuery_printsGroupsAndIntervals(server) -> None:
    _, first_query = from_python_commands()
    words = shlex.split(first_query)
    assert words[:2] == ["python3", "-c"] and "http://127.0.0.1:8080" in words[2]
    code = words[2].replace("http://127.0.0.1:8080", server.url)
    env = dict(os.environ, PRIVET_API_KEY=server.key)
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120,
                         check=True).stdout
    assert "people_lower" in out and "people_upper" in out
    assert "Female" in out and "Male" in out
