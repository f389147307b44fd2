//! References that a template names to have its outputs checked: built-in
//! CPU computations, or a kernel of the template's own source run on the GPU
//! with the same inputs (a naive kernel that tuned variants must agree with).

use serde::{Deserialize, Serialize};

use crate::expr::IntExpr;
use crate::host::HostData;
use crate::template::ArgSpec;

/// A named CPU computation and the buffers it reads and writes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReferenceSpec {
    #[serde(flatten)]
    pub builtin: Builtin,
    /// Buffer names, in the order the built-in takes them.
    pub inputs: Vec<String>,
    pub outputs: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "builtin", rename_all = "lowercase")]
pub enum Builtin {
    /// `out[i] = in[i]`.
    Copy,
    /// `out[c * rows + r] = in[r * cols + c]` for a row-major `rows × cols` input.
    Transpose { rows: IntExpr, cols: IntExpr },
    /// Another `extern "C"` kernel of the template's source, launched on the
    /// GPU on the variant's inputs with fresh output buffers; the outputs it
    /// writes are the expected ones. `args` defaults to the template's.
    Kernel {
        kernel: String,
        grid: Vec<IntExpr>,
        block: Vec<IntExpr>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        shared_mem: Option<IntExpr>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        args: Option<Vec<ArgSpec>>,
    },
}

impl Builtin {
    pub fn name(&self) -> &'static str {
        match self {
            Builtin::Copy => "copy",
            Builtin::Transpose { .. } => "transpose",
            Builtin::Kernel { .. } => "kernel",
        }
    }

    /// (inputs, outputs) the built-in takes; `None` for a reference kernel,
    /// which reads what its arguments name and needs at least one output.
    pub fn arity(&self) -> Option<(usize, usize)> {
        match self {
            Builtin::Copy | Builtin::Transpose { .. } => Some((1, 1)),
            Builtin::Kernel { .. } => None,
        }
    }

    /// The expressions the built-in evaluates (checked against the template's variables).
    pub fn expressions(&self) -> Vec<&IntExpr> {
        match self {
            Builtin::Copy => vec![],
            Builtin::Transpose { rows, cols } => vec![rows, cols],
            Builtin::Kernel {
                grid,
                block,
                shared_mem,
                args,
                ..
            } => grid
                .iter()
                .chain(block)
                .chain(shared_mem)
                .chain(args.iter().flatten().filter_map(|a| match a {
                    ArgSpec::Scalar { expr, .. } => Some(expr),
                    _ => None,
                }))
                .collect(),
        }
    }

    /// Computes `outputs` (already sized to their buffers' lengths) from `inputs`.
    pub fn run(
        &self,
        env: &dyn Fn(&str) -> Option<i64>,
        inputs: &[&HostData],
        outputs: &mut [HostData],
    ) -> Result<(), String> {
        let Some((ni, no)) = self.arity() else {
            return Err("a reference kernel runs on the GPU, not on the host".into());
        };
        if inputs.len() != ni || outputs.len() != no {
            return Err(format!(
                "reference `{}` takes {ni} input(s) and {no} output(s), got {} and {}",
                self.name(),
                inputs.len(),
                outputs.len()
            ));
        }
        let (src, dst) = (inputs[0], &mut outputs[0]);
        if src.elem_type() != dst.elem_type() {
            return Err(format!(
                "reference `{}`: input is {:?} but output is {:?}",
                self.name(),
                src.elem_type(),
                dst.elem_type()
            ));
        }
        match self {
            Builtin::Copy => {
                if src.len() != dst.len() {
                    return Err(format!(
                        "reference `copy`: input has {} elements, output {}",
                        src.len(),
                        dst.len()
                    ));
                }
                *dst = src.clone();
                Ok(())
            }
            Builtin::Transpose { rows, cols } => {
                let rows = rows.eval(env).map_err(|e| e.to_string())?;
                let cols = cols.eval(env).map_err(|e| e.to_string())?;
                let (Ok(rows), Ok(cols)) = (usize::try_from(rows), usize::try_from(cols)) else {
                    return Err(format!(
                        "reference `transpose`: negative shape {rows} x {cols}"
                    ));
                };
                let want = rows.checked_mul(cols);
                if want != Some(src.len()) || want != Some(dst.len()) {
                    return Err(format!(
                        "reference `transpose`: {rows} x {cols} does not match input {} / output {} elements",
                        src.len(),
                        dst.len()
                    ));
                }
                match (src, dst) {
                    (HostData::F32(s), HostData::F32(d)) => transpose(s, d, rows, cols),
                    (HostData::F64(s), HostData::F64(d)) => transpose(s, d, rows, cols),
                    (HostData::I32(s), HostData::I32(d)) => transpose(s, d, rows, cols),
                    (HostData::U32(s), HostData::U32(d)) => transpose(s, d, rows, cols),
                    _ => unreachable!("element types were compared above"),
                }
                Ok(())
            }
            Builtin::Kernel { .. } => unreachable!("has no arity"),
        }
    }
}

