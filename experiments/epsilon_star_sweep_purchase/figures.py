"""Epsilon* paper, §4.2, Fig. 1: the privacy-utility landscape of Purchase-100 models.

Reads only results/raw/epsilon_star_sweep_purchase.h5 (study C3); writes
  epsilon_star_sweep_purchase.{png,svg}: Epsilon* (parametric) vs test
    accuracy (the population set), as the Adult sweep draws it (experiments/lib/epsilon_star_sweep/sweep_figures.py),
    with the paper's published baselines (Epsilon* 2.48 / 7.06 / 7.79 at
    accuracy 86% / 90.4% / 90.6%, 10 / 50 / 100 epochs, real Purchase-100)
    as stars and its statement "every DP model below Epsilon* 1" as a line;
  epsilon_star_sweep_purchase_variants.{png,svg}: the Epsilon* variants per
    model.
Titles say "purchase100-surrogate" when the surrogate data was used.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
from results.plots import plotting  # noqa: E402
from experiments.lib.epsilon_star_sweep.sweep_figures import (  # noqa: E402
    claim_text, data_text, landscape, variants_figure)

PAPER = [(10, 2.48, 0.86), (50, 7.06, 0.904), (100, 7.79, 0.906)]


def main():
    f, out_dir = plotting.open_study()
    scale = plotting.text(f["meta"].attrs["scale"])
    reps = int(f["models/repetition"][...].max()) + 1
    prov = plotting.text(f["meta"].attrs["dataset_provenance"])
    surrogate = "surrogate" in prov

    def reference(ax):
        ax.axvline(1.0, color="tab:red", ls=":", lw=1.5,
                   label="paper: every DP model below Epsilon* 1")
        ax.scatter([p[1] for p in PAPER], [p[2] for p in PAPER], marker="*", s=160,
                   color="gold", edgecolors="k", zorder=5,
                   label="paper's baselines, 10/50/100 epochs (real Purchase-100"
                         + (", not comparable with surrogate data)" if surrogate else ")"))
        for (e, x, y), off in zip(PAPER, ((6, -10), (-55, 6), (6, -10))):
            ax.annotate(f"paper, {e} ep", (x, y), textcoords="offset points", xytext=off,
                        fontsize=7)
        return [(x, y) for _, x, y in PAPER]

    p = "epsilon_star_sweep_purchase_"
    warn = "  [SURROGATE DATA: purchase100-surrogate]" if surrogate else ""
    title = (f"Epsilon* Fig. 1 — Purchase-100 ({data_text(f)}), {scale} scale, "
             f"{reps} models per point\n{warn.strip()}{chr(10) if warn else ''}"
             f"paper: every DP model < 1 — here {claim_text(f, p + 'dp_below_1')} "
             f"({claim_text(f, p + 'dp_below_1_common_window')} with window [0.001, 0.999])\n"
             f"baselines: more epochs, higher accuracy and Epsilon* — "
             f"{claim_text(f, p + 'baselines_rise_with_epochs')}")
    landscape(f, out_dir, "epsilon_star_sweep_purchase", title,
              "Epsilon* (parametric, clip window [1e-6, 1-1e-6]); mean and min-max over models",
              "test accuracy on the population set; mean and min-max", reference)
    variants_figure(f, out_dir, "epsilon_star_sweep_purchase_variants",
                    f"Purchase-100 ({data_text(f)}){warn}: Epsilon* variants per model, "
                    f"{scale} scale")


if __name__ == "__main__":
    main()
