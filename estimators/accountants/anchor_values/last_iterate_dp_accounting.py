"""Reference values of the last-iterate heuristic from Google's dp_accounting.

    python3 -m venv /tmp/dpa && /tmp/dpa/bin/pip install dp-accounting==0.4.4 scipy
    /tmp/dpa/bin/python estimators/accountants/anchor_values/last_iterate_dp_accounting.py

dp_accounting has no last-iterate accountant, but its mixture-of-Gaussians
privacy loss distribution (pld.privacy_loss_distribution.
from_mixture_gaussian_mechanism: N(0, s^2) against sum_k p_k N(k, s^2), both
adjacency directions, eps = the larger) is exactly the heuristic's pair with
s = sigma sqrt(T) and p_k = Binomial(k; T, q) (Steinke et al., ICLR 2025).
Its PLD discretization (1e-4 here) is pessimistic, so its eps is at most a
few 1e-7 relative above the exact value. The printed values are the
references of last_iterate_heuristic_test.cc (MatchesDpAccountingPld);
binomial weights below 1e-30 are dropped (they move eps by far less).
"""
import sys, json
import numpy as np
from scipy import stats
from dp_accounting.pld import privacy_loss_distribution as pldlib
def heuristic(sigma, q, T, delta, disc=1e-4):
    ks = np.arange(0, T+1)
    w = stats.binom.pmf(ks, T, q)
    keep = w > 1e-30
    pld = pldlib.from_mixture_gaussian_mechanism(
        standard_deviation=sigma*np.sqrt(T), sensitivities=list(ks[keep].astype(float)),
        sampling_probs=list(w[keep]/w[keep].sum()), value_discretization_interval=disc)
    return pld.get_epsilon_for_delta(delta)
for sigma,q,T in [(1.0,0.01,1),(1.0,0.01,10),(1.0,0.01,100),(1.0,0.1,100),(2.0,0.1,1000),(1.0,1.0,10)]:
    print(json.dumps({"sigma":sigma,"q":q,"T":T,"eps":heuristic(sigma,q,T,1e-6)}))
