#!/bin/bash
# The device runs behind this folder, on one H100, with two builds of hone:
#   NEW: this commit; OLD: the commit before the SYMV kernel change (6d5fd24^),
#   both with the read flush. Build each with `cargo build --release -p hone-cli`.
# Usage: bench/results/symv/midsize/run.sh STEP NEW OLD OUT
set -u
step=$1 new=$2 old=$3 out=$4
S=2048,3072,4096,6144,8192,12288,16384,32768
case $step in
flush)  # flush/: both L2 flushes, same binary (OLD), twice
    for r in 1 2; do for how in read overwrite; do
        "$old" bench symv --out "$out/symv-$how-$r" --sizes $S --plot-sizes 0 --l2-flush $how
    done; done
    for how in read overwrite; do
        "$old" bench fft --rules kernels/fft/plans --variants cfft3d --sizes 256,512,240,243,250,384 \
            --plot-sizes 0 --reps 20 --l2-flush $how --out "$out/fft-$how" > "$out/fft-$how.txt"
    done ;;
ncu)    # ncu/: the rule kernel at n = 4096, OLD
    for p in s d; do
        ncu --set full --import-source no -k regex:symv_atomic --launch-skip 4 --launch-count 1 \
            -o "$out/h-$p" "$old" run symv n=4096 precision=$p uplo=lower --reps 5 --runs 1
        ncu --import "$out/h-$p.ncu-rep" --page details > "$out/${p}symv_lower_4096-details.txt"
        ncu --import "$out/h-$p.ncu-rep" --page source --csv --print-source sass > "$out/${p}symv_lower_4096-source.csv"
        ncu --import "$out/h-$p.ncu-rep" --page raw --csv > "$out/${p}symv_lower_4096-raw.csv"
    done ;;
sieve)  # sieve/: the sieve at five sizes with size winners (OLD built with sieve/jobs as
        # kernels/symv/tune/), then both rule sets, twice
    "$old" retune symv --variants ssymv_lower,ssymv_upper --out "$out/rt"
    mkdir -p "$out/rules" && cp kernels/symv/rules/dsymv_*.json "$out/rt"/ssymv_*.json "$out/rules/"
    for r in 1 2; do
        "$old" bench symv --variants ssymv_lower,ssymv_upper --out "$out/retuned-$r" --rules "$out/rules"
        "$old" bench symv --variants ssymv_lower,ssymv_upper --out "$out/builtin-$r"
    done ;;
walk)   # walk/: before and after the kernel change, 30 sizes, twice, alternating
    for r in 1 2; do
        "$new" bench symv --out "$out/new-$r"
        "$old" bench symv --out "$out/old-$r"
    done ;;
esac
