#!/usr/bin/env bash
# Checks the deployment files with whatever this machine has, and builds the image when it can:
#   Dockerfile                dockerfile-utils lint (syntax, instructions, arguments)
#   compose.yaml              dclint (the Compose JSON schema, plus its best-practice rules)
#   deploy/agentkit.service   systemd-analyze verify (keys, values, ExecStart exists)
#   the image                 podman (or docker with a daemon) builds it when node:24-slim can be had,
#                             then checks it: not root, /data writable, sqlite3 loads, dist/index.js starts,
#                             and runs it against the fakes of tests/ (scripts/container-smoke.ts)
#                             (extra build flags in BUILD_FLAGS, e.g. BUILD_FLAGS="--network host")
# The linters run through npx at pinned versions; they are not project dependencies.
# Exit 1 when a check fails; a check this machine cannot run is reported as skipped.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1

failed=()
skipped=()
check() {
  local name=$1
  shift
  echo "── ${name}: $*"
  if "$@"; then echo "   ok"; else failed+=("$name") && echo "   FAILED"; fi
}
skip() {
  skipped+=("$1: $2")
  echo "── $1: skipped ($2)"
}

check "Dockerfile" npx --yes dockerfile-utils@0.16.3 lint Dockerfile
check "compose.yaml" npx --yes dclint@3.1.0 compose.yaml
if command -v systemd-analyze >/dev/null 2>&1; then
  check "deploy/agentkit.service" systemd-analyze verify deploy/agentkit.service
else
  skip "deploy/agentkit.service" "no systemd-analyze"
fi

engine=""
if command -v podman >/dev/null 2>&1; then
  engine=podman
elif command -v docker >/dev/null 2>&1 && docker info >/dev/null 2>&1; then
  engine=docker
fi

# What the image must do: run as "node", write /data, load the native sqlite3, and start the compiled
# bot far enough to check its configuration (every module of dist/ is loaded before that).
image_smoke() {
  # A named volume, removed after: it starts out as a new volume in compose does (owned like /data in the image).
  local volume="agentkit-check-$$" out ok=0
  "$engine" run --rm --no-healthcheck -v "$volume:/data" agentkit:check node -e '
    const fs = require("node:fs");
    if (process.getuid() === 0) throw new Error("runs as root");
    if (process.env.AGENTKIT_HOME !== "/data") throw new Error("AGENTKIT_HOME is not /data");
    fs.writeFileSync("/data/.check", "ok");
    require("sqlite3");
    console.log("   uid", process.getuid(), "· /data writable · sqlite3 loads");' || ok=1
  out=$("$engine" run --rm --no-healthcheck -v "$volume:/data" agentkit:check 2>&1)
  echo "   node dist/index.js without settings: ${out}"
  [[ $out == *"Configuration: DISCORD_TOKEN: is required"* ]] || ok=1
  "$engine" volume rm --force "$volume" >/dev/null 2>&1
  return "$ok"
}

if [[ -z $engine ]]; then
  skip "image" "neither podman nor a running docker daemon"
elif ! "$engine" image inspect node:24-slim >/dev/null 2>&1 && ! "$engine" pull docker.io/library/node:24-slim; then
  skip "image" "$engine could not get node:24-slim (the error is above)"
else
  stand_in=$("$engine" image inspect node:24-slim --format '{{index .Labels "org.agentkit.stand-in"}}' 2>/dev/null || true)
  [[ -n $stand_in && $stand_in != "<no value>" ]] && echo "── note: the base image here is a stand-in: $stand_in"
  # podman writes OCI images by default, which drop HEALTHCHECK; the docker format keeps it.
  format=()
  [[ $engine == podman ]] && format=(--format docker)
  # shellcheck disable=SC2086 # BUILD_FLAGS is a list of flags, e.g. BUILD_FLAGS="--network host"
  check "image build" "$engine" build "${format[@]}" ${BUILD_FLAGS:-} -t agentkit:check .
  [[ ${#failed[@]} -eq 0 ]] && check "image smoke" image_smoke
  [[ ${#failed[@]} -eq 0 ]] && check "image against the fakes" npx tsx scripts/container-smoke.ts "$engine" agentkit:check
fi

echo
for s in "${skipped[@]}"; do echo "skipped: $s"; done
if [[ ${#failed[@]} -gt 0 ]]; then
  echo "failed: ${failed[*]}"
  exit 1
fi
echo "deployment files: every check that could run passed"
