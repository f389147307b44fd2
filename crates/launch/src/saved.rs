//! Buffers saved as raw little-endian bytes, `DIR/NAME.bin`, for runs too
//! large to dump as JSON: one run's buffers are saved and another's are
//! compared with them (see [`crate::difference`]).

use std::path::Path;

use hone_emulator::Buffer;

use crate::launch::LaunchError;

/// Writes each buffer's bytes to `dir/NAME.bin`, creating `dir`.
pub fn save(dir: &Path, buffers: &[&Buffer]) -> Result<(), LaunchError> {
    std::fs::create_dir_all(dir)
        .map_err(|e| LaunchError::new(format!("cannot create directory {}: {e}", dir.display())))?;
    for b in buffers {
        let file = dir.join(format!("{}.bin", b.name));
        std::fs::write(&file, &b.data)
            .map_err(|e| LaunchError::new(format!("cannot write {}: {e}", file.display())))?;
    }
    Ok(())
}

/// The saved bytes of each buffer, by name, checked for length up front so
/// that a wrong reference is found before any run.
pub fn read(dir: &Path, buffers: &[&Buffer]) -> Result<Vec<(String, Vec<u8>)>, LaunchError> {
    buffers
        .iter()
        .map(|b| {
            let file = dir.join(format!("{}.bin", b.name));
            let bytes = std::fs::read(&file).map_err(|e| {
                LaunchError::new(format!("cannot read reference {}: {e}", file.display()))
            })?;
            if bytes.len() != b.data.len() {
                return Err(LaunchError::new(format!(
                    "reference {} holds {} bytes, buffer `{}` has {}",
                    file.display(),
                    bytes.len(),
                    b.name,
                    b.data.len()
                )));
            }
            Ok((b.name.clone(), bytes))
        })
        .collect()
}
