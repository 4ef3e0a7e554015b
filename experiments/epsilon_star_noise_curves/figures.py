"""Epsilon* paper, App. B, Fig. 3: the two ratio terms of Epsilon* against the
threshold, (a) from the exact CDFs, (b) from the eCDFs of simulated losses.

Reads only results/raw/epsilon_star_noise_curves.h5 (study B1); writes
epsilon_star_noise_curves.{png,svg}. Curves longer than MAX_POINTS are
thinned for drawing (evenly spaced points plus the END_POINTS points at each
end, where the maximum and the noise are); the file keeps every point.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
from results.plots import plotting  # noqa: E402

plt = plotting.plt
MAX_POINTS = 20000
END_POINTS = 2000


def thin(n):
    """Indices of at most MAX_POINTS + 2 END_POINTS points of a length-n curve."""
    if n <= MAX_POINTS + 2 * END_POINTS:
        return np.arange(n)
    middle = np.linspace(END_POINTS, n - END_POINTS - 1, MAX_POINTS).astype(int)
    return np.unique(np.concatenate([np.arange(END_POINTS), middle,
                                     np.arange(n - END_POINTS, n)]))


def positive(x):
    """Terms <= 0 (numerator 1 - delta - rate <= 0) cannot be drawn on a log axis."""
    x = np.asarray(x, dtype=float)
    return np.where(x > 0, x, np.nan)


def main():
    f, out_dir = plotting.open_study()
    ex, em = f["exact"], f["empirical"]
    floor = float(ex.attrs["rate_floor"])
    n = int(em.attrs["n"])
    m = int(ex.attrs["quantiles_per_distribution"])
    train = plotting.text(f["samples"].attrs["train"])
    pop = plotting.text(f["samples"].attrs["population"])
    eps_exact = float(f["numbers/noise_curves_exact_epsilon_star"][()])
    eps_emp = float(f["numbers/noise_curves_empirical_epsilon_star"][()])

    fig, axes = plt.subplots(1, 2, figsize=(12, 4.8), sharex=True, sharey=True)
    # (a) exact
    ax = axes[0]
    i = thin(len(ex["threshold"]))
    tau = ex["threshold"][...][i]
    ax.plot(tau, positive(ex["term1"][...][i]), color="tab:blue", lw=1.5,
            label="term1 = (1-δ-FPR)/FNR")
    ax.plot(tau, positive(ex["term2"][...][i]), color="tab:orange", lw=1.5,
            label="term2 = (1-δ-FNR)/FPR")
    ax.set_title(f"(a) exact CDFs, 2m = {2 * m:,} quantile thresholds\n"
                 f"Epsilon* = log max = {eps_exact:.2f} (set by the floor {floor:g})", fontsize=10)
    # (b) empirical, with the exact terms at the same thresholds for reference
    ax = axes[1]
    i = thin(len(em["threshold"]))
    tau = em["threshold"][...][i]
    ax.plot(tau, positive(em["term1"][...][i]), color="tab:blue", lw=0.8,
            label="term1, eCDFs")
    ax.plot(tau, positive(em["term2"][...][i]), color="tab:orange", lw=0.8,
            label="term2, eCDFs")
    ax.plot(tau, positive(em["exact_term1"][...][i]), color="k", lw=0.8, ls="--",
            label="exact terms at the same thresholds")
    ax.plot(tau, positive(em["exact_term2"][...][i]), color="k", lw=0.8, ls="--")
    ax.set_title(f"(b) eCDFs of n = {n:,} simulated losses per distribution\n"
                 f"Epsilon* = log max = {eps_emp:.2f}", fontsize=10)
    for ax in axes:
        ax.set_yscale("log")
        ax.set_xlabel("threshold τ (loss; member iff loss ≤ τ)")
        ax.grid(True, which="major", alpha=0.3)
        ax.legend(fontsize=8, loc="upper center")
    axes[0].set_ylabel("ratio term of Eq. 7 (log scale)")
    axes[1].tick_params(labelleft=True)
    claims = f["claims"]
    verdicts = ", ".join(
        f"{k.replace('epsilon_star_noise_curves_', '')}: "
        f"{'holds' if int(claims[k].attrs['holds']) else 'does NOT hold'}" for k in sorted(claims))
    fig.suptitle(
        f"Epsilon* Fig. 3: ratio terms vs threshold, train {train}, population {pop}; "
        f"rates < {floor:g} removed\n"
        f"Paper (qualitative only): most noise and most signal at the very ends of the FNR/FPR "
        f"arrays; the maximum occurs in the noisiest part. Here: {verdicts}",
        fontsize=9)
    fig.tight_layout(rect=(0, 0.02, 1, 0.93))
    plotting.save(fig, out_dir, "epsilon_star_noise_curves", f)


if __name__ == "__main__":
    main()
