"""Repository rule: LibTorch 2.11.0 from PyPI's `torch` wheel.

tools/setup.sh installs the pinned wheel (with the CUDA runtime and CUPTI
wheels that libtorch_cpu.so loads at start-up) into the project-local
environment .venv/. This rule finds its torch/ directory, links include/
and lib/ into the external repository and writes a BUILD file whose
linkopts carry an absolute -rpath to torch/lib, so that the libraries load
from the wheel's own directory and their $ORIGIN-relative RPATHs (the CUDA
runtime under site-packages/nvidia/) resolve. LD_LIBRARY_PATH overrides it
(RUNPATH), which is how tools/gpu_check.sh points a binary at a GPU
machine's own PyTorch libraries.

Only the CPU libraries are linked (libtorch_cpu, libc10): the same binary
runs on a machine without CUDA. mechanisms/device.h loads the CUDA backend
(libtorch_cuda.so) at run time when a study asks for --device=cuda.
"""

_VENV = ".venv"
_VERSION = "2.11.0"

def _find_torch_dir(ctx, root):
    lib = root.get_child(_VENV).get_child("lib")
    if not lib.exists:
        return None
    for py in lib.readdir():
        torch = py.get_child("site-packages").get_child("torch")
        if torch.get_child("lib").get_child("libtorch_cpu.so").exists:
            return torch
    return None

def _libtorch_impl(ctx):
    root = ctx.path(Label("//:WORKSPACE")).dirname
    torch = _find_torch_dir(ctx, root)
    if torch == None:
        fail("LibTorch %s not found under %s/%s: run tools/setup.sh" % (_VERSION, root, _VENV))
    version = ctx.read(torch.get_child("version.py"))
    if ("__version__ = '%s" % _VERSION) not in version:
        fail("%s/version.py is not torch %s: run tools/setup.sh" % (torch, _VERSION))
    ctx.symlink(torch.get_child("include"), "include")
    ctx.symlink(torch.get_child("lib"), "lib")
    ctx.template("BUILD", Label("//third_party:libtorch.BUILD.tpl"), {
        "%{lib_dir}": str(torch.get_child("lib")),
        "%{version}": _VERSION,
    }, executable = False)
    ctx.file("WORKSPACE", "workspace(name = \"libtorch\")\n", executable = False)

libtorch_repository = repository_rule(
    implementation = _libtorch_impl,
    local = True,
)
