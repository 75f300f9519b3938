//! The timeline as pictures, without a browser: [`layout`] computes the geometry the app draws,
//! [`svg`] writes the same timeline as a standalone SVG (for slides, and for Markdown pages where
//! no script runs).

pub mod layout;
pub mod svg;
