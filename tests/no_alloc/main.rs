//! `feed`, `finish` and `decode_slice` never allocate: the kit's counting allocator is this
//! binary's global allocator (its own binary, so no other test's allocations are counted), and
//! each module runs one family of formats through every path while it counts.

#[global_allocator]
static ALLOCATOR: testkit::alloc_count::Counting = testkit::alloc_count::Counting;

mod anpk_stories;
mod archive;
mod check;
mod context;
mod dff;
mod encode;
mod ifp2;
mod ipl;
mod mods;
mod rig;
mod sample;
