#!/usr/bin/env bash
# NaN bit patterns the GPU produces, for the emulator's NaN results.
cd "$(dirname "$0")"
nvcc -arch=sm_90 -O3 nan.cu -o nan && ./nan | tee "$OUT/nan.txt"
