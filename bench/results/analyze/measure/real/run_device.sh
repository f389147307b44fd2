#!/usr/bin/env bash
# Times the layout-keeping fixes of the real kernels whose fixed sites have
# at least 2x the sectors or wavefronts they need, at the sizes their
# programs run them at (a 4096 x 4096 matrix or image; simpleStreams' 16M
# integers; pathfinder's 100000 x 100 grid; hotspot3D's 512 x 512 x 8), twice each.
# On the GPU machine, from the repository root, with the suites' sources
# unpacked in EXT (yuhc+gpu-rodinia/ and NVIDIA+cuda-samples/, as
# bench/results/analyze/real/pack.sh packs them):
#   OUT=DIR bash bench/results/analyze/measure/real/run_device.sh target/release/hone EXT [KERNEL...]
# KERNEL: suite/program/kernel as below (default: all of them).
set -euo pipefail
hone=${1:?hone binary}
ext=${2:?folder holding the two checkouts}
out=${OUT:?set OUT}
mkdir -p "$out"
export RODINIA=$ext/yuhc+gpu-rodinia SAMPLES=$ext/NVIDIA+cuda-samples
nvidia-smi --query-gpu=name,driver_version --format=csv > "$out/device.txt" 2>&1 || true
m=bench/results/analyze/measure/real
tmp=$(mktemp -d)
all="rodinia/lud/lud_perimeter rodinia/nw/needle_cuda_shared_1 \
         samples/boxFilter/d_boxfilter_x_global samples/convolutionSeparable/convolutionColumnsKernel \
         rodinia/lud/lud_diagonal rodinia/pathfinder/dynproc_kernel samples/simpleStreams/init_array \
         samples/boxFilter/d_boxfilter_y_global samples/boxFilter/d_boxfilter_rgba_y \
         rodinia/hotspot3D/hotspotOpt1 rodinia/kmeans/invert_mapping"
shift 2
for k in ${@:-$all}; do
    n=$(basename "$k")
    python3 bench/results/analyze/materialize.py "bench/results/frontend/launches/$k.json" "$tmp/$n.json"
    python3 bench/results/analyze/materialize.py "$m/${n}_large.json" "$tmp/${n}_large.json"
    for r in 1 2; do
        timeout 120 "$hone" analyze "$tmp/$n.json" --measure --measure-launch "$tmp/${n}_large.json" \
            --reps 30 > "$out/${n}_run$r.txt" 2>&1 || echo "rc $?" >> "$out/${n}_run$r.txt"
    done
done
