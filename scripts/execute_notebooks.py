"""Re-execute every notebook in place, offline, so the stored outputs are current.

    python scripts/execute_notebooks.py            # all notebooks
    python scripts/execute_notebooks.py 03 05      # those whose name starts so
    python scripts/execute_notebooks.py zh/03      # one folder's: solutions/, zh/

Run it after any change that affects what a notebook shows, then commit the result:
`pytest` (nbval, strict) compares these stored outputs with a fresh run. Outputs are
byte-stable: no timing metadata is recorded and the offline model is deterministic.
They are stored as nbformat 4.5, where every cell has an id: a cell keeps the id it
has, and a cell without one gets "cell-NN" from its place. JupyterLab adds ids to an
older notebook as it opens it, so it would mark every notebook changed on opening
and ask to save it on closing; with ids stored, opening changes nothing. For the same
reason the notebook's metadata holds what a fresh kernel writes when a front end
starts it: the kernel spec's display name ("Python 3 (ipykernel)") and the kernel's
language_info, its Python version included. That version is the one the notebooks
were executed with (constraints.txt: Python 3.11); with another Python, JupyterLab
writes that one's version on opening, and the notebook shows as modified.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import nbformat
from jupyter_client.kernelspec import KernelSpecManager
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parent.parent
KERNEL = "python3"
os.environ["TINYAGENT_OFFLINE"] = "1"  # a developer's key must never shape outputs
os.environ.pop("TINYAGENT_API_KEY", None)


def notebooks(prefixes: list[str]) -> list[Path]:
    found = [path for folder in ("", "solutions", "zh")  # zh: the Chinese edition
             for path in sorted((ROOT / "notebooks" / folder).glob("*.ipynb"))]
    wanted = tuple(prefixes)
    return [p for p in found if not wanted or p.name.startswith(wanted)
            or str(p.relative_to(ROOT / "notebooks")).startswith(wanted)]


def stamp_ids(nb: nbformat.NotebookNode) -> None:
    """nbformat 4.5: each cell keeps its id, or gets "cell-NN" from its place (a
    suffix if that id is taken). No randomness: the file is the same every run."""
    nb.nbformat, nb.nbformat_minor = 4, max(5, nb.get("nbformat_minor", 0))
    taken = {cell.get("id") for cell in nb.cells} - {None}
    for index, cell in enumerate(nb.cells):
        if cell.get("id"):
            continue
        new, extra = f"cell-{index:02}", 0
        while new in taken:
            extra += 1
            new = f"cell-{index:02}-{extra}"
        cell["id"] = new
        taken.add(new)


def execute(path: Path) -> float:
    nb = nbformat.read(path, as_version=4)
    stamp_ids(nb)
    start = time.perf_counter()
    # coalesce_streams: one cell's prints become one output however the kernel
    # flushes them, so the stored file is the same on a fast or a slow machine.
    NotebookClient(nb, timeout=120, kernel_name=KERNEL, record_timing=False,
                   coalesce_streams=True, store_widget_state=False,
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    seconds = time.perf_counter() - start
    for cell in nb.cells:  # keep only what the course needs: byte-stable files
        cell.metadata.pop("execution", None)
        for out in cell.get("outputs", []):
            # A live widget's view carries a random model id; its text repr stays.
            out.get("data", {}).pop("application/vnd.jupyter.widget-view+json", None)
    nb.metadata.pop("widgets", None)
    # What a front end writes when the kernel starts: the kernel's own display name
    # and its language_info (nbclient stored it from the kernel's info reply). Stored
    # as is, so opening a notebook changes nothing and it is not marked modified.
    spec = KernelSpecManager().get_kernel_spec(KERNEL)
    nb.metadata["kernelspec"] = {"display_name": spec.display_name,
                                 "language": spec.language, "name": KERNEL}
    nbformat.write(nb, path)
    return seconds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python scripts/execute_notebooks.py", description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("prefixes", nargs="*", help="notebook name prefixes, e.g. 03 "
                        "or zh/03 or solutions/ (default: every notebook)")
    prefixes = parser.parse_args(argv).prefixes
    for path in notebooks(prefixes):
        print(f"{path.relative_to(ROOT)}: {execute(path):.1f} s", flush=True)
    return 0

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
