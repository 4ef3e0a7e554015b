"""Figure of study one_run_audit (docs/studies.md): one-run eps lower bounds
of DP-SGD against the accountants (Steinke, Nasr & Jagielski, NeurIPS 2023,
Figs. 1-2 shape).

Reads only results/raw/one_run_audit.h5; writes one_run_audit.png/.svg.
x: the target eps of each run (RDP-calibrated noise; the non-private run at
the right edge); y: the RDP and PLD accountants' eps, the last-iterate
heuristic (Steinke et al., ICLR 2025; not a bound), and the best lower
bound of the white-box and input-space canaries (Bonferroni over the
(k+, k-) pairs). The paper's figures are on CIFAR-10: no values to overlay.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
from results.plots import plotting  # noqa: E402

plt = plotting.plt


def main():
    f, out_dir = plotting.open_study()
    target = f["runs/target_epsilon"][...]
    finite = np.isfinite(target)
    x = np.where(finite, target, (target[finite].max() * 2 if finite.any() else 1.0))
    rdp = np.where(finite, f["runs/eps_rdp"][...], np.nan)
    pld = np.where(finite, f["runs/eps_pld"][...], np.nan)
    fig, ax = plt.subplots(figsize=(7, 5))
    ax.plot(x, rdp, "o-", color="tab:green", label="upper: RDP accountant")
    ax.plot(x, pld, "D-", color="tab:purple", label="upper: PLD accountant")
    li = np.where(finite, f["runs/eps_last_iterate"][...], np.nan)
    ax.plot(x, li, "x:", color="tab:gray",
            label="last-iterate heuristic (linear losses; not a bound)")
    for kind, style in (("white_box", "s-"), ("input_space", "v--")):
        ax.plot(x, f[f"audit/{kind}/best_lower"][...], style,
                label=f"lower: one run, {kind.replace('_', '-')} canaries")
    ax.set_xscale("log", base=2)
    ticks = list(x)
    ax.set_xticks(ticks)
    ax.set_xticklabels([f"{t:g}" if np.isfinite(t) else "no DP" for t in target])
    ax.set_xlabel("target eps of the run (noise calibrated by RDP)")
    ax.set_ylabel("eps")
    ax.legend(fontsize=8)
    m = int(f["settings"].attrs["canaries"])
    ax.set_title(f"One-run audit of DP-SGD, m = {m} canaries per type (one model per eps)",
                 fontsize=10)
    fig.tight_layout()
    plotting.save(fig, out_dir, "one_run_audit", f)


if __name__ == "__main__":
    main()
