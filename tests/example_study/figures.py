"""Figure of the example study: P[output 1] for input 1 and input 0.

Reads only results/raw/example_study.h5; writes example_study.png/.svg.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
from results.plots import plotting  # noqa: E402

plt = plotting.plt


def main():
    f, out_dir = plotting.open_study()
    ones = f["counts/ones"][...]
    trials = int(plotting.text(f["meta"].attrs["config"]).split("trials = ")[1].split()[0])
    fig, ax = plt.subplots(figsize=(4, 3))
    ax.bar(["input 1", "input 0"], ones / trials, color=["C0", "C3"])
    ax.set_ylabel("P[output = 1]")
    ax.set_title("Randomized response")
    plotting.save(fig, out_dir, "example_study", f)


if __name__ == "__main__":
    main()
