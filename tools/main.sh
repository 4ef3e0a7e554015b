#!/bin/bash
# The main job: set-up, every study at quick scale, tables, figures, and the
# verdicts on the papers' published numbers.
#
#   tools/main.sh                 # quick scale (minutes)
#   tools/main.sh --scale=paper   # the papers' scales (hours; see README)
#   tools/main.sh --studies=a,b   # only these studies
#
# Studies are the cc_binary targets under //experiments tagged "study", one
# folder each (//experiments/<study>:<study>, declared with privbench_study). Each writes
# results/raw/<study>.h5; tables go to results/tables/, figures to
# results/figures/, and results/report/index.html ties them together (one
# static page: verdicts, every check, each study's figures, tables, claims
# and provenance). Exits non-zero if a study fails or a fully specified
# published number misses its tolerance.
#
# Datasets that cannot ship (e.g. UCI banknote, credit and thoracic: fetch
# them with data_scripts/download_uci_audit.py and set $PRIVBENCH_DATA_DIR)
# join the paper scale only when found; the others are reported as
# unavailable in the study's /meta and its "datasets" table.
#
# $PRIVBENCH_BAZEL_FLAGS is passed to every bazel build/run (CI sets
# --config=ci: warnings are errors).
set -euo pipefail
cd "$(dirname "$0")/.."

scale=quick
only=""
for arg in "$@"; do
  case "$arg" in
    --scale=*) scale="${arg#--scale=}" ;;
    --studies=*) only="${arg#--studies=}" ;;
    -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
    *) echo "main.sh: unknown argument '$arg' (see --help)" >&2; exit 2 ;;
  esac
done

tools/setup.sh

read -r -a bazel_flags <<<"${PRIVBENCH_BAZEL_FLAGS:-}"

echo "== building" >&2
bazel build "${bazel_flags[@]}" //experiments/... //results/... //estimators/... //cli/... >&2

if [ -n "$only" ]; then
  IFS=, read -r -a studies <<<"$only"
else
  mapfile -t studies < <(bazel query 'attr(tags, "\bstudy\b", kind(cc_binary, //experiments/...))' 2>/dev/null | sed 's|^//experiments/\([^:]*\):.*|\1|' | sort)
fi

failed=()
for s in "${studies[@]}"; do
  echo "== study $s (scale $scale)" >&2
  start=$(date +%s)
  if bazel run "${bazel_flags[@]}" //experiments/"$s":"$s" -- --scale="$scale"; then
    echo "== study $s done in $(( $(date +%s) - start )) s" >&2
  else
    echo "== study $s FAILED" >&2
    failed+=("$s")
  fi
done

echo "== tables" >&2
bazel run "${bazel_flags[@]}" //results:tables
if [ -x results/figures.sh ]; then
  echo "== figures" >&2
  results/figures.sh || failed+=("figures")
fi
echo "== verdicts on published numbers" >&2
verify_status=0
bazel run "${bazel_flags[@]}" //results:verify || verify_status=$?
if [ "$scale" = quick ]; then
  echo "== numbers quoted in the study docs" >&2
  /usr/bin/python3 tools/doc_numbers.py || failed+=("doc numbers")
fi
echo "== index of studies" >&2
/usr/bin/python3 tools/study_index.py || failed+=("study index")
echo "== report" >&2
/usr/bin/python3 results/report/make_report.py || failed+=("report")

if [ ${#failed[@]} -gt 0 ]; then
  echo "main.sh: failed: ${failed[*]}" >&2
  exit 1
fi
exit $verify_status
