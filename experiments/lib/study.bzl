"""privbench_study: the targets of one study package, declared once.

A study is one folder, experiments/<study>/, holding everything that is the
study's (see the README, "Adding a study"):

    BUILD        privbench_study(name = "<study>", deps = [...],
                 libraries = {...}) plus whatever else is the study's own
    config.h     struct Config in namespace privbench::<study>
    main.cc      its scales, one flag per field and RunStudyMain
    claims.json  its published numbers and claims, declared once
    figures.py   its figure script (optional)
    smoke_test.py, README.md (its documentation section)

The macro declares
  :<library>            one cc_library per entry of libraries: <library>.cc
                        (when the folder has it) and <library>.h, with
                        //core:format and //core:result, and for "report"
                        also claims.cc and tables.cc (when the folder has
                        them) and the claim, table and HDF5 libraries
                        (_REPORT_DEPS)
  :<library>_test       one cc_test (size small) per library whose
                        <library>_test.cc exists, on the library and
                        gtest_main; tests adds deps or a size to one, or
                        declares a test of no library
  :<binary>             one cc_binary per entry of binaries (<binary>.cc):
                        benchmarks and helpers
  :<study>              the study binary, tagged "study" (tools/main.sh finds
                        studies by this tag), linked with :declared_claims
                        and //experiments/lib/framework:study
  :declared_claims      claims.json compiled into the binary: RunStudyMain
                        takes every claim's statement and source from it and
                        refuses a claim the declaration lacks
  :smoke_test           smoke_test.py on the binary (with claims.json)
  :results_test         the study at --scale=test through the whole results
                        pipeline: its figures, tables, verify on its
                        claims.json, the report page (results/study_results_test.py)
  :seed_verdicts_test   (seed_stable = True) its claims' verdicts at quick
                        scale are the same at the default seed and at
                        second_seed
  :shelf_test           (when paper/<study>.h5 exists: the study's
                        paper-scale shelf, results/shelf.h) the shelf file is
                        accepted, the paper-scale configuration is unchanged,
                        and the sample units paper/units/*.h5 re-run today
                        give the same data (results/shelf_check.py)
The layers config, compute and report are wired here (_LAYERS): each of
them depends on the ones before it, a layer's test on its layer and the ones
before it (a report test also on _REPORT_TEST_DEPS), the study binary and a
test of no library on all of them.
What a study's BUILD still writes by hand: the call's lists (the other deps
of each library, test and binary), files other than the conventional ones,
and any target of another kind (an sh_test of its own beside :smoke_test).
Every target declared here is private to its package except the study
binary, claims.json and figures.py.
results/ never lists a study: it reads experiments/*/claims.json,
experiments/*/figures.py and results/raw/*.h5.
"""

load("@rules_cc//cc:defs.bzl", "cc_binary", "cc_library", "cc_test")

_FRAMEWORK = "//experiments/lib/framework:study"
_GTEST = "//third_party:gtest_main"

# Deps every study library gets, and those a library named "report" adds
# (judged claims, summary tables, HDF5 writes).
_LIBRARY_DEPS = ["//core:format", "//core:result"]
_REPORT_DEPS = [
    "//experiments/lib/framework:judged_claim",
    "//experiments/lib/framework:study",
    "//results:h5_file",
    "//results:table_builder",
]

# What a report test gets besides its layers: the HDF5 file it reads back
# and the helpers that write a report to a temporary file.
_REPORT_TEST_DEPS = ["//results:h5_file", "//results:report_file_testing"]

def _uniq(labels):
    out = []
    for label in labels:
        if label not in out:
            out.append(label)
    return out

def _set(**kwargs):
    """The attributes that have a value: an empty list or False stays unset."""
    return {k: v for k, v in kwargs.items() if v}

def _spec(what, name, value, keys):
    """A libraries/tests/binaries entry: its deps (a list) or a dict of keys."""
    if type(value) == "list":
        return {"deps": value}
    if type(value) != "dict":
        fail("%s %s: a list of deps or a dict, not %s" % (what, name, type(value)))
    for key in value:
        if key not in keys:
            fail("%s %s: unknown key %s (allowed: %s)" % (what, name, key, ", ".join(keys)))
    return value

