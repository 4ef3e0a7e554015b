"""privbench's in-tree PEP 517 build backend (python/pyproject.toml).

`pip install ./python` calls build_wheel here, which runs the repository's
own Bazel (found on PATH) to build //python:wheel and copies that wheel,
under its canonical name, into pip's directory. Nothing is downloaded:
the backend requires no package, and Bazel builds offline (.bazelrc).
$PRIVBENCH_BAZEL_FLAGS is passed to Bazel as tools/test.sh does, so CI's
--config=ci reuses CI's build instead of building everything a second time.

Only a clone can be built (Bazel needs the whole workspace), so there is
no sdist: build_sdist explains that instead of writing an archive that
could not be installed.
"""
import os
import shlex
import shutil
import subprocess
import sys

import privbench_wheel

_HERE = os.path.dirname(os.path.abspath(__file__))
_TARGET = "//python:wheel"
_BUILT = os.path.join("python", "privbench.whl")  # the genrule's output, under bazel-bin


def _workspace_root():
    """The clone's root (python/build_backend/ is two levels below it)."""
    root = os.path.dirname(os.path.dirname(_HERE))
    if not os.path.isfile(os.path.join(root, "WORKSPACE")):
        raise RuntimeError(
            "privbench is built by the repository's Bazel and needs the whole clone; "
            "%s has no WORKSPACE. Run `pip install ./python` from a privbench clone." % root)
    return root


def _pyproject():
    return os.path.join(os.path.dirname(_HERE), "pyproject.toml")


def _bazel_env():
    """The environment for Bazel, less what the venv and pip put on PATH.

    Bazel (without --incompatible_strict_action_env) gives every action the
    client's PATH, so a PATH with the venv's bin/ or pip's build-isolation
    overlay in front would make every C++ action look new: the install, and
    the next ordinary build after it, would recompile the whole repository.
    """
    env = dict(os.environ)
    venv = sys.prefix if sys.prefix != sys.base_prefix else None
    kept = [p for p in env.get("PATH", "").split(os.pathsep)
            if p and "pip-build-env-" not in p
            and not (venv and os.path.abspath(p).startswith(os.path.abspath(venv) + os.sep))]
    env["PATH"] = os.pathsep.join(kept)
    for name in ("VIRTUAL_ENV", "PYTHONPATH", "PYTHONNOUSERSITE", "PYTHONHOME"):
        env.pop(name, None)
    return env


def _bazel(args, env, capture=False):
    """Runs `bazel <args> $PRIVBENCH_BAZEL_FLAGS` at the workspace root."""
    bazel = shutil.which("bazel", path=env["PATH"])
    if bazel is None:
        raise RuntimeError("bazel is not on PATH; run tools/setup.sh (README, Set-up) first")
    command = [bazel, args[0]] + shlex.split(os.environ.get("PRIVBENCH_BAZEL_FLAGS", "")) + args[1:]
    # Bazel's own output goes to stderr, where pip shows it with -v or on failure.
    done = subprocess.run(command, cwd=_workspace_root(), env=env, check=False,
                          stdout=subprocess.PIPE if capture else sys.stderr, text=True)
    if done.returncode != 0:
        raise RuntimeError("`%s` failed with exit status %d"
                           % (" ".join(command), done.returncode))
    return done.stdout


def _check_tag(name):
    """The wheel must suit the interpreter pip runs, or pip would refuse it late and vaguely."""
    tag = privbench_wheel.interpreter_tag()
    if not name.endswith("-%s.whl" % tag):
        raise RuntimeError(
            "the Bazel build makes %s (Debian's CPython 3.11 headers), which this "
            "interpreter (%s) cannot import; make the venv with /usr/bin/python3, or build "
            "this interpreter's wheel with tools/build_wheels.sh --python=%s (README, From Python)"
            % (name, tag, sys.executable))


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    """Builds //python:wheel with Bazel and copies it into wheel_directory."""
    env = _bazel_env()
    _bazel(["build", _TARGET], env)
    built = os.path.join(_bazel(["info", "bazel-bin"], env, capture=True).strip(), _BUILT)
    name = privbench_wheel.canonical_name(built)
    _check_tag(name)
    shutil.copyfile(built, os.path.join(wheel_directory, name))
    return name


def get_requires_for_build_wheel(config_settings=None):
    return []  # Bazel and the compiler come from Debian (tools/setup.sh), not from an index


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    """The metadata without building (pip asks before build_wheel); the same text the wheel has."""
    project = privbench_wheel.read_project(_pyproject())
    info_dir = os.path.join(metadata_directory, privbench_wheel.dist_info(project))
    os.makedirs(info_dir, exist_ok=True)
    with open(os.path.join(info_dir, "METADATA"), "w", encoding="utf-8") as f:
        f.write(privbench_wheel.metadata_text(project))
    with open(os.path.join(info_dir, "WHEEL"), "w", encoding="utf-8") as f:
        f.write(privbench_wheel.wheel_text(privbench_wheel.interpreter_tag()))
    return os.path.basename(info_dir)


def build_sdist(sdist_directory, config_settings=None):
    raise RuntimeError(
        "privbench has no sdist: its extension is built by the repository's Bazel from the "
        "whole clone. Install from a clone with `pip install ./python` (README, From Python).")
