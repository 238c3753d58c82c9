//! Stories files for the CLI tests: the test kit's writer (`testkit::stories`), LCS records,
//! with a relocation table that may leave offset table entries out.

// Not every test binary that includes `support` builds clips of its own.
#[allow(unused_imports)]
pub use testkit::stories::{Anim, BoneRow, Frame, Layout};

/// The file; its relocation table lists the pointers, but of the offset table only the
/// first `listed` entries (normally `anims.len()`: all of them).
pub fn write(anims: &[Anim], layout: Layout, listed: usize) -> Vec<u8> {
    let mut bytes = testkit::stories::write(anims, layout, false, 0);
    let unlisted = 0x20 + 4 * listed as u32..0x20 + 4 * anims.len() as u32;
    testkit::stories::drop_relocs(&mut bytes, |p| unlisted.contains(&p));
    bytes
}
