"""The Opacus anchor benchmark (anchors/opacus/README.md).

Times one training step of Opacus and of privbench's DP-SGD engine on the
same model, batch and machine, in one run, and prints the ratios:

  torch_np      plain PyTorch non-private step (the baseline of Opacus);
  opacus_hooks  Opacus DP-SGD step, grad_sample_mode="hooks" (per-sample
                gradients materialised by module hooks);
  opacus_ghost  Opacus DP-SGD step, grad_sample_mode="ghost" (fast gradient
                clipping: ghost norms where Opacus has a norm sampler,
                per-sample gradient norms elsewhere, then a second backward
                pass of the reweighted loss);
  pb_np, pb_dp  privbench's non-private and DP-SGD steps
                (bazel-bin/anchors/opacus/privbench_steps, a subprocess that
                prints its medians as one JSON line).

A step is forward, backward, per-example clipping (norm 1), Gaussian noise
(noise multiplier 1), normalisation by the batch size and a momentum-SGD
update (lr 1e-3, momentum 0.9) on a fixed, prepared batch of synthetic data:
sampling (Poisson or otherwise) is excluded on both sides. Loss: mean
cross-entropy (Opacus loss_reduction="mean"; privbench divides the noisy
clipped sum by the batch size).

Clock: with --device=cpu (default) one math thread on both sides and the
thread's CPU time (time.thread_time here, CLOCK_THREAD_CPUTIME_ID there), so
that other processes on a shared machine do not count; with --device=cuda
wall-clock time with a device synchronisation after every timed step.
Load is shared by interleaving: per model, --rounds rounds, each with a
Python block (warm-up, then the three Python steps call by call) and a
privbench process (warm-up, then its two steps call by call); the figure of
a method is the median over rounds of its per-round medians.

  anchors/opacus/setup.sh
  bazel build -c opt //anchors/opacus:privbench_steps
  .venv-anchors/bin/python anchors/opacus/opacus_benchmark.py [--quick]
"""

import argparse
import ctypes
import datetime
import json
import os
import platform
import statistics
import subprocess
import sys
import time
import traceback
import warnings

import torch
from torch import nn

import opacus
from opacus import PrivacyEngine

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# name -> (batch, input shape of one example, parameter count of privbench's
# model, full repeats per round, full warm-up per round)
MODELS = {
    "adult_mlp": (512, (108,), 14210, 40, 5),
    "fashion_mnist_cnn": (256, (1, 28, 28), 26010, 20, 3),
    "bayes_paper_cnn": (512, (1, 28, 28), 934538, 2, 1),
}


class ChannelsLastMaxPool2d(nn.Module):
    """nn.MaxPool2d computed on a channels-last copy (--pool=channels_last).

    PyTorch's NCHW max-pooling forward kernel is several times slower on the
    CPU than its channels-last kernel; privbench pools a channels-last copy
    (mechanisms/dp_model.cc, MaxPool2dFunction). Same values and gradients as
    nn.MaxPool2d; here autograd differentiates through the format changes.
    """

    def __init__(self, kernel, stride):
        super().__init__()
        self.kernel, self.stride = kernel, stride

    def forward(self, x):
        x = x.contiguous(memory_format=torch.channels_last)
        return nn.functional.max_pool2d(x, self.kernel, self.stride).contiguous()


MAX_POOL = {"plain": nn.MaxPool2d, "channels_last": ChannelsLastMaxPool2d}


