"""Packaging of the Python module ptxfu: `pip install --no-build-isolation .`

The extension (ptxfu._ptxfu) is CMake's target ptxfu_python (python/CMakeLists.txt),
built for the Python that runs pip; the package's .py files are python/ptxfu.
The CMake build goes to build-pip/cmake, or to PTXFU_CMAKE_BUILD_DIR when set
(an already configured build tree, e.g. build/, whose other settings are kept).
PTXFU_JOBS sets the build's parallel jobs (default 2).
"""

import os
import re
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = os.path.dirname(os.path.abspath(__file__))


def project_version():
    with open(os.path.join(ROOT, "CMakeLists.txt"), encoding="utf-8") as f:
        return re.search(r"project\(ptxfu VERSION ([0-9.]+)", f.read()).group(1)


class CMakeExtension(Extension):
    def __init__(self, name, target):
        super().__init__(name, sources=[])
        self.target = target


class CMakeBuild(build_ext):
    """Configures (unless reusing a build tree) and builds the CMake target, then copies the module."""

    def build_extension(self, ext):
        build = os.environ.get("PTXFU_CMAKE_BUILD_DIR")
        if not build:
            build = os.path.join(ROOT, "build-pip", "cmake")
            subprocess.check_call(
                [
                    "cmake",
                    "-S",
                    ROOT,
                    "-B",
                    build,
                    "-DCMAKE_BUILD_TYPE=Release",
                    "-DPTXFU_BUILD_TESTS=OFF",
                    "-DPTXFU_PYTHON=ON",
                    f"-DPython_EXECUTABLE={sys.executable}",
                ]
            )
        jobs = os.environ.get("PTXFU_JOBS", "2")
        subprocess.check_call(["cmake", "--build", build, "--target", ext.target, "-j", jobs])
        built = os.path.join(build, "python", "ptxfu")
        names = [n for n in os.listdir(built) if n.startswith("_ptxfu") and n.endswith(".so")]
        if len(names) != 1:
            raise RuntimeError(f"{built}: expected one _ptxfu*.so after the build, found {names}")
        dest = self.get_ext_fullpath(ext.name)
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        shutil.copyfile(os.path.join(built, names[0]), dest)


setup(
    name="ptxfu",
    version=project_version(),
    description="A bit-exact model of NVIDIA GPU arithmetic units, with a cycle-approximate SM model",
    packages=["ptxfu"],
    package_dir={"ptxfu": "python/ptxfu"},
    ext_modules=[CMakeExtension("ptxfu._ptxfu", "ptxfu_python")],
    cmdclass={"build_ext": CMakeBuild},
    options={"build": {"build_base": "build-pip"}, "egg_info": {"egg_base": "build-pip"}},
    python_requires=">=3.9",
    install_requires=["numpy"],
    zip_safe=False,
)
