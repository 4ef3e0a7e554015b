#!/bin/sh
# Bazel's workspace status command (.bazelrc: --workspace_status_command):
# the git commit of the checkout being built and whether its tracked files
# differ from that commit. Keys prefixed STABLE_ go to
# bazel-out/stable-status.txt; //core:build_stamp (a genrule with stamp = 1)
# reads them into the binaries (core/provenance.h). A build whose values
# are unchanged reruns nothing; a new commit or a change of the dirty state
# recompiles one generated file and relinks what depends on it.
#
# Prints "unknown" for both where git is missing or the workspace is not
# the top of a git checkout. Never fails: a failing status command would fail every build.
# `--no-optional-locks`: git status takes no index.lock, so a build never
# blocks a concurrent `git commit`.
# Bazel runs this in the workspace root; it must be the top of the checkout
# (not, say, an exported tree inside some other repository).
commit=unknown
dirty=unknown
if command -v git >/dev/null 2>&1 &&
  [ "$(git rev-parse --show-toplevel 2>/dev/null)" = "$(pwd -P)" ] &&
  sha=$(git rev-parse --verify --quiet HEAD 2>/dev/null); then
  commit=$sha
  if changes=$(git --no-optional-locks status --porcelain --untracked-files=no 2>/dev/null); then
    if [ -n "$changes" ]; then dirty=1; else dirty=0; fi
  fi
fi
echo "STABLE_GIT_COMMIT $commit"
echo "STABLE_GIT_DIRTY $dirty"
