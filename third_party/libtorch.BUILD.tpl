# LibTorch %{version} (CPU libraries) from PyPI's torch wheel in .venv/;
# written by //third_party:libtorch.bzl. ATen/c10 and the C++ frontend
# (torch/torch.h, under torch/csrc/api/include) are exported through
# `includes` (-isystem for every dependent).
load("@rules_cc//cc:defs.bzl", "cc_library")

package(default_visibility = ["//visibility:public"])

cc_library(
    name = "torch",
    hdrs = glob([
        "include/ATen/**/*.h",
        "include/c10/**/*.h",
        "include/caffe2/**/*.h",
        "include/torch/**/*.h",
        "include/torch/headeronly/**/*",
    ]),
    includes = [
        "include",
        "include/torch/csrc/api/include",
    ],
    linkopts = [
        "-L%{lib_dir}",
        "-Wl,-rpath,%{lib_dir}",
        "-ltorch_cpu",
        "-lc10",
        "-lpthread",
        "-ldl",
    ],
)
