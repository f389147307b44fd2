//! How far a buffer's contents are from reference bytes, for comparing one
//! run with another (the GPU with a saved run, one kernel with another).

use hone_emulator::{component_f64, Buffer};

/// How far a buffer is from a reference of the same type and length.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Difference {
    pub elements: usize,
    /// Elements whose bytes differ (for floats: not equal as numbers; a NaN
    /// equals a NaN of the same bits).
    pub differing: usize,
    pub max_abs: f64,
    /// Largest |got - want| / max(|got|, |want|) over differing elements.
    pub max_rel: f64,
}

pub fn difference(got: &Buffer, want: &[u8]) -> Difference {
    let scalar = got.component();
    let size = scalar.size() as usize;
    let mut d = Difference {
        elements: got.data.len() / size,
        differing: 0,
        max_abs: 0.0,
        max_rel: 0.0,
    };
    for (g, w) in got.data.chunks_exact(size).zip(want.chunks_exact(size)) {
        if g == w {
            continue;
        }
        let (a, b) = (component_f64(scalar, g), component_f64(scalar, w));
        if a == b {
            // +0 and -0.
            continue;
        }
        d.differing += 1;
        let abs = (a - b).abs();
        let abs = if abs.is_nan() { f64::INFINITY } else { abs };
        d.max_abs = d.max_abs.max(abs);
        d.max_rel = d.max_rel.max(abs / a.abs().max(b.abs()));
    }
    d
}

#[cfg(test)]
mod tests {
    use super::*;
    use hone_ir::{Scalar, Type};

    fn f32_buffer(values: &[f32]) -> Buffer {
        Buffer::from_f32("x", values)
    }

    fn bytes(values: &[f32]) -> Vec<u8> {
        values.iter().flat_map(|v| v.to_le_bytes()).collect()
    }

    #[test]
    fn differences_count_elements_and_keep_the_largest() {
        let got = f32_buffer(&[1.0, 2.0, 4.0, -0.0, f32::NAN]);
        let want = bytes(&[1.0, 2.5, 3.0, 0.0, f32::NAN]);
        let d = difference(&got, &want);
        assert_eq!(d.elements, 5);
        // -0 equals +0, and a NaN its own bits.
        assert_eq!(d.differing, 2);
        assert_eq!(d.max_abs, 1.0);
        assert_eq!(d.max_rel, 0.25);

        let d = difference(&got, &bytes(&[1.0, 2.0, 4.0, -0.0, 1.0]));
        assert_eq!(d.differing, 1);
        assert!(d.max_abs.is_infinite());
        assert_eq!(
            difference(&got, &got.data.clone()),
            Difference {
                elements: 5,
                differing: 0,
                max_abs: 0.0,
                max_rel: 0.0
            }
        );
    }

    #[test]
    fn integer_buffers_compare_as_numbers() {
        let got = Buffer {
            name: "i".into(),
            elem: Type::Scalar(Scalar::I32),
            data: [-3i32, 7].iter().flat_map(|v| v.to_le_bytes()).collect(),
        };
        let want: Vec<u8> = [-5i32, 7].iter().flat_map(|v| v.to_le_bytes()).collect();
        let d = difference(&got, &want);
        assert_eq!((d.differing, d.max_abs), (1, 2.0));
        assert_eq!(d.max_rel, 2.0 / 5.0);
    }
}
