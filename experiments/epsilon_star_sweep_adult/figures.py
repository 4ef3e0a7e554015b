"""Epsilon* paper, §4.2, Fig. 2: the privacy-utility landscape of Adult models.

Reads only results/raw/epsilon_star_sweep_adult.h5 (study C2); writes
  epsilon_star_sweep_adult.{png,svg}: Epsilon* (parametric) vs AUROC, one
    point per configuration (mean over its models, min-max error bars),
    coloured by strategy (baseline epochs / DP target eps), the Pareto
    frontier (non-dominated points; ringed: the paper's convex-hull
    frontier), marginal densities of DP vs baseline along each axis (KDE, or
    histograms when a group has fewer than 3 distinct values), and the
    paper's statement "every model below Epsilon* 0.3" as a line;
  epsilon_star_sweep_adult_variants.{png,svg}: per model, the parametric
    Epsilon* with the default clip window [1e-6, 1-1e-6] and with [0.001,
    0.999] against the empirical Epsilon* (the window was lost in the paper).
The landscape drawing is shared with the Purchase-100 sweep
(experiments/lib/epsilon_star_sweep/sweep_figures.py).
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
from results.plots import plotting  # noqa: E402
from experiments.lib.epsilon_star_sweep.sweep_figures import (  # noqa: E402
    claim_text, data_text, landscape, variants_figure)

plt = plotting.plt


def main():
    f, out_dir = plotting.open_study()
    scale = plotting.text(f["meta"].attrs["scale"])
    reps = int(f["models/repetition"][...].max()) + 1

    def reference(ax):
        ax.axvline(0.3, color="tab:red", ls=":", lw=1.5,
                   label="paper: every model below Epsilon* 0.3")
        return [(0.3, np.nan)]

    p = "epsilon_star_sweep_adult_"
    title = (f"Epsilon* Fig. 2 — Adult ({data_text(f)}), {scale} scale, {reps} models per point\n"
             f"paper: all models < 0.3 — here {claim_text(f, p + 'all_below_0_3')} "
             f"({claim_text(f, p + 'all_below_0_3_common_window')} with window [0.001, 0.999])\n"
             f"baselines rise with epochs — {claim_text(f, p + 'baselines_rise_with_epochs')}; "
             f"DP below baselines of 5+ epochs — {claim_text(f, p + 'dp_below_baselines_5plus')}")
    m = f["meta"].attrs
    delta = (f"Epsilon* delta {float(m['epsilon_star_delta']):.3g} = the DP delta"
             if "epsilon_star_delta" in m else "Epsilon* delta 0")
    landscape(f, out_dir, "epsilon_star_sweep_adult", title,
              f"Epsilon* (parametric, clip window [1e-6, 1-1e-6], {delta})\nmean and min-max "
              "over models",
              "AUROC on the population set (income > 50K); mean and min-max", reference)
    variants_figure(f, out_dir, "epsilon_star_sweep_adult_variants",
                    f"Adult ({data_text(f)}): Epsilon* variants per model, {scale} scale")


if __name__ == "__main__":
    main()
