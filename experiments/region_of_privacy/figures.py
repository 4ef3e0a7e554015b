"""Erlingsson et al. Fig. 1-2 and Table 1 (study C1 region_of_privacy).

Reads results/raw/region_of_privacy.h5 only; writes
  region_of_privacy.{png,svg}         the region of privacy (Fig. 1-2): per
      training noise multiplier, the Prop. 3 lower bound from the
      best-threshold attack and the RDP upper bound, the region between them
      shaded; also the naive / advanced upper bounds, the lower bound at 5%
      FPR (Table 2's), the sample-size floor of the best-threshold bound, and
      the paper's Table 1-2 values as markers ("paper");
  region_of_privacy_table1.{png,svg}  Table 1's accuracy relative to the
      non-private baseline and attack TPR at 5% FPR against the noise, every
      repetition shown, with the paper's values as markers.
The paper's numbers are about the real Purchase-100 trained by Jayaraman &
Evans (Adam, shuffled batches); on purchase100-surrogate they are shown for
orientation only.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
from results.plots import plotting  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402

# Erlingsson et al. Table 1 and Table 2 (sigma 136.67 ... 0.44).
PAPER_SIGMA = np.array([136.67, 13.76, 6.99, 1.06, 0.44])
PAPER_ACC_REL = np.array([1.9, 7.0, 14, 71, 92])          # % of the baseline
PAPER_TPR = np.array([5, 5.3, 5.6, 7.8, 8.9])             # % at 5% FPR
PAPER_NAIVE = np.array([4.07, 51.2, 125, 8421, 44770])
PAPER_ADVANCED = np.array([0.31, 4.23, 12.3, 37722, 3.5e8])
PAPER_RDP = np.array([0.05, 0.5, 1, 10, 100])
PAPER_LOWER = np.array([0, 0.003, 0.006, 0.04, 0.05])     # Table 2, from TPR at 5% FPR


def prop3(adv, delta):
    adv = np.asarray(adv, dtype=float)
    return np.maximum(0.0, np.log((1 - delta) / (1 - adv)))


def region_figure(f, out_dir, data):
    sigma = f["settings/noise_multiplier"][...]
    delta = float(f["settings"].attrs["delta"])
    reps = int(f["settings"].attrs["repetitions"])
    acc = f["accounting"]
    rdp = acc["table_one_orders/rdp/epsilon"][...]
    rdp_def = acc["default_orders/rdp/epsilon"][...]
    adv = acc["table_one_orders/advanced/epsilon"][...]
    naive = acc["table_one_orders/naive/epsilon"][...]
    upper = np.minimum(rdp, rdp_def)
    lower = f["aggregate/eps_lower_best_advantage"][...]
    lower_t = f["aggregate/eps_lower_target_fpr"][...]
    per_rep = f["dp/eps_lower_best_advantage"][...]
    floor = prop3(float(f["aggregate/null_best_advantage_mean"][()]), delta)
    floor95 = prop3(float(f["aggregate/null_best_advantage_q95"][()]), delta)

    fig, ax = plt.subplots(figsize=(9, 6.5))
    positive = lower > 0
    ymin = 1e-3
    ax.fill_between(sigma, np.where(positive, lower, ymin), upper, color="tab:green",
                    alpha=0.18, label="region of privacy (between the bounds)")
    ax.plot(sigma, upper, "o-", color="tab:green", lw=2, label="upper: RDP (ours)")
    if "table_one_orders/pld/epsilon" in acc:
        ax.plot(sigma, acc["table_one_orders/pld/epsilon"][...], "D-", color="tab:purple",
                label="upper: PLD accountant (ours)")
    ax.plot(sigma, adv, "s--", color="tab:orange", label="upper: advanced composition (ours)")
    ax.plot(sigma, naive, "^-.", color="tab:red", label="upper: naive composition (ours)")
    ax.plot(sigma[positive], lower[positive], "o-", color="tab:blue", lw=2,
            label=f"lower: Prop. 3, best-threshold advantage (ours, mean of {reps})")
    for r in range(per_rep.shape[1]):
        ok = per_rep[:, r] > 0
        ax.plot(sigma[ok], per_rep[ok, r], ".", color="tab:blue", alpha=0.5,
                label="  single repetitions" if r == 0 else None)
    ok = lower_t > 0
    ax.plot(sigma[ok], lower_t[ok], "v:", color="tab:cyan",
            label="lower: Prop. 3 at 5% FPR (ours; Table 2's method)")
    ax.axhspan(ymin, floor95, color="gray", alpha=0.12,
               label="best-threshold bound of one repetition WITHOUT leakage\n"
                     "(95% quantile; dotted: mean): a sample-size floor")
    ax.axhline(floor, color="gray", ls=":", lw=1)
    # The paper's values.
    ax.plot(PAPER_SIGMA, PAPER_RDP, "o", mfc="none", mec="black", ms=10,
            label="paper: RDP (Table 1-2)")
    ax.plot(PAPER_SIGMA, PAPER_ADVANCED, "s", mfc="none", mec="black", ms=9,
            label="paper: advanced")
    ax.plot(PAPER_SIGMA, PAPER_NAIVE, "^", mfc="none", mec="black", ms=9, label="paper: naive")
    pos = PAPER_LOWER > 0
    ax.plot(PAPER_SIGMA[pos], PAPER_LOWER[pos], "v", mfc="none", mec="black", ms=10,
            label="paper: lower bound (Table 2)")
    for s in PAPER_SIGMA[~pos]:
        ax.annotate("paper: 0", xy=(s, ymin), xytext=(s * 0.45, ymin * 1.6), ha="center",
                    fontsize=8,
                    arrowprops=dict(arrowstyle="->", color="black"))
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_ylim(ymin, max(1e9, 2 * np.nanmax(adv[np.isfinite(adv)])))
    ax.set_xlabel("DP-SGD noise multiplier $\\sigma$ (noise std / clip norm)")
    ax.set_ylabel(f"$\\varepsilon$ at $\\delta$ = {delta:g}")
    q = float(acc.attrs["q"])
    steps = int(acc.attrs["steps"])
    ax.set_title("Region of privacy (Erlingsson et al. Fig. 1-2)\n"
                 f"logistic regression on {data}; Poisson q = {q:g}, {steps} steps; "
                 f"{reps} repetitions", fontsize=10)
    ax.grid(True, which="major", alpha=0.3)
    ax.legend(fontsize=7.5, loc="upper right", ncol=1, framealpha=0.9)
    plotting.save(fig, out_dir, "region_of_privacy", f)


def table1_figure(f, out_dir, data):
    sigma = f["settings/noise_multiplier"][...]
    reps = int(f["settings"].attrs["repetitions"])
    target = float(f["settings"].attrs["target_fpr"])
    base_acc = f["baseline/train_accuracy"][...].mean()
    acc = f["dp/train_accuracy"][...]
    rel = f["aggregate/accuracy_rel_baseline"][...]
    tpr = f["dp/tpr_at_target_fpr"][...]
    tpr_mean = f["aggregate/tpr_at_target_fpr_mean"][...]
    tpr_se = f["aggregate/tpr_at_target_fpr_se"][...]
    base_tpr = f["baseline/tpr_at_target_fpr"][...].mean()

    fig, (a1, a2) = plt.subplots(1, 2, figsize=(12, 5))
    for r in range(acc.shape[1]):
        a1.plot(sigma, 100 * acc[:, r] / base_acc, ".", color="tab:blue", alpha=0.5,
                label="single repetitions" if r == 0 else None)
    a1.plot(sigma, 100 * rel, "o-", color="tab:blue", lw=2, label=f"ours (mean of {reps})")
    a1.plot(PAPER_SIGMA, PAPER_ACC_REL, "D", mfc="none", mec="black", ms=9,
            label="paper (Table 1, real Purchase-100)")
    a1.set_ylabel("training accuracy relative to the non-private model (%)")
    a1.set_title(f"Accuracy (non-private training accuracy {100 * base_acc:.1f}%)", fontsize=10)
    for r in range(tpr.shape[1]):
        a2.plot(sigma, 100 * tpr[:, r], ".", color="tab:red", alpha=0.5,
                label="single repetitions" if r == 0 else None)
    a2.errorbar(sigma, 100 * tpr_mean, yerr=200 * tpr_se, fmt="o-", color="tab:red", lw=2,
                capsize=3, label=f"ours (mean $\\pm$ 2 se, {reps} repetitions)")
    a2.plot(PAPER_SIGMA, PAPER_TPR, "D", mfc="none", mec="black", ms=9,
            label="paper (Table 1, real Purchase-100)")
    a2.axhline(100 * target, color="gray", ls=":", lw=1, label="TPR = FPR (no leakage)")
    a2.axhline(100 * base_tpr, color="tab:red", ls="--", lw=1,
               label=f"non-private model ({100 * base_tpr:.1f}%)")
    a2.set_ylabel(f"loss-threshold attack TPR at {100 * target:g}% FPR (%)")
    a2.set_title("Attack success (Yeom et al., threshold set on the non-members)", fontsize=10)
    for a in (a1, a2):
        a.set_xscale("log")
        a.set_xlabel("DP-SGD noise multiplier $\\sigma$")
        a.grid(True, which="both", alpha=0.3)
        a.legend(fontsize=8)
    fig.suptitle(f"Erlingsson et al. Table 1 re-run on {data}", fontsize=11)
    plotting.save(fig, out_dir, "region_of_privacy_table1", f)


def main():
    f, out_dir = plotting.open_study()
    prov = plotting.text(f["meta"].attrs["dataset_provenance"])
    data = prov + (" (synthetic stand-in; paper markers are real Purchase-100)"
                   if prov == "purchase100-surrogate" else "")
    region_figure(f, out_dir, data)
    table1_figure(f, out_dir, data)


if __name__ == "__main__":
    main()
