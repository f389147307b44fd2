/* Kernel selection rule "ssymv_upper" for sizes 64..32768 (hone-tuner). */
#ifndef HONE_RULE_SSYMV_UPPER_H
#define HONE_RULE_SSYMV_UPPER_H

typedef struct {
    int kernel; /* index in the rule's kernel list */
    const char *key;
    long long ALG;
    long long BLOCK_SIZE;
    long long UX;
    long long MULTIPLICITY;
    long long MX;
    long long VEC;
    long long STEPS;
    long long NP;
    long long SYNC;
    long long LDHINT;
    long long SCHED;
    long long NB;
} hone_ssymv_upper_config;

static inline hone_ssymv_upper_config hone_ssymv_upper_select(unsigned long long n)
{
    if (n < 256ULL) { /* Rank 6 */
        hone_ssymv_upper_config c = { 5, "ALG=1,BLOCK_SIZE=128,UX=8,MULTIPLICITY=2,MX=0,VEC=2,STEPS=1,NP=1,SYNC=0,LDHINT=0,SCHED=0,NB=4", 1LL, 128LL, 8LL, 2LL, 0LL, 2LL, 1LL, 1LL, 0LL, 0LL, 0LL, 4LL };
        return c;
    }
    if (n < 2560ULL) { /* Rank 1 */
        hone_ssymv_upper_config c = { 0, "ALG=1,BLOCK_SIZE=256,UX=8,MULTIPLICITY=2,MX=0,VEC=2,STEPS=1,NP=1,SYNC=0,LDHINT=0,SCHED=0,NB=4", 1LL, 256LL, 8LL, 2LL, 0LL, 2LL, 1LL, 1LL, 0LL, 0LL, 0LL, 4LL };
        return c;
    }
    if (n < 2944ULL) { /* Rank 4 */
        hone_ssymv_upper_config c = { 3, "ALG=0,BLOCK_SIZE=128,UX=16,MULTIPLICITY=4,MX=0,VEC=4,STEPS=1,NP=2,SYNC=0,LDHINT=1,SCHED=1,NB=0", 0LL, 128LL, 16LL, 4LL, 0LL, 4LL, 1LL, 2LL, 0LL, 1LL, 1LL, 0LL };
        return c;
    }
    if (n < 3968ULL) { /* Rank 10 */
        hone_ssymv_upper_config c = { 9, "ALG=0,BLOCK_SIZE=128,UX=12,MULTIPLICITY=4,MX=1,VEC=4,STEPS=1,NP=4,SYNC=0,LDHINT=1,SCHED=0,NB=0", 0LL, 128LL, 12LL, 4LL, 1LL, 4LL, 1LL, 4LL, 0LL, 1LL, 0LL, 0LL };
        return c;
    }
    if (n < 5504ULL) { /* Rank 2 */
        hone_ssymv_upper_config c = { 1, "ALG=0,BLOCK_SIZE=128,UX=8,MULTIPLICITY=8,MX=0,VEC=2,STEPS=1,NP=8,SYNC=0,LDHINT=1,SCHED=0,NB=0", 0LL, 128LL, 8LL, 8LL, 0LL, 2LL, 1LL, 8LL, 0LL, 1LL, 0LL, 0LL };
        return c;
    }
    if (n < 6784ULL) { /* Rank 10 */
        hone_ssymv_upper_config c = { 9, "ALG=0,BLOCK_SIZE=128,UX=12,MULTIPLICITY=4,MX=1,VEC=4,STEPS=1,NP=4,SYNC=0,LDHINT=1,SCHED=0,NB=0", 0LL, 128LL, 12LL, 4LL, 1LL, 4LL, 1LL, 4LL, 0LL, 1LL, 0LL, 0LL };
        return c;
    }
    if (n < 7744ULL) { /* Rank 7 */
        hone_ssymv_upper_config c = { 6, "ALG=0,BLOCK_SIZE=128,UX=12,MULTIPLICITY=4,MX=1,VEC=4,STEPS=1,NP=16,SYNC=0,LDHINT=1,SCHED=1,NB=0", 0LL, 128LL, 12LL, 4LL, 1LL, 4LL, 1LL, 16LL, 0LL, 1LL, 1LL, 0LL };
        return c;
    }
    if (n < 14272ULL) { /* Rank 2 */
        hone_ssymv_upper_config c = { 1, "ALG=0,BLOCK_SIZE=128,UX=8,MULTIPLICITY=8,MX=0,VEC=2,STEPS=1,NP=8,SYNC=0,LDHINT=1,SCHED=0,NB=0", 0LL, 128LL, 8LL, 8LL, 0LL, 2LL, 1LL, 8LL, 0LL, 1LL, 0LL, 0LL };
        return c;
    }
    if (n < 17184ULL) { /* Rank 7 */
        hone_ssymv_upper_config c = { 6, "ALG=0,BLOCK_SIZE=128,UX=12,MULTIPLICITY=4,MX=1,VEC=4,STEPS=1,NP=16,SYNC=0,LDHINT=1,SCHED=1,NB=0", 0LL, 128LL, 12LL, 4LL, 1LL, 4LL, 1LL, 16LL, 0LL, 1LL, 1LL, 0LL };
        return c;
    }
    { /* Rank 3 */
        hone_ssymv_upper_config c = { 2, "ALG=0,BLOCK_SIZE=128,UX=16,MULTIPLICITY=4,MX=1,VEC=2,STEPS=1,NP=8,SYNC=0,LDHINT=0,SCHED=1,NB=0", 0LL, 128LL, 16LL, 4LL, 1LL, 2LL, 1LL, 8LL, 0LL, 0LL, 1LL, 0LL };
        return c;
    }
}

#endif /* HONE_RULE_SSYMV_UPPER_H */
