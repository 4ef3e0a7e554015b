"""The figure helpers of the Epsilon* sweep studies (the privacy-utility
landscape with its marginals, the Epsilon* variants per model, the claim and
data captions), shared by their figures.py scripts."""
import numpy as np

from results.plots import plotting

plt = plotting.plt

DP_MARKERS = {1: "o", 32: "^"}


def load(f):
    """Per-configuration arrays of the study file."""
    c = f["configs"]
    d = {
        "label": plotting.strings(c["label"]),
        "kind": plotting.strings(c["kind"]),
        "epochs": c["epochs"][...],
        "target": c["target_eps"][...],
        "mb": c["num_microbatches"][...],
        "batch": c["batch_size"][...],
        "x": c["epsilon_star/parametric/mean"][...],
        "xmin": c["epsilon_star/parametric/min"][...],
        "xmax": c["epsilon_star/parametric/max"][...],
        "y": c["utility/mean"][...],
        "ymin": c["utility/min"][...],
        "ymax": c["utility/max"][...],
        "pareto": c["pareto"][...].astype(bool),
        "convex": c["pareto_convex"][...].astype(bool),
    }
    return d


BASELINE_COLORS = ["#fee08b", "#fdae61", "#f46d43", "#d73027", "#a50026"]
DP_COLORS = ["#1f78b4", "#6a3d9a", "#33a02c", "#17becf", "#b15928", "#e7298a"]


def strategy_colors(d):
    """Baselines: yellow to dark red by epochs; DP: distinct hues by target eps."""
    colors = [None] * len(d["kind"])
    base_epochs = sorted({int(e) for e, k in zip(d["epochs"], d["kind"]) if k == "baseline"})
    dp_eps = sorted({float(t) for t, k in zip(d["target"], d["kind"]) if k == "dp"})
    bmap, dmap = plt.get_cmap("YlOrRd"), plt.get_cmap("viridis")
    for i, k in enumerate(d["kind"]):
        if k == "baseline":
            j = base_epochs.index(int(d["epochs"][i]))
            colors[i] = (BASELINE_COLORS[j + (1 if len(base_epochs) < 5 else 0)]
                         if len(base_epochs) <= 4 else bmap(0.3 + 0.7 * j / (len(base_epochs) - 1)))
        else:
            j = dp_eps.index(float(d["target"][i]))
            colors[i] = DP_COLORS[j] if len(dp_eps) <= len(DP_COLORS) else dmap(j / (len(dp_eps) - 1))
    return colors, base_epochs, dp_eps


def marginal(ax, values, color, label, orientation, lo, hi):
    """KDE of `values` (histogram if fewer than 3 distinct finite values)."""
    v = np.asarray([x for x in values if np.isfinite(x)])
    if len(v) == 0:
        return
    grid = np.linspace(lo, hi, 300)
    if len(np.unique(v)) >= 3:
        from scipy.stats import gaussian_kde
        dens = gaussian_kde(v)(grid)
        if orientation == "vertical":
            ax.fill_between(grid, dens, color=color, alpha=0.3, label=label)
            ax.plot(grid, dens, color=color, lw=1)
        else:
            ax.fill_betweenx(grid, dens, color=color, alpha=0.3, label=label)
            ax.plot(dens, grid, color=color, lw=1)
    else:
        bins = np.linspace(lo, hi, 25)
        ax.hist(v, bins=bins, color=color, alpha=0.4, density=True, label=label + " (histogram)",
                orientation=orientation)


