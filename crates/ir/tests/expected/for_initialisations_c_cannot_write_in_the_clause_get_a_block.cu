__global__ void k() {
    int u;
    int w;
    for (int i = 0, *p = &i; i < 4;) {
        (*p)++;
    }
    {
        int j = 0;
        float x = 1.0f;
        for (;; j++) {
            x *= 2.0f;
        }
    }
    for (u = 0, w = 0; u < w; u++, w--) {
    }
}
