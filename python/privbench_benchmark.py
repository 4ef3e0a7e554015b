"""`import privbench` against the C++ binaries, side by side on this machine.

    bazel run //python:privbench_benchmark [-- --repeats=5 --rounds=2]

1. Epsilon* at paper scale (Negoescu et al. App. B.1: n = 10^6 train and
   10^6 population losses, 10^6 quantiles per distribution) from NumPy
   arrays, against //estimators/loss_samples:epsilon_star_benchmark on the
   same setting (train Gamma(1, 1), population Gamma(2, 1), delta = 0; the
   draws differ, the cost does not depend on them). Per variant: median CPU
   seconds per value of each side; the target is Python <= 1.2 x C++.
   The rounds alternate C++ and Python so that a change of load hits both;
   each side's best round is compared.
2. 10,000 intervals in one vectorised privbench.interval call against the
   same 10,000 requests as lines of one `epsilon_cli batch` process (as a
   Python user scripts it: write the JSON lines, run the CLI, parse the
   answers), per registered method; the target is less CPU time for Python
   (one thread) than for the CLI with its JSON. The Bayesian methods spend
   about 1 ms per interval computing in both, so there the saving is only
   the JSON; the wall time with one thread per core (privbench.interval's
   `threads`) is printed beside.

Prints the load average, every time and ratio, and a verdict per target;
exits 1 if a target is missed.
"""
import argparse
import json
import os
import re
import resource
import subprocess
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__))))
import privbench  # noqa: E402

CPP_LINE = re.compile(r"^(\w+)\s+Epsilon\* = ([0-9.]+)\s+median ([0-9.]+) s/value wall, "
                      r"([0-9.]+) s CPU")


def cpp_epsilon_star(binary, n, m, repeats, seed):
    """{variant: (value, wall s, CPU s)} from the C++ benchmark's medians."""
    out = subprocess.run([binary, "--n=%d" % n, "--quantiles=%d" % m, "--repeats=%d" % repeats,
                          "--seed=%d" % seed, "--d=1", "--delta=0", "--exact=false",
                          "--breakdown=false"], capture_output=True, text=True, check=True).stdout
    found = {}
    for line in out.splitlines():
        match = CPP_LINE.match(line)
        if match:
            found[match.group(1)] = tuple(float(match.group(i)) for i in (2, 3, 4))
    if not found:
        raise SystemExit("could not read the C++ benchmark's output:\n" + out)
    return found


def python_epsilon_star(train, population, variant, m, repeats):
    """(value, median wall s, median CPU s) of privbench.epsilon_star."""
    wall, cpu, value = [], [], None
    for _ in range(repeats):
        w0, c0 = time.perf_counter(), time.process_time()
        value = privbench.epsilon_star(train, population, variant, 0.0,
                                       quantiles_per_distribution=m)
        wall.append(time.perf_counter() - w0)
        cpu.append(time.process_time() - c0)
    return value, float(np.median(wall)), float(np.median(cpu))


def epsilon_star_part(args):
    rng = np.random.default_rng(args.seed)
    train = rng.gamma(1.0, 1.0, args.n)
    population = rng.gamma(2.0, 1.0, args.n)
    print("== Epsilon*: n = %d + %d losses (float64 NumPy arrays), m = %d quantiles per "
          "distribution, %d repeats x %d rounds" % (args.n, args.n, args.m, args.repeats,
                                                     args.rounds))
    best_cpp, best_py = {}, {}
    for r in range(args.rounds):
        cpp = cpp_epsilon_star(args.epsilon_star_benchmark, args.n, args.m, args.repeats,
                               args.seed)
        for variant, (value, wall, cpu) in sorted(cpp.items()):
            py_value, py_wall, py_cpu = python_epsilon_star(train, population, variant, args.m,
                                                            args.repeats)
            print("  round %d %-10s C++ %.3f s CPU (%.3f wall, Epsilon* %.4f)   Python %.3f s "
                  "CPU (%.3f wall, Epsilon* %.4f)" % (r + 1, variant, cpu, wall, value, py_cpu,
                                                      py_wall, py_value))
            best_cpp[variant] = min(best_cpp.get(variant, cpu), cpu)
            best_py[variant] = min(best_py.get(variant, py_cpu), py_cpu)
    ok = True
    for variant in sorted(best_cpp):
        ratio = best_py[variant] / max(best_cpp[variant], 1e-3)  # C++ prints ms
        verdict = "OK" if ratio <= 1.2 else "MISSED"
        ok &= ratio <= 1.2
        print("  %-10s Python / C++ = %.3f (CPU, best round: %.3f / %.3f s; target <= 1.20) %s"
              % (variant, ratio, best_py[variant], best_cpp[variant], verdict))
    return ok


