"""The pld accountant against an independent computation (NumPy/SciPy).

usage: pld_reference_test.py <epsilon_cli binary>

For TF Privacy's MNIST DP-SGD setting (q = 256/60000, sigma = 1.1, 14,063
steps, delta = 1e-5) the privacy loss of one step of the remove direction
(P = (1-q) N(0, s^2) + q N(1, s^2), Q = N(0, s^2)) is discretised on a grid
of 2e-6 by PLAIN rounding, down (optimistic: a lower bound on the true eps)
and up (pessimistic: an upper bound), and composed by NumPy's FFT. The true
eps lies in the bracket; the accountant's answer (connect-the-dots grid
1e-4, both directions; the remove direction is the worse here) must lie in
it too, and below RDP's. Nothing here shares code with the C++ accountant.
"""
import json
import subprocess
import sys

import numpy as np
from scipy import special

CLI = sys.argv[1]
Q, SIGMA, T, DELTA = 256 / 60000, 1.1, 14063, 1e-5
H = 2e-6
LO, HI = -4.0, 10.0  # composed window (mass outside: negligible here)


def step_masses():
    """P-mass of each loss interval (e_k, e_k+1] and of losses above the top."""
    i0 = int(np.floor(np.log(1 - Q) / H))
    i1 = int(np.ceil(6.0 / H))
    edges = np.arange(i0, i1 + 1) * H
    with np.errstate(divide="ignore", invalid="ignore"):
        x = SIGMA ** 2 * np.log((np.expm1(edges) + Q) / Q) + 0.5
    x[~np.isfinite(x)] = -np.inf

    def sf(z):
        return 0.5 * special.erfc(z / np.sqrt(2))

    above = (1 - Q) * sf(x / SIGMA) + Q * sf((x - 1) / SIGMA)
    return i0, -np.diff(above), above[-1]


def eps_for(masses, first_index, tail, n):
    a = np.zeros(n)
    np.add.at(a, np.arange(len(masses)) % n, masses)
    c = np.maximum(np.fft.irfft(np.fft.rfft(a) ** T, n=n), 0)
    start = int(np.floor(LO / H))
    w = c[np.arange(start - T * first_index, start - T * first_index + n) % n]
    losses = (start + np.arange(n)) * H
    inf_mass = 1 - (1 - tail) ** T

    def delta(e):
        sel = losses > e
        return inf_mass + np.sum(w[sel] * -np.expm1(e - losses[sel]))

    lo, hi = 0.0, 10.0
    for _ in range(50):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if delta(mid) > DELTA else (lo, mid)
    return hi


def cli(requests):
    out = subprocess.run([CLI, "batch"], input="\n".join(json.dumps(r) for r in requests) + "\n",
                         capture_output=True, text=True, check=True).stdout
    return [json.loads(line) for line in out.splitlines()]


def main():
    i0, masses, tail = step_masses()
    n = 1 << int(np.ceil(np.log2((HI - LO) / H)))
    lower = eps_for(masses, i0, tail, n)       # rounded down: optimistic
    upper = eps_for(masses, i0 + 1, tail, n)   # rounded up: pessimistic
    setting = {"sigma": SIGMA, "q": Q, "steps": T, "delta": DELTA}
    pld, rdp = cli([dict(op="accountant", method="pld", **setting),
                    dict(op="accountant", method="rdp", **setting)])
    print(f"independent bracket [{lower:.5f}, {upper:.5f}], pld {pld['epsilon']:.6f}, "
          f"rdp {rdp['epsilon']:.6f}")
    ok = lower <= pld["epsilon"] <= upper and pld["epsilon"] < rdp["epsilon"]
    if not ok:
        print("FAIL: pld outside the independent bracket or not below rdp")
        sys.exit(1)
    print("pld reference: OK")


if __name__ == "__main__":
    main()
