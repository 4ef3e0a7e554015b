"""Study targets of one group (see experiments/BUILD). Owned by that group.

Coverage studies (STUDIES.md B6, B7):
  //experiments:bayes_coverage              Monte-Carlo coverage of every registered
                                            eps interval estimator
  //experiments:katz_coverage               Katz-log vs Clopper-Pearson bounds on log(p1/p0)
  //experiments:<study>_smoke_test          --scale=test run + HDF5 layout checks
  //experiments:coverage_benchmark          trials/second and projected paper-scale time
"""

load("@rules_cc//cc:defs.bzl", "cc_binary", "cc_library")

def coverage_studies():
    """Declares the group's study binaries (tags = ["study"]) and smoke tests."""
    cc_library(
        name = "coverage_sim",
        srcs = ["coverage_sim.cc"],
        hdrs = ["coverage_sim.h"],
        deps = [
            "//core:format",
            "//core:result",
            "//core:seeding",
            "//core:validate",
            "//estimators:confusion_counts",
            "//estimators:interval_estimator",
            "//estimators:interval_registry",
            "//estimators:rate_intervals",
            "//estimators/intervals:katz_log",
            "//third_party:boost_math",
        ],
    )

    cc_binary(
        name = "bayes_coverage",
        srcs = ["bayes_coverage.cc"],
        tags = ["study"],
        deps = [
            ":coverage_sim",
            "//experiments/framework:study",
            "//core:progress",
            "//core:seeding",
            "//core:validate",
            "//estimators:eps_from_rates",
        ],
    )

    cc_binary(
        name = "katz_coverage",
        srcs = ["katz_coverage.cc"],
        tags = ["study"],
        deps = [
            ":coverage_sim",
            "//experiments/framework:study",
            "//core:progress",
            "//core:seeding",
            "//core:validate",
            "//estimators/intervals:katz_log",
        ],
    )

    cc_binary(
        name = "coverage_benchmark",
        srcs = ["coverage_benchmark.cc"],
        deps = [
            ":coverage_sim",
            "//experiments/framework:study",
            "//core:flags",
            "//core:seeding",
        ],
    )

    cc_binary(
        name = "coverage_registry_names",
        testonly = True,
        srcs = ["coverage_registry_names.cc"],
        deps = ["//estimators:interval_registry"],
    )

    native.sh_test(
        name = "bayes_coverage_smoke_test",
        size = "small",
        srcs = ["//tests:run_python_test.sh"],
        args = [
            "$(location bayes_coverage_smoke_test.py)",
            "$(location :bayes_coverage)",
            "$(location :coverage_registry_names)",
        ],
        data = [
            "bayes_coverage_smoke_test.py",
            ":bayes_coverage",
            ":coverage_registry_names",
        ],
    )

    native.sh_test(
        name = "katz_coverage_smoke_test",
        size = "small",
        srcs = ["//tests:run_python_test.sh"],
        args = [
            "$(location katz_coverage_smoke_test.py)",
            "$(location :katz_coverage)",
        ],
        data = [
            "katz_coverage_smoke_test.py",
            ":katz_coverage",
        ],
    )