def build_model(name, pool="plain"):
    """privbench's layer lists (mechanisms/dp_model.cc), layer for layer."""
    max_pool = MAX_POOL[pool]
    if name == "adult_mlp":  # AdultMlpSpec(108): Linear(108->128) Tanh Linear(128->2)
        return nn.Sequential(nn.Linear(108, 128), nn.Tanh(), nn.Linear(128, 2))
    if name == "fashion_mnist_cnn":  # FashionMnistCnnSpec()
        return nn.Sequential(
            nn.Conv2d(1, 16, 8, stride=2, padding=3),  # -> 16x14x14
            nn.Tanh(),
            max_pool(2, 1),  # -> 16x13x13
            nn.Conv2d(16, 32, 4, stride=2),  # -> 32x5x5
            nn.Tanh(),
            max_pool(2, 1),  # -> 32x4x4
            nn.Flatten(),
            nn.Linear(512, 32),
            nn.Tanh(),
            nn.Linear(32, 10),
        )
    if name == "bayes_paper_cnn":  # BayesPaperCnnSpec(10)
        return nn.Sequential(
            nn.Conv2d(1, 128, 8, stride=2, padding=3),  # -> 128x14x14
            nn.Tanh(),
            max_pool(3, 1),  # -> 128x12x12
            nn.Conv2d(128, 256, 3),  # -> 256x10x10
            nn.Tanh(),
            nn.Conv2d(256, 256, 3),  # -> 256x8x8
            nn.Tanh(),
            nn.AvgPool2d(2, stride=2),  # -> 256x4x4
            nn.Flatten(),
            nn.Linear(4096, 10),
        )
    raise ValueError(name)


def num_parameters(model):
    return sum(p.numel() for p in model.parameters())


def sgd(model):
    return torch.optim.SGD(model.parameters(), lr=1e-3, momentum=0.9)


class Clock:
    """Thread CPU time on the CPU; wall clock with synchronisation on CUDA."""

    def __init__(self, device):
        self.cuda = device.type == "cuda"

    def now(self):
        if self.cuda:
            torch.cuda.synchronize()
            return time.perf_counter()
        return time.thread_time()


def make_nonprivate_step(name, x, y, device, pool):
    model = build_model(name, pool).to(device)
    opt = sgd(model)
    criterion = nn.CrossEntropyLoss()

    def step():
        opt.zero_grad(set_to_none=True)
        loss = criterion(model(x), y)
        loss.backward()
        opt.step()

    return step


def make_opacus_step(name, x, y, device, mode, pool):
    """An Opacus DP-SGD step; raises if Opacus refuses the model in `mode`."""
    model = build_model(name, pool).to(device)
    opt = sgd(model)
    criterion = nn.CrossEntropyLoss()
    # make_private needs a data loader; poisson_sampling=False leaves it as
    # is and it is never iterated (the step uses the prepared batch). One
    # batch of len(x) rows: expected batch size = len(x), the normaliser.
    loader = torch.utils.data.DataLoader(
        torch.utils.data.TensorDataset(x.cpu(), y.cpu()), batch_size=len(x)
    )
    engine = PrivacyEngine()
    out = engine.make_private(
        module=model,
        optimizer=opt,
        criterion=criterion,
        data_loader=loader,
        noise_multiplier=1.0,
        max_grad_norm=1.0,
        loss_reduction="mean",
        poisson_sampling=False,
        grad_sample_mode=mode,
    )
    if mode == "ghost":
        dp_model, dp_opt, dp_criterion, _ = out
    else:
        dp_model, dp_opt, _ = out
        dp_criterion = criterion
    if dp_opt.expected_batch_size != len(x):
        raise RuntimeError("Opacus normaliser %s != batch %d" % (dp_opt.expected_batch_size, len(x)))

    def step():
        dp_opt.zero_grad(set_to_none=True)
        loss = dp_criterion(dp_model(x), y)
        loss.backward()
        dp_opt.step()

    # One step now, so that a mode that cannot handle the model fails here.
    before = [p.detach().clone() for p in model.parameters()]
    step()
    if not all(torch.isfinite(p).all() and not torch.equal(p, b) for p, b in zip(model.parameters(), before)):
        raise RuntimeError("a DP step left a parameter unchanged or non-finite")
    return step


