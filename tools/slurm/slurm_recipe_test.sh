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
#     part made by this binary's commit, under its own shard i/n and Slurm job);
#  5. resubmits a lost shard as the README says (`sbatch --array=1
#     sweep.sbatch`, then the recipe's merge line) after removing its parts
#     and the study file, and compares again;
#  6. runs the recipe once more with a stand-in study whose shard 1 exits 3:
#     that task must end FAILED with exit code 3, and the merge be cancelled
#     (not left pending forever);
#  7. stops every daemon it started (also on failure).
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

top=$(mktemp -d /tmp/privbench-slurm.XXXXXX) # short: munge's socket path must fit
chmod 711 "$top" # munged wants every directory above its socket searchable by all
# shellcheck source=tools/slurm/local_cluster.sh
source "$cluster_lib"
finish() {
  status=$?
  cluster_stop
  if [ $status -ne 0 ]; then
    for f in "$top"/work*/recipe.out "$top"/work*/slurm-*.out "$top"/cluster/log/*.log; do
      [ -e "$f" ] && { echo "== $f"; tail -20 "$f"; }
    done
  fi
  case "$top" in /tmp/privbench-slurm.*) rm -rf "$top" ;; esac
  exit $status
}
trap finish EXIT
trap 'exit 143' TERM INT # Bazel's timeout: still stop the daemons (finish)
cluster_start "$top/cluster"

# The README's recipe block as printed, its first line (the parameters) set to
# the study given, scale test, $shards shards.
write_recipe() { # <study>
  /usr/bin/python3 - "$readme" "$1" "$shards" <<'PY'
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
}

# Stand-in for the recipe's build step: Bazel built the binaries for this test.
mkdir -p "$top/shim"
cat >"$top/shim/bazel" <<'SHIM'
#!/bin/bash
s="${2#//experiments/}"
if [ $# -ne 2 ] || [ "$1 $2" != "build //experiments/$s" ]; then
  echo "bazel stand-in: unexpected '$*'" >&2
  exit 1
fi
[ -x "bazel-bin/experiments/$s/$s" ] || { echo "bazel stand-in: no bazel-bin/experiments/$s/$s" >&2; exit 1; }
SHIM
chmod +x "$top/shim/bazel"

# Runs the recipe for <study binary> in a fresh working directory <dir>; prints
# the merge job's id (the recipe's last line of output).
run_recipe() { # <binary> <dir>
  local name dir="$2"
  name=$(basename "$1")
  mkdir -p "$dir/bazel-bin/experiments/$name"
  # What `bazel build` leaves in bazel-bin: the binary and, beside it, its
  # runfiles tree (the vendored Adult data is found there). The binary is
  # copied, not linked: a study finds its runfiles from its resolved path,
  # and the data dependency's own runfiles tree in bazel-out may not exist
  # yet when this test starts (it is built as a separate action).
  cp "$1" "$dir/bazel-bin/experiments/$name/$name"
  ln -s "${RUNFILES_DIR:-$TEST_SRCDIR}" "$dir/bazel-bin/experiments/$name/$name.runfiles"
  write_recipe "$name" >"$dir/recipe.sh"
  # A user's shell: none of the variables Bazel sets for tests (runfiles,
  # workspace); the jobs inherit this.
  (cd "$dir" && env -u RUNFILES_DIR -u RUNFILES_MANIFEST_FILE -u TEST_SRCDIR -u JAVA_RUNFILES \
    -u BUILD_WORKSPACE_DIRECTORY -u PYTHONPATH PATH="$top/shim:$PATH" \
    bash -euo pipefail recipe.sh) >"$dir/recipe.out"
  tail -1 "$dir/recipe.out" | grep -oE '^[0-9]+$'
}

job_states() { # "<JobId> <JobState> <ExitCode>" for every job of the cluster
  scontrol show job -o | sed -E 's/^JobId=([0-9]+) .*JobState=([A-Z_]+) .*ExitCode=([0-9:]+).*/\1 \2 \3/'
}

# Waits until job <id> has ended (completed, failed or cancelled), or can
# never start (a dependency that failed, without --kill-on-invalid-dep).
wait_for_job() {
  local deadline=$((SECONDS + 240))
  until job_states | awk -v m="$1" '$1 == m && $2 !~ /PENDING|RUNNING|CONFIGURING|COMPLETING|SUSPENDED/ {f = 1} END {exit !f}' ||
    scontrol show job -o "$1" | grep -q "Reason=DependencyNeverSatisfied"; do
    if ((SECONDS > deadline)); then
      echo "FAIL: job $1 did not end within 240 s:"
      job_states
      exit 1
    fi
    sleep 1
  done
}

