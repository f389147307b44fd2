//! Shared-memory synthesizer (to be written).
