// Figure 1 of the SYMV paper (000_7426f5c852920934.txt) as a one-thread kernel:
// y = A x with A symmetric, only the upper triangle (a(j,i), j <= i) read, each
// off-diagonal element used twice: for y(i) and, through w, for y(j).
// Column-major with leading dimension lda, indices from 0.
__global__ void symv_fig1(int n, const double *a, int lda, const double *x,
                          double *y, double *w) {
    if (threadIdx.x != 0 || blockIdx.x != 0) return;
    for (int i = 0; i < n; i++) w[i] = 0.0;
    for (int i = 0; i < n; i++) {
        double y0 = 0.0;
        for (int j = 0; j < i; j++) {
            y0 = y0 + a[j + i * lda] * x[j];
            w[j] = w[j] + a[j + i * lda] * x[i];
        }
        y[i] = y0 + a[i + i * lda] * x[i];
    }
    for (int i = 0; i < n; i++) y[i] = y[i] + w[i];
}