def cpu_now():
    """CPU seconds of this process and of its finished children."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def cli_intervals(cli, method, counts, delta, alpha):
    """(wall s, CPU s, lower bounds): the requests as JSON lines through one
    epsilon_cli process, written and parsed here (CPU: ours and the CLI's)."""
    w0, c0 = time.perf_counter(), cpu_now()
    text = "".join(json.dumps({"op": "interval", "method": method, "tp": int(a), "fn": int(b),
                               "fp": int(c), "tn": int(d), "delta": delta, "alpha": alpha})
                   + "\n" for a, b, c, d in counts)
    out = subprocess.run([cli, "batch"], input=text, capture_output=True, text=True,
                         check=True).stdout
    lower = [json.loads(line)["lower"] for line in out.splitlines()]
    return time.perf_counter() - w0, cpu_now() - c0, lower


def module_intervals(method, counts, threads):
    """(wall s, CPU s, lower bounds) of one vectorised privbench.interval call."""
    w0, c0 = time.perf_counter(), time.process_time()
    lower, _ = privbench.interval(method, *counts.T, 0.0, 0.05, threads=threads)
    return time.perf_counter() - w0, time.process_time() - c0, lower


def intervals_part(args):
    rng = np.random.default_rng(args.seed)
    k = args.intervals
    pos, neg = rng.integers(1, 2000, k), rng.integers(1, 2000, k)
    tp, fp = rng.integers(0, pos + 1), rng.integers(0, neg + 1)
    counts = np.stack([tp, pos - tp, fp, neg - fp], axis=1)
    cores = os.cpu_count() or 1
    print("== %d intervals (random counts, up to 2000 trials per side; alpha = 0.05, "
          "delta = 0): one vectorised call vs %d lines of one epsilon_cli process. CPU "
          "seconds (the CLI's include writing and parsing the JSON lines) decide; wall "
          "seconds with %d threads show what the threads add" % (k, k, cores))
    ok = True
    for method in privbench.interval_methods():
        cli_wall, cli_cpu, cli_lower = cli_intervals(args.epsilon_cli, method, counts, 0.0, 0.05)
        py_wall, py_cpu, lower = module_intervals(method, counts, 1)
        par_wall, _, _ = module_intervals(method, counts, cores)
        same = all(a == (float("inf") if b == "inf" else b) for a, b in zip(lower, cli_lower))
        met = cli_cpu > py_cpu and same
        ok &= met
        print("  %-26s CPU: CLI %7.3f s, Python %7.3f s, CLI / Python %5.2f %-6s | wall: CLI "
              "%7.3f s, Python %7.3f s (1 thread), %7.3f s (%d threads)%s"
              % (method, cli_cpu, py_cpu, cli_cpu / max(py_cpu, 1e-9),
                 "OK" if met else "MISSED", cli_wall, py_wall, par_wall, cores,
                 "" if same else "  VALUES DIFFER"))
    return ok


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("epsilon_cli")
    p.add_argument("epsilon_star_benchmark")
    p.add_argument("--n", type=int, default=1000000)
    p.add_argument("--m", type=int, default=1000000)
    p.add_argument("--repeats", type=int, default=5)
    p.add_argument("--rounds", type=int, default=2)
    p.add_argument("--intervals", type=int, default=10000)
    p.add_argument("--seed", type=int, default=20240226)
    args = p.parse_args()
    print("load average %s; %d cores" % (" ".join("%.2f" % x for x in os.getloadavg()),
                                         os.cpu_count()))
    ok = epsilon_star_part(args)
    ok &= intervals_part(args)
    print("load average %s" % " ".join("%.2f" % x for x in os.getloadavg()))
    print("all targets met" if ok else "a target was missed")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
