/// Kernel selection rule `dsymv_lower` for sizes 64..=32768 (hone-tuner).
/// Returns the configuration key to run at size `n`.
pub fn select(n: u64) -> &'static str {
    match n {
        0..=1695 => "ALG=1,BLOCK_SIZE=256,UX=8,MULTIPLICITY=2,MX=0,VEC=1,STEPS=1,NP=1,SYNC=0,LDHINT=0,SCHED=0,NB=4", // Rank 8
        1696..=6495 => "ALG=0,BLOCK_SIZE=128,UX=16,MULTIPLICITY=4,MX=1,VEC=1,STEPS=1,NP=4,SYNC=0,LDHINT=1,SCHED=0,NB=0", // Rank 2
        6496..=7455 => "ALG=0,BLOCK_SIZE=256,UX=16,MULTIPLICITY=2,MX=1,VEC=1,STEPS=1,NP=8,SYNC=0,LDHINT=1,SCHED=0,NB=0", // Rank 4
        7456..=10975 => "ALG=0,BLOCK_SIZE=128,UX=16,MULTIPLICITY=4,MX=1,VEC=1,STEPS=1,NP=4,SYNC=0,LDHINT=1,SCHED=0,NB=0", // Rank 2
        _ => "ALG=0,BLOCK_SIZE=128,UX=16,MULTIPLICITY=4,MX=1,VEC=1,STEPS=1,NP=4,SYNC=0,LDHINT=0,SCHED=1,NB=0", // Rank 6
    }
}
