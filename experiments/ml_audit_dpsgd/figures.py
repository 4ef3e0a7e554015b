"""Figure of study ml_audit_dpsgd (README.md), like ML-Audit's Fig. 8
(Lu et al., NeurIPS 2022): eps_th against eps_lb on log-log axes for DP-SGD
on two Fashion-MNIST classes, one line per (attack, k) at the median over
replicates (Sec. 5 reports the median of 3), the line eps_lb = eps_th (the
claimed guarantee) and, per k, the detection ceiling
(ln N - z_{alpha/2} sqrt(1 - 1/N)) / g (Cor. 4.0.1; the bounds are divided
by the group size g: k appended copies, 2k for ClipBKD's flip_replace pair)
for the study's N, in the line style of that k's lines (colour: attack). The
paper prints no eps_lb as a number, so there is nothing to overlay.

Reads only results/raw/ml_audit_dpsgd.h5; writes ml_audit_dpsgd.png/.svg.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
from results.plots import plotting  # noqa: E402

plt = plotting.plt


def main():
    f, out_dir = plotting.open_study()
    g = f["audits"]
    attack = plotting.strings(g["attack"])
    eps_th, k, eps_lb = g["eps_th"][...], g["k"][...], g["eps_lb"][...]
    reps = len(set(g["replicate"][...])) if "replicate" in g else 1
    ceil = f["summary/detection_ceiling"]
    fig, ax = plt.subplots(figsize=(5.5, 4.2))
    xs = np.geomspace(eps_th.min(), eps_th.max(), 50) if eps_th.min() < eps_th.max() else \
        np.array([eps_th.min() * 0.8, eps_th.max() * 1.25])
    ax.plot(xs, xs, "k--", lw=0.8, label="eps_th (claimed)")
    colours = {a: f"C{i}" for i, a in enumerate(sorted(set(attack)))}
    dashes = ("-", "--", "-.", (0, (1, 1)), (0, (5, 1, 1, 1, 1, 1)))
    styles = {kk: dashes[i % len(dashes)] for i, kk in enumerate(sorted(set(k)))}
    # The table holds ceiling_z_alpha_2 = (ln N - z_{alpha/2} sqrt(1 - 1/N)) / g per (k, g).
    groups = ceil["group"][...] if "group" in ceil else ceil["k"][...]
    for n, kk, gg, z in sorted(set(zip(ceil["N"][...], ceil["k"][...], groups,
                                       ceil["ceiling_z_alpha_2"][...]))):
        ax.axhline(z, color="gray", lw=0.8, ls=styles.get(kk, ":"),
                   label=f"ceiling / g (N = {n}, k = {kk}, g = {gg})")
    for a in sorted(set(attack)):
        for kk in sorted(set(k)):
            sel = [i for i in range(len(attack)) if attack[i] == a and k[i] == kk]
            if not sel:
                continue
            x = np.array(sorted(set(eps_th[sel])))
            y = [np.median([eps_lb[i] for i in sel if eps_th[i] == e]) for e in x]
            ax.plot(x, np.maximum(y, 1e-3), ls=styles[kk], marker="o", color=colours[a], ms=3,
                    label=f"{a}, k = {kk}")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("eps_th (DP-SGD, RDP accountant)")
    ax.set_ylabel(f"eps_lb, median of {reps} replicate(s) (0 drawn at 1e-3)")
    ax.set_title("ML-Audit on DP-SGD, Fashion-MNIST 0 vs 1 (cf. Lu et al. Fig. 8)", fontsize=8)
    ax.legend(fontsize=6)
    plotting.save(fig, out_dir, "ml_audit_dpsgd", f)


if __name__ == "__main__":
    main()