echo "== the README's recipe, parameters set for the test:"
write_recipe "$study"
work="$top/work"
merge_job=$(run_recipe "$binary" "$work") || { echo "FAIL: no merge job id printed by the recipe"; exit 1; }
array_job=$(scontrol show job -o "$merge_job" | grep -oE 'afterok:[0-9]+' | cut -d: -f2)
wait_for_job "$merge_job"
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
"$binary" --scale=test --threads=2 --quiet \
  --parts_dir="$top/local/parts" --output_dir="$top/local/raw" >"$top/local/log" 2>&1 ||
  { cat "$top/local/log"; exit 1; }
/usr/bin/python3 "$h5_equal" "$work/results/raw/$study.h5" "$top/local/raw/$study.h5" \
  --parts="$work/results/parts" --shards="$shards"

# A lost shard is resubmitted as the README says (`sbatch --array=1
# sweep.sbatch`, then the merge line again): shard 1's parts and the study
# file are removed, the resubmitted task redoes only them, and the merged
# file again equals the local run.
/usr/bin/python3 - "$work/results/parts" <<'PY'
import glob, os, sys, h5py
for path in glob.glob(os.path.join(sys.argv[1], "*", "*.h5")):
    with h5py.File(path, "r") as f:
        shard = f["meta"].attrs["shard"]
    if (shard.decode() if isinstance(shard, bytes) else shard).startswith("1/"):
        os.remove(path)
PY
rm "$work/results/raw/$study.h5"
{
  head -1 "$work/recipe.sh"
  echo 'jobid=$(sbatch --parsable --array=1 sweep.sbatch)'
  sed -n '/^jobid=\$(sbatch --parsable sweep.sbatch)$/,$p' "$work/recipe.sh" | tail -n +2
} >"$work/resubmit.sh"
grep -q -- '--merge_only' "$work/resubmit.sh" || { echo "FAIL: no merge line in the recipe"; exit 1; }
echo "== resubmitting shard 1:"
cat "$work/resubmit.sh"
resubmit_merge=$(cd "$work" && env -u RUNFILES_DIR -u RUNFILES_MANIFEST_FILE -u TEST_SRCDIR \
  bash -euo pipefail resubmit.sh | tail -1)
wait_for_job "$resubmit_merge"
job_states | awk -v m="$resubmit_merge" '$1 >= m - 1' | tee "$top/jobs_resubmit.txt"
if awk '$2 != "COMPLETED" || $3 != "0:0" {bad = 1} END {exit !bad}' "$top/jobs_resubmit.txt"; then
  echo "FAIL: the resubmitted task or its merge did not complete with exit code 0"
  exit 1
fi
/usr/bin/python3 "$h5_equal" "$work/results/raw/$study.h5" "$top/local/raw/$study.h5" \
  --parts="$work/results/parts" --shards="$shards"

# A task that fails: its exit code reaches Slurm and the merge job is
# cancelled (--kill-on-invalid-dep), not left pending forever. The stand-in
# study fails shard 1 with exit code 3 and succeeds on the others.
mkdir -p "$top/failing"
cat >"$top/failing/failing_sweep" <<'STUDY'
#!/bin/bash
case "$*" in *--shard=1/*) echo "failing_sweep: shard 1 fails" >&2; exit 3 ;; esac
STUDY
chmod +x "$top/failing/failing_sweep"
fail_merge=$(run_recipe "$top/failing/failing_sweep" "$top/work_failing") ||
  { echo "FAIL: no merge job id printed by the recipe (failing study)"; exit 1; }
fail_array=$(scontrol show job -o "$fail_merge" | grep -oE 'afterok:[0-9]+' | cut -d: -f2)
wait_for_job "$fail_merge"
echo "== failing study: array job $fail_array, merge job $fail_merge:"
job_states | awk -v a="$fail_array" '$1 >= a' | tee "$top/jobs_failing.txt"
grep -q "^$fail_merge CANCELLED " "$top/jobs_failing.txt" ||
  { echo "FAIL: the merge job was not cancelled after a failed task"; exit 1; }
[ "$(grep -c ' FAILED 3:0$' "$top/jobs_failing.txt")" -eq 1 ] ||
  { echo "FAIL: expected exactly one task FAILED with exit code 3"; exit 1; }

echo "PASSED: the README's Slurm recipe ($shards shards + merge) gives the local unsharded result," \
  "also after resubmitting a lost shard; a failing task ends FAILED with its exit code and the" \
  "merge is cancelled"
