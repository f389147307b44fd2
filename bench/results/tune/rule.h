/* Kernel selection rule "vcopy" for sizes 1024..268435456 (hone-tuner). */
#ifndef HONE_RULE_VCOPY_H
#define HONE_RULE_VCOPY_H

typedef struct {
    int kernel; /* index in the rule's kernel list */
    const char *key;
    long long BLOCK_SIZE;
    long long ELEMS_PER_THREAD;
    long long VEC;
} hone_vcopy_config;

static inline hone_vcopy_config hone_vcopy_select(unsigned long long n)
{
    if (n < 466944ULL) { /* Rank 4 */
        hone_vcopy_config c = { 3, "BLOCK_SIZE=128,ELEMS_PER_THREAD=1,VEC=4", 128LL, 1LL, 4LL };
        return c;
    }
    if (n < 937984ULL) { /* Rank 3 */
        hone_vcopy_config c = { 2, "BLOCK_SIZE=128,ELEMS_PER_THREAD=8,VEC=1", 128LL, 8LL, 1LL };
        return c;
    }
    if (n < 5076992ULL) { /* Rank 2 */
        hone_vcopy_config c = { 1, "BLOCK_SIZE=64,ELEMS_PER_THREAD=4,VEC=4", 64LL, 4LL, 4LL };
        return c;
    }
    { /* Rank 4 */
        hone_vcopy_config c = { 3, "BLOCK_SIZE=128,ELEMS_PER_THREAD=1,VEC=4", 128LL, 1LL, 4LL };
        return c;
    }
}

#endif /* HONE_RULE_VCOPY_H */
