"""Figure of study sequential_audit: the e-process over time with the
rejection line (González, Dulce-Rubio, Ramdas & Ribero, NeurIPS 2025).

Reads only results/raw/sequential_audit.h5; writes sequential_audit.png/.svg.
Left: ln K of the first replication of every mechanism against the pair
rounds played (correct mechanisms dashed), and ln(1/alpha), where the claim
is rejected. Right: the same for the DP-SGD step audit, one line per run of
the correct engine and of the bug (noise calibrated to the averaged
gradient), against the steps of one training run; its y axis stops at
3 ln(1/alpha), so the bug's runs leave the frame once they have crossed.
"""
import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
from results.plots import plotting  # noqa: E402

plt = plotting.plt


def main():
    f, out_dir = plotting.open_study()
    alpha = float(f["settings"].attrs["alpha"])
    bar = math.log(1 / alpha)
    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 5))
    for name in f["cases"]:
        g = f["cases"][name]
        trace = g["trace"][...]
        correct = int(g.attrs["correct"])
        left.plot(np.arange(1, len(trace) + 1), trace, "--" if correct else "-",
                  label=f"{name} ({'correct' if correct else 'violation'})")
    left.axhline(bar, color="black", lw=1, label=f"ln(1/alpha), alpha = {alpha:g}")
    left.set_xscale("log")
    left.set_xlabel("pair rounds (2 outputs each)")
    left.set_ylabel("ln K (log-wealth of the claim's e-process)")
    left.set_title("Sequential audit, first replication per mechanism", fontsize=10)
    left.legend(fontsize=7)
    for variant, color in (("correct", "tab:green"), ("noise_on_mean", "tab:red")):
        traces = f[f"dpsgd/{variant}/trace"][...]
        for r, trace in enumerate(traces):
            right.plot(np.arange(1, len(trace) + 1), trace, color=color, alpha=0.4, lw=0.8,
                       label=variant if r == 0 else None)
    right.axhline(bar, color="black", lw=1, label="ln(1/alpha)")
    low = min(float(np.min(f[f"dpsgd/{v}/trace"][...])) for v in ("correct", "noise_on_mean"))
    right.set_ylim(min(-1.0, low - 0.5), 3 * bar)  # the bug's runs leave the frame upwards
    right.set_xlabel("DP-SGD step (one game round each)")
    right.set_ylabel("ln K of the per-step claim (1/sigma)-GDP")
    right.set_title("DP-SGD engine: correct vs noise calibrated to the mean", fontsize=10)
    right.legend(fontsize=8)
    fig.tight_layout()
    plotting.save(fig, out_dir, "sequential_audit", f)


if __name__ == "__main__":
    main()
