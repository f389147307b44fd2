struct Acc {
    float s;
    __device__ Acc() : s(0) {}
};

struct Acc {
    float other;
};
