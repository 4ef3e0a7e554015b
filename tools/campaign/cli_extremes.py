#!/usr/bin/env python3
"""Extreme-value campaign against the epsilon_cli JSON-lines service.

For every op, every registered method of that op (read from
`epsilon_cli --help`), and every numeric field of a valid base request,
substitutes extreme-but-syntactically-valid values (denormals, 1e300,
2^63 - 1, their negatives, 0, ...) and sends the lines to a few
long-running `epsilon_cli batch` processes. Each answer is classified:

  result      an answer (with no NaN/null where a number is due)
  field_error an error naming a field of the request (the contract)
  unnamed     an error naming no field of the request, or one reporting an
              internal error / Boost text / "<method> failed at ..."
  bad_result  an answer with null (NaN) where a number is due, or lower > upper
  crash       the process died on the line
  timeout     no answer within --limit seconds (default 5)

Prints a table of counts per (op, method) and the distinct failing
messages; exits 1 when any unnamed/bad_result/crash/timeout remains.

  bazel build //cli:epsilon_cli
  /usr/bin/python3 tools/campaign/cli_extremes.py [--cli bazel-bin/cli/epsilon_cli]
      [--workers 2] [--limit 5] [--failures out.jsonl]
"""

import argparse
import collections
import json
import os
import re
import select
import subprocess
import sys
import threading
import time

FLOATS = [
    "1e-300", "5e-324", "1e-30", "1e-15", "0.9999999999999999", "0.5", "1e15", "1e300",
    "1.79e308", "9007199254740992", "4611686018427387904", "9223372036854775807", "0",
    "-1e-300", "-5e-324", "-1e-30", "-1e-15", "-0.9999999999999999", "-0.5", "-1e15", "-1e300",
    "-1.79e308", "-9007199254740992", "-4611686018427387904", "-9223372036854775807", "-0.0",
    # Ordinary neighbours of the interesting edges.
    "1", "2", "1e-5", "0.999", "1e-10", "1e8", "4.9e-324", "2.2250738585072014e-308",
]


def help_names(cli):
    """Registered names per op, from the --help text."""
    text = subprocess.run([cli, "--help"], capture_output=True, text=True, check=True).stdout
    flat = " ".join(text.split())

    def after(marker):
        m = re.search(re.escape(marker) + r"\s*([a-z0-9_, ]+?)\.(\s|$)", flat)
        if not m:
            raise SystemExit("cannot find '%s' in epsilon_cli --help" % marker)
        return [n.strip() for n in m.group(1).split(",") if n.strip()]

    return {
        "interval": after("registered interval estimator:"),
        "epsilon_star": after("registered loss-sample estimator:"),
        "accountant": after("M is one of:"),
    }


def bases(names):
    """(op, method, base request) for every op and method, a few bases each."""
    out = []
    for m in names["interval"]:
        delta = 0 if m == "katz_log" else 1e-5
        for tp, fn, fp, tn in [(60, 40, 10, 90), (0, 100, 100, 0), (1000000, 0, 0, 1000000),
                               (2, 3, 3, 2), (17, 3, 3, 17)]:
            out.append(("interval", m, {"op": "interval", "method": m, "tp": tp, "fn": fn,
                                        "fp": fp, "tn": tn, "delta": delta, "alpha": 0.05}))
    for m in names["accountant"]:
        for q, steps in [(0.01, 1000), (1.0, 10)]:
            base = {"op": "accountant", "method": m, "sigma": 1.1, "q": q, "steps": steps,
                    "delta": 1e-5}
            if m.startswith("rdp"):
                base["orders"] = [2, 8, 32]
            if m == "pld":
                base["discretization"] = 1e-3
            out.append(("accountant", m, base))
            cal = dict(base, op="calibrate", target_epsilon=2.0)
            del cal["sigma"]
            out.append(("calibrate", m, cal))
    for v in names["epsilon_star"]:
        base = {"op": "epsilon_star", "variant": v, "train": [0.1, 0.2, 0.25, 0.4],
                "population": [0.3, 0.6, 1.0, 2.0], "delta": 1e-5,
                "quantiles_per_distribution": 100}
        if v == "empirical":
            base.update(rate_floor=0.001, rate_ceiling=0.999)
        else:
            base.update(clip_lo=1e-6, clip_hi=1 - 1e-6)
        out.append(("epsilon_star", v, base))
    out.append(("eps_from_rates", "-", {"op": "eps_from_rates", "fnr": 0.2, "fpr": 0.1,
                                        "delta": 1e-5}))
    out.append(("katz", "-", {"op": "katz", "n1": 60, "n0": 10, "n": 100, "alpha": 0.05}))
    for m, r, v in [(1000, 100, 90), (1000, 1000, 1000), (10, 0, 0)]:
        out.append(("one_run", "-", {"op": "one_run", "m": m, "r": r, "v": v, "delta": 1e-5,
                                     "beta": 0.05}))
    out.append(("audit_scores", "-", {
        "op": "audit_scores", "member_scores": [3, 4, 5, 6, 7, 8, 9, 2],
        "nonmember_scores": [0, 1, 2, 3.5, 4, 1.5, 0.5, 2.5], "alpha": 0.1, "delta": 1e-5,
        "seed": 3, "bonferroni_quantiles": 4}))
    out.append(("audit_scores", "-", {
        "op": "audit_scores", "member_scores": [3, 4, 5, 6], "nonmember_scores": [0, 1, 2, 3.5],
        "alpha": 0.1, "delta": 0, "bonferroni_grid": [1.0, 3.0]}))
    return out


def numeric_slots(base):
    """Paths (key, index-or-None) of the numeric values of a request."""
    for k, v in base.items():
        if k == "op":
            continue
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            yield (k, None)
        elif isinstance(v, list) and v and all(isinstance(x, (int, float)) for x in v):
            yield (k, 0)
            if len(v) > 1:
                yield (k, len(v) - 1)


def render(base, slot, literal, ident):
    """The JSON line with `literal` (raw JSON number text) at `slot`."""
    marker = "__EXTREME__"
    req = json.loads(json.dumps(base))
    key, idx = slot
    if idx is None:
        req[key] = marker
    else:
        req[key][idx] = marker
    req = dict({"id": ident}, **req)
    return json.dumps(req).replace('"%s"' % marker, literal)


def requests(names):
    lines = []
    for op, method, base in bases(names):
        for slot in numeric_slots(base):
            for lit in FLOATS:
                where = slot[0] if slot[1] is None else "%s[%d]" % slot
                lines.append((op, method, where, render(base, slot, lit, len(lines))))
        # Pairs: the same extreme in two fields at once (e.g. sigma and q).
        slots = [s for s in numeric_slots(base) if s[1] is None]
        for i in range(len(slots)):
            for j in range(i + 1, len(slots)):
                for lit in ("1e-300", "1e300", "9223372036854775807", "0.9999999999999999"):
                    req = json.loads(render(base, slots[i], lit, 0))
                    del req["id"]
                    line = render(req, slots[j], lit, len(lines))
                    lines.append((op, method, slots[i][0] + "+" + slots[j][0], line))
    # Small counts x tiny alphas for every interval method: where Boost's
    # Beta quantile iterations failed (e.g. tp=2 fn=3 fp=3 tn=2 alpha=1e-100).
    for m in names["interval"]:
        delta = 0 if m == "katz_log" else 1e-5
        for n in (1, 2, 3, 5, 8, 20):
            for k in range(n + 1):
                for alpha in ("1e-300", "1e-200", "1e-100", "1e-30", "1e-15", "1e-6"):
                    base = {"op": "interval", "method": m, "tp": k, "fn": n - k, "fp": n - k,
                            "tn": k, "delta": delta, "alpha": 0.05}
                    lines.append(("interval", m, "alpha (grid)",
                                  render(base, ("alpha", None), alpha, len(lines))))
    return lines


