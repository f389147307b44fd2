// Spots where the parser cannot know whether a parenthesized name is a type:
// `(T)-x` is a cast when T is a type, and `(x) + *p` or `(abs(i * 2)) & 3`
// (which the grammar reads as casts) are additions and masks when the name
// is not a type; operators then group as C says.
typedef float T;
__global__ void ambiguous(float *q, float x, int i) {
    x = (T)-i;
    x = (T)*q * 2;
    x = (T)(i) + 1;
    x = (x) - 1;
    x = (x) + *q * 2.0f - 1;
    x = (float)(warpSize) + *q * 1e-3f;
    x = 3 * (x) - *q;
    x = (x) - -x;
    x = -(x) + *q;
    x = !(x) - *q;
    x = (int)(float)(x) - *q;
    x = (x) * *q + (x) - -*q * 3;
    x = (i, x, 2.0f);
    i = (abs(i * 2)) & 3;
    i = (max(i, 1)) - 1;
    x = sizeof(T) + sizeof(x);
}

// `y < 2, true >> 1u` reads as the template `y<2, true>` followed by `> 1u`;
// the grammar cannot know `y` is a variable, but the front end does: `(y)`
// cannot be read as a template, so the repair parenthesizes it.
__global__ void misread_as_template(float y, int *o) {
    o[0] = min(y < 2, true >> 1u);
}
