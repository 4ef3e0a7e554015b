"""Compares a study file merged from Slurm shards with a local unsharded run.

    h5_equal.py <merged.h5> <local.h5> --parts=DIR --shards=N

Every group, dataset and attribute outside /meta must be equal: the same
names, dtypes, shapes and values (NaN equal to NaN), so "same seed, same
bytes" holds across the shards. Then the provenance: /meta of both files
names the same commit, the merged file's sweep_part_versions names one
commit and every shard i/N with its Slurm job, and every part under DIR
records its shard, host and Slurm job. Exits 1 listing every difference.
"""
import argparse
import glob
import os
import sys

import h5py
import numpy as np

PROBLEMS = []


def problem(msg):
    PROBLEMS.append(msg)
    print("FAIL:", msg, file=sys.stderr)


def text(x):
    return x.decode() if isinstance(x, bytes) else str(x)


def same_value(a, b):
    a, b = np.asarray(a), np.asarray(b)
    if a.dtype != b.dtype or a.shape != b.shape:
        return False
    if a.dtype.kind == "f":
        return bool(np.array_equal(a, b, equal_nan=True))
    return bool(np.array_equal(a, b))


def objects(f):
    """{path: object} of every group and dataset outside /meta."""
    out = {}

    def visit(name, obj):
        if name == "meta" or name.startswith("meta/"):
            return
        out[name] = obj
    f.visititems(visit)
    return out


def compare(merged, local):
    a, b = objects(merged), objects(local)
    for name in sorted(set(a) ^ set(b)):
        problem(f"{name}: only in the {'merged' if name in a else 'local'} file")
    datasets = 0
    for name in sorted(set(a) & set(b)):
        x, y = a[name], b[name]
        if isinstance(x, h5py.Dataset) != isinstance(y, h5py.Dataset):
            problem(f"{name}: a dataset in one file, a group in the other")
            continue
        if isinstance(x, h5py.Dataset):
            datasets += 1
            if not same_value(x[()], y[()]):
                problem(f"{name}: values differ ({x.dtype}{x.shape} vs {y.dtype}{y.shape})")
        for attr in sorted(set(x.attrs) | set(y.attrs)):
            if attr not in x.attrs or attr not in y.attrs:
                problem(f"{name}: attribute {attr} only in one file")
            elif not same_value(x.attrs[attr], y.attrs[attr]):
                problem(f"{name}: attribute {attr} differs")
    return datasets


def check_provenance(merged, local, parts_dir, shards):
    commit = text(local["meta"].attrs["git_commit"])
    if text(merged["meta"].attrs["git_commit"]) != commit:
        problem("the merged file and the local run name different commits")
    versions = text(merged["meta"].attrs.get("sweep_part_versions", ""))
    print(f"merged /meta sweep_part_versions: {versions}")
    if f"all from commit {commit}" not in versions:
        problem(f"sweep_part_versions does not name one commit {commit}: {versions}")
    parts = sorted(glob.glob(os.path.join(parts_dir, "*", "*.h5")))
    if not parts:
        problem(f"no parts under {parts_dir}")
    seen = set()
    for path in parts:
        with h5py.File(path, "r") as p:
            m = p["meta"].attrs
            shard, job = text(m.get("shard", "")), text(m.get("slurm_job", ""))
            seen.add(shard)
            if not job:
                problem(f"{os.path.basename(path)}: no Slurm job recorded")
            if text(m.get("git_commit", "")) != commit:
                problem(f"{os.path.basename(path)}: made by another commit")
            if f"shard {shard} on " not in versions:
                problem(f"sweep_part_versions does not name shard {shard}")
    expected = {f"{i}/{shards}" for i in range(shards)}
    if seen != expected:
        problem(f"parts made by shards {sorted(seen)}, expected {sorted(expected)}")
    return len(parts)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("merged")
    p.add_argument("local")
    p.add_argument("--parts", required=True)
    p.add_argument("--shards", type=int, required=True)
    a = p.parse_args()
    with h5py.File(a.merged, "r") as merged, h5py.File(a.local, "r") as local:
        datasets = compare(merged, local)
        parts = check_provenance(merged, local, a.parts, a.shards)
    if datasets == 0:
        problem("no dataset compared")
    if PROBLEMS:
        print(f"{len(PROBLEMS)} differences", file=sys.stderr)
        return 1
    print(f"merged == local: {datasets} datasets equal outside /meta; {parts} parts from "
          f"{a.shards} shards, one commit")
    return 0


if __name__ == "__main__":
    sys.exit(main())
