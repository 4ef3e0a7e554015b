"""Study targets of one group (see experiments/BUILD). Owned by that group.

Study C1 of STUDIES.md (that_which_we_call_private.txt Sec. 3-5):
  //experiments:region_of_privacy             DP-SGD logistic regression on
                                              Purchase-100 at five noise levels;
                                              attack lower vs accountant upper bounds
  //experiments:region_of_privacy_smoke_test  --scale=test: layout, claims,
                                              bad parameters, rerun skips every unit
plus its libraries (:region_of_privacy_unit, the only LibTorch translation
unit; :region_of_privacy_analysis, torch-free aggregation and claim criteria)
and the analysis unit test.
"""

load("@rules_cc//cc:defs.bzl", "cc_binary", "cc_library", "cc_test")

def region_studies():
    """Declares the group's study binary (tags = ["study"]), libraries and tests."""
    cc_library(
        name = "region_of_privacy_unit",
        srcs = ["region_of_privacy_unit.cc"],
        hdrs = ["region_of_privacy_unit.h"],
        # dlsym (openblas_set_num_threads, looked up at run time).
        linkopts = ["-ldl"],
        deps = [
            "//core:progress",
            "//core:result",
            "//data_scripts:dataset",
            "//mechanisms:dp_model",
            "//mechanisms:dpsgd",
            "//mechanisms:math_threads",
            "//mechanisms:torch_boundary",
            "//third_party:torch",
        ],
    )

    cc_library(
        name = "region_of_privacy_analysis",
        srcs = ["region_of_privacy_analysis.cc"],
        hdrs = ["region_of_privacy_analysis.h"],
        deps = [
            "//core:result",
            "//core:validate",
            "//third_party:boost_math",
        ],
    )

    cc_test(
        name = "region_of_privacy_analysis_test",
        size = "small",
        srcs = ["region_of_privacy_analysis_test.cc"],
        deps = [
            ":region_of_privacy_analysis",
            "//third_party:gtest_main",
        ],
    )

    cc_binary(
        name = "region_of_privacy",
        srcs = ["region_of_privacy.cc"],
        tags = ["study"],
        deps = [
            ":region_of_privacy_analysis",
            ":region_of_privacy_unit",
            "//experiments/framework:study",
            "//experiments/framework:sweep",
            "//attacks:loss_threshold",
            "//core:result",
            "//core:seeding",
            "//core:validate",
            "//data_scripts:dataset",
            "//data_scripts:purchase100",
            "//data_scripts:purchase100_surrogate",
            "//estimators:summary_bounds",
            "//estimators/accountants:accountant",
            "//estimators/accountants:accountant_registry",
        ],
    )

    native.sh_test(
        name = "region_of_privacy_smoke_test",
        size = "medium",
        srcs = ["//tests:run_python_test.sh"],
        args = [
            "$(location region_of_privacy_smoke_test.py)",
            "$(location :region_of_privacy)",
        ],
        data = [
            "region_of_privacy_smoke_test.py",
            ":region_of_privacy",
        ],
    )
