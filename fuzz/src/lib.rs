//! Support for gtastream's fuzz targets (see `README.md`): the checks they run
//! ([`harness`]), and seed inputs made by the project's own code ([`seeds`], [`stories`]).

pub mod harness;
pub mod roundtrip;
pub mod seeds;
pub mod stories;
