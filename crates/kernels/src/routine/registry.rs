//! Every routine the library ships. A new routine adds one line here.

use super::Routine;

static ROUTINES: &[&dyn Routine] = &[
    &crate::symv::routine::SymvRoutine,
    &crate::gemm::routine::GemmRoutine,
];

/// The shipped routines, in listing order.
pub fn routines() -> &'static [&'static dyn Routine] {
    ROUTINES
}

/// The routine called `name`, or an error listing the known ones.
pub fn find(name: &str) -> super::Result<&'static dyn Routine> {
    routines()
        .iter()
        .copied()
        .find(|r| r.name().eq_ignore_ascii_case(name))
        .ok_or_else(|| {
            super::LibError::Usage(format!(
                "unknown routine `{name}` (hone ships: {})",
                routines()
                    .iter()
                    .map(|r| r.name())
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn routines_are_found_by_name_and_unknown_ones_listed() {
        assert_eq!(find("SYMV").unwrap().name(), "symv");
        let e = find("trsv").err().unwrap().to_string();
        assert!(e.contains("`trsv`") && e.contains("symv"), "{e}");
        let mut names: Vec<_> = routines().iter().map(|r| r.name()).collect();
        names.dedup();
        assert_eq!(names.len(), routines().len());
    }
}
