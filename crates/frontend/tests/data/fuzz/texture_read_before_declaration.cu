// A syntax error ine func p[0] = 1; }

__global__ void uses_texture(float *out) { out[0] = tex1Dfetch(tex, 0); }

__glob0l__ coeffs[16 er;
texture<float, 1, cudReadModeElementType> tex;

__global__ void child(int *p) { p[0] = 1; }

__global__ void uses_texture(float *out) { out[0] = tex1Dfetch(tex, 0); }

__glob0loid uses_t
not}
 8