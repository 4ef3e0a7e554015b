"""Bayesian paper Fig. 4: eps interval endpoints against the number of samples.

Reads results/raw/bayes_sample_size.h5 only. Top: lower and upper endpoints
of every registered estimator (one-sided methods: lower bound only, dashed)
with the +-h band around the true eps shaded; bottom: the width against n
with the target 2h. Markers show where each two-sided method's width first
stays within the target ("samples needed"); vertical lines show the paper's
published values (CP about 1500, Bayesian just over 500).
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
from results.plots import plotting  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402

COLORS = {
    "clopper_pearson": "tab:blue",
    "jeffreys": "tab:orange",
    "bayesian": "tab:green",
    "katz_log": "tab:purple",
}


def color_of(name):
    base = name.replace("_one_sided", "")
    return COLORS.get(base, "tab:gray")


def main():
    f, out_dir = plotting.open_study()
    n = f["n"][...]
    methods = plotting.strings(f["methods"])
    true_eps = float(f["numbers/true_eps"][()])
    target = float(f["numbers/target_width"][()])
    half = target / 2
    config = plotting.text(f["meta"].attrs["config"])
    vals = config_values(config)
    # Counts are round(rate * n/2): at most n the realised rates differ from
    # the nominal ones by up to 1/n, which makes the endpoints zigzag. The
    # endpoint panel shows the n where the rounding is exact (if there are
    # enough); the width panel and the markers use every n.
    m = n // 2
    exact = (np.isclose(f["counts/fn"][...], float(vals["fnr"]) * m, rtol=0, atol=1e-9) &
             np.isclose(f["counts/fp"][...], float(vals["fpr"]) * m, rtol=0, atol=1e-9))
    sel = exact if exact.sum() >= 20 else np.ones_like(exact)
    sel_note = "n with exact counts (rate $\cdot$ n/2 integer)" if exact.sum() >= 20 else "all n"

    fig, (ax, axw) = plt.subplots(2, 1, figsize=(9, 9), sharex=True,
                                  gridspec_kw={"height_ratios": [3, 2]})
    ax.axhspan(true_eps - half, true_eps + half, color="gold", alpha=0.25,
               label=f"true eps {true_eps:.3f} $\\pm$ {half:g}")
    ax.axhline(true_eps, color="goldenrod", lw=0.8)
    n_marked = 0
    for name in methods:
        g = f["intervals"][name]
        label = plotting.text(g.attrs["label"])
        one_sided = int(g.attrs["one_sided"]) == 1
        c = color_of(name)
        lo, hi, w = g["eps_lo"][...], g["eps_hi"][...], g["width"][...]
        if one_sided:
            ax.plot(n[sel], lo[sel], ls="--", lw=1.0, color=c, alpha=0.8,
                    label=f"{label} (lower bound)")
            continue
        ax.plot(n[sel], lo[sel], lw=1.4, color=c, label=f"{label} [lower, upper]")
        ax.plot(n[sel], hi[sel], lw=1.4, color=c)
        axw.plot(n, w, lw=1.4, color=c, label=label)
        needed = int(g.attrs["samples_needed"])
        if needed > 0:
            k = int(np.searchsorted(n, needed))
            ax.plot([needed, needed], [lo[k], hi[k]], "o", color=c, ms=6, mec="black", zorder=5)
            axw.plot([needed], [w[k]], "o", color=c, ms=6, mec="black", zorder=5)
            axw.annotate(f"{needed}", (needed, w[k]), textcoords="offset points",
                         xytext=(4, 6 + 12 * (n_marked % 2)), fontsize=8, color=c)
            n_marked += 1
    axw.axhline(target, color="goldenrod", lw=1.0, ls="-",
                label=f"target width {target:g} ($\\pm${half:g})")
    for a in (ax, axw):
        a.axvline(1500, color="black", ls=":", lw=1.2)
        a.axvline(500, color="black", ls="-.", lw=1.2)
        a.grid(alpha=0.3)
    ymax = ax.get_ylim()[1]
    ax.text(1500, ymax, " paper: CP ≈ 1500", va="top", ha="left", fontsize=9)
    ax.text(500, ymax, " paper: Bayesian just over 500", va="top", ha="left", fontsize=9)
    ax.set_ylabel("eps interval endpoints (nats)")
    ax.set_title("Interval endpoints vs number of samples (Bayesian paper Fig. 4)\n"
                 f"{config_line(vals)}; circles: samples needed (width stays $\\leq$ {target:g})\n"
                 f"endpoints drawn at {sel_note}", fontsize=10)
    ax.legend(fontsize=7, loc="upper right", ncol=2, bbox_to_anchor=(1.0, 0.93))
    axw.set_ylabel("interval width (upper - lower, nats)")
    axw.set_xlabel("total samples n (n/2 members + n/2 non-members)")
    axw.set_ylim(0, min(1.0, np.nanmax([f["intervals"][m]["width"][0] for m in methods
                                         if int(f["intervals"][m].attrs["one_sided"]) == 0]) * 1.05))
    axw.legend(fontsize=7, loc="upper right")
    fig.tight_layout()
    plotting.save(fig, out_dir, "bayes_sample_size", f)


def config_values(config):
    return dict(line.split(" = ", 1) for line in config.splitlines() if " = " in line)


def config_line(vals):
    return (f"FPR = {vals.get('fpr')}, FNR = {vals.get('fnr')}, alpha = {vals.get('alpha')}, "
            f"delta = {vals.get('delta')}")


if __name__ == "__main__":
    main()
