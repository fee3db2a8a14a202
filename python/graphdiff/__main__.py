# Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
"""``python3 -m graphdiff``: the graphdiff command line, the C++ CLI's own code."""

import signal
import sys

from . import main

if __name__ == "__main__":
    # Behave as the C++ binary does: Ctrl-C stops the run at once (the library
    # does not return to the interpreter to notice KeyboardInterrupt) and a
    # closed pipe (`| head`) ends it quietly.
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    if hasattr(signal, "SIGPIPE"):
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    sys.exit(main(sys.argv[1:]))
