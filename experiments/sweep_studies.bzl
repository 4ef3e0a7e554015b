"""Study targets of one group (see experiments/BUILD). Owned by that group.

The Epsilon* privacy-utility sweeps (Negoescu et al., PPAI-24, §4;
STUDIES.md C2, C3), sharded and resumable (experiments/sweep.h):
  //experiments:epsilon_star_sweep_adult      Fig. 2, Adult, Epsilon* vs AUROC
  //experiments:epsilon_star_sweep_purchase   Fig. 1, Purchase-100, Epsilon* vs accuracy
each with <name>_smoke_test (--scale=test), sharing
  :epsilon_star_sweep_grid  torch-free grid, flags, Pareto frontiers (+ unit test)
  :epsilon_star_sweep       the sweep: calibration, training, Epsilon*, assembly
"""

load("@rules_cc//cc:defs.bzl", "cc_binary", "cc_library", "cc_test")

_STUDY_DATA = {
    "epsilon_star_sweep_adult": ["//data_scripts:adult"],
    "epsilon_star_sweep_purchase": [
        "//data_scripts:purchase100",
        "//data_scripts:purchase100_surrogate",
    ],
}

def sweep_studies():
    """Declares the group's libraries, study binaries (tags = ["study"]) and tests."""
    cc_library(
        name = "epsilon_star_sweep_grid",
        srcs = ["epsilon_star_sweep_grid.cc"],
        hdrs = ["epsilon_star_sweep_grid.h"],
        deps = [
            "//experiments/framework:sweep",
            "//core:flags",
            "//core:result",
            "//core:validate",
        ],
    )

    cc_test(
        name = "epsilon_star_sweep_grid_test",
        size = "small",
        srcs = ["epsilon_star_sweep_grid_test.cc"],
        deps = [
            ":epsilon_star_sweep_grid",
            "//third_party:gtest_main",
        ],
    )

    cc_library(
        name = "epsilon_star_sweep",
        srcs = ["epsilon_star_sweep.cc"],
        hdrs = ["epsilon_star_sweep.h"],
        # dlsym (openblas_set_num_threads, looked up at run time).
        linkopts = ["-ldl"],
        deps = [
            ":epsilon_star_sweep_grid",
            "//experiments/framework:study",
            "//experiments/framework:sweep",
            "//attacks:roc",
            "//core:result",
            "//core:seeding",
            "//core:validate",
            "//data_scripts:dataset",
            "//estimators/accountants:accountant",
            "//estimators/accountants:accountant_registry",
            "//estimators/loss_samples:epsilon_star_options",
            "//estimators/loss_samples:loss_sample_registry",
            "//estimators/loss_samples:parametric",
            "//mechanisms:dp_model",
            "//mechanisms:dpsgd",
            "//mechanisms:math_threads",
            "//mechanisms:torch_boundary",
            "//third_party:torch",
        ],
    )

    for name, data_deps in _STUDY_DATA.items():
        cc_binary(
            name = name,
            srcs = [name + ".cc"],
            tags = ["study"],
            deps = [
                ":epsilon_star_sweep",
                ":epsilon_star_sweep_grid",
                "//experiments/framework:study",
                "//core:result",
                "//data_scripts:dataset",
            ] + data_deps,
        )
        native.sh_test(
            name = name + "_smoke_test",
            size = "medium",
            srcs = ["//tests:run_python_test.sh"],
            args = [
                "$(location %s_smoke_test.py)" % name,
                "$(location :%s)" % name,
            ],
            data = [
                name + "_smoke_test.py",
                "epsilon_star_sweep_smoke_common.py",
                ":" + name,
            ],
        )
