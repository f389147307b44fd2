/// Kernel selection rule `vcopy` for sizes 1024..=268435456 (hone-tuner).
/// Returns the configuration key to run at size `n`.
pub fn select(n: u64) -> &'static str {
    match n {
        0..=466943 => "BLOCK_SIZE=128,ELEMS_PER_THREAD=1,VEC=4", // Rank 4
        466944..=937983 => "BLOCK_SIZE=128,ELEMS_PER_THREAD=8,VEC=1", // Rank 3
        937984..=5076991 => "BLOCK_SIZE=64,ELEMS_PER_THREAD=4,VEC=4", // Rank 2
        _ => "BLOCK_SIZE=128,ELEMS_PER_THREAD=1,VEC=4", // Rank 4
    }
}
