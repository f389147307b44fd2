#!/bin/bash
# Nsight Compute on the three line passes of 243^3 (single, double) beside 240^3 single and 256^3 double.
cd "$(dirname "$0")"
export LD_LIBRARY_PATH="/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}"
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/device.txt
M=dram__bytes_read.sum,dram__bytes_write.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,smsp__inst_executed.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed
for w in "n=243 precision=s" "n=240 precision=s" "n=243 precision=d" "n=256 precision=d"; do
  f=$(echo $w | tr ' =' '__')
  timeout 100 ncu --clock-control none --kernel-name fft_pass --launch-count 3 \
    --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats --metrics $M \
    ./hone run fft $w --reps 1 --runs 1 > $OUT/ncu-$f.txt 2>&1
  echo "ncu $w: exit $?" >> $OUT/steps.txt
done
