#!/usr/bin/env bash
# Every test: types, lint, then one vitest run over every workspace and the browser tests.
set -euo pipefail
cd "$(dirname "$0")/.."
echo "[test] typecheck"
npx --no-install tsc -p tsconfig.json
npx --no-install tsc -p apps/web/tsconfig.json
echo "[test] lint"
npx --no-install eslint --max-warnings=0 .
echo "[test] vitest"
npx --no-install vitest run "$@"
