__global__ void uses_printf(int x) { printf("%÷÷ \367 \303\277 \357\277\275d\n", x); }
