"""Epsilon* paper, App. B.2, Fig. 6: two-sample KS p-value of Gaussian-mixture
fits against held-out transformed training losses, by number of components,
for Adult models trained without and with DP (study C4).

Reads only results/raw/epsilon_star_gof.h5; writes
  epsilon_star_gof.{png,svg}             Fig. 6: one panel per model type
                                         (columns) and analysis (rows: App. B
                                         transform at the primary variance floor,
                                         at the sensitivity floor(s), then the
                                         Carlini-logit extra), one
                                         line per n_eval (median over repetitions,
                                         band = min..max), dashed line at 0.05;
  epsilon_star_gof_population.{png,svg}  the same for the population losses
                                         (extra, not in the paper);
  epsilon_star_gof_losses.{png,svg}      histograms of the transformed training
                                         losses (first repetition) and of their
                                         distance below the transform's upper end
                                         logit(1/e), on a log scale: the spike that
                                         a component with the floored sd cannot
                                         follow.
The paper prints no numbers for Fig. 6; its statements are quoted in the
title with this run's verdicts.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
from results.plots import plotting  # noqa: E402

plt = plotting.plt
P_FLOOR = 1e-20  # p-values below are drawn at this level (log axis)


def verdict(f, cid):
    if f"claims/{cid}" not in f:
        return "n/a"
    return "holds" if int(f["claims"][cid].attrs["holds"]) else "does NOT hold"


def pvalue_figure(f, out_dir, set_index, name, title_extra):
    p = f["gof/p_value"][...]  # model, rep, set, floor, n_eval, k
    n_eval = f["settings/n_eval"][...]
    ks = f["settings/components"][...]
    an_labels = plotting.strings(f["settings/analysis_label"])
    labels = plotting.strings(f["settings/model_labels"])
    reps = p.shape[1]
    alpha = float(f["settings"].attrs["significance"])
    method = plotting.text(f["settings"].attrs["p_value_method"])
    data = plotting.text(f["settings"].attrs["dataset_label"])
    rows, cols = len(an_labels), p.shape[0]
    fig, axes = plt.subplots(rows, cols, figsize=(5.6 * cols, 3.3 * rows + 0.8), sharex=True,
                             sharey=True, squeeze=False)
    cmap = plt.get_cmap("viridis")
    for fi in range(rows):
        for m in range(cols):
            ax = axes[fi, m]
            for i, n in enumerate(n_eval):
                v = np.clip(p[m, :, set_index, fi, i, :], P_FLOOR, 1.0)
                color = cmap(i / max(1, len(n_eval) - 1))
                ax.plot(ks, np.median(v, axis=0), marker="o", ms=3, lw=1.4, color=color,
                        label=f"n_eval = {n}")
                if reps > 1:
                    ax.fill_between(ks, v.min(axis=0), v.max(axis=0), color=color, alpha=0.12,
                                    lw=0)
            ax.axhline(alpha, color="k", ls="--", lw=1.1, label=f"p = {alpha:g}")
            ax.set_yscale("log")
            ax.set_ylim(P_FLOOR / 3, 3.0)
            ax.set_title(f"{labels[m]}: {an_labels[fi]}", fontsize=8.5)
            ax.grid(True, which="major", alpha=0.3)
            if fi == rows - 1:
                ax.set_xlabel("number of mixture components k")
            if m == 0:
                ax.set_ylabel(f"KS p-value ({method}); median of {reps}")
            ax.set_xticks(ks if len(ks) <= 10 else ks[::2])
    axes[-1, -1].legend(fontsize=7, loc="lower right", ncol=2)
    fig.suptitle(
        f"Epsilon* Fig. 6: KS goodness of fit of k-component Gaussian mixtures to transformed "
        f"{title_extra} ({data})\nbands: min..max over {reps} models per type; p-values below "
        f"{P_FLOOR:g} drawn at {P_FLOOR:g}.{claims_line(f) if set_index == 0 else ''}",
        fontsize=8.5)
    fig.tight_layout()
    fig.subplots_adjust(top=1.0 - (1.25 if set_index == 0 else 0.9) / (3.3 * rows + 0.8),
                        bottom=0.08)
    plotting.save(fig, out_dir, name, f)


def claims_line(f):
    b = "epsilon_star_gof_"
    sfx = plotting.strings(f["settings/analysis_claim_suffix"])

    def v(cid):
        return " / ".join(verdict(f, b + cid + s) for s in sfx)

    return ("\nPaper (qualitative only); verdicts per analysis (rows, top to bottom): "
            "most p > 0.05 — " + v("most_above") + "; more with DP — " + v("more_with_dp") +
            ";\nmore with more components — " + v("more_with_components") +
            "; one component enough for most n_eval — " + v("one_component_most_n_eval"))


def loss_figure(f, out_dir):
    labels = plotting.strings(f["settings/model_labels"])
    models = plotting.strings(f["settings/models"])
    data = plotting.text(f["settings"].attrs["dataset_label"])
    fig, axes = plt.subplots(2, len(models), figsize=(5.6 * len(models), 6.4), squeeze=False)
    top = -1.0 - np.log1p(-np.exp(-1.0))  # logit(e^-1), the transform's upper end
    for m, mdl in enumerate(models):
        t = f[f"losses/{mdl}/train_transformed"][0]
        raw = f[f"losses/{mdl}/train"][0]
        ax = axes[0, m]
        ax.hist(t, bins=200, color="tab:blue")
        ax.set_yscale("log")
        ax.set_xlabel("transformed training loss (App. B logit)")
        ax.set_ylabel("count")
        max_loss = float(f["models/transform_max"][m, 0])
        ax.set_title(f"{labels[m]}: all {len(t)} training losses (joint max loss {max_loss:.3g})",
                     fontsize=9)
        ax = axes[1, m]
        dist = np.maximum(top - t, 1e-16)  # distance below the transform's upper end
        ax.hist(np.log10(dist), bins=120, color="tab:orange")
        ax.set_xlabel("log10(logit(1/e) - transformed loss)")
        ax.set_ylabel("count")
        within = np.mean(dist < 1e-3)
        ax.set_title(f"distance below the top: {within:.0%} of the values within 1e-3 "
                     f"(median raw loss {np.median(raw):.3g})", fontsize=9)
        for v, style in ((-3, ":"), (-6, "--")):
            ax.axvline(v, color="k", ls=style, lw=0.9)
        ax.text(0.02, 0.95, "dotted: sd 1e-3 (variance floor 1e-6)\n"
                "dashed: sd 1e-6 (variance floor 1e-12)",
                transform=ax.transAxes, fontsize=7, va="top")
    fig.suptitle(f"Transformed training losses of the first model of each type ({data})",
                 fontsize=10)
    fig.tight_layout(rect=(0, 0.02, 1, 0.95))
    plotting.save(fig, out_dir, "epsilon_star_gof_losses", f)


def main():
    f, out_dir = plotting.open_study()
    sets = plotting.strings(f["settings/loss_sets"])
    pvalue_figure(f, out_dir, 0, "epsilon_star_gof", "TRAINING losses")
    if "population" in sets:
        pvalue_figure(f, out_dir, sets.index("population"), "epsilon_star_gof_population",
                      "POPULATION losses (extra, not in the paper)")
    loss_figure(f, out_dir)


if __name__ == "__main__":
    main()
