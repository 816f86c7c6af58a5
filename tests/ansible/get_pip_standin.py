# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""A stand-in for get-pip.py, which ansible-test downloads from a host
that CI cannot reach unless it finds it in its cache
(~/.ansible/test/cache/get_pip_VERSION.py, ansible_test
_util/target/setup/requirements.py).  test_collection.py puts it there:
it bootstraps pip with the interpreter's own ensurepip, then installs
what ansible-test asked for (its pip version) from the package index,
keeping ensurepip's pip if the index cannot be reached.  get-pip's
--no-setuptools and --no-wheel mean "do not install them", which pip
install does not take."""

import subprocess
import sys

GET_PIP_ONLY = ("--no-setuptools", "--no-wheel")


def main(args):
    subprocess.check_call([sys.executable, "-m", "ensurepip", "--default-pip"])
    wanted = [arg for arg in args if arg not in GET_PIP_ONLY]
    if subprocess.call([sys.executable, "-m", "pip", "install"] + wanted):
        sys.stderr.write("get-pip stand-in: could not install %s; keeping "
                         "ensurepip's pip\n" % " ".join(wanted))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
