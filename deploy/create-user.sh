#!/usr/bin/env bash
# The unprivileged account the console and gateway run as. Idempotent.
set -euo pipefail
if ! id rampart >/dev/null 2>&1; then
  useradd --system --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin rampart
fi
