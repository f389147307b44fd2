#!/bin/bash
# Call 6: the warpgroup kernels' GPU test on the new epilogue, with the test binary of call 5
# (.devrun/a5/gpu_gemm.gz, carried again), from a checkout.
cd .devrun/a5 && gunzip -f gpu_gemm.gz && chmod +x gpu_gemm && cd ../..
timeout 150 .devrun/a5/gpu_gemm the_warpgroup --nocapture > $OUT/test_wg.txt 2>&1
