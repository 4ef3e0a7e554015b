"""Figures of study ml_audit (README.md), like ML-Audit's Figs. 2-4
(Lu et al., NeurIPS 2022): eps_th against eps_lb on log-log axes, one panel
per (dataset, mechanism), one line per attack (k = 1, median over
replicates), the line eps_lb = eps_th (the guarantee) and the detection
ceiling ln N - z_{alpha/2} sqrt(1 - 1/N) (Cor. 4.0.1). A second figure shows
the bug cases (exposed naive-Bayes counts; the forest under replace-one
flips with its 2 eps_th guarantee) and the weakened mechanisms. The paper
prints no eps_lb as a number, so there is nothing to overlay.

Reads only results/raw/ml_audit.h5; writes ml_audit.png/.svg and
ml_audit_bugs.png/.svg.
"""
import os
import sys

import numpy as np
from scipy import stats

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
from results.plots import plotting  # noqa: E402

plt = plotting.plt


def ceiling(n, alpha=0.05):
    return np.log(n) - stats.norm.isf(alpha / 2) * np.sqrt(1 - 1 / n)


def lines(a, rows):
    """{label: (eps, median eps_lb)} for k = 1 over the given rows."""
    out = {}
    for label in sorted({a["label"][r] for r in rows}):
        sel = [r for r in rows if a["label"][r] == label and a["k"][r] == 1]
        eps = sorted({a["eps"][r] for r in sel})
        med = [np.median([a["eps_lb"][r] for r in sel if a["eps"][r] == e]) for e in eps]
        out[label] = (np.array(eps), np.array(med))
    return out


def panel(ax, curves, n, title, guarantee_factor=1.0):
    allx = np.concatenate([x for x, _ in curves.values()]) if curves else np.array([1.0])
    xs = np.geomspace(allx.min(), allx.max(), 50)
    ax.plot(xs, guarantee_factor * xs, "k--", lw=0.8, label=f"{'2 ' if guarantee_factor == 2 else ''}eps_th")
    ax.axhline(ceiling(n), color="gray", lw=0.8, ls=":", label=f"ceiling (N = {n})")
    for label, (x, y) in curves.items():
        ax.plot(x, np.maximum(y, 1e-3), marker="o", ms=3, label=label)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_ylim(1e-3 * 0.8, max(ceiling(n), allx.max()) * 1.5)
    ax.set_title(title, fontsize=8)
    ax.set_xlabel("eps_th (claimed)")
    ax.set_ylabel("eps_lb (k = 1; 0 drawn at 1e-3)")
    ax.legend(fontsize=6)


def main():
    f, out_dir = plotting.open_study()
    g = f["audits"]
    a = {c: (plotting.strings(g[c]) if g[c].dtype.kind in "SO" else g[c][...]) for c in
         ("dataset", "mechanism", "attack", "role", "case", "eps", "k", "eps_lb", "n")}
    rows = range(len(a["eps"]))
    a["label"] = [a["attack"][r] for r in rows]
    datasets = sorted(set(a["dataset"]))
    mechanisms = ["lr_output", "lr_objective", "nb", "rf"]
    fig, axes = plt.subplots(len(datasets), 4, figsize=(16, 3.6 * len(datasets)), squeeze=False)
    for i, d in enumerate(datasets):
        for j, m in enumerate(mechanisms):
            sel = [r for r in rows if a["dataset"][r] == d and a["mechanism"][r] == m and
                   a["role"][r] == "audit"]
            n = int(a["n"][sel[0]]) if sel else 1000
            panel(axes[i][j], lines(a, sel), n, f"{d} / {m}")
    fig.suptitle("ML-Audit eps lower bounds by attack (cf. Lu et al. Figs. 2-4)")
    fig.tight_layout()
    plotting.save(fig, out_dir, "ml_audit", f)

    fig, axes = plt.subplots(1, len(datasets), figsize=(6 * len(datasets), 4), squeeze=False)
    for i, d in enumerate(datasets):
        sel = [r for r in rows if a["dataset"][r] == d and a["role"][r] != "audit"]
        for r in sel:
            a["label"][r] = a["case"][r]
        n = int(max(a["n"][r] for r in sel)) if sel else 1000
        panel(axes[0][i], lines(a, sel), n, f"{d}: bug and weakened cases")
    fig.tight_layout()
    plotting.save(fig, out_dir, "ml_audit_bugs", f)


if __name__ == "__main__":
    main()
