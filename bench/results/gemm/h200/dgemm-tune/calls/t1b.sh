set -x
R=$PWD
mkdir -p /tmp/t1 && cp .devrun/t1/*.gz /tmp/t1/ && (cd /tmp/t1 && gunzip -f *.gz && chmod +x gemm_transfer gpu_transfer gpu_gemm)
cd "$R"
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/device.txt 2>&1
timeout 480 /tmp/t1/gpu_gemm every_kernel_this_gpu_models_rules_pick --nocapture > $OUT/rules_bounds.txt 2>&1; echo "rc $?" >> $OUT/rules_bounds.txt
cd /tmp && tar czf /tmp/all.tgz -C $OUT . && mv /tmp/all.tgz $OUT/
