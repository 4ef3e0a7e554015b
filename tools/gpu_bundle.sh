#!/bin/bash
# Prepares gpu_bundle/ (git-ignored) for tools/gpu_check.sh on a GPU machine
# that has its own PyTorch 2.11.0 (with CUDA) but no Bazel and none of this
# project's Debian libraries:
#   bin/   the binaries the check runs (built here, --config=ci);
#   lib/   the shared libraries they need besides LibTorch, the CUDA
#          runtime and glibc (HDF5, FFTW, OpenSSL, libstdc++, ...), from ldd;
#   data/  Fashion-MNIST's four IDX payloads as .xz (the E1 projection trains
#          the paper CNN on it; gpu_check.sh re-gzips them before its steps:
#          the loader checks the decompressed payload's digests, so any .gz
#          of it loads; xz saves 4.5 MB of the 64 MiB the tool carries);
#   wheels/ Opacus and opt_einsum (anchors/opacus/setup.sh --download), for
#          the Opacus anchor on the GPU machine's own torch.
# LibTorch itself does not travel: gpu_check.sh puts the GPU machine's
# torch/lib first on LD_LIBRARY_PATH (the binaries' RUNPATH to .venv/ then
# finds nothing there). About 55 MB with the binaries stripped: the device
# tool carries at most 64 MiB with the working tree (about 6 MB without
# the paper-scale shelf files, experiments/*/paper/), so the shelf files
# have about 6 MB; the script fails if the two exceed the limit.
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
  //anchors/opacus:privbench_steps
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
chmod u+w gpu_bundle/bin/*
strip --strip-unneeded gpu_bundle/bin/*
for gz in /usr/share/datasets/fashion-mnist/*.gz; do
  name=$(basename "$gz" .gz)
  zcat "$gz" | xz -9e -T2 >"gpu_bundle/data/fashion-mnist/$name.xz"
done
anchors/opacus/setup.sh --download gpu_bundle/wheels >&2
git rev-parse HEAD >gpu_bundle/COMMIT
du -sh gpu_bundle >&2
tree_bytes=$(git ls-files -z | xargs -0 du -cb | tail -1 | cut -f1)
bundle_bytes=$(du -sb gpu_bundle | cut -f1)
if ((tree_bytes + bundle_bytes > 64 * 1024 * 1024)); then
  echo "gpu_bundle: $bundle_bytes bytes + the working tree's $tree_bytes exceed the device tool's 64 MiB" >&2
  exit 1
fi
echo "gpu_bundle: $(ls gpu_bundle/bin | wc -l) binaries, $(ls gpu_bundle/lib | wc -l) libraries, commit $(cat gpu_bundle/COMMIT)" >&2