def landscape(f, out_dir, name, title, xlabel, ylabel, reference=None):
    """The privacy-utility figure. `reference(ax)` draws the paper's values and
    returns the (x, y) points it drew, which the axes limits then include."""
    d = load(f)
    colors, base_epochs, dp_eps = strategy_colors(d)
    fig = plt.figure(figsize=(9.5, 10))
    gs = fig.add_gridspec(2, 2, width_ratios=(4, 1), height_ratios=(1, 4), hspace=0.05,
                          wspace=0.05)
    ax = fig.add_subplot(gs[1, 0])
    top = fig.add_subplot(gs[0, 0], sharex=ax)
    right = fig.add_subplot(gs[1, 1], sharey=ax)
    n = len(d["kind"])
    for i in range(n):
        if not (np.isfinite(d["x"][i]) and np.isfinite(d["y"][i])):
            continue
        base = d["kind"][i] == "baseline"
        marker = "s" if base else DP_MARKERS.get(int(d["mb"][i]), "D")
        ax.errorbar(d["x"][i], d["y"][i],
                    xerr=[[d["x"][i] - d["xmin"][i]], [d["xmax"][i] - d["x"][i]]],
                    yerr=[[d["y"][i] - d["ymin"][i]], [d["ymax"][i] - d["y"][i]]],
                    fmt=marker, color=colors[i], ecolor=colors[i], elinewidth=0.8, capsize=2,
                    markersize=8 if base else 6, markeredgecolor="k" if base else colors[i],
                    alpha=0.9, zorder=3)
    # Pareto frontier: staircase through the non-dominated points.
    idx = [i for i in range(n) if d["pareto"][i]]
    idx.sort(key=lambda i: (d["x"][i], d["y"][i]))
    if idx:
        px, py = [d["x"][i] for i in idx], [d["y"][i] for i in idx]
        ax.step(px, py, where="post", color="k", lw=1.2, ls="--", zorder=2,
                label="Pareto frontier (non-dominated)")
        cx = [d["x"][i] for i in idx if d["convex"][i]]
        cy = [d["y"][i] for i in idx if d["convex"][i]]
        ax.plot(cx, cy, color="k", lw=0.8, alpha=0.6, zorder=2)
        ax.scatter(cx, cy, s=230, facecolors="none", edgecolors="k", linewidths=1.4, zorder=4,
                   label="convex-hull frontier (the paper's definition)")
    ref_x, ref_y = [], []
    if reference is not None:
        for rx, ry in reference(ax) or []:
            ref_x.append(rx)
            ref_y.append(ry)
    # Legend: strategies and markers.
    handles = []
    for e in base_epochs:
        i = next(i for i in range(n) if d["kind"][i] == "baseline" and int(d["epochs"][i]) == e)
        handles.append(plt.Line2D([], [], marker="s", ls="", color=colors[i], markeredgecolor="k",
                                  label=f"baseline, {e} epoch{'s' if e != 1 else ''}"))
    for t in dp_eps:
        i = next(i for i in range(n) if d["kind"][i] == "dp" and float(d["target"][i]) == t)
        handles.append(plt.Line2D([], [], marker="o", ls="", color=colors[i],
                                  label=f"DP-SGD, target eps = {t:g}"))
    mbs = sorted({int(m) for m, k in zip(d["mb"], d["kind"]) if k == "dp"})
    for m in mbs:
        handles.append(plt.Line2D([], [], marker=DP_MARKERS.get(m, "D"), ls="", color="gray",
                                  label=f"DP marker: {m} microbatch{'es' if m != 1 else ''}"))
    h2, l2 = ax.get_legend_handles_labels()
    ax.legend(handles=handles + h2, fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.09),
              ncol=2, framealpha=0.9)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.grid(True, alpha=0.3)
    # Marginal densities of the configuration means, DP vs baseline.
    xs = np.concatenate([d["x"], d["xmin"], d["xmax"], ref_x])
    ys = np.concatenate([d["y"], d["ymin"], d["ymax"], ref_y])
    xlo, xhi = np.nanmin(xs), np.nanmax(xs)
    ylo, yhi = np.nanmin(ys), np.nanmax(ys)
    padx, pady = 0.05 * (xhi - xlo or 1), 0.05 * (yhi - ylo or 1)
    xlo, xhi, ylo, yhi = xlo - padx, xhi + padx, ylo - pady, yhi + pady
    for k, col, lab in (("dp", "tab:blue", "DP-SGD"), ("baseline", "tab:orange", "baseline")):
        sel = [i for i in range(n) if d["kind"][i] == k]
        marginal(top, d["x"][sel], col, lab, "vertical", xlo, xhi)
        marginal(right, d["y"][sel], col, lab, "horizontal", ylo, yhi)
    ax.set_xlim(xlo, xhi)
    ax.set_ylim(ylo, yhi)
    top.set_ylabel("density", fontsize=8)
    right.set_xlabel("density", fontsize=8)
    top.legend(fontsize=7, loc="upper right")
    plt.setp(top.get_xticklabels(), visible=False)
    plt.setp(right.get_yticklabels(), visible=False)
    top.tick_params(labelsize=7)
    right.tick_params(labelsize=7)
    fig.suptitle(title, fontsize=10)
    fig.subplots_adjust(top=0.88, bottom=0.2)
    plotting.save(fig, out_dir, name, f)


def claim_text(f, cid):
    if f"claims/{cid}" not in f:
        return "not checked at this scale"
    return "holds" if int(f["claims"][cid].attrs["holds"]) else "does NOT hold"


def variants_figure(f, out_dir, name, title):
    """Per model: parametric (both windows) vs empirical Epsilon*."""
    m = f["models"]
    emp = m["epsilon_star/empirical"][...]
    par = m["epsilon_star/parametric"][...]
    com = m["epsilon_star/parametric_common_window"][...]
    kinds = plotting.strings(f["configs/kind"])
    ci = m["config_index"][...]
    is_dp = np.array([kinds[c] == "dp" for c in ci])
    fig, ax = plt.subplots(figsize=(6.5, 5.5))
    for sel, mk, lab in ((~is_dp, "s", "baseline"), (is_dp, "o", "DP-SGD")):
        ax.scatter(emp[sel], par[sel], marker=mk, color="tab:red", alpha=0.6,
                   label=f"parametric, window [1e-6, 1-1e-6] ({lab})")
        ax.scatter(emp[sel], com[sel], marker=mk, color="tab:green", alpha=0.6,
                   label=f"parametric, window [0.001, 0.999] ({lab})")
    allv = [emp, par, com]
    if "epsilon_star/parametric_delta0" in m:  # the sensitivity at Epsilon* delta = 0
        zero = m["epsilon_star/parametric_delta0"][...]
        ax.scatter(emp, zero, marker=".", color="tab:gray", alpha=0.5,
                   label="parametric, window [1e-6, 1-1e-6], Epsilon* delta = 0 (sensitivity)")
        allv.append(zero)
    hi = np.nanmax(np.concatenate(allv)) * 1.05
    ax.plot([0, hi], [0, hi], "k--", lw=1, label="y = x")
    ax.set_xlabel("empirical Epsilon* (eCDFs, rates in (0.001, 0.999))")
    ax.set_ylabel("parametric Epsilon*")
    ax.set_xlim(0, hi)
    ax.set_ylim(0, hi)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=7)
    ax.set_title(title, fontsize=9)
    fig.tight_layout(rect=(0, 0.02, 1, 1))
    plotting.save(fig, out_dir, name, f)


def data_text(f):
    m = f["meta"].attrs
    return (f"{plotting.text(m['dataset_provenance'])}, {int(m['n_train'])} training / "
            f"{int(m['n_population'])} population rows")
