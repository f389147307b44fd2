//! The byte counts behind every GB/s figure: the fewest bytes each operation
//! must move through device memory (each input read once, each output
//! written once), in 10^9 bytes per second.
//!
//! - SYMV: the stored triangle, N (N + 1) / 2 elements, plus x read, y read
//!   and y written: `elem * (N (N + 1) / 2 + 3 N)` bytes.
//! - GEMV: the whole matrix plus the same vectors: `elem * (N^2 + 3 N)`.
//!
//! Both count y as read, as the benchmark runs with beta != 0.

/// The SYMV formula, as printed in reports.
pub const SYMV_BYTES: &str = "elem * (N*(N+1)/2 + 3*N)";
/// The GEMV formula, as printed in reports.
pub const GEMV_BYTES: &str = "elem * (N*N + 3*N)";

/// Bytes SYMV must move at size n with `elem`-byte elements.
pub fn symv_bytes(n: usize, elem: usize) -> f64 {
    let n = n as f64;
    elem as f64 * (n * (n + 1.0) / 2.0 + 3.0 * n)
}

/// Bytes GEMV must move at size n with `elem`-byte elements.
pub fn gemv_bytes(n: usize, elem: usize) -> f64 {
    let n = n as f64;
    elem as f64 * (n * n + 3.0 * n)
}

/// Floating-point operations of SYMV or GEMV: 2 N^2.
pub fn flops(n: usize) -> f64 {
    2.0 * (n as f64) * (n as f64)
}

/// GB/s (10^9 bytes per second) for `bytes` in `ms` milliseconds.
pub fn gbps(bytes: f64, ms: f64) -> f64 {
    if ms > 0.0 {
        bytes / (ms * 1e-3) / 1e9
    } else {
        0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symv_counts_the_triangle_and_three_vectors() {
        // n = 4: 10 stored elements + 12 vector elements, 8 bytes each.
        assert_eq!(symv_bytes(4, 8), 8.0 * 22.0);
        assert_eq!(gemv_bytes(4, 4), 4.0 * 28.0);
        // n = 32768 in double: 4.295 GB, about half of GEMV's.
        let s = symv_bytes(32768, 8);
        assert!((s - 4_295_884_800.0).abs() < 1.0, "{s}");
        let ratio = gemv_bytes(32768, 8) / s;
        assert!(ratio > 1.99 && ratio < 2.0, "{ratio}");
        assert_eq!(flops(3), 18.0);
    }

    #[test]
    fn rate_is_bytes_over_time() {
        assert!((gbps(4.0e9, 1.0) - 4000.0).abs() < 1e-9);
        assert_eq!(gbps(1.0, 0.0), 0.0);
    }
}
