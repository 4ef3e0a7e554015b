"""Epsilon* paper, App. B.1, Fig. 4: Epsilon* (mean +- sd over repetitions)
against the loss sample size n when train and population losses share one
Gamma distribution (true Epsilon* = 0).

Reads only results/raw/epsilon_star_identical.h5 (study B2); writes
epsilon_star_identical.{png,svg}: left, each estimator on its own rate
window (primary analysis); right, every estimator on the common window.
The paper gives no numbers for this figure; its two observations are quoted
in the title with this run's verdicts.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
from results.plots import plotting  # noqa: E402

plt = plotting.plt
COLORS = {"empirical": "tab:blue", "parametric": "tab:orange"}
TITLES = {"primary": "each estimator on its own window (primary)",
          "common_window": "every estimator on a common window (secondary)"}


def verdict(claims, cid):
    return "holds" if int(claims[cid].attrs["holds"]) else "does NOT hold"


def main():
    f, out_dir = plotting.open_study()
    n = f["settings/n"][...].astype(float)
    names = plotting.strings(f["estimators"])
    analyses = plotting.strings(f["analyses"])
    reps = int(f["settings"].attrs["repetitions"])
    dist = plotting.text(f["settings"].attrs["distribution"])
    fig, axes = plt.subplots(1, len(analyses), figsize=(6 * len(analyses), 4.6), sharey=True)
    axes = np.atleast_1d(axes)
    for ax, a in zip(axes, analyses):
        for k, e in enumerate(names):
            g = f[a][e]
            mean, sd = g["mean"][...], g["sd"][...]
            # Small horizontal offsets so the error bars do not overlap.
            x = n * (1.0 + 0.06 * (k - (len(names) - 1) / 2))
            ax.errorbar(x, mean, yerr=sd, marker="o", capsize=4, lw=1.5,
                        color=COLORS.get(e), label=f"{e}, window {plotting.text(g.attrs['window'])}")
        ax.axhline(0.0, color="k", lw=1.2, ls="--", label="exact (true Epsilon* = 0)")
        ax.set_xscale("log")
        ax.set_xlabel("loss sample size n (train and population each)")
        ax.set_title(TITLES.get(a, a), fontsize=10)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
    axes[0].set_ylabel(f"Epsilon* (mean ± sd over {reps} repetitions)")
    claims = f["claims"]
    p = "epsilon_star_identical_"
    fig.suptitle(
        f"Epsilon* Fig. 4: identical loss distributions, train = population = {dist}\n"
        f"Paper (qualitative only): (1) parametric closer to 0 than empirical — here "
        f"{verdict(claims, p + 'parametric_closer')} (primary), "
        f"{verdict(claims, p + 'parametric_closer_common_window')} (common window); "
        f"(2) both shrink with n — here {verdict(claims, p + 'both_shrink')} / "
        f"{verdict(claims, p + 'both_shrink_common_window')}",
        fontsize=9)
    fig.tight_layout(rect=(0, 0.02, 1, 0.92))
    plotting.save(fig, out_dir, "epsilon_star_identical", f)


if __name__ == "__main__":
    main()
