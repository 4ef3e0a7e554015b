#!/bin/sh
# Runs download_cifar10_test.py with the system Python (stdlib; numpy, when
# Debian's python3-numpy is installed, for one cross-check).
set -eu
exec /usr/bin/python3 "${TEST_SRCDIR}/${TEST_WORKSPACE}/data_scripts/download_cifar10_test.py"
