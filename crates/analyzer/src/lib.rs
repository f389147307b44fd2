//! Memory-access analyzer (to be written).
