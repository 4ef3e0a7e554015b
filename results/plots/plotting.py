"""Shared helpers for the figure scripts experiments/<study>/figures.py.

Every figure is regenerated from a study's HDF5 file alone, read with
privbench.results (the project's one Python reader: the C++ reader's
checks, checksum included; python/src/privbench/results.py), saved as PNG
and SVG, with labelled axes (units), a legend, and the paper's published
values overlaid where the paper gives them. Surrogate data is labelled.
"""
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from results import privbench_import  # noqa: E402


def open_study(argv=None):
    """(result file, output directory) from the command line: <raw.h5> <out_dir>.

    The file is privbench.read_results' Group: read like an h5py file
    (f["summary/t/col"], f["meta"].attrs), datasets as NumPy arrays."""
    argv = sys.argv if argv is None else argv
    if len(argv) != 3:
        raise SystemExit(f"usage: {argv[0]} <study.h5> <figures_dir>")
    try:
        # results/privbench_import.py finds the package; results/figures.sh builds it.
        privbench = privbench_import.import_privbench(
            "the figure scripts read result files with privbench.results: "
            "bazel build //python:privbench (or pip install ./python)")
        return privbench.read_results(argv[1]), argv[2]
    except ValueError as e:
        raise SystemExit(f"{argv[0]}: {e}") from None


def text(x):
    return x.decode() if isinstance(x, bytes) else str(x)


def strings(dataset):
    return [text(s) for s in dataset[...]]


def provenance(f):
    """One line for a figure footer: study, scale, seed, commit."""
    m = f["meta"].attrs
    return (f"{text(m['study'])} | scale {text(m['scale'])} | seed {text(m['seed'])} | "
            f"commit {text(m['git_commit'])[:10]}")


def save(fig, out_dir, name, f=None):
    """Saves <name>.png and <name>.svg with a provenance footer."""
    if f is not None:
        fig.text(0.01, 0.005, provenance(f), fontsize=6, color="gray", ha="left", va="bottom")
    os.makedirs(out_dir, exist_ok=True)
    for ext in ("png", "svg"):
        fig.savefig(os.path.join(out_dir, f"{name}.{ext}"), dpi=150, bbox_inches="tight")
    plt.close(fig)