# The layers of a study, in order: each of these libraries the study
# declares depends on the ones before it without listing them (compute on
# config, report on compute and config); a layer's unit test on its layer
# and the ones before it; the study binary and a test of no library on all
# of them.
_LAYERS = ["config", "compute", "report"]

def _layers_below(libraries, name):
    """The layer libraries the study declares before layer `name` (none for
    a library that is no layer; all of them for name = None)."""
    if name == None:
        below = _LAYERS
    elif name in _LAYERS:
        below = _LAYERS[:_LAYERS.index(name)]
    else:
        below = []
    return [":" + layer for layer in below if layer in libraries]

def _libraries(libraries):
    for name, value in libraries.items():
        spec = _spec("library", name, value, ["srcs", "hdrs", "deps"])
        own = [name + ".cc"] + (["claims.cc", "tables.cc"] if name == "report" else [])
        srcs = spec.get("srcs", native.glob(own, allow_empty = True))
        deps = _uniq(_layers_below(libraries, name) + spec.get("deps", []) + _LIBRARY_DEPS +
                     (_REPORT_DEPS if name == "report" else []))
        cc_library(
            name = name,
            hdrs = spec.get("hdrs", [name + ".h"]),
            **_set(srcs = srcs, deps = deps)
        )

def _test_deps(libraries, test):
    """What a test gets without listing it: a library's test its library (and
    for a layer the layers before it; for the report the report test deps), a
    test of no library every layer."""
    library = test[:-len("_test")] if test.endswith("_test") else None
    if library not in libraries:
        return _layers_below(libraries, None)
    extra = _REPORT_TEST_DEPS if library == "report" else []
    return [":" + library] + _layers_below(libraries, library) + extra

def _tests(libraries, tests):
    specs = {}
    for library in libraries:
        if native.glob([library + "_test.cc"], allow_empty = True):
            specs[library + "_test"] = {}
    for name, value in tests.items():
        specs[name] = _spec("test", name, value, ["srcs", "deps", "size"])
    for name, spec in specs.items():
        cc_test(
            name = name,
            size = spec.get("size", "small"),
            srcs = spec.get("srcs", [name + ".cc"]),
            deps = _uniq(_test_deps(libraries, name) + spec.get("deps", []) + [_GTEST]),
        )

def _binaries(binaries):
    for name, value in binaries.items():
        spec = _spec("binary", name, value, ["srcs", "deps", "testonly"])
        cc_binary(
            name = name,
            srcs = spec.get("srcs", [name + ".cc"]),
            **_set(deps = spec.get("deps", []), testonly = spec.get("testonly", False))
        )

def _declared_claims(name):
    native.genrule(
        name = "declared_claims_cc",
        srcs = ["claims.json"],
        outs = ["declared_claims.cc"],
        cmd = "$(location //experiments/lib/framework:embed_claims.sh) %s $< > $@" % name,
        tools = ["//experiments/lib/framework:embed_claims.sh"],
    )
    cc_library(
        name = "declared_claims",
        srcs = [":declared_claims_cc"],
        deps = ["//experiments/lib/framework:declared_claims"],
        alwayslink = 1,
    )

def _shelf_test(name, size):
    shelf = native.glob(["paper/%s.h5" % name])
    if not shelf:
        return
    native.sh_test(
        name = "shelf_test",
        size = size,
        srcs = ["//tests:run_python_test.sh"],
        args = [
            "$(location //results:shelf_check.py)",
            "--study=" + name,
            "--binary=$(location :%s)" % name,
            "--shelf_tool=$(location //results:shelf_tool)",
            "--shelf_file=$(location %s)" % shelf[0],
        ],
        data = [
            ":" + name,
            "//results:shelf_check.py",
            "//results:shelf_tool",
        ] + shelf + native.glob(["paper/units/*.h5"]),
    )

