//! gtastream: a streaming, allocation-free decoder for the animation packages and placement
//! files of the RenderWare-era GTA games.
//!
//! Push bytes in chunks of any size into a [`Decoder`]; it reports what it decodes to a
//! [`Visitor`] as events (file, animation, bone, keyframe batches, warnings, end). The
//! decoder is a fixed-size value ([`DECODER_SIZE`] bytes) that never allocates; the events are
//! identical however the input is cut. [`encode::Encoder`] takes the same events and writes a
//! file back, in constant memory too. With the `alloc` feature, `Package` decodes a whole
//! file into owned values and `encode::write` writes one back; with `std`, `io` decodes from
//! readers. Text IPL (decoding and writing) is the default feature `ipl-text`: embedded
//! builds that leave it out (`default-features = false`) drop its float parser and printer.
//! [`archive::ArchiveDecoder`] reads IMG archives and decodes their entries the same way.
//!
//! The formats and the conversions applied are specified in docs/FORMATS.md in the repository;
//! docs/RUST.md there is the guide to this crate (seeking, pausing, errors, writing, archives).
//!
//! # Example
//!
//! Count the animations and keyframes of the repository's sample package, fed 100 bytes at a
//! time (any size works, down to one byte):
//!
//! ```
//! use gtastream::{AnimationInfo, Decoder, Flow, Keyframes, Visitor};
//!
//! #[derive(Default)]
//! struct Count {
//!     animations: u32,
//!     keyframes: usize,
//! }
//!
//! impl Visitor for Count {
//!     fn animation(&mut self, _info: &AnimationInfo<'_>) -> Flow {
//!         self.animations += 1;
//!         Flow::Continue
//!     }
//!     fn keyframes(&mut self, frames: Keyframes<'_>) -> Flow {
//!         self.keyframes += frames.len();
//!         Flow::Continue
//!     }
//! }
//!
//! let file = include_bytes!("../samples/walk.ifp");
//! let mut decoder = Decoder::new();
//! let mut count = Count::default();
//! for chunk in file.chunks(100) {
//!     // This visitor never pauses and an IFP file never asks for a seek (Stories files do:
//!     // `Decoder::decode_slice` follows them), so each call takes the whole chunk.
//!     let progress = decoder.feed(chunk, &mut count)?;
//!     assert_eq!(progress.consumed, chunk.len());
//! }
//! decoder.finish(&mut count)?; // a file cut short fails here, with the offset
//! assert_eq!((count.animations, count.keyframes), (3, 207));
//! # Ok::<(), gtastream::Error>(())
//! ```
//!
//! Match bones by id ([`BoneInfo::bone_id`]) or with [`name_matches`]: real San Andreas files
//! name the root bone `Normal` and start the other names with a space (` Pelvis`).
#![no_std]
// docs.rs (package.metadata.docs.rs) marks the items of each feature.
#![cfg_attr(docsrs, feature(doc_cfg))]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

#[cfg(feature = "alloc")]
extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

pub mod archive;
pub mod bone_names;
pub mod check;
pub mod context;
mod decoder;
mod error;
mod event;
mod format;
mod keyframe;
mod limits;
pub mod record;
pub mod rig;
mod sample;
pub mod skeleton;
mod summary;

pub mod encode;
#[cfg(feature = "gltf")]
#[cfg_attr(docsrs, doc(cfg(feature = "gltf")))]
pub mod gltf;
#[cfg(feature = "std")]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
pub mod io;
#[cfg(feature = "alloc")]
#[cfg_attr(docsrs, doc(cfg(feature = "alloc")))]
pub mod json;
#[cfg(feature = "alloc")]
#[cfg_attr(docsrs, doc(cfg(feature = "alloc")))]
pub mod model;
#[cfg(feature = "alloc")]
mod package;
#[cfg(feature = "alloc")]
mod placement;

pub use decoder::{Decoder, Game, Options, Progress, Status, DECODER_SIZE};
pub use error::{Error, ErrorKind, Warning, WarningKind};
pub use event::{
    name_matches, AnimationInfo, BoneInfo, FileInfo, Flow, Format, Unit, UnitKind, Visitor,
};
pub use format::dff::rw_version;
pub use keyframe::{FrameType, Keyframe, KeyframeIter, Keyframes, RawFrame};
pub use limits::{
    MAX_BATCH, MAX_LINE, MAX_NAME, MAX_SECTION_NAME, REREAD_FACTOR, REREAD_SLACK, SNIFF_LINES,
};
#[cfg(feature = "alloc")]
#[cfg_attr(docsrs, doc(cfg(feature = "alloc")))]
pub use package::{Animation, Bone, Package, PackageBuilder};
#[cfg(feature = "alloc")]
#[cfg_attr(docsrs, doc(cfg(feature = "alloc")))]
pub use placement::{Instance, Item, Placement, PlacementBuilder, RawLine, Stored};
pub use record::{IplCar, IplInstance, Record, RecordKind, SectionLine};
pub use sample::{BonePose, Sampler, MAX_SAMPLE_STEPS};
pub use summary::{AnimationSummary, Summarize, Summarizer};