fn transpose<T: Copy>(src: &[T], dst: &mut [T], rows: usize, cols: usize) {
    for r in 0..rows {
        for c in 0..cols {
            dst[c * rows + r] = src[r * cols + c];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::host::ElemType;

    fn no_vars(_: &str) -> Option<i64> {
        None
    }

    #[test]
    fn copy_reproduces_its_input() {
        let src = HostData::random(ElemType::F32, 33, 5);
        let mut out = vec![HostData::zeros(ElemType::F32, 33)];
        Builtin::Copy.run(&no_vars, &[&src], &mut out).unwrap();
        assert_eq!(out[0], src);
    }

    #[test]
    fn transpose_twice_is_the_identity_and_moves_elements() {
        let t = |rows: &str, cols: &str| Builtin::Transpose {
            rows: IntExpr::parse(rows).unwrap(),
            cols: IntExpr::parse(cols).unwrap(),
        };
        let env = |n: &str| match n {
            "R" => Some(3),
            "C" => Some(5),
            _ => None,
        };
        let src = HostData::random(ElemType::I32, 15, 1);
        let mut once = vec![HostData::zeros(ElemType::I32, 15)];
        t("R", "C").run(&env, &[&src], &mut once).unwrap();
        // Element (r=1, c=4) of the input lands at (c=4, r=1) of the output.
        assert_eq!(once[0].get_f64(4 * 3 + 1), src.get_f64(5 + 4));
        let mut twice = vec![HostData::zeros(ElemType::I32, 15)];
        t("C", "R").run(&env, &[&once[0]], &mut twice).unwrap();
        assert_eq!(twice[0], src);
    }

    #[test]
    fn mismatched_buffers_are_errors() {
        let src = HostData::random(ElemType::F32, 8, 1);
        let mut wrong_type = vec![HostData::zeros(ElemType::F64, 8)];
        assert!(Builtin::Copy
            .run(&no_vars, &[&src], &mut wrong_type)
            .is_err());
        let mut wrong_len = vec![HostData::zeros(ElemType::F32, 7)];
        assert!(Builtin::Copy
            .run(&no_vars, &[&src], &mut wrong_len)
            .is_err());
        let shape = Builtin::Transpose {
            rows: IntExpr::constant(3),
            cols: IntExpr::constant(3),
        };
        let mut out = vec![HostData::zeros(ElemType::F32, 8)];
        assert!(shape
            .run(&no_vars, &[&src], &mut out)
            .unwrap_err()
            .contains("3 x 3"));
    }

    #[test]
    fn spec_reads_from_json() {
        let spec: ReferenceSpec = serde_json::from_str(
            r#"{"builtin": "transpose", "rows": "N", "cols": "M", "inputs": ["a"], "outputs": ["b"]}"#,
        )
        .unwrap();
        assert_eq!(spec.builtin.name(), "transpose");
        assert_eq!(spec.inputs, vec!["a"]);
        let err = serde_json::from_str::<ReferenceSpec>(
            r#"{"builtin": "fft", "inputs": [], "outputs": []}"#,
        );
        assert!(err.is_err());
    }
}
