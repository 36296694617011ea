#!/usr/bin/env bash
# Installs the pinned npm dependencies of the tether-mcp Node end-to-end test (see e2e.mjs).
# Called by .ci/run before `./mvnw verify`; NodeEndToEndTest fails without them when node exists.
set -euo pipefail
cd "$(dirname "$0")"
npm ci --no-audit --no-fund