def privbench_study(
        name,
        deps,
        libraries = {},
        tests = {},
        binaries = {},
        srcs = ["main.cc"],
        smoke_size = "small",
        smoke_args = [],
        smoke_data = [],
        results_size = "medium",
        figures = True,
        figures_data = [],
        seed_stable = False,
        second_seed = 1,
        shelf_size = "large"):
    """One study: libraries, unit tests, binary, declared claims, smoke, results and seed tests.

    Args:
      name: the study's name: its package, binary, result file <name>.h5.
      deps: the binary's dependencies besides //experiments/lib/framework:study,
        :declared_claims and the layers (:config, :compute, :report, those the
        study declares), which it always has.
      libraries: {name: deps} of the study's libraries, each a cc_library of
        <name>.cc (when the folder has it) and <name>.h; a dict
        {"srcs": ..., "hdrs": ..., "deps": ...} in place of the deps sets
        other files. Each library with a <name>_test.cc gets :<name>_test.
      tests: {name: deps} of cc_tests beyond a library's plain unit test:
        extra deps of :<library>_test (which always depends on :<library>
        and //third_party:gtest_main), or a test of its own (<name>.cc); a
        dict {"srcs": ..., "deps": ..., "size": ...} in place of the deps
        sets other files or a size other than small.
      binaries: {name: deps} of further cc_binary targets, each of
        <name>.cc; a dict {"srcs": ..., "deps": ..., "testonly": True} in
        place of the deps sets other files or marks it testonly.
      srcs: the binary's sources (main.cc).
      smoke_size: size of :smoke_test.
      smoke_args: extra arguments of smoke_test.py after the binary's path.
      smoke_data: extra runfiles of :smoke_test.
      results_size: size of :results_test.
      figures: whether the package has figures.py.
      figures_data: what figures.py imports besides results/plots/plotting.py.
      seed_stable: whether :seed_verdicts_test checks two seeds at quick scale.
      second_seed: the seed compared with the default (the simulation studies
        use 1; the trained-model studies 7, the seed of their acceptance
        criterion, see docs/studies.md "Verdicts that do not depend on the
        seed").
      shelf_size: size of :shelf_test (when the study has a shelf).
    """
    native.exports_files(
        ["claims.json"] + (["figures.py"] if figures else []),
        visibility = ["//visibility:public"],
    )
    _libraries(libraries)
    _tests(libraries, tests)
    _binaries(binaries)
    _declared_claims(name)
    cc_binary(
        name = name,
        srcs = srcs,
        tags = ["study"],
        visibility = ["//visibility:public"],
        deps = _uniq(_layers_below(libraries, None) + deps + [_FRAMEWORK, ":declared_claims"]),
    )
    native.sh_test(
        name = "smoke_test",
        size = smoke_size,
        srcs = ["//tests:run_python_test.sh"],
        args = ["$(location smoke_test.py)", "$(location :%s)" % name] + smoke_args,
        data = ["smoke_test.py", "claims.json", ":" + name, "//python:privbench", "//tests:smoke"] +
               smoke_data,
    )
    figure_args = ["$(location figures.py)"] if figures else ["-"]
    native.sh_test(
        name = "results_test",
        size = results_size,
        srcs = ["//tests:run_python_test.sh"],
        args = [
            "$(location //results:study_results_test.py)",
            "$(location :%s)" % name,
            "$(location claims.json)",
            "$(location //results:verify)",
            "$(location //results:tables)",
            "$(location //results:report/make_report.py)",
        ] + figure_args,
        data = [
            "claims.json",
            ":" + name,
            "//results:study_results_test.py",
            "//results:verify",
            "//results:tables",
            "//results:report/make_report.py",
            "//results:privbench_import",  # how make_report and plotting find privbench
            "//results:plotting",
            "//python:privbench",  # privbench.results: the reader of figures and the report
            "//tests:smoke",
        ] + (["figures.py"] + figures_data if figures else []),
    )
    _shelf_test(name, shelf_size)
    if seed_stable:
        native.sh_test(
            name = "seed_verdicts_test",
            size = "large",
            srcs = ["//tests:run_python_test.sh"],
            args = [
                "$(location //results:seed_verdicts_test.py)",
                "--second_seed=%d" % second_seed,
                "--claims=$(location claims.json)",
                "$(location :%s)" % name,
            ],
            data = [
                "claims.json",
                "//results:seed_verdicts_test.py",
                ":" + name,
                "//python:privbench",  # privbench.results, the reader of the result files
                "//tests:smoke",
            ],
        )
