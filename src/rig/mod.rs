//! Skeletons: the model an animation plays on, read from a DFF's records; its tracks bound
//! to the model's frames as each game binds them; the model posed in model space; and the
//! checks of an animation against a model (docs/SKELETON.md).
//!
//! - [`SkeletonBuilder`] takes the DFF records (frames, names, HAnim ids and table, skin,
//!   atomics) and builds a [`Skeleton`] of at most [`MAX_FRAMES`] frames;
//! - [`Binder`] binds tracks as a [`Host`] does: by HAnim node id when the track has one, by
//!   the engine's fixed table of bone names on a skinned model, by frame names on an
//!   unskinned one; each track drives a frame or is [`Unbound`] for a reason;
//! - [`model_matrices`] gives every frame's model-space matrix for a pose;
//! - [`SkeletonChecker`] and [`check_skeleton`] report [`Finding`](crate::check::Finding)s,
//!   [`check_file`] checks one input as `gtastream check` does;
//! - [`read_skeleton`] reads a DFF in memory in one call.
//!
//! Nothing here allocates. ([`crate::skeleton`] is another thing: the tables of the games'
//! standard ped skeletons.)

mod bind;
mod check;
mod model;
mod pose;
mod read;
mod tracks;

pub use bind::{
    bind_all, engine_names, engine_tag, frame_by_name, mta_tag, resolve, Binder, Binding, Host,
    Track, Unbound, MTA_BONE_NAMES, SA_BONE_NAMES, VC_BONE_NAMES,
};
pub use check::{
    check_file, check_skeleton, Checked, SkeletonChecker, PED_BONE_TAGS, PELVIS_TRAVEL,
};
pub use model::{
    Frame, Hierarchy, Node, Skeleton, SkeletonBuilder, SkeletonError, Skin, MAX_FRAMES, MAX_NODES,
    NODE_POP, NODE_PUSH,
};
pub use pose::{
    model_matrices, multiply, normalise, pose_animation, rotation_matrix, rotation_quaternion,
    LocalPose,
};
pub use read::{default_host, model_games, read_skeleton, ReadError};
pub use tracks::{AnimationTracks, TrackInfo, MAX_TRACKS};
