#!/usr/bin/env bash
# Installs the browser SDKs record-sdk-beacons.ts drives (npm registry, their published packages)
# into a folder of their own, and bundles Sentry's ESM build into one script (rolldown from the
# repository's dev dependencies). Chromium is Debian's: apt-get install chromium.
set -euo pipefail
dir=${1:-/tmp/sdk}
here=$(cd "$(dirname "$0")/../../.." && pwd)
mkdir -p "$dir"
cd "$dir"
[ -f package.json ] || echo '{"name":"recorded-sdks","private":true}' > package.json
npm install --no-audit --no-fund @sentry/browser posthog-js mixpanel-browser @amplitude/analytics-browser
printf "import * as Sentry from '@sentry/browser';\nwindow.Sentry = Sentry;\n" > sentry-entry.js
NODE_PATH="$dir/node_modules" "$here/node_modules/.bin/rolldown" sentry-entry.js --format iife --file sentry.iife.js
echo "ok: $(cd "$dir" && npm ls --depth=0 2>/dev/null | tail -n +2 | tr '\n' ' ')"
