//! The MX parameter: the order in which a thread issues the UX strided column
//! loads of one step (section 3.3 of the paper). The paper kept ten
//! hand-made orders; here they are generated:
//!
//! | MX    | order of columns 0..UX                                       |
//! |-------|--------------------------------------------------------------|
//! | 0..=6 | interleave with stride s = MX + 1: 0, s, 2s, ..., 1, 1 + s, ...|
//! | 7     | odd columns, then even: 1, 3, 5, ..., 0, 2, 4, ...            |
//! | 8     | reversed: UX - 1, ..., 0                                      |
//! | 9     | from both ends: 0, UX - 1, 1, UX - 2, ...                     |
//!
//! MX = 0 is the natural order and MX = 1 the paper's example (even columns,
//! then odd). The order reaches the kernel as the `MX_LOADS` define, a list of
//! load macros `L(c)` in issue order, so every load has a constant column.

use super::{Result, SymvError};

/// The number of MX orders.
pub const MX_COUNT: i64 = 10;

/// Columns `0..ux` in the order of pattern `mx`.
pub fn load_order(mx: i64, ux: usize) -> Result<Vec<usize>> {
    if ux == 0 {
        return Err(SymvError::Config("UX must be at least 1".to_string()));
    }
    match mx {
        0..=6 => {
            let stride = mx as usize + 1;
            Ok((0..stride)
                .flat_map(|start| (start..ux).step_by(stride))
                .collect())
        }
        7 => Ok((1..ux).step_by(2).chain((0..ux).step_by(2)).collect()),
        8 => Ok((0..ux).rev().collect()),
        9 => Ok((0..ux)
            .map(|k| if k % 2 == 0 { k / 2 } else { ux - 1 - k / 2 })
            .collect()),
        _ => Err(SymvError::Config(format!(
            "MX={mx} is not one of the {MX_COUNT} load orders 0..={}",
            MX_COUNT - 1
        ))),
    }
}

/// The `MX_LOADS` define: `L(0)L(2)L(1)L(3)` for the order `[0, 2, 1, 3]`.
pub fn loads_define(order: &[usize]) -> String {
    order.iter().map(|c| format!("L({c})")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn is_permutation(order: &[usize], n: usize) -> bool {
        let mut seen = vec![false; n];
        order.len() == n
            && order
                .iter()
                .all(|&c| c < n && !std::mem::replace(&mut seen[c], true))
    }

    #[test]
    fn every_order_is_a_permutation_for_every_ux() {
        for ux in 1..=32 {
            for mx in 0..MX_COUNT {
                let order = load_order(mx, ux).unwrap();
                assert!(is_permutation(&order, ux), "MX={mx} UX={ux}: {order:?}");
            }
        }
    }

    #[test]
    fn orders_match_their_description() {
        assert_eq!(load_order(0, 5).unwrap(), vec![0, 1, 2, 3, 4]);
        assert_eq!(load_order(1, 8).unwrap(), vec![0, 2, 4, 6, 1, 3, 5, 7]);
        assert_eq!(load_order(2, 7).unwrap(), vec![0, 3, 6, 1, 4, 2, 5]);
        assert_eq!(load_order(7, 5).unwrap(), vec![1, 3, 0, 2, 4]);
        assert_eq!(load_order(8, 4).unwrap(), vec![3, 2, 1, 0]);
        assert_eq!(load_order(9, 5).unwrap(), vec![0, 4, 1, 3, 2]);
    }

    #[test]
    fn the_ten_orders_differ_at_the_paper_s_smallest_ux() {
        let orders: Vec<Vec<usize>> = (0..MX_COUNT).map(|mx| load_order(mx, 8).unwrap()).collect();
        for a in 0..orders.len() {
            for b in a + 1..orders.len() {
                assert_ne!(orders[a], orders[b], "MX={a} and MX={b} coincide at UX=8");
            }
        }
    }

    #[test]
    fn out_of_range_patterns_are_errors() {
        assert!(load_order(10, 8).is_err());
        assert!(load_order(-1, 8).is_err());
        assert!(load_order(0, 0).is_err());
    }

    #[test]
    fn define_lists_loads_in_issue_order() {
        assert_eq!(loads_define(&[0, 2, 1, 3]), "L(0)L(2)L(1)L(3)");
    }
}
