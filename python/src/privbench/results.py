"""privbench's HDF5 result files as dicts of NumPy arrays (h5py, no pandas).

The layout (results/h5_file.h): /meta (provenance attributes),
/summary/<table>/<column> (1-D columns, order in the group's "columns"
attribute), /claims/<id> (attributes statement, source, holds, evidence),
and the raw per-trial data anywhere else.

A file is read only after the C++ reader (results/h5_file.h) accepted it,
so Python applies the same rules as tables and verify: a regular file, the
current format version with a matching checksum, one hard link per object,
no external or virtual data, no dataset larger than the file can hold.
Anything else raises ValueError naming the file.

    r = privbench.read_results("results/raw/katz_coverage.h5")
    privbench.meta(r)["git_commit"]
    privbench.summary_tables(r)["coverage"]["method"]   # a column, a NumPy array
    privbench.claims(r)                                  # {id: {statement, ..., holds}}
    r["summary/coverage"].attrs["caption"], r.visititems(print)   # h5py-style access
"""
import os

try:
    import h5py
except ImportError:  # only read_results needs it: the package's optional extra "results"
    h5py = None
import numpy as np

from . import _privbench


class Group(dict):
    """An HDF5 group: {member name: Group or NumPy array (a Dataset where the
    dataset has attributes)}, with .attrs (a dict).

    Read like an h5py group, so that code written for h5py keeps working:
    members by path (g["summary/coverage/method"], "claims/x" in g,
    g.get("a/b")), .name (the group's path in the file, "/" for the root),
    .filename (the file, on the root),
    visititems(func) (func(relative path, member) for every member, depth
    first in name order, stopping at the first non-None return) and, on the
    file, `with ... as f:` and close() (no-ops: the file is closed once
    read). Datasets are NumPy arrays: f["x"][()], f["x"][...] and f["x"][:]
    give the values, string datasets as str objects (h5py gives bytes).
    """

    def __init__(self, members, attrs, path=None, name="/"):
        super().__init__(members)
        self.attrs = attrs
        self.path = path  # the file, on the root group
        self.name = name

    def _walk(self, key):
        """The member at path `key` (relative, or absolute from this group), or KeyError."""
        if not isinstance(key, str) or "/" not in key:
            return dict.__getitem__(self, key)
        node = self
        for part in [p for p in key.split("/") if p]:
            if not isinstance(node, Group):
                raise KeyError(key)
            node = dict.__getitem__(node, part)
        return node

    def __getitem__(self, key):
        try:
            return self._walk(key)
        except KeyError:
            raise KeyError("%s: no member '%s' in '%s'" % (self._file(), key, self.name)) from None

    def __contains__(self, key):
        try:
            self._walk(key)
        except KeyError:
            return False
        return True

    def get(self, key, default=None):
        try:
            return self._walk(key)
        except KeyError:
            return default

    def visititems(self, func, _prefix=""):
        for name in sorted(self):
            member = dict.__getitem__(self, name)
            rel = _prefix + name
            out = func(rel, member)
            if out is not None:
                return out
            if isinstance(member, Group):
                out = member.visititems(func, rel + "/")
                if out is not None:
                    return out
        return None

    @property
    def filename(self):
        """The file's path (h5py's File.filename; None below the root)."""
        return self.path

    def _file(self):
        return self.path or "result file"

    def close(self):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def _attr_value(v):
    if isinstance(v, bytes):
        return v.decode("utf-8")
    if isinstance(v, np.generic):
        return v.item()
    if isinstance(v, np.ndarray) and v.dtype.kind in "OS":
        return np.array([_attr_value(x) for x in v.tolist()], dtype=object)
    return v


class Dataset(np.ndarray):
    """A dataset that carries HDF5 attributes: its values as a NumPy array,
    with .attrs (a dict) as on an h5py dataset. Datasets without attributes
    are plain NumPy arrays."""

    def __new__(cls, values, attrs):
        obj = np.asarray(values).view(cls)
        obj.attrs = attrs
        return obj

    def __array_finalize__(self, obj):
        self.attrs = getattr(obj, "attrs", {})


def _dataset(ds):
    if h5py.check_string_dtype(ds.dtype) is not None:
        values = np.array(ds.asstr()[()], dtype=object)
    else:
        values = ds[()]
    if len(ds.attrs):
        return Dataset(values, {k: _attr_value(v) for k, v in ds.attrs.items()})
    return values


def _group(g, name="/"):
    members = {}
    for member, obj in g.items():
        path = name.rstrip("/") + "/" + member
        members[member] = _group(obj, path) if isinstance(obj, h5py.Group) else _dataset(obj)
    return Group(members, {k: _attr_value(v) for k, v in g.attrs.items()}, name=name)


def read_results(path):
    """The whole file as nested Groups; datasets as NumPy arrays (strings as str objects).

    The one Python reader of result files: the report page, the figure
    scripts and the smoke tests read through it (the C++ reader's rules,
    checksum included, then h5py). Usable like an open h5py file
    (`with read_results(p) as f: f["summary/t/col"]`); see Group.
    """
    if not isinstance(path, (str, bytes)) and not hasattr(path, "__fspath__"):
        raise ValueError("path must be a file name, got %r" % (path,))
    path = os.fsdecode(os.fspath(path))
    if h5py is None:
        raise ImportError("privbench.read_results needs h5py: apt-get install python3-h5py "
                          "(Debian), or pip install 'privbench[results]'")
    _privbench.check_result_file(path)
    try:
        with h5py.File(path, "r") as f:
            root = _group(f)
    except OSError as e:
        raise ValueError("path '%s' is not a readable HDF5 file: %s" % (path, e)) from None
    root.path = path
    return root


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
    """{claim id: {"statement", "source", "holds" (bool), "evidence"}}.

    holds must be the integer 0 or 1 (as the C++ readers require): "0", 2
    or 1.0 raise ValueError naming the file and the claim.
    """
    r = _results(r)
    out = {}
    for cid, g in r.get("claims", {}).items():
        a = dict(g.attrs)
        if "holds" in a:
            h = a["holds"]
            if isinstance(h, bool) or not isinstance(h, (int, np.integer)) or h not in (0, 1):
                raise ValueError("%s: claim '/claims/%s': holds must be the integer 0 or 1, got %r"
                                 % (getattr(r, "path", None) or "result file", cid, h))
            a["holds"] = bool(h)
        out[cid] = a
    return out
