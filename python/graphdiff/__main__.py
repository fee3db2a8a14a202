# Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
"""``python3 -m graphdiff``: the graphdiff command line, the C++ CLI's own code."""

import signal
import sys

from . import main
from ._graphdiff import _tune_malloc


def _run_as_module():
    """True when the interpreter was started as ``python3 -m graphdiff``."""
    argv = getattr(sys, "orig_argv", [])
    for i, arg in enumerate(argv):
        if arg == "-mgraphdiff" or (arg == "-m" and argv[i + 1:i + 2] == ["graphdiff"]):
            return True
    return False


if __name__ == "__main__":
    # This process is the command line: malloc as the C++ binary sets it
    # (a kept heap, and huge pages where they pay; GRAPHDIFF_TUNE_MALLOC=0
    # opts out), which may
    # start the interpreter again with its own arguments. Not when a script
    # runs this module (runpy): starting that again would repeat the script.
    if _run_as_module():
        _tune_malloc(list(sys.orig_argv))
    # Behave as the C++ binary does: Ctrl-C stops the run at once (the library
    # does not return to the interpreter to notice KeyboardInterrupt) and a
    # closed pipe (`| head`) ends it quietly.
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    if hasattr(signal, "SIGPIPE"):
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    sys.exit(main(sys.argv[1:]))
