"""The `host` fixture: the SVM emulator by default; a real illumos host
when SVMRAM_TEST_HOST=real (not available yet: refused clearly)."""

import os

import pytest

from hosts import EmulatedHost  # noqa: E402  (tests/scenario on sys.path)


@pytest.fixture
def host(tmp_path):
    kind = os.environ.get("SVMRAM_TEST_HOST", "emulator")
    if kind != "emulator":
        pytest.exit("SVMRAM_TEST_HOST=%s: only the emulator is supported so "
                    "far" % kind, returncode=2)
    return EmulatedHost(tmp_path / "host")
