#!/bin/bash
# Every GPU measurement of the project in one call, for a GPU machine with
# its own PyTorch 2.11.0 + CUDA (e.g. /opt/torch/.venv) and no Bazel.
# Prepare on the CPU machine first:  tools/gpu_bundle.sh  (-> gpu_bundle/)
# then on the GPU machine, from the repository root:  tools/gpu_check.sh
#
# Runs, each under a time limit, with the bundle's binaries and the GPU
# machine's own LibTorch (LD_LIBRARY_PATH):
#  1. //mechanisms:device_test: --device=cuda works and a short DP-SGD run
#     on the GPU agrees with the same run on the CPU (same batches and
#     noise; parameters within 1e-3, per-epoch losses within 1e-4);
#  2. //mechanisms:dpsgd_benchmark on the GPU and on one CPU thread of the
#     same machine: DP-SGD and non-private step times (Adult MLP, the TF
#     Privacy tutorial CNN; on the GPU also the Bayesian paper's CNN, whose
#     CPU figures come from the 2-core machine's own run);
#  2b. //mechanisms:dpsgd_batched_benchmark on the GPU: D2's MLP, K models
#     one at a time vs in one batched pass;
#  3. //experiments/lira_bayes_audit:lira_benchmark --device=cuda: the
#     paper CNN's step times and the E1 paper-scale projection on one GPU;
#  4. //experiments/ml_audit_dpsgd --scale=paper --plan_only --device=cuda:
#     the D2 paper-scale projection;
#  5. the Opacus anchor (anchors/opacus/README.md) on the GPU, --quick: the
#     bundle's Opacus wheels installed (offline) beside the machine's torch.
# The limits sum to 410 s (the device tool allows 600 s per call); it stops
# after the agreement test if that does not pass.
# Prints a short table last. Outputs go to $OUT (or gpu_check_out/).
# Read-only towards the GPU: no settings are changed.
set -uo pipefail
cd "$(dirname "$0")/.."
bundle=gpu_bundle
out=${OUT:-gpu_check_out}
mkdir -p "$out"
[ -d "$bundle/bin" ] || { echo "gpu_check: no $bundle/ (run tools/gpu_bundle.sh on the CPU machine and carry it)"; exit 2; }
torch_lib=${PRIVBENCH_TORCH_LIB:-$(ls -d /opt/torch/.venv/lib/python3*/site-packages/torch/lib 2>/dev/null | head -1)}
[ -n "$torch_lib" ] && [ -f "$torch_lib/libtorch_cuda.so" ] ||
  { echo "gpu_check: no CUDA LibTorch found (set PRIVBENCH_TORCH_LIB to a torch/lib with libtorch_cuda.so)"; exit 2; }
