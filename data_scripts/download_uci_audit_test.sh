#!/bin/sh
# Runs download_uci_audit_test.py with the system Python (stdlib only).
set -eu
exec /usr/bin/python3 "${TEST_SRCDIR}/${TEST_WORKSPACE}/data_scripts/download_uci_audit_test.py"
