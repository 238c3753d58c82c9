//! Support for gtastream's fuzz targets (see `README.md`): the checks they run ([`harness`])
//! and the seed inputs ([`seeds`], [`stories`]) are the project's test kit (`testkit/`), which
//! the ordinary test suite replays on stable (`tests/decode/hostile_replay.rs`).

pub use testkit::driver as harness;
pub mod roundtrip;
pub use testkit::{seeds, stories};
