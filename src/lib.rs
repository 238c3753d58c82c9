//! gtastream: a streaming, allocation-free decoder for the animation packages and placement
//! files of the RenderWare-era GTA games.
//!
//! Push bytes in chunks of any size into a [`Decoder`]; it reports what it decodes to a
//! [`Visitor`] as events (file, animation, bone, keyframe batches, warnings, end). The
//! decoder is a fixed-size value ([`DECODER_SIZE`] bytes) that never allocates; the events are
//! identical however the input is cut. With the `alloc` feature, [`Package`] decodes a whole
//! file into owned values and [`encode`] writes one back.
//!
//! The formats and the conversions applied are specified in the project's FORMATS.md.
#![no_std]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

#[cfg(feature = "alloc")]
extern crate alloc;

mod decoder;
mod error;
mod event;
mod format;

#[cfg(feature = "alloc")]
pub mod encode;
#[cfg(feature = "alloc")]
mod package;

pub use decoder::{Decoder, Progress, Status, DECODER_SIZE};
pub use error::{Error, ErrorKind, Warning, WarningKind};
pub use event::{
    AnimationInfo, BoneInfo, FileInfo, Flow, Format, FrameType, Keyframe, Keyframes, RawFrame,
    Visitor,
};
pub use format::MAX_NAME;
#[cfg(feature = "alloc")]
pub use package::{Animation, Bone, Package};
