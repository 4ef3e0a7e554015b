#!/bin/bash
# Prepares gpu_bundle/ (git-ignored) for tools/gpu_check.sh on a GPU machine
# that has its own PyTorch 2.11.0 (with CUDA) but no Bazel and none of this
# project's Debian libraries:
#   bin/   the binaries the check runs (built here, --config=ci);
#   lib/   the shared libraries they need besides LibTorch, the CUDA
#          runtime and glibc (HDF5, FFTW, OpenSSL, libstdc++, ...), from ldd;
#   data/  Fashion-MNIST (the E1 projection trains the paper CNN on it).
# LibTorch itself does not travel: gpu_check.sh puts the GPU machine's
# torch/lib first on LD_LIBRARY_PATH (the binaries' RUNPATH to .venv/ then
# finds nothing there). About 60 MB: the device tool carries at most 64 MiB
# with the working tree (about 5 MB), so little room is left.
#
#   tools/gpu_bundle.sh      # then: run tools/gpu_check.sh with carry gpu_bundle
set -euo pipefail
cd "$(dirname "$0")/.."
targets=(
  //mechanisms:device_test
  //mechanisms:dpsgd_benchmark
  //mechanisms:dpsgd_batched_benchmark
  //experiments/lira_bayes_audit:lira_benchmark
  //experiments/ml_audit_dpsgd:ml_audit_dpsgd
)
tools/setup.sh
bazel build --config=ci "${targets[@]}" >&2
bin_dir=$(bazel info --config=ci bazel-bin 2>/dev/null)
rm -rf gpu_bundle
mkdir -p gpu_bundle/bin gpu_bundle/lib gpu_bundle/data/fashion-mnist
for t in "${targets[@]}"; do
  path="${t#//}"
  cp "$bin_dir/${path%%:*}/${path##*:}" gpu_bundle/bin/
done
# Everything ldd resolves outside glibc, LibTorch and the CUDA wheels.
skip='^(linux-vdso|ld-linux|libc\.so|libm\.so|libdl\.so|libpthread\.so|librt\.so|libutil\.so|libresolv\.so|libtorch|libc10|libgomp|libcudart|libcupti)'
for b in gpu_bundle/bin/*; do
  ldd "$b" | awk '$3 ~ /^\// {print $1, $3}'
done | sort -u | while read -r name path; do
  if ! [[ "$name" =~ $skip ]]; then cp -L "$path" "gpu_bundle/lib/$name"; fi
done
cp /usr/share/datasets/fashion-mnist/*.gz gpu_bundle/data/fashion-mnist/
git rev-parse HEAD >gpu_bundle/COMMIT
du -sh gpu_bundle >&2
echo "gpu_bundle: $(ls gpu_bundle/bin | wc -l) binaries, $(ls gpu_bundle/lib | wc -l) libraries, commit $(cat gpu_bundle/COMMIT)" >&2