class Worker:
    """One long-running `epsilon_cli batch`; restarted after a crash or timeout."""

    def __init__(self, cli):
        self.cli = cli
        self.proc = None

    def start(self):
        self.proc = subprocess.Popen([self.cli, "batch"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.buf = b""

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
        if self.proc:
            self.proc.wait()
        self.proc = None

    def ask(self, line, limit):
        """(kind, answer-or-None, seconds); kind in ok/crash/timeout."""
        if self.proc is None or self.proc.poll() is not None:
            self.start()
        t0 = time.monotonic()
        try:
            self.proc.stdin.write(line.encode() + b"\n")
            self.proc.stdin.flush()
        except BrokenPipeError:
            self.stop()
            return "crash", None, 0.0
        fd = self.proc.stdout.fileno()
        while b"\n" not in self.buf:
            left = limit - (time.monotonic() - t0)
            if left <= 0:
                self.stop()
                return "timeout", None, time.monotonic() - t0
            ready, _, _ = select.select([fd], [], [], left)
            if not ready:
                continue
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                code = self.proc.wait()
                self.proc = None
                return "crash", "exit status %d" % code, time.monotonic() - t0
            self.buf += chunk
        answer, self.buf = self.buf.split(b"\n", 1)
        return "ok", answer.decode("utf-8", "replace"), time.monotonic() - t0


INTERNAL = re.compile(r"internal error|boost::|Error in function| failed at | failed \(|failed in|"
                      r"std::|what\(\)|evaluation of", re.I)
RESULT_KEYS = ("lower", "epsilon", "sigma", "auc")


def field_names(request):
    names = set(request) - {"id", "op"}
    # The CLI documents these alternates in messages about the inputs.
    return names


def classify(line, answer):
    request = json.loads(line)
    try:
        resp = json.loads(answer)
    except ValueError:
        return "unnamed", "unparsable answer: " + answer[:200]
    if "error" in resp:
        msg = resp["error"]
        if INTERNAL.search(msg):
            return "unnamed", msg
        for name in field_names(request):
            if re.search(r"(?<![A-Za-z0-9_])%s(?![A-Za-z0-9_])" % re.escape(name), msg):
                return "field_error", msg
        return "unnamed", msg
    for k in RESULT_KEYS:
        if k in resp and resp[k] is None:
            return "bad_result", "%s is null (NaN)" % k
    lo, up = resp.get("lower"), resp.get("upper")
    num = lambda x: float("inf") if x == "inf" else x
    if isinstance(num(lo), float) or isinstance(num(lo), int):
        if up is not None and num(up) < num(lo):
            return "bad_result", "upper below lower"
    return "result", None


def run(cli, lines, workers, limit):
    results = [None] * len(lines)
    chunks = [list(range(w, len(lines), workers)) for w in range(workers)]

    def go(idx):
        w = Worker(cli)
        for i in idx:
            kind, answer, secs = w.ask(lines[i][3], limit)
            if kind == "ok":
                cls, msg = classify(lines[i][3], answer)
                if cls == "result" and secs > limit:
                    cls, msg = "timeout", "answered after %.1f s" % secs
            elif kind == "crash":
                cls, msg = "crash", answer or "process died"
            else:
                cls, msg = "timeout", "no answer within %.0f s" % limit
            if cls == "result":
                msg = answer
            results[i] = (cls, msg, secs)
        w.stop()

    threads = [threading.Thread(target=go, args=(c,)) for c in chunks]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


def normalize(msg):
    """A message with numbers blanked, to group distinct failures."""
    return re.sub(r"-?\d+(\.\d+)?(e[-+]?\d+)?", "#", msg)[:240]


def report(lines, results, failures_path):
    kinds = ["result", "field_error", "unnamed", "bad_result", "crash", "timeout"]
    table = collections.OrderedDict()
    for (op, method, _, _), (cls, _, _) in zip(lines, results):
        table.setdefault((op, method), collections.Counter())[cls] += 1
    print("%-14s %-26s" % ("op", "method") + "".join("%12s" % k for k in kinds))
    total = collections.Counter()
    for (op, method), c in table.items():
        total.update(c)
        print("%-14s %-26s" % (op, method) + "".join("%12d" % c[k] for k in kinds))
    print("%-41s" % "TOTAL (%d lines)" % len(lines) + "".join("%12d" % total[k] for k in kinds))
    bad = [(l, r) for l, r in zip(lines, results) if r[0] not in ("result", "field_error")]
    distinct = collections.OrderedDict()
    for (op, method, where, line), (cls, msg, _) in bad:
        distinct.setdefault((cls, op, method, normalize(msg or "")), []).append((where, line))
    if distinct:
        print("\ndistinct failures (%d):" % len(distinct))
    for (cls, op, method, msg), examples in distinct.items():
        print("  [%s] %s/%s x%d (fields: %s)\n     %s\n     e.g. %s" % (
            cls, op, method, len(examples), ", ".join(sorted({w for w, _ in examples}))[:120],
            msg, examples[0][1]))
    slow = sorted(((r[2], l[3]) for l, r in zip(lines, results) if r[2] > 1.0), reverse=True)
    if slow:
        print("\nslowest lines (> 1 s): %d; worst %.1f s: %s" % (len(slow), slow[0][0], slow[0][1]))
    if failures_path:
        with open(failures_path, "w") as f:
            for (op, method, where, line), (cls, msg, secs) in bad:
                f.write(json.dumps({"class": cls, "op": op, "method": method, "field": where,
                                    "line": line, "message": msg, "seconds": secs}) + "\n")
    return len(bad)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cli", default="bazel-bin/cli/epsilon_cli")
    ap.add_argument("--workers", type=int, default=max(1, min(8, os.cpu_count() or 1)))
    ap.add_argument("--limit", type=float, default=5.0, help="seconds per line")
    ap.add_argument("--failures", help="write the failing lines here (JSON lines)")
    ap.add_argument("--only-op", help="run only this op")
    ap.add_argument("--dump", help="write every line, its class and message here (JSON lines)")
    args = ap.parse_args()
    names = help_names(args.cli)
    lines = requests(names)
    if args.only_op:
        lines = [l for l in lines if l[0] == args.only_op]
    t0 = time.monotonic()
    results = run(args.cli, lines, args.workers, args.limit)
    bad = report(lines, results, args.failures)
    if args.dump:
        with open(args.dump, "w") as f:
            for (op, method, where, line), (cls, msg, secs) in zip(lines, results):
                f.write(json.dumps({"class": cls, "op": op, "method": method, "field": where,
                                    "line": line, "message": msg, "seconds": secs}) + "\n")
    print("\n%d lines in %.0f s; %d failing" % (len(lines), time.monotonic() - t0, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
