"""`pip install --no-build-isolation .` from the source tree: the module is built
through CMake (setup.py), installed into a temporary --target, and that copy is
what the scan example and the host API's tests import. Skips when pip is absent.

PTXFU_CMAKE_BUILD_DIR (set by ctest: the project's build tree) saves a second
full CMake build; without it setup.py configures build-pip/cmake afresh."""
import os
import subprocess
import sys

import pytest

SOURCE_DIR = os.path.abspath(os.environ.get("PTXFU_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..")))


def has_pip():
    return subprocess.run([sys.executable, "-m", "pip", "--version"], capture_output=True).returncode == 0


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    if not has_pip():
        pytest.skip(f"no pip for {sys.executable}")
    target = tmp_path_factory.mktemp("site")
    cmd = [sys.executable, "-m", "pip", "install", "--no-build-isolation", "--no-deps", "--no-cache-dir"]
    r = subprocess.run([*cmd, "--target", str(target), SOURCE_DIR], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    return target


def run_with(target, args, cwd):
    env = dict(os.environ, PYTHONPATH=str(target))  # the installed copy, not build/python
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, env=env, cwd=cwd)


def test_the_installed_module_is_imported(installed):
    r = run_with(
        installed, ["-c", "import ptxfu, ptxfu._ptxfu as m; print(ptxfu.__file__); print(m.__file__)"], installed
    )
    assert r.returncode == 0, r.stderr
    for path in r.stdout.split():
        assert os.path.realpath(path).startswith(os.path.realpath(installed)), path
    assert os.path.exists(os.path.join(installed, "ptxfu", "host.py"))


def test_the_scan_example_matches_numpy(installed, tmp_path):
    r = run_with(installed, [os.path.join(SOURCE_DIR, "examples", "scan.py"), "4096"], tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "matches numpy.cumsum" in r.stdout


def test_the_host_api_tests_pass_on_the_installed_module(installed, tmp_path):
    tests = os.path.join(SOURCE_DIR, "python", "tests", "test_host.py")
    r = run_with(installed, ["-m", "pytest", "-q", "-p", "no:cacheprovider", tests], tmp_path)
    assert r.returncode == 0, r.stdout[-4000:] + r.stderr[-2000:]
