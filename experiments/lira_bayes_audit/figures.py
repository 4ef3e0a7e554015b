"""Figures of study lira_bayes_audit (README.md): the Bayesian
paper's Fig. 1 and Table 2 analogues (Zanella-Beguelin et al., ICML 2023,
Sec. 1 and 4.2) on the Fashion-MNIST stand-in, or on CIFAR-10 when the run
used --dataset=cifar10 (its /meta dataset_provenance says which).

Reads only results/raw/lira_bayes_audit.h5; writes
lira_bayes_audit_posterior.png/.svg: per setting (no DP, DP-SGD at eps = 8),
the posterior density of eps at the threshold the Bayesian method selects
(the paper's selection), its equal-tailed interval, the posterior mass at
eps = 0, and the theoretical eps of the DP setting; and
lira_bayes_audit_intervals.png/.svg: every method's interval under the three
threshold selections (max_lower = the paper's, not a valid confidence
statement; split_half and bonferroni valid), per setting.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
from results.plots import plotting  # noqa: E402

plt = plotting.plt
STAND_IN = "Fashion-MNIST stand-in (the paper: CIFAR-10 / SST-2)"


def data_label(f):
    """The data the run used, for the titles."""
    if plotting.text(f["meta"].attrs["dataset_provenance"]) == "cifar10":
        return "CIFAR-10 (the paper's data)"
    return STAND_IN


def posterior(f, out_dir):
    order = plotting.strings(f["summary/accuracy/setting"])
    settings = [s for s in order if s in f["figure"]]
    fig, axes = plt.subplots(1, len(settings), figsize=(5 * len(settings), 3.6), squeeze=False)
    for ax, s in zip(axes[0], settings):
        g = f["figure"][s]
        eps, dens = g["eps"][...], g["density"][...]
        lo, up = float(g.attrs["lower"]), float(g.attrs["upper"])
        ax.plot(eps, dens, color="C0", label="posterior density of eps")
        inside = (eps >= lo) & (eps <= up)
        ax.fill_between(eps[inside], dens[inside], color="C0", alpha=0.25,
                        label=f"90% interval ({lo:.2f}, {up:.2f})")
        theory = float(g.attrs["eps_theory"])
        if np.isfinite(theory):
            ax.axvline(theory, color="k", ls="--", label=f"theoretical eps = {theory:g}")
        ax.set_title(f"{s}: {plotting.text(g.attrs['counts'])}\n"
                     f"mass at eps = 0: {float(g.attrs['atom_at_zero']):.3f}", fontsize=9)
        ax.set_xlabel("eps")
        ax.set_ylabel("density")
        ax.legend(fontsize=7)
    fig.suptitle("Posterior of eps at the Bayesian method's selected threshold — "
                 f"{data_label(f)}", fontsize=10, y=1.08)
    plotting.save(fig, out_dir, "lira_bayes_audit_posterior", f)


def intervals(f, out_dir):
    t = f["summary/table2"]
    setting = plotting.strings(t["setting"])
    selection = plotting.strings(t["selection"])
    method = plotting.strings(t["method"])
    lower, upper = t["lower"][...], t["upper"][...]
    settings = list(dict.fromkeys(setting))
    methods = [m for m in dict.fromkeys(method) if not m.endswith("one_sided")]
    selections = ["max_lower", "split_half", "bonferroni"]
    fig, axes = plt.subplots(1, len(settings), figsize=(5 * len(settings), 3.6), squeeze=False)
    for ax, s in zip(axes[0], settings):
        finite = [v for i, v in enumerate(upper) if setting[i] == s and np.isfinite(v)]
        ymax = max([1.0] + finite + [lower[i] for i in range(len(setting)) if setting[i] == s])
        for mi, m in enumerate(methods):
            for si, sel in enumerate(selections):
                rows = [i for i in range(len(setting))
                        if setting[i] == s and method[i] == m and selection[i] == sel]
                if not rows:
                    continue
                i = rows[0]
                x = mi + (si - 1) * 0.25
                top = upper[i] if np.isfinite(upper[i]) else None
                ax.plot([x, x], [lower[i], top if top is not None else ymax * 1.1],
                        color=f"C{si}", lw=3, solid_capstyle="butt",
                        ls="-" if top is not None else ":",
                        label=sel if mi == 0 else None)
                ax.plot([x], [lower[i]], marker="_", color="k", ms=10)
        ax.set_xticks(range(len(methods)))
        ax.set_xticklabels(methods, fontsize=8)
        ax.set_ylim(0, ymax * 1.1)
        ax.set_ylabel("eps interval (dotted: upper end infinite)")
        ax.set_title(s, fontsize=9)
        ax.legend(fontsize=7, title="threshold selection", title_fontsize=7)
    fig.suptitle(f"Table 2 analogue: eps intervals by method and selection — {data_label(f)}",
                 fontsize=10, y=1.04)
    plotting.save(fig, out_dir, "lira_bayes_audit_intervals", f)


def main():
    f, out_dir = plotting.open_study()
    posterior(f, out_dir)
    intervals(f, out_dir)


if __name__ == "__main__":
    main()
