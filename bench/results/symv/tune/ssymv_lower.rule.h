/* Kernel selection rule "ssymv_lower" for sizes 64..32768 (hone-tuner). */
#ifndef HONE_RULE_SSYMV_LOWER_H
#define HONE_RULE_SSYMV_LOWER_H

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
} hone_ssymv_lower_config;

static inline hone_ssymv_lower_config hone_ssymv_lower_select(unsigned long long n)
{
    if (n < 2336ULL) { /* Rank 8 */
        hone_ssymv_lower_config c = { 7, "ALG=1,BLOCK_SIZE=256,UX=8,MULTIPLICITY=2,MX=0,VEC=2,STEPS=1,NP=1,SYNC=0,LDHINT=0,SCHED=0,NB=4", 1LL, 256LL, 8LL, 2LL, 0LL, 2LL, 1LL, 1LL, 0LL, 0LL, 0LL, 4LL };
        return c;
    }
    if (n < 4576ULL) { /* Rank 1 */
        hone_ssymv_lower_config c = { 0, "ALG=0,BLOCK_SIZE=128,UX=16,MULTIPLICITY=4,MX=1,VEC=2,STEPS=1,NP=2,SYNC=0,LDHINT=1,SCHED=0,NB=0", 0LL, 128LL, 16LL, 4LL, 1LL, 2LL, 1LL, 2LL, 0LL, 1LL, 0LL, 0LL };
        return c;
    }
    if (n < 5408ULL) { /* Rank 4 */
        hone_ssymv_lower_config c = { 3, "ALG=0,BLOCK_SIZE=64,UX=8,MULTIPLICITY=8,MX=1,VEC=2,STEPS=1,NP=16,SYNC=0,LDHINT=1,SCHED=0,NB=0", 0LL, 64LL, 8LL, 8LL, 1LL, 2LL, 1LL, 16LL, 0LL, 1LL, 0LL, 0LL };
        return c;
    }
    if (n < 9920ULL) { /* Rank 1 */
        hone_ssymv_lower_config c = { 0, "ALG=0,BLOCK_SIZE=128,UX=16,MULTIPLICITY=4,MX=1,VEC=2,STEPS=1,NP=2,SYNC=0,LDHINT=1,SCHED=0,NB=0", 0LL, 128LL, 16LL, 4LL, 1LL, 2LL, 1LL, 2LL, 0LL, 1LL, 0LL, 0LL };
        return c;
    }
    if (n < 13088ULL) { /* Rank 4 */
        hone_ssymv_lower_config c = { 3, "ALG=0,BLOCK_SIZE=64,UX=8,MULTIPLICITY=8,MX=1,VEC=2,STEPS=1,NP=16,SYNC=0,LDHINT=1,SCHED=0,NB=0", 0LL, 64LL, 8LL, 8LL, 1LL, 2LL, 1LL, 16LL, 0LL, 1LL, 0LL, 0LL };
        return c;
    }
    if (n < 16672ULL) { /* Rank 3 */
        hone_ssymv_lower_config c = { 2, "ALG=0,BLOCK_SIZE=128,UX=16,MULTIPLICITY=4,MX=1,VEC=2,STEPS=1,NP=8,SYNC=0,LDHINT=0,SCHED=1,NB=0", 0LL, 128LL, 16LL, 4LL, 1LL, 2LL, 1LL, 8LL, 0LL, 0LL, 1LL, 0LL };
        return c;
    }
    if (n < 19136ULL) { /* Rank 9 */
        hone_ssymv_lower_config c = { 8, "ALG=0,BLOCK_SIZE=256,UX=8,MULTIPLICITY=4,MX=1,VEC=2,STEPS=1,NP=32,SYNC=0,LDHINT=0,SCHED=1,NB=0", 0LL, 256LL, 8LL, 4LL, 1LL, 2LL, 1LL, 32LL, 0LL, 0LL, 1LL, 0LL };
        return c;
    }
    { /* Rank 3 */
        hone_ssymv_lower_config c = { 2, "ALG=0,BLOCK_SIZE=128,UX=16,MULTIPLICITY=4,MX=1,VEC=2,STEPS=1,NP=8,SYNC=0,LDHINT=0,SCHED=1,NB=0", 0LL, 128LL, 16LL, 4LL, 1LL, 2LL, 1LL, 8LL, 0LL, 0LL, 1LL, 0LL };
        return c;
    }
}

#endif /* HONE_RULE_SSYMV_LOWER_H */
