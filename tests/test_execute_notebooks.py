"""Stored notebooks open clean: nbformat 4.5, every cell with a fixed id."""

import sys
from pathlib import Path

import nbformat
import pytest

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "execute_notebooks.py"
sys.path.insert(0, str(SCRIPT.parent))
import execute_notebooks  # noqa: E402


def notebook(*ids):
    nb = nbformat.v4.new_notebook()
    nb.nbformat_minor = 4
    for cell_id in ids:
        cell = nbformat.v4.new_code_cell("1 + 1")
        cell.pop("id", None)
        if cell_id:
            cell["id"] = cell_id
        nb.cells.append(cell)
    return nb


def test_cells_without_an_id_get_one_from_their_place():
    """A 4.4 notebook becomes 4.5, and each cell's id is "cell-NN" from its index:
    the same on every run, so re-executing never changes an id."""
    first, second = notebook(None, None, None), notebook(None, None, None)
    execute_notebooks.stamp_ids(first)
    execute_notebooks.stamp_ids(second)
    assert first.nbformat_minor == 5
    assert [c.id for c in first.cells] == ["cell-00", "cell-01", "cell-02"]
    assert nbformat.writes(first) == nbformat.writes(second)
    nbformat.validate(first)


def test_a_cell_keeps_its_id_and_no_two_cells_share_one():
    """An id already there stays (a cell inserted in JupyterLab keeps its own), and a
    place-derived id that is taken gets a suffix, so ids stay unique."""
    nb = notebook("intro", None, "cell-02", None)
    nb.cells[3]["id"] = "cell-01"  # taken: cell 1 must not get it
    nb.cells[1].pop("id", None)
    execute_notebooks.stamp_ids(nb)
    ids = [c.id for c in nb.cells]
    assert ids[0] == "intro" and ids[2] == "cell-02" and ids[3] == "cell-01"
    assert ids[1] == "cell-01-1" and len(set(ids)) == len(ids)
    nbformat.validate(nb)


def test_a_stamped_notebook_reads_back_unchanged():
    """Written and read again (as JupyterLab opens it), nothing is added."""
    nb = notebook(None, None)
    execute_notebooks.stamp_ids(nb)
    text = nbformat.writes(nb)
    again = nbformat.reads(text, as_version=4)
    assert nbformat.writes(again) == text


def test_help_prints_the_usage_and_runs_nothing(monkeypatch, capsys):
    """`execute_notebooks.py --help` prints how to use it (the prefixes) and exits 0
    without executing a notebook."""
    def ran(path):
        raise AssertionError("--help must not execute a notebook")
    monkeypatch.setattr(execute_notebooks, "execute", ran)
    with pytest.raises(SystemExit) as exit_info:
        execute_notebooks.main(["--help"])
    assert exit_info.value.code == 0
    out = capsys.readouterr().out
    assert "prefixes" in out and "zh/03" in out


def test_stored_notebooks_hold_what_a_fresh_kernel_writes():
    """Opening a stored notebook changes nothing: its kernelspec is the installed
    kernel's (display name included) and its language_info is a kernel's info
    reply, the Python version included (JupyterLab marks a notebook modified when
    the kernel's start rewrites either)."""
    from jupyter_client.kernelspec import KernelSpecManager

    spec = KernelSpecManager().get_kernel_spec(execute_notebooks.KERNEL)
    wanted = {"display_name": spec.display_name, "language": spec.language,
              "name": execute_notebooks.KERNEL}
    for path in execute_notebooks.notebooks([]):
        metadata = nbformat.read(path, as_version=4).metadata
        assert metadata.kernelspec == wanted, path
        info = metadata.language_info
        assert info.name == "python" and info.version.count(".") == 2, path
        assert {"codemirror_mode", "file_extension", "mimetype", "nbconvert_exporter",
                "pygments_lexer"} <= set(info), path
