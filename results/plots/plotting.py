"""Shared helpers for the figure scripts experiments/<study>/figures.py.

Every figure is regenerated from a study's HDF5 file alone (h5py), saved as
PNG and SVG, with labelled axes (units), a legend, and the paper's published
values overlaid where the paper gives them. Surrogate data is labelled.
"""
import os
import sys

import h5py
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def open_study(argv=None):
    """(h5py.File, output directory) from the command line: <raw.h5> <out_dir>."""
    argv = sys.argv if argv is None else argv
    if len(argv) != 3:
        raise SystemExit(f"usage: {argv[0]} <study.h5> <figures_dir>")
    return h5py.File(argv[1], "r"), argv[2]


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
