//! Issue 31's contract bugs that the C API showed: an `ANLF` file's animations reached by
//! their index in the whole file.

use core::ptr::null_mut;

use super::fixtures;
use crate::*;

/// An `ANLF` of two blocks of two animations (the ANPK fixture twice): indexes 2 and 3 are
/// the second block's, and it can be summarised (the index restarted at 0 in each block).
#[test]
fn anlf_indexes_count_across_blocks() {
    let block = fixtures::anpk();
    let mut data = b"ANLF".to_vec();
    data.extend_from_slice(&(4 + 2 * block.len() as u32).to_le_bytes());
    data.extend_from_slice(&2i32.to_le_bytes());
    data.extend_from_slice(&block);
    data.extend_from_slice(&block);
    // run_civi: 3 bones, 79 keyframes; idle_stance: 2 bones, 2 keyframes.
    for (index, bones, keyframes) in [(0, 3, 79), (1, 2, 2), (2, 3, 79), (3, 2, 2)] {
        let mut out = gts_animation_summary::default();
        // SAFETY: valid pointers.
        let status = unsafe {
            gts_summarize_animation(data.as_ptr(), data.len(), index, &mut out, null_mut())
        };
        assert_eq!(status, gts_status::GTS_OK, "animation {index}");
        assert_eq!(
            (out.bones, out.keyframes),
            (bones, keyframes),
            "animation {index}"
        );
    }
    let mut out = gts_animation_summary::default();
    // SAFETY: valid pointers.
    let status =
        unsafe { gts_summarize_animation(data.as_ptr(), data.len(), 4, &mut out, null_mut()) };
    assert_eq!(status, gts_status::GTS_ERR_NOT_FOUND);
}
