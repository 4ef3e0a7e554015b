"""privbench's HDF5 result files as dicts of NumPy arrays (h5py, no pandas).

The layout (results/h5_file.h): /meta (provenance attributes),
/summary/<table>/<column> (1-D columns, order in the group's "columns"
attribute), /claims/<id> (attributes statement, source, holds, evidence),
and the raw per-trial data anywhere else.

    r = privbench.read_results("results/raw/katz_coverage.h5")
    privbench.meta(r)["git_commit"]
    privbench.summary_tables(r)["coverage"]["method"]   # a column, a NumPy array
    privbench.claims(r)                                  # {id: {statement, ..., holds}}
"""
import h5py
import numpy as np


class Group(dict):
    """An HDF5 group: {member name: Group or NumPy array}, with .attrs (a dict)."""

    def __init__(self, members, attrs):
        super().__init__(members)
        self.attrs = attrs


def _attr_value(v):
    if isinstance(v, bytes):
        return v.decode("utf-8")
    if isinstance(v, np.generic):
        return v.item()
    if isinstance(v, np.ndarray) and v.dtype.kind in "OS":
        return np.array([_attr_value(x) for x in v.tolist()], dtype=object)
    return v


def _dataset(ds):
    if h5py.check_string_dtype(ds.dtype) is not None:
        return np.array(ds.asstr()[()], dtype=object)
    return ds[()]


def _group(g):
    members = {}
    for name, obj in g.items():
        members[name] = _group(obj) if isinstance(obj, h5py.Group) else _dataset(obj)
    return Group(members, {k: _attr_value(v) for k, v in g.attrs.items()})


def read_results(path):
    """The whole file as nested Groups; datasets as NumPy arrays (strings as str objects)."""
    if not isinstance(path, (str, bytes)) and not hasattr(path, "__fspath__"):
        raise ValueError("path must be a file name, got %r" % (path,))
    try:
        with h5py.File(path, "r") as f:
            return _group(f)
    except OSError as e:
        raise ValueError("path '%s' is not a readable HDF5 file: %s" % (path, e)) from None


def _results(r):
    return r if isinstance(r, Group) else read_results(r)


def meta(r):
    """The provenance attributes of /meta (study, seed, scale, git_commit, ...)."""
    r = _results(r)
    if "meta" not in r:
        raise ValueError("the file has no /meta group (not a privbench result file)")
    return dict(r["meta"].attrs)


def summary_tables(r):
    """{table name: {column: 1-D array}}, columns in the table's order."""
    r = _results(r)
    tables = {}
    for name, g in r.get("summary", {}).items():
        order = [c for c in g.attrs.get("columns", "").split(",") if c] or sorted(g)
        missing = [c for c in order if c not in g]
        if missing:
            raise ValueError("summary table '%s' lacks the columns %s" % (name, missing))
        tables[name] = {c: g[c] for c in order}
    return tables


def claims(r):
    """{claim id: {"statement", "source", "holds" (bool), "evidence"}}."""
    r = _results(r)
    out = {}
    for cid, g in r.get("claims", {}).items():
        a = dict(g.attrs)
        if "holds" in a:
            a["holds"] = bool(a["holds"])
        out[cid] = a
    return out
