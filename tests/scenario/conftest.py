"""The `host` fixture: the SVM emulator by default; a real illumos host
when SVMRAM_TEST_HOST=real (not available yet: refused clearly)."""

import os

import pytest

from hosts import EmulatedHost, host_file  # noqa: E402  (on sys.path)


@pytest.fixture
def host(tmp_path):
    kind = os.environ.get("SVMRAM_TEST_HOST", "emulator")
    if kind != "emulator":
        pytest.exit("SVMRAM_TEST_HOST=%s: only the emulator is supported so "
                    "far" % kind, returncode=2)
    return EmulatedHost(tmp_path / "host")


@pytest.fixture
def host_factory(tmp_path):
    """make(NAME) -> a new emulated host built from
    tests/scenario/hosts/NAME.json, or from the emulator preset NAME."""
    kind = os.environ.get("SVMRAM_TEST_HOST", "emulator")
    if kind != "emulator":
        pytest.exit("SVMRAM_TEST_HOST=%s: only the emulator is supported so "
                    "far" % kind, returncode=2)
    made = []

    def make(name="article"):
        made.append(name)
        path = host_file(name)
        directory = tmp_path / ("host-%d-%s" % (len(made), name))
        if path:
            return EmulatedHost(directory, host_file=path)
        return EmulatedHost(directory, preset=name)
    return make
