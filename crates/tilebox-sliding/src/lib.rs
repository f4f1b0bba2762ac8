//! Sliding engine (being written).
