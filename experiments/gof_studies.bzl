"""Study targets of one group (see experiments/BUILD). Owned by that group.

Study C4 of STUDIES.md (Epsilon* paper, App. B.2, Fig. 6):
  //experiments:epsilon_star_gof             KS goodness of fit of 1..20-component
                                             Gaussian mixtures to transformed losses
                                             of Adult models with and without DP
  //experiments:epsilon_star_gof_smoke_test  --scale=test: layout, claims, bad
                                             parameters exit 2 and leave no file
plus its libraries (:epsilon_star_gof_models, the only LibTorch translation
unit; :epsilon_star_gof_analysis, torch-free App. B.2 procedure and
aggregates) and the analysis unit test. The EM and KS code is in
//estimators/fit.
"""

load("@rules_cc//cc:defs.bzl", "cc_binary", "cc_library", "cc_test")

def gof_studies():
    """Declares the group's study binary (tags = ["study"]), libraries and tests."""
    cc_library(
        name = "epsilon_star_gof_models",
        srcs = ["epsilon_star_gof_models.cc"],
        hdrs = ["epsilon_star_gof_models.h"],
        # dlsym (openblas_set_num_threads, looked up at run time).
        linkopts = ["-ldl"],
        deps = [
            "//attacks:roc",
            "//core:result",
            "//core:seeding",
            "//core:validate",
            "//data_scripts:dataset",
            "//estimators/accountants:accountant",
            "//estimators/accountants:accountant_registry",
            "//mechanisms:dp_model",
            "//mechanisms:dpsgd",
            "//mechanisms:math_threads",
            "//mechanisms:torch_boundary",
            "//third_party:torch",
        ],
    )

    cc_library(
        name = "epsilon_star_gof_analysis",
        srcs = ["epsilon_star_gof_analysis.cc"],
        hdrs = ["epsilon_star_gof_analysis.h"],
        deps = [
            "//core:progress",
            "//core:result",
            "//core:seeding",
            "//core:validate",
            "//estimators/fit:gaussian_mixture",
            "//estimators/fit:ks_test",
            "//third_party:boost_math",
        ],
    )

    cc_test(
        name = "epsilon_star_gof_analysis_test",
        size = "small",
        srcs = ["epsilon_star_gof_analysis_test.cc"],
        deps = [
            ":epsilon_star_gof_analysis",
            "//core:seeding",
            "//estimators/fit:gaussian_mixture",
            "//third_party:gtest_main",
        ],
    )

    cc_binary(
        name = "epsilon_star_gof",
        srcs = ["epsilon_star_gof.cc"],
        tags = ["study"],
        deps = [
            ":epsilon_star_gof_analysis",
            ":epsilon_star_gof_models",
            "//experiments/framework:study",
            "//experiments/framework:sweep",
            "//core:files",
            "//core:progress",
            "//core:seeding",
            "//core:validate",
            "//data_scripts:adult",
            "//data_scripts:dataset",
            "//estimators/fit:gaussian_mixture",
            "//estimators/fit:ks_test",
            "//estimators/loss_samples:loss_transform",
        ],
    )

    native.sh_test(
        name = "epsilon_star_gof_smoke_test",
        size = "medium",
        srcs = ["//tests:run_python_test.sh"],
        args = [
            "$(location epsilon_star_gof_smoke_test.py)",
            "$(location :epsilon_star_gof)",
        ],
        data = [
            "epsilon_star_gof_smoke_test.py",
            ":epsilon_star_gof",
        ],
    )
