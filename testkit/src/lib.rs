//! The test kit of gtastream (a dev-only crate, never published): what the integration tests
//! of the core, the CLI, the C library and the fuzz targets share.
//!
//! - [`log`]: the event log ([`log::Ev`], one owned, comparable, printable entry per event) and
//!   the visitor that writes it ([`log::Recorder`]), pausing or aborting as asked.
//! - [`driver`]: the driver that feeds a file under any cut, re-feeds after every pause,
//!   follows the seek protocol and checks the driver-level contract ([`driver::drive_with`]);
//!   the fuzz targets' checks. The format modules' `decode`/`drive`/`run` are views of it.
//! - [`alloc_count`]: the counting global allocator of the no-allocation tests.
//! - [`rig`]: models built in code as DFF records, for the skeleton tests.
//! - Fixture writers built from docs/FORMATS.md, never by the crate under test:
//!   [`ifp2`] (ANP3/ANP2), [`anpk`] (ANPK/ANLF, patched from the encoder's output),
//!   [`stories`] (Stories `.anim`), [`ipl`] (binary and text IPL), [`hostile`] (every format,
//!   with the map of its units), [`img`] (IMG archives, and their driver in pieces).
//! - Reference decoders, independent of the crate ([`ifp2::reference`],
//!   [`anpk_stories::anpk_reference`], [`anpk_stories::stories_reference`],
//!   [`ipl::reference`]): which events, at which offsets, a correct decoder reports.
//!
//! Only tests link this crate, so its helpers panic on misuse. Features follow the core's:
//! `alloc` for what builds `Package`s or uses the encoder, `std` for the `io` checks.

pub mod alloc_count;
#[cfg(feature = "alloc")]
pub mod anpk;
pub mod anpk_stories;
pub mod bytes;
#[cfg(feature = "std")]
pub mod check_cases;
pub mod dff;
pub mod driver;
#[cfg(feature = "std")]
pub mod folder;
pub mod hostile;
pub mod ide;
pub mod ifp2;
pub mod img;
pub mod ipl;
pub mod log;
pub mod rig;
#[cfg(feature = "alloc")]
pub mod seeds;
pub mod stock;
pub mod stories;