def privbench_round(args, name, batch, repeats, warmup):
    cmd = [
        args.privbench_bin,
        "--model=" + name,
        "--batch=%d" % batch,
        "--repeats=%d" % repeats,
        "--warmup=%d" % warmup,
        "--threads=1",
        "--device=" + args.device,
        "--keep_freed_memory=" + ("true" if args.privbench_keep_freed_memory else "false"),
    ]
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError("%s failed (exit %d): %s" % (" ".join(cmd), out.returncode, out.stderr.strip()))
    lines = [l for l in out.stdout.splitlines() if l.startswith("{")]
    if len(lines) != 1:
        raise RuntimeError("%s printed %d JSON lines" % (" ".join(cmd), len(lines)))
    return json.loads(lines[0])


def python_round(steps, clock, repeats, warmup):
    """Steps timed call by call after a warm-up; per step, its median."""
    for _ in range(warmup):
        for f in steps.values():
            f()
    t = {k: [] for k in steps}
    for _ in range(repeats):
        for k, f in steps.items():
            start = clock.now()
            f()
            t[k].append(clock.now() - start)
    return {k: statistics.median(v) for k, v in t.items()}


def bench_model(args, name, clock, device):
    batch, shape, want_params, repeats, warmup = MODELS[name]
    if args.quick:
        repeats, warmup = max(1, repeats // 10), 1
    got = num_parameters(build_model(name))
    assert got == want_params, "%s: %d parameters, privbench's model has %d" % (name, got, want_params)
    torch.manual_seed(0)
    x = torch.randn((batch,) + shape, device=device)
    y = torch.randint(0, 10 if name != "adult_mlp" else 2, (batch,), device=device)
    steps = {"torch_np": make_nonprivate_step(name, x, y, device, args.pool)}
    unsupported = {}
    for mode in ("hooks", "ghost"):
        try:
            steps["opacus_" + mode] = make_opacus_step(name, x, y, device, mode, args.pool)
        except Exception as e:  # reported, not hidden
            unsupported["opacus_" + mode] = "%s: %s" % (type(e).__name__, str(e).splitlines()[0] if str(e) else "")
            print("%s: opacus %s unsupported: %s" % (name, mode, unsupported["opacus_" + mode]), flush=True)
            if args.verbose:
                traceback.print_exc()
    rounds = {k: [] for k in list(steps) + ["pb_np", "pb_dp"]}
    pb_info = None
    for r in range(args.rounds):
        med = python_round(steps, clock, repeats, warmup)
        pb = privbench_round(args, name, batch, repeats, warmup)
        if pb["num_parameters"] != got:
            raise RuntimeError("privbench's %s has %d parameters, PyTorch's %d" % (name, pb["num_parameters"], got))
        pb_info = pb
        med["pb_np"], med["pb_dp"] = pb["nonprivate_s"], pb["dp_s"]
        for k, v in med.items():
            rounds[k].append(v)
        print(
            "%s round %d/%d (%d timed + %d warm-up per method), ms: %s"
            % (name, r + 1, args.rounds, repeats, warmup, ", ".join("%s %.2f" % (k, 1e3 * v) for k, v in med.items())),
            flush=True,
        )
    return {
        "model": name,
        "batch": batch,
        "params": got,
        "repeats": "%dx%d" % (args.rounds, repeats),
        "median": {k: statistics.median(v) for k, v in rounds.items()},
        "spread": {k: (min(v), max(v)) for k, v in rounds.items()},
        "unsupported": unsupported,
        "pb_info": pb_info,
    }


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def git_rev():
    try:
        def git(*a):
            return subprocess.run(["git"] + list(a), cwd=REPO, capture_output=True, text=True).stdout.strip()

        rev, dirty = git("rev-parse", "--short", "HEAD"), git("status", "--porcelain")
        return ("working tree on top of %s" % rev) if dirty else rev
    except OSError:
        return "unknown"


def keep_freed_memory():
    """As privbench's KeepFreedTensorMemory (mechanisms/tensor_memory.h)."""
    libc = ctypes.CDLL("libc.so.6")
    m_trim_threshold, m_mmap_threshold = -1, -3  # glibc malloc.h
    if libc.mallopt(m_mmap_threshold, 64 << 20) != 1 or libc.mallopt(m_trim_threshold, 256 << 20) != 1:
        raise RuntimeError("mallopt failed")


def ratio(a, b):
    return "%.2fx" % (a / b) if a is not None and b else "-"


def ms(seconds):
    return "%.0f" % (1e3 * seconds) if seconds >= 0.1 else "%.2f" % (1e3 * seconds)


def print_table(results):
    cols = ["torch_np", "opacus_hooks", "opacus_ghost", "pb_np", "pb_dp"]
    print("\nMedian step time in ms (median over rounds of per-round medians; [min, max] over rounds):")
    print("%-18s %5s %9s  %s" % ("model", "batch", "params", "  ".join("%-22s" % c for c in cols)))
    for res in results:
        cells = []
        for c in cols:
            if c in res["median"]:
                lo, hi = res["spread"][c]
                cells.append("%-22s" % ("%s [%s, %s]" % (ms(res["median"][c]), ms(lo), ms(hi))))
            else:
                cells.append("%-22s" % "unsupported")
        print("%-18s %5d %9d  %s" % (res["model"], res["batch"], res["params"], "  ".join(cells)))
    print("\nRatios (of the medians above):")
    heads = [
        "opacus_hooks/pb_dp",
        "opacus_ghost/pb_dp",
        "pb_dp/pb_np",
        "opacus_hooks/torch_np",
        "opacus_ghost/torch_np",
        "pb_np/torch_np",
    ]
    print("%-18s %5s %8s  %s" % ("model", "batch", "repeats", "  ".join("%-21s" % h for h in heads)))
    for res in results:
        m = res["median"]
        g = m.get
        vals = [
            ratio(g("opacus_hooks"), g("pb_dp")),
            ratio(g("opacus_ghost"), g("pb_dp")),
            ratio(g("pb_dp"), g("pb_np")),
            ratio(g("opacus_hooks"), g("torch_np")),
            ratio(g("opacus_ghost"), g("torch_np")),
            ratio(g("pb_np"), g("torch_np")),
        ]
        print("%-18s %5d %8s  %s" % (res["model"], res["batch"], res["repeats"], "  ".join("%-21s" % v for v in vals)))
    for res in results:
        for k, why in res["unsupported"].items():
            print("%s: %s unsupported: %s" % (res["model"], k, why))


def default_privbench_bin():
    for rel in ("bazel-out/k8-opt/bin/anchors/opacus/privbench_steps", "bazel-bin/anchors/opacus/privbench_steps"):
        path = os.path.join(REPO, rel)
        if os.path.exists(path):
            return path
    return os.path.join(REPO, "bazel-bin/anchors/opacus/privbench_steps")


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--models", default=",".join(MODELS), help="comma-separated subset of " + ", ".join(MODELS))
    p.add_argument("--rounds", type=int, default=5, help="interleaved rounds per model")
    p.add_argument("--quick", action="store_true", help="a smoke run: 2 rounds, a tenth of the repeats")
    p.add_argument("--device", default="cpu", choices=["cpu", "cuda"])
    p.add_argument(
        "--privbench_bin", default=default_privbench_bin(), help="the privbench_steps binary (bazel build -c opt)"
    )
    p.add_argument(
        "--privbench_keep_freed_memory",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="privbench keeps freed tensor memory for reuse, as its engine trains (default)",
    )
    p.add_argument(
        "--python_keep_freed_memory",
        action=argparse.BooleanOptionalAction,
        default=False,
        help="the same mallopt thresholds in this process (default off: Opacus as users run it)",
    )
    p.add_argument(
        "--pool",
        default="plain",
        choices=sorted(MAX_POOL),
        help="PyTorch side's max pooling: plain nn.MaxPool2d (default, as users write it) "
        "or on a channels-last copy, as privbench pools",
    )
    p.add_argument(
        "--cuda_deterministic",
        action="store_true",
        help="with --device=cuda: deterministic algorithms on the PyTorch side too, as privbench runs "
        "(default off: PyTorch's defaults, as users run Opacus)",
    )
    p.add_argument("--verbose", action="store_true", help="tracebacks of unsupported modes")
    args = p.parse_args(argv)
    if args.quick and args.rounds == 5:
        args.rounds = 2
    args.models = [m for m in args.models.split(",") if m]
    bad = [m for m in args.models if m not in MODELS]
    if bad or args.rounds < 1:
        p.error("--models: unknown %s" % bad if bad else "--rounds must be >= 1")
    if not os.access(args.privbench_bin, os.X_OK):
        p.error(
            "--privbench_bin: %s is not executable (bazel build -c opt //anchors/opacus:privbench_steps)"
            % args.privbench_bin
        )
    return args


def main(argv):
    args = parse_args(argv)
    warnings.filterwarnings("ignore")  # Opacus's secure-RNG and hook notices
    device = torch.device(args.device)
    if device.type == "cuda":
        if not torch.cuda.is_available():
            sys.exit("--device=cuda: torch.cuda.is_available() is False")
        torch.backends.cuda.matmul.allow_tf32 = False  # full float32, as privbench
        torch.backends.cudnn.allow_tf32 = False
        if args.cuda_deterministic:  # as privbench's EnsureDevice (mechanisms/device.h)
            os.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", ":4096:8")
            torch.use_deterministic_algorithms(True)
            torch.backends.cudnn.deterministic = True
            torch.backends.cudnn.benchmark = False
    else:
        torch.set_num_threads(1)
        torch.set_num_interop_threads(1)
    if args.python_keep_freed_memory:
        keep_freed_memory()
    clock = Clock(device)
    load_start = os.getloadavg()
    print("Opacus anchor benchmark (anchors/opacus/README.md)")
    print("date            %s" % datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"))
    print("machine         %s, %d CPUs (%s), %s" % (platform.node(), os.cpu_count(), cpu_model(), platform.platform()))
    if device.type == "cuda":
        print("gpu             %s" % torch.cuda.get_device_name(0))
    print("load at start   %.2f %.2f %.2f" % load_start)
    print(
        "python side     torch %s, opacus %s, Python %s, torch threads %d"
        % (torch.__version__, opacus.__version__, platform.python_version(), torch.get_num_threads())
    )
    built = datetime.datetime.fromtimestamp(os.path.getmtime(args.privbench_bin), datetime.timezone.utc)
    print("privbench       %s (%s, built %s)" % (git_rev(), args.privbench_bin, built.strftime("%Y-%m-%d %H:%M UTC")))
    print(
        "clock           %s; memory: privbench keep_freed_memory=%s, Python %s"
        % (
            "wall clock, synchronised" if device.type == "cuda" else "thread CPU time, one thread",
            args.privbench_keep_freed_memory,
            "same mallopt thresholds" if args.python_keep_freed_memory else "glibc defaults",
        )
    )
    pool = "nn.MaxPool2d (NCHW)" if args.pool == "plain" else "on a channels-last copy (as privbench)"
    print("max pooling     PyTorch side: %s" % pool)
    quick = " (--quick)" if args.quick else ""
    print("models          %s; %d rounds%s\n" % (", ".join(args.models), args.rounds, quick), flush=True)
    results = [bench_model(args, name, clock, device) for name in args.models]
    print("\nload at end     %.2f %.2f %.2f" % os.getloadavg())
    if results and results[-1]["pb_info"]:
        info = results[-1]["pb_info"]
        print("privbench       LibTorch %s, clock %s" % (info["libtorch"], info["clock"]))
    print_table(results)


if __name__ == "__main__":
    main(sys.argv[1:])
