#!/usr/bin/env bash
# CPU side of the emulator-versus-GPU check of the C++ corpus: builds `hone`
# into .devrun/ and records `hone sim --json` of every launch file of
# tests/corpus/cpp/launch/ in .devrun/sim/. Run from the repository root;
# then run gpu_agreement.sh on a GPU machine carrying .devrun/hone and .devrun/sim.
set -euo pipefail
cargo build -p hone-cli
mkdir -p .devrun/sim
cp target/debug/hone .devrun/hone
strip .devrun/hone
for f in tests/corpus/cpp/launch/*.json; do
    .devrun/hone sim --json "$f" > ".devrun/sim/$(basename "$f" .json).json"
done