export LD_LIBRARY_PATH="$torch_lib:$PWD/$bundle/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
# Fashion-MNIST travels as .xz (gpu_bundle.sh); the loader reads .gz and
# checks the decompressed payload's digests, so re-gzipped files load.
export PRIVBENCH_DATA_DIR=/tmp/gpu_check_data
mkdir -p "$PRIVBENCH_DATA_DIR/fashion-mnist"
for xz_file in "$bundle"/data/fashion-mnist/*.xz; do
  gz_file="$PRIVBENCH_DATA_DIR/fashion-mnist/$(basename "$xz_file" .xz).gz"
  [ -f "$gz_file" ] && continue
  if ! python3 -c 'import gzip, lzma, shutil, sys
with lzma.open(sys.argv[1]) as src, gzip.open(sys.argv[2], "wb", compresslevel=1) as dst:
    shutil.copyfileobj(src, dst)' "$xz_file" "$gz_file.part" || ! mv "$gz_file.part" "$gz_file"; then
    echo "gpu_check: cannot unpack $xz_file"
    exit 2
  fi
done
{
  echo "commit of the binaries: $(cat "$bundle/COMMIT" 2>/dev/null)"
  echo "torch/lib: $torch_lib"
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>&1 | head -2
  echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2) x $(nproc)"
} | tee "$out/environment.txt"

step() {  # step <name> <seconds> <command...>
  local name=$1 limit=$2
  shift 2
  local start=$SECONDS
  # Line-buffered, so a step stopped at its limit keeps what it printed.
  timeout -k 5 "$limit" stdbuf -oL -eL "$@" >"$out/$name.txt" 2>&1
  local rc=$?
  echo "== $name: rc $rc in $((SECONDS - start)) s"
  tail -25 "$out/$name.txt"
  echo "$name $rc $((SECONDS - start))" >>"$out/steps.txt"
}
: >"$out/steps.txt"
mkdir -p /tmp/gpu_check_d2
step device_test 45 "$bundle/bin/device_test"
# Without a working GPU path the timings are worth nothing: stop early and
# keep the session's device time.
if ! grep -q "PASSED" "$out/device_test.txt" || grep -q "SKIPPED\|FAILED" "$out/device_test.txt"; then
  echo "gpu_check: device_test did not pass on the GPU (see above); stopping before the benchmarks"
  exit 1
fi
step dpsgd_benchmark_cuda 60 "$bundle/bin/dpsgd_benchmark" --device=cuda --repeats=50 --warmup=10 --loop_repeats=3
step dpsgd_benchmark_cpu 40 "$bundle/bin/dpsgd_benchmark" --device=cpu --threads=1 --repeats=20 --warmup=3 --loop_repeats=3 --paper_cnn_repeats=0
step batched_cuda 45 "$bundle/bin/dpsgd_batched_benchmark" --device=cuda --k=1,64 --epochs=1 --rounds=1
step lira_benchmark_cuda 90 "$bundle/bin/lira_benchmark" --device=cuda --cnn_epochs=4 --models=1 --cores=1
step d2_plan_cuda 60 "$bundle/bin/ml_audit_dpsgd" --scale=paper --plan_only --device=cuda --output_dir=/tmp/gpu_check_d2
torch_python=$(dirname "$(dirname "$(dirname "$(dirname "$torch_lib")")")")/../bin/python
rm -rf /tmp/gpu_check_pylib
"$torch_python" -m pip install -q --no-deps --no-index --target /tmp/gpu_check_pylib "$bundle"/wheels/*.whl >"$out/anchor_install.txt" 2>&1
step opacus_anchor_cuda 70 env PYTHONPATH=/tmp/gpu_check_pylib "$torch_python" anchors/opacus/opacus_benchmark.py \
  --device=cuda --quick --privbench_bin="$bundle/bin/privbench_steps"

echo
echo "| check | rc | s | result |"
echo "|---|---|---|---|"
while read -r name rc secs; do
  case "$name" in
    device_test) result=$(grep -E "PASSED|FAILED|SKIPPED" "$out/$name.txt" | head -2 | tr '\n' ' ') ;;
    dpsgd_benchmark_*) result=$(grep -E "DP-SGD step / non-private" "$out/$name.txt" | awk '{printf "%s %s %s ms vs %s ms (%s); ", $1, $3, $9, $8, $10}') ;;
    batched_cuda) result=$(grep -E "^ +[0-9]+ " "$out/$name.txt" | awk '{printf "K=%s %s; ", $1, $4}') ;;
    lira_benchmark_cuda) result=$(grep -E "^paper CNN|paper scale projected" "$out/$name.txt" | tr '\n' ' ') ;;
    d2_plan_cuda) result=$(grep -iE "projected|hours" "$out/$name.txt" | tail -2 | tr '\n' ' ') ;;
    opacus_anchor_cuda) result=$(grep -E "^(adult_mlp|fashion_mnist_cnn|bayes_paper_cnn) " "$out/$name.txt" | tail -3 | awk '{printf "%s hooks/pb %s ghost/pb %s; ", $1, $4, $5}') ;;
  esac
  echo "| $name | $rc | $secs | ${result:-see $out/$name.txt} |"
done <"$out/steps.txt"
