"""Bayesian paper Fig. 5: interval width over a grid of (FPR, FNR), n = 1000.

Reads results/raw/bayes_width_grid.h5 only and writes two figures:
  bayes_width_grid_widths     heat maps of the width of every two-sided
                              registered estimator (shared log colour scale);
  bayes_width_grid_reduction  heat maps of the Bayesian width reduction vs
                              Clopper-Pearson and vs Jeffreys, with the
                              published ranges in the titles, contours at the
                              published bounds and the sub-grid boxes drawn.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
from results.plots import plotting  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.colors import LogNorm  # noqa: E402
from matplotlib.patches import Rectangle  # noqa: E402

PUBLISHED = {  # Bayesian paper Sec. 3.4, "for the FPR and FNR ranges in Figure 5"
    "clopper_pearson": (36, 52),
    "jeffreys": (20, 32),
}
PRETTY = {"clopper_pearson": "Clopper-Pearson", "jeffreys": "Jeffreys"}


def edges(v):
    """Cell edges for pcolormesh from cell centres."""
    if len(v) == 1:
        return np.array([v[0] - 0.005, v[0] + 0.005])
    mid = (v[1:] + v[:-1]) / 2
    return np.concatenate([[v[0] - (mid[0] - v[0])], mid, [v[-1] + (v[-1] - mid[-1])]])


def grid_note(f):
    vals = dict(line.split(" = ", 1) for line in plotting.text(f["meta"].attrs["config"]).splitlines()
                if " = " in line)
    return (f"n = {vals.get('n')} ({int(vals.get('n')) // 2} + {int(vals.get('n')) // 2}), "
            f"alpha = {vals.get('alpha')}, delta = {vals.get('delta')}, "
            f"{int(f['valid'][...].sum())} grid points"
            + (", FPR + FNR < 1" if vals.get("below_chance_only") == "true" else ""))


def main():
    f, out_dir = plotting.open_study()
    fpr, fnr = f["fpr"][...], f["fnr"][...]
    xe, ye = edges(fpr), edges(fnr)
    methods = [m for m in plotting.strings(f["methods"])
               if int(f["intervals"][m].attrs["one_sided"]) == 0]
    note = grid_note(f)

    # Widths.
    widths = {m: np.ma.masked_invalid(f["intervals"][m]["width"][...]) for m in methods}
    finite = np.concatenate([w.compressed() for w in widths.values()])
    finite = finite[np.isfinite(finite) & (finite > 0)]
    norm = LogNorm(vmin=finite.min(), vmax=finite.max())
    ncol = len(methods)
    fig, axes = plt.subplots(1, ncol, figsize=(4.2 * ncol, 4.6), squeeze=False)
    for ax, m in zip(axes[0], methods):
        w = widths[m]
        mesh = ax.pcolormesh(xe, ye, w.T, norm=norm, cmap="viridis", shading="flat")
        ax.set_title(f"{plotting.text(f['intervals'][m].attrs['label'])}\n"
                     f"width {w.min():.3f} to {w.max():.3f}", fontsize=10)
        ax.set_xlabel("FPR")
        ax.set_aspect("equal")
    axes[0][0].set_ylabel("FNR")
    cb = fig.colorbar(mesh, ax=axes[0].tolist(), shrink=0.85,
                      label="interval width, upper - lower (nats, log scale)")
    ticks = [t for t in (0.1, 0.15, 0.2, 0.3, 0.5, 0.75, 1, 1.5, 2, 3, 5, 10)
             if norm.vmin <= t <= norm.vmax]
    cb.set_ticks(ticks)
    cb.set_ticklabels([f"{t:g}" for t in ticks])
    cb.minorticks_off()
    fig.suptitle("90% interval width over (FPR, FNR) (Bayesian paper Fig. 5); "
                 "one-sided methods have no width\n" + note, fontsize=10)
    plotting.save(fig, out_dir, "bayes_width_grid_widths", f)

    # Reductions.
    fig, axes = plt.subplots(1, 2, figsize=(11.5, 5.4))
    names = plotting.strings(f["subgrids/name"])
    boxes = list(zip(names, f["subgrids/fpr_lo"][...], f["subgrids/fpr_hi"][...],
                     f["subgrids/fnr_lo"][...], f["subgrids/fnr_hi"][...]))
    for ax, ref in zip(axes, ["clopper_pearson", "jeffreys"]):
        r = np.ma.masked_invalid(f["reduction"]["vs_" + ref][...])
        lo, hi = PUBLISHED[ref]
        mesh = ax.pcolormesh(xe, ye, r.T, cmap="magma", vmin=10, vmax=60, shading="flat")
        cs = ax.contour(fpr, fnr, r.T.filled(np.nan), levels=[lo, hi], colors=["cyan", "white"],
                        linewidths=1.2)
        ax.clabel(cs, fmt="%d%%", fontsize=8)
        for name, x0, x1, y0, y1 in boxes:
            if name == "all":
                continue
            ax.add_patch(Rectangle((x0, y0), x1 - x0, y1 - y0, fill=False, ls="--", lw=1.0,
                                   ec="lightgray"))
            ax.text(x0 + 0.01, y1 - 0.01, name, fontsize=6, color="lightgray", va="top")
        ax.set_title(f"Bayesian width reduction vs {PRETTY[ref]}\n"
                     f"here {r.min():.1f}% to {r.max():.1f}%; paper: {lo}% to {hi}%",
                     fontsize=10)
        ax.set_xlabel("FPR")
        ax.set_ylabel("FNR")
        ax.set_xlim(xe[0], xe[-1])
        ax.set_ylim(ye[0], ye[-1])
        ax.set_aspect("equal")
        fig.colorbar(mesh, ax=ax, shrink=0.8,
                     label="100 (1 - W_bayesian / W_ref)  (%)")
    fig.suptitle("Width reduction of the Bayesian interval (Bayesian paper Fig. 5, Sec. 3.4)\n"
                 f"contours at the published bounds (cyan: lower, white: upper; absent = not reached); dashed boxes: sub-grids\n{note}",
                 fontsize=10)
    plotting.save(fig, out_dir, "bayes_width_grid_reduction", f)


if __name__ == "__main__":
    main()
