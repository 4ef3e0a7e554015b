"""Study targets of one group (see experiments/BUILD). Owned by that group.

The Epsilon* simulation studies (Negoescu et al., PPAI-24, App. B;
STUDIES.md B1-B3):
  //experiments:epsilon_star_noise_curves   Fig. 3, ratio terms vs threshold
  //experiments:epsilon_star_identical      Fig. 4, identical distributions
  //experiments:epsilon_star_distance       Fig. 5, distributions moved apart
each with <name>_smoke_test (--scale=test), the shared library
:epsilon_star_sim (+ its unit test) and the paper-scale speed benchmark
  bazel run //experiments:epsilon_star_sim_benchmark
"""

load("@rules_cc//cc:defs.bzl", "cc_binary", "cc_library", "cc_test")

_STUDY_DEPS = [
    ":epsilon_star_sim",
    "//experiments/framework:study",
    "//core:progress",
    "//core:result",
    "//core:seeding",
    "//core:validate",
    "//estimators/loss_samples:curves",
    "//estimators/loss_samples:epsilon_star_options",
    "//estimators/loss_samples:exact",
    "//estimators/loss_samples:loss_sample_registry",
]

_STUDIES = [
    "epsilon_star_noise_curves",
    "epsilon_star_identical",
    "epsilon_star_distance",
]

def epsilon_star_studies():
    """Declares the group's study binaries (tags = ["study"]) and smoke tests."""
    cc_library(
        name = "epsilon_star_sim",
        srcs = ["epsilon_star_sim.cc"],
        hdrs = ["epsilon_star_sim.h"],
        deps = [
            "//experiments/framework:study",
            "//core:flags",
            "//core:progress",
            "//core:result",
            "//core:seeding",
            "//core:validate",
            "//estimators/loss_samples:empirical",
            "//estimators/loss_samples:epsilon_star_options",
            "//estimators/loss_samples:exact",
            "//estimators/loss_samples:loss_sample_registry",
            "//estimators/loss_samples:loss_transform",
            "//estimators/loss_samples:parametric",
            "//third_party:boost_math",
        ],
    )

    cc_test(
        name = "epsilon_star_sim_test",
        size = "small",
        srcs = ["epsilon_star_sim_test.cc"],
        deps = [
            ":epsilon_star_sim",
            "//core:seeding",
            "//estimators/loss_samples:loss_sample_registry",
            "//third_party:gtest_main",
        ],
    )

    for name in _STUDIES:
        cc_binary(
            name = name,
            srcs = [name + ".cc"],
            tags = ["study"],
            deps = _STUDY_DEPS,
        )
        native.sh_test(
            name = name + "_smoke_test",
            size = "small",
            srcs = ["//tests:run_python_test.sh"],
            args = [
                "$(location %s_smoke_test.py)" % name,
                "$(location :%s)" % name,
            ],
            data = [
                name + "_smoke_test.py",
                "epsilon_star_smoke_common.py",
                ":" + name,
            ],
        )

    # Paper-scale speed: one value at n = 10^6 with the 2-million-point
    # evaluation, and a measured slice of B2 + B3 projected to the full
    # paper configuration.
    cc_binary(
        name = "epsilon_star_sim_benchmark",
        srcs = ["epsilon_star_sim_benchmark.cc"],
        deps = [
            ":epsilon_star_sim",
            "//core:flags",
            "//core:seeding",
            "//core:validate",
            "//estimators/loss_samples:epsilon_star_options",
            "//estimators/loss_samples:loss_sample_registry",
        ],
    )
