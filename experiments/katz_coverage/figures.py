"""Figure of study katz_coverage (README.md): Katz-log vs Clopper-Pearson
lower bounds on log(p1/p0) (ML-Audit Sec. 4.2).

Reads only results/raw/katz_coverage.h5; writes katz_coverage.png/.svg.
Row 1: coverage P[bound <= log(p1/p0)] with +-2 Monte-Carlo SE bars and the
nominal levels (1 - alpha/2 for katz_log and clopper_pearson_ratio_strict,
1 - alpha for katz_log_one_sided and clopper_pearson_ratio); row 2: mean eps
lower bound max{0, bound} with the true log ratio; row 3: fraction of
vacuous bounds (bound <= 0). The paper's coverage simulations (Appendix)
are not in our text, so there are no published values to overlay.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
from results.plots import plotting  # noqa: E402

plt = plotting.plt

STYLE = {
    "katz_log": dict(color="C0", marker="o", mfc="C0"),
    "katz_log_one_sided": dict(color="C0", marker="s", mfc="white"),
    "clopper_pearson_ratio": dict(color="C3", marker="o", mfc="C3"),
    "clopper_pearson_ratio_strict": dict(color="C3", marker="s", mfc="white"),
}


def main():
    f, out_dir = plotting.open_study()
    s = f["settings"]
    p1, p0, n, pair = s["p1"][...], s["p0"][...], s["n"][...], s["pair_index"][...]
    target = s["target"][...]
    names = plotting.strings(f["methods/name"])
    nominal = f["methods/nominal"][...]
    cfg = plotting.text(f["meta"].attrs["config"])
    trials = int([l.split("=")[1] for l in cfg.splitlines() if l.startswith("trials ")][0])
    alpha = float([l.split("=")[1] for l in cfg.splitlines() if l.startswith("alpha ")][0])

    pairs = sorted(set(pair.tolist()))
    ns = sorted(set(n.tolist()))
    fig, axes = plt.subplots(3, len(pairs), figsize=(3.6 * len(pairs), 10), squeeze=False,
                             sharex=True)
    width = 0.8 / len(names)
    levels = sorted(set(np.round(nominal, 6).tolist()))
    for col, p in enumerate(pairs):
        rows = np.where(pair == p)[0]
        rows = rows[np.argsort(n[rows])]
        xs = np.array([ns.index(v) for v in n[rows]], dtype=float)
        ax_c, ax_b, ax_v = axes[0, col], axes[1, col], axes[2, col]
        for lv, ls in zip(levels, ["--", ":"]):
            ax_c.axhline(lv, color="k", lw=1, ls=ls, label=f"nominal {lv:g}")
        for m, name in enumerate(names):
            g = f["bounds"][name]
            st = dict(STYLE.get(name, dict(color=f"C{m + 4}", marker="^", mfc="white")))
            marker = st.pop("marker")
            x = xs + (m - (len(names) - 1) / 2) * width
            cov = g["coverage"][...][rows]
            se = g["coverage_se"][...][rows]
            ax_c.errorbar(x, cov, yerr=2 * se, fmt=marker, capsize=2, ms=5,
                          label=f"{name} (nominal {nominal[m]:g})", **st)
            ax_b.plot(x, g["mean_eps_bound"][...][rows], marker, ms=5, ls="none", **st)
            ax_v.bar(x, g["frac_vacuous"][...][rows], width=width, color=st["color"],
                     alpha=1.0 if st["mfc"] != "white" else 0.45)
        for xi, t in zip(xs, target[rows]):
            ax_b.hlines(t, xi - 0.45, xi + 0.45, color="k", lw=1.2,
                        label="true log(p1/p0)" if xi == xs[0] else None)
        ax_c.set_title(f"p1 {p1[rows[0]]:g}, p0 {p0[rows[0]]:g}\n"
                       f"log(p1/p0) = {target[rows[0]]:.3f}", fontsize=10)
        ax_c.set_ylim(min(0.9, ax_c.get_ylim()[0]), 1.005)
        ax_b.set_ylim(bottom=0)
        ax_v.set_ylim(0, 1.05)
        ax_v.set_xticks(range(len(ns)))
        ax_v.set_xticklabels([str(v) for v in ns])
        ax_v.set_xlabel("N (samples per side)")
        for ax in (ax_c, ax_b, ax_v):
            ax.grid(alpha=0.3)
    axes[0, 0].set_ylabel("coverage P[bound <= log(p1/p0)]")
    axes[1, 0].set_ylabel("mean eps lower bound max{0, bound} (nats)")
    axes[2, 0].set_ylabel("fraction vacuous (bound <= 0)")
    handles, labs = axes[0, 0].get_legend_handles_labels()
    h2, l2 = axes[1, 0].get_legend_handles_labels()
    fig.legend(handles + h2, labs + l2, loc="upper center", ncol=4, fontsize=8,
               bbox_to_anchor=(0.5, 1.04))
    fig.suptitle(f"Lower bounds on log(p1/p0) at alpha = {alpha:g}: Katz-log (blue) vs "
                 f"Clopper-Pearson ratio (red), {trials} trials per setting (bars: +-2 SE)",
                 y=1.07, fontsize=11)
    fig.tight_layout()
    plotting.save(fig, out_dir, "katz_coverage", f)


if __name__ == "__main__":
    main()
