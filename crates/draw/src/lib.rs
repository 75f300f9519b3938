//! The timeline as pictures, without a browser: [`layout`] computes the geometry the app draws,
//! [`glyph`] says what each part of it looks like and is called, and [`svg`] writes the same
//! timeline as a standalone SVG (for slides, and for Markdown pages where no script runs).

pub mod glyph;
pub mod layout;
pub mod lease;
pub mod legend;
pub mod svg;
