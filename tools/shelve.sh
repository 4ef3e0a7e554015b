#!/bin/bash
# Produces or refreshes a study's paper-scale shelf (results/shelf.h):
#
#   tools/shelve.sh <study> [--threads=N] [--accept_parts_from=COMMIT[,COMMIT...]]
#   tools/shelve.sh <study> --pack
#
# runs `<study> --scale=paper` (nice'd) with its sweep parts under
# experiments/<study>/paper/parts/ and its file written to
# experiments/<study>/paper/<study>.h5; for a sweep study it then keeps, of
# each kind of unit (the unit id's first word: "baseline", "dp", ...), the
# part that took least time as a sample unit the study's :shelf_test
# re-runs (experiments/<study>/paper/units/<unit>.h5), and removes the other
# parts. Resumable: killed at any point, the same command continues from the
# parts present. A long run can be committed as it goes: --pack writes the
# finished parts to experiments/<study>/paper/parts.tar.xz (parts/ itself
# is git-ignored; HDF5 parts compress about 17x), which the next run unpacks
# when parts/ is absent, e.g. on another machine or at another commit with
# --accept_parts_from=<the commits that made the parts> (the shelf test then
# checks that this code makes the same numbers); the archive is removed once
# the shelf file is written.
# Each study's README gives its shelf's refresh time.
set -euo pipefail
cd "$(dirname "$0")/.."

study="${1:-}"
if [ -z "$study" ] || [ "${study#-}" != "$study" ]; then
  sed -n '2,21p' "$0" >&2
  exit 2
fi
shift
if [ ! -f "experiments/$study/claims.json" ]; then
  echo "shelve.sh: '$study' is not a study (no experiments/$study/claims.json)" >&2
  exit 2
fi
extra=()
threads=2
pack=0
for arg in "$@"; do
  case "$arg" in
    --threads=*) threads="${arg#--threads=}" ;;
    --accept_parts_from=*) extra+=("$arg") ;;
    --pack) pack=1 ;;
    *) echo "shelve.sh: unknown argument '$arg'" >&2; exit 2 ;;
  esac
done

shelf="experiments/$study/paper"
archive="$shelf/parts.tar.xz"
if [ "$pack" = 1 ]; then
  [ -d "$shelf/parts" ] || { echo "shelve.sh: no $shelf/parts to pack" >&2; exit 2; }
  tar -C "$shelf" -cf - parts | xz -9 -T2 >"$archive.tmp"
  mv "$archive.tmp" "$archive"
  echo "shelve.sh: $(find "$shelf/parts" -name '*.h5' | wc -l) parts packed into $archive ($(du -h "$archive" | cut -f1)); commit it to keep them" >&2
  exit 0
fi
if [ -f "$archive" ] && [ ! -d "$shelf/parts" ]; then
  xz -dc "$archive" | tar -C "$shelf" -xf -
  echo "shelve.sh: unpacked $(find "$shelf/parts" -name '*.h5' | wc -l) committed parts from $archive" >&2
fi

read -r -a bazel_flags <<<"${PRIVBENCH_BAZEL_FLAGS:-}"
bazel build "${bazel_flags[@]}" //experiments/"$study":"$study" >&2
binary="bazel-bin/experiments/$study/$study"
mkdir -p "$shelf"
sweep=0
# (The help is read whole first: `grep -q` on a pipe would stop reading
# early and, under pipefail, fail the test with the binary's SIGPIPE.)
help=$("$binary" --help)
if grep -q -- '--parts_dir' <<<"$help"; then
  sweep=1
  mkdir -p "$shelf/parts"
  extra+=("--parts_dir=$shelf/parts")
fi
start=$(date +%s)
nice -n 10 "$binary" --scale=paper --threads="$threads" --output_dir="$shelf" "${extra[@]}"
if [ ! -f "$shelf/$study.h5" ]; then
  echo "shelve.sh: $study wrote no file yet (units pending); rerun the same command" >&2
  exit 1
fi
if [ "$sweep" = 1 ]; then
  # The cheapest unit of each kind becomes a sample the shelf test re-runs.
  rm -rf "$shelf/units"
  mkdir -p "$shelf/units"
  /usr/bin/python3 - "$shelf/parts" "$shelf/units" <<'PY'
import glob, os, re, shutil, sys, h5py
cheapest = {}
for path in glob.glob(os.path.join(sys.argv[1], "*", "*.h5")):
    with h5py.File(path, "r") as f:
        seconds = float(f["meta"].attrs["duration_seconds"])
    kind = re.split(r"[_=]", os.path.basename(path))[0]
    cheapest[kind] = min(cheapest.get(kind, (seconds, path)), (seconds, path))
for kind, (seconds, path) in sorted(cheapest.items()):
    shutil.copy(path, sys.argv[2])
    print(f"shelve.sh: sample unit {os.path.basename(path)[:-3]} ({seconds:.1f} s) kept",
          file=sys.stderr)
PY
  rm -rf "$shelf/parts" "$archive"
fi
echo "shelve.sh: $shelf/$study.h5 written ($(du -h "$shelf/$study.h5" | cut -f1)) in $(( $(date +%s) - start )) s" >&2
echo "shelve.sh: check it with: bazel test //experiments/$study:shelf_test" >&2
