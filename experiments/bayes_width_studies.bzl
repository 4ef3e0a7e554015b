"""Study targets of one group (see experiments/BUILD). Owned by that group.

The Bayesian paper's numeric evaluation (Zanella-Beguelin et al., ICML 2023,
Sec. 3.4): bayes_sample_size (Fig. 4, STUDIES.md B4) and bayes_width_grid
(Fig. 5, STUDIES.md B5), their shared code, and their smoke tests.
"""

load("@rules_cc//cc:defs.bzl", "cc_binary", "cc_library", "cc_test")

def bayes_width_studies():
    """Declares the group's study binaries (tags = ["study"]) and smoke tests."""
    cc_library(
        name = "bayes_width_common",
        srcs = ["bayes_width_common.cc"],
        hdrs = ["bayes_width_common.h"],
        deps = [
            "//core:result",
            "//core:validate",
            "//estimators:confusion_counts",
            "//estimators:interval_estimator",
            "//estimators:interval_registry",
        ],
    )

    cc_test(
        name = "bayes_width_common_test",
        size = "small",
        srcs = ["bayes_width_common_test.cc"],
        deps = [
            ":bayes_width_common",
            "//estimators:interval_registry",
            "//third_party:gtest_main",
        ],
    )

    for study in ["bayes_sample_size", "bayes_width_grid"]:
        cc_binary(
            name = study,
            srcs = [study + ".cc"],
            tags = ["study"],
            deps = [
                ":bayes_width_common",
                "//experiments/framework:study",
                "//core:progress",
                "//core:validate",
                "//estimators:eps_from_rates",
            ],
        )

        # Runs the study at --scale=test and checks the file with h5py, plus
        # the exit codes of bad and unknown parameters.
        native.sh_test(
            name = study + "_smoke_test",
            size = "small",
            srcs = ["//tests:run_python_test.sh"],
            args = [
                "$(location %s_smoke_test.py)" % study,
                "$(location :%s)" % study,
            ],
            data = [
                ":" + study,
                "%s_smoke_test.py" % study,
            ],
        )
