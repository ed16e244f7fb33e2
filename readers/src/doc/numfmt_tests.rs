//! Number formats: placeholder.
