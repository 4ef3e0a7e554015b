"""Figure of study bayes_coverage (README.md): coverage and width of every
registered eps interval estimator over true (FPR, FNR) pairs and n.

Reads only results/raw/bayes_coverage.h5; writes bayes_coverage.png/.svg.
Row 1: empirical coverage of the true eps with +-2 Monte-Carlo SE bars and
the nominal level (dotted band: +-3 nominal SE, the study's "near" class);
row 2: mean width of the finite two-sided intervals (log scale); row 3:
fraction of two-sided intervals with an infinite upper end. The paper gives
no coverage numbers to overlay (it asserts nominal coverage for the Bayesian
interval, Sec. 3.2).
"""
import os
import sys

import numpy as np
from matplotlib import ticker

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
from results.plots import plotting  # noqa: E402

plt = plotting.plt

COVERAGE_FLOOR = 0.6  # coverage below this is drawn at the floor with its value


def main():
    f, out_dir = plotting.open_study()
    s = f["settings"]
    fpr, fnr, n = s["fpr"][...], s["fnr"][...], s["n"][...]
    pair = s["pair_index"][...]
    true_eps = s["true_eps"][...]
    names = plotting.strings(f["methods/name"])
    labels = plotting.strings(f["methods/label"])
    one_sided = f["methods/one_sided"][...].astype(bool)
    cfg = plotting.text(f["meta"].attrs["config"])
    alpha = float([l.split("=")[1] for l in cfg.splitlines() if l.startswith("alpha ")][0])
    trials = int([l.split("=")[1] for l in cfg.splitlines() if l.startswith("trials ")][0])
    nominal = 1 - alpha
    se0 = np.sqrt(nominal * (1 - nominal) / trials)

    pairs = sorted(set(pair.tolist()))
    ns = sorted(set(n.tolist()))
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    fig, axes = plt.subplots(3, len(pairs), figsize=(3.6 * len(pairs), 10.5), squeeze=False,
                             sharex=True)
    width = 0.8 / len(names)
    for col, p in enumerate(pairs):
        rows = np.where(pair == p)[0]
        rows = rows[np.argsort(n[rows])]
        xs = np.array([ns.index(v) for v in n[rows]], dtype=float)
        ax_c, ax_w, ax_i = axes[0, col], axes[1, col], axes[2, col]
        ax_c.axhspan(nominal - 3 * se0, nominal + 3 * se0, color="0.9", zorder=0)
        ax_c.axhline(nominal, color="k", lw=1, ls="--", zorder=1)
        for m, name in enumerate(names):
            g = f["estimates"][name]
            cov = g["coverage"][...][rows]
            se = g["coverage_se"][...][rows]
            x = xs + (m - (len(names) - 1) / 2) * width
            style = dict(color=colors[m % len(colors)], ms=5,
                         mfc="white" if one_sided[m] else colors[m % len(colors)])
            shown = np.maximum(cov, COVERAGE_FLOOR + 0.01)
            ax_c.errorbar(x, shown, yerr=np.where(cov >= COVERAGE_FLOOR, 2 * se, 0),
                          fmt="o", label=labels[m] + (" (one-sided)" if one_sided[m] else ""),
                          capsize=2, **style)
            for xi, ci in zip(x, cov):
                if ci < COVERAGE_FLOOR:
                    ax_c.annotate(f"{ci:.2f}", (xi, COVERAGE_FLOOR + 0.01), fontsize=6,
                                  rotation=90, ha="center", va="bottom",
                                  xytext=(0, 6), textcoords="offset points")
                    ax_c.plot([xi], [COVERAGE_FLOOR + 0.005], marker="v",
                              color=style["color"], ms=6)
            if not one_sided[m]:
                w = g["mean_width"][...][rows]
                inf = g["frac_infinite"][...][rows]
                ax_w.plot(x, w, "o", **style)
                ax_i.bar(x, inf, width=width, color=style["color"])
        ax_c.set_ylim(COVERAGE_FLOOR, 1.02)
        eps_note = f"true eps {true_eps[rows[0]]:.3f}"
        ax_c.set_title(f"FPR {fpr[rows[0]]:g}, FNR {fnr[rows[0]]:g}\n{eps_note}", fontsize=10)
        ax_w.set_yscale("log")
        ax_w.yaxis.set_major_formatter(ticker.FormatStrFormatter("%g"))
        ax_w.yaxis.set_minor_formatter(ticker.FormatStrFormatter("%g"))
        ax_w.tick_params(axis="y", which="minor", labelsize=7)
        ax_i.set_ylim(0, 1.05)
        ax_i.set_xticks(range(len(ns)))
        ax_i.set_xticklabels([str(v) for v in ns])
        ax_i.set_xlabel("n (total membership trials)")
        for ax in (ax_c, ax_w, ax_i):
            ax.grid(alpha=0.3)
    axes[0, 0].set_ylabel(f"coverage of true eps (nominal {nominal:.2f})")
    axes[1, 0].set_ylabel("mean width of the finite\nintervals only (nats)")
    axes[2, 0].set_ylabel("fraction of intervals with upper = inf")
    handles, labs = axes[0, 0].get_legend_handles_labels()
    fig.legend(handles, labs, loc="upper center", ncol=min(len(labs), 7), fontsize=8,
               bbox_to_anchor=(0.5, 1.02))
    fig.suptitle(f"Coverage of nominal {100 * nominal:.0f}% eps intervals, {trials} Monte-Carlo "
                 f"trials per setting (bars: +-2 SE; grey band: nominal +-3 SE; "
                 f"values below {COVERAGE_FLOOR} drawn at the floor)\nRow 2 averages the finite "
                 f"intervals only: read it with row 3 (a method that is often infinite looks "
                 f"narrower than it is)", y=1.07, fontsize=11)
    fig.tight_layout()
    plotting.save(fig, out_dir, "bayes_coverage", f)


if __name__ == "__main__":
    main()
