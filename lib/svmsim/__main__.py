"""``python3 -m svmsim``: the emulator's control interface (see cli.py)."""

import sys

from svmsim.cli import main

sys.exit(main(sys.argv[1:]))
