#!/bin/bash
# The README's Slurm recipe ("Long sweeps: shards, resuming, Slurm"), run on a
# real one-node Slurm cluster started here, for a sweep study at test scale.
#
#   slurm_recipe_test.sh <README.md> <study binary> <local_cluster.sh> <h5_equal.py> [shards]
#
#  1. starts munged, slurmctld and slurmd (tools/slurm/local_cluster.sh)
#     under a fresh temporary directory;
#  2. takes the recipe's code block from the README as it stands and changes
#     only its first line, the parameters (study, scale, shards): the study
#     given, scale test, 3 shards; then runs it with bash in a fresh working
#     directory whose bazel-bin/experiments/<study>/<study> is the binary
#     Bazel built for this test (the recipe's `bazel build` line is answered
#     by a stand-in `bazel` on PATH that checks its arguments: the test runs
#     inside Bazel, which built the binary already);
#  3. waits for every array task and the dependent merge job, and checks that
#     each ended COMPLETED with exit code 0;
#  4. runs the same configuration locally, unsharded, into another directory,
#     and compares the two study files (h5_equal.py: every dataset and
#     attribute equal, /meta aside), and checks the parts' provenance (every
#     part made by this binary's commit, under its own --shard=i/n);
#  5. stops every daemon it started (also on failure).
# Skips (exit 0, with the reason) where Slurm cannot run: not root (slurmd
# must run jobs as their users), or no slurmctld/slurmd/munged/sbatch.
set -euo pipefail

skip() {
  echo "SKIPPED: $* (the Slurm recipe test needs root and Debian's slurm-wlm and munge; tools/setup.sh installs them)"
  exit 0
}
[ "$(id -u)" -eq 0 ] || skip "not running as root"
for tool in munged slurmctld slurmd sbatch scontrol sinfo; do
  command -v "$tool" >/dev/null 2>&1 || PATH="$PATH:/usr/sbin"
  command -v "$tool" >/dev/null 2>&1 || skip "no $tool on this machine"
done

readme=$(realpath "$1")
binary=$(realpath "$2")
cluster_lib=$(realpath "$3")
h5_equal=$(realpath "$4")
shards="${5:-3}"
study=$(basename "$binary")

top=$(mktemp -d /tmp/privbench-slurm.XXXXXX)  # short: munge's socket path must fit
chmod 711 "$top"  # munged wants every directory above its socket searchable by all
# shellcheck source=tools/slurm/local_cluster.sh
source "$cluster_lib"
finish() {
  status=$?
  cluster_stop
  if [ $status -ne 0 ]; then
    for f in "$top"/work/slurm-*.out; do
      [ -e "$f" ] && { echo "== $f"; tail -20 "$f"; }
    done
    [ -d "$top/cluster/log" ] && for f in "$top"/cluster/log/*.log; do
      echo "== $f"
      tail -20 "$f"
    done
  fi
  rm -rf "$top"
  exit $status
}
trap finish EXIT
cluster_start "$top/cluster"

# The recipe, as the README prints it, with the parameters line set for the test.
work="$top/work"
mkdir -p "$work/bazel-bin/experiments/$study" "$top/shim"
ln -s "$binary" "$work/bazel-bin/experiments/$study/$study"
cat >"$top/shim/bazel" <<EOF
#!/bin/bash
# Stand-in for the recipe's build step: Bazel built the binary for this test.
[ "\$*" = "build //experiments/$study" ] || { echo "bazel stand-in: unexpected '\$*'" >&2; exit 1; }
[ -x "bazel-bin/experiments/$study/$study" ]
EOF
chmod +x "$top/shim/bazel"
/usr/bin/python3 - "$readme" "$study" "$shards" >"$work/recipe.sh" <<'PY'
import re, sys
readme, study, shards = sys.argv[1:]
text = open(readme, encoding="utf-8").read()
m = re.search(r"On a Slurm cluster.*?```sh\n(.*?)```", text, re.S)
if not m:
    sys.exit("README.md: no ```sh block after 'On a Slurm cluster'")
lines = m.group(1).splitlines()
if not re.fullmatch(r"study=\w+ scale=\w+ shards=\d+", lines[0]):
    sys.exit(f"README.md: the recipe's first line must set study, scale, shards: {lines[0]!r}")
print(f"study={study} scale=test shards={shards}")
print("\n".join(lines[1:]))
PY
echo "== the README's recipe, parameters set for the test:"
cat "$work/recipe.sh"
(cd "$work" && PATH="$top/shim:$PATH" bash -euo pipefail recipe.sh) >"$top/recipe.out"
cat "$top/recipe.out"
merge_job=$(tail -1 "$top/recipe.out" | grep -oE '[0-9]+' | tail -1)
[ -n "$merge_job" ] || { echo "FAIL: no merge job id printed by the recipe"; exit 1; }
array_job=$(scontrol show job -o "$merge_job" | grep -oE 'afterok:[0-9]+' | cut -d: -f2 || true)

# Every job ends: the array's tasks, then the merge (or it is cancelled).
job_states() {  # "<JobId> <JobState> <ExitCode>" for every job of the cluster
  scontrol show job -o | sed -E 's/^JobId=([0-9]+) .*JobState=([A-Z_]+) .*ExitCode=([0-9:]+).*/\1 \2 \3/'
}
deadline=$((SECONDS + 600))
until job_states | awk -v m="$merge_job" '$1 == m && $2 !~ /PENDING|RUNNING|CONFIGURING|COMPLETING/ {f = 1} END {exit !f}'; do
  if ((SECONDS > deadline)); then
    echo "FAIL: the jobs did not finish within 600 s:"
    job_states
    exit 1
  fi
  sleep 1
done
echo "== jobs (id state exit code), array job $array_job, merge job $merge_job:"
job_states | tee "$top/jobs.txt"
tasks=$(scontrol show job -o | grep -c "ArrayJobId=$array_job " || true)
[ "$tasks" -eq "$shards" ] || { echo "FAIL: $tasks array tasks ran, expected $shards"; exit 1; }
if awk '$2 != "COMPLETED" || $3 != "0:0" {bad = 1} END {exit !bad}' "$top/jobs.txt"; then
  echo "FAIL: a job did not complete with exit code 0"
  exit 1
fi

# The same configuration, locally and unsharded, then every dataset compared.
mkdir -p "$top/local/raw"
OPENBLAS_NUM_THREADS=1 "$binary" --scale=test --threads=2 --quiet \
  --parts_dir="$top/local/parts" --output_dir="$top/local/raw" >"$top/local/log" 2>&1 ||
  { cat "$top/local/log"; exit 1; }
/usr/bin/python3 "$h5_equal" "$work/results/raw/$study.h5" "$top/local/raw/$study.h5" \
  --parts="$work/results/parts" --shards="$shards"
echo "PASSED: the README's Slurm recipe ($shards shards + merge) gives the local unsharded result"
