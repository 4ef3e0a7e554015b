#!/bin/bash
# embed_claims.sh <study> <claims.json>: prints a C++ translation unit that
# registers the text of <claims.json> as <study>'s declaration
# (declared_claims.h); run by privbench_study's genrule (study.bzl).
set -euo pipefail
study="$1"
json="$2"
if grep -q ')pbclaims"' "$json"; then
  echo "embed_claims.sh: $json contains the raw-string delimiter )pbclaims\"" >&2
  exit 1
fi
if ! [[ "$study" =~ ^[a-z0-9_]+$ ]]; then
  echo "embed_claims.sh: study name '$study' is not [a-z0-9_]+" >&2
  exit 1
fi
echo "// Generated from experiments/$study/claims.json by privbench_study; do not edit."
echo '#include "experiments/lib/framework/declared_claims.h"'
echo 'namespace {'
echo "const privbench::DeclaredClaimsRegistration kDeclaredClaims(\"$study\", R\"pbclaims("
cat "$json"
echo ')pbclaims");'
echo '}  // namespace'
