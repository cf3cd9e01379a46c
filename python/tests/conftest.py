"""Shared setup for normjit's Python tests.

The tests import the package from this source tree (python/), not an installed copy, unless
NORMJIT_TEST_INSTALLED=1. The native library comes from NORMJIT_LIBRARY (or normjit/_lib/, or the
system loader); tests that need it skip with the reason when it cannot be loaded, and GPU tests
skip when torch has no CUDA device. Tests that need neither torch nor the library always run, so
a run never ends with "no tests collected".
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE_ROOT = os.path.dirname(HERE)  # python/

if os.environ.get("NORMJIT_TEST_INSTALLED") != "1" and PACKAGE_ROOT not in sys.path:
    sys.path.insert(0, PACKAGE_ROOT)
