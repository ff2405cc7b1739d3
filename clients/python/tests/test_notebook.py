"""docs/notebooks/tour.ipynb runs headless (nbclient) against its own fresh ``privet serve --demo``
(the notebook spends most of the demo analyst's share), and its stored outputs stay small.

To refresh the stored outputs: ``python clients/python/tests/test_notebook.py --write``.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from servers import REPO, start_demo_server

NOTEBOOK = REPO / "docs" / "notebooks" / "tour.ipynb"
MAX_STORED_BYTES = 250_000


def execute(tmp: Path):
    """The notebook executed against a fresh demo server (not written anywhere)."""
    import nbclient
    import nbformat

    server = start_demo_server(tmp)
    saved = {k: os.environ.get(k) for k in ("PRIVET_URL", "PRIVET_API_KEY")}
    os.environ["PRIVET_URL"], os.environ["PRIVET_API_KEY"] = server.url, server.key  # the kernel inherits them
    try:
        nb = nbformat.read(NOTEBOOK, as_version=4)
        nbclient.NotebookClient(nb, timeout=600, kernel_name="python3",
                                resources={"metadata": {"path": str(NOTEBOOK.parent)}}).execute()
        return nb
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
        server.stop()


def test_tour_runsAgainstARealServer(tmp_path: Path) -> None:
    from conftest import require_jar

    require_jar()
    if not os.environ.get("CI"):
        pytest.importorskip("nbclient")
        pytest.importorskip("matplotlib")
    nb = execute(tmp_path)  # raises CellExecutionError on any failing cell
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])]
    text = "".join(o.get("text", "") for o in outputs if o.get("output_type") == "stream")
    assert "Exact answers leaked it" in text
    assert "budget exceeded, nothing charged" in text
    assert "refused at line 3, column 7" in text
    assert "fits = True" in text
    images = [o for o in outputs if "image/png" in o.get("data", {})]
    assert len(images) == 4  # error bars, burn-down, synthetic vs real, burn-down


def test_tour_storedOutputsStaySmall() -> None:
    assert NOTEBOOK.stat().st_size < MAX_STORED_BYTES


if __name__ == "__main__" and sys.argv[1:] == ["--write"]:
    import tempfile

    import nbformat

    with tempfile.TemporaryDirectory() as d:
        executed = execute(Path(d))
    for cell in executed.cells:
        cell.get("metadata", {}).pop("execution", None)
    nbformat.write(executed, NOTEBOOK)
    print(f"wrote {NOTEBOOK} ({NOTEBOOK.stat().st_size} bytes)")
