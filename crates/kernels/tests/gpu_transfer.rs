//! Host-to-host GEMM on a real GPU: the serial schedule, column panels and
//! plans with a head of rank updates, with and without C read, each checked
//! against the FP64 reference with the library's error bound. Each test
//! prints why and returns where the machine has no CUDA device.

use hone_kernels::gemm::reference::{compare, reference};
use hone_kernels::gemm::transfer::{overlapped, serial, HostOperands, Schedule};
use hone_kernels::gemm::{Flavor, Gemm, GemmProblem, GemmRules, Layout};

mod support;
use support::gpu;

#[test]
fn every_schedule_gives_the_product_in_both_precisions() {
    let Some(gpu) = gpu() else { return };
    let mut gemm = Gemm::new(&gpu, GemmRules::bundled()).unwrap();
    let mut checked = 0;
    for flavor in [Flavor::Dgemm, Flavor::Sgemm] {
        let elem = flavor.precision().size();
        for n in [1, 333, 1000] {
            let p = GemmProblem::packed(flavor, Layout::ALL[0], n, n, n);
            let schedules = [
                Schedule::panels(1),
                Schedule::panels(7),
                Schedule::with_head(n / 3, 3, false, 4),
                Schedule::with_head(n / 2, 3, true, 4),
                Schedule::with_head(n, 2, false, 5),
            ];
            for beta in [0.0, -0.75] {
                for s in std::iter::once(None).chain(schedules.iter().map(Some)) {
                    let seed = (n * 10 + checked) as u64;
                    let mut host = HostOperands::new(n, elem, |m, i| {
                        let x = (i as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15 ^ seed);
                        ((x >> 11) % 4096) as f64 / 2048.0 - 1.0 + m as f64 * 1e-3
                    })
                    .unwrap();
                    let want = reference(&p, &host.operands(), 1.25, beta, seed);
                    let mut enqueue =
                        |q: &GemmProblem, al: f64, a: u64, b: u64, be: f64, c: u64| {
                            // SAFETY: the transfer module passes device buffers
                            // holding q's matrices.
                            unsafe { gemm.gemm(q, al, a, b, be, c) }.map(|_| ())
                        };
                    if beta == 0.0 {
                        // Never read: NaN would show through.
                        host.c.as_mut_slice().fill(0xff);
                    }
                    match s {
                        None => serial(&gpu, &p, &mut host, 1.25, beta, &mut enqueue).unwrap(),
                        Some(s) => {
                            overlapped(&gpu, &p, &mut host, 1.25, beta, s, &mut enqueue).unwrap()
                        }
                    };
                    let got = host.c_values();
                    let r = compare(&p, &want, &got, &got);
                    let what = s.map_or("serial".to_string(), |s| s.to_string());
                    assert!(
                        r.passed(),
                        "{flavor} N = {n}, beta = {beta}, {what}: {}",
                        r.describe()
                    );
                    checked += 1;
                }
            }
        }
    }
    println!("{checked} host-to-host products checked");
}
