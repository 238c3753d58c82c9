//! Issue 31's contract bugs that the C API showed: an `ANLF` file's animations reached by
//! their index in the whole file; offsets past the end of the input, as the header documents.

use core::ffi::c_void;
use core::ptr::null_mut;

use super::fixtures;
use super::{all_callbacks, init, new_decoder, run, Recorder};
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

unsafe extern "C" fn finding_offsets(user: *mut c_void, finding: *const gts_finding) {
    // SAFETY: the test passes a `Vec` and the library a valid finding.
    let (found, f) = unsafe { (&mut *user.cast::<Vec<(u32, u64)>>(), &*finding) };
    found.push((f.rule, f.offset));
}

/// The header's note on `GTS_NO_OFFSET` (and docs/FORMATS.md §0): an offset can lie past the
/// end of the input where a field of the file places the unit there. Its example: a 76-byte
/// binary IPL whose instances start at 5000 fails with `GTS_ERR_TRUNCATED` at 5000, and
/// `gts_check_memory` finds `bnry.bounds` at 5000.
#[test]
fn offsets_past_the_end_are_as_the_header_says() {
    let mut data = vec![0u8; 76];
    data[..4].copy_from_slice(b"bnry");
    data[0x04..0x08].copy_from_slice(&1u32.to_le_bytes());
    data[0x1C..0x20].copy_from_slice(&5000u32.to_le_bytes());
    data[0x3C..0x40].copy_from_slice(&0x4Cu32.to_le_bytes());
    for chunk in [1, 7, 76] {
        let mut recorder = Recorder::default();
        let mut decoder = new_decoder();
        init(&mut decoder, &all_callbacks(), &mut recorder);
        let outcome = run(&mut decoder, &data, chunk);
        assert_eq!(
            (outcome.status, outcome.offset),
            (gts_status::GTS_ERR_TRUNCATED, 5000),
            "pieces of {chunk}"
        );
    }
    let mut found: Vec<(u32, u64)> = Vec::new();
    // SAFETY: valid buffers and a callback that matches the user pointer.
    let status = unsafe {
        gts_check_memory(
            data.as_ptr(),
            data.len(),
            c"far.ipl".as_ptr(),
            0,
            Some(finding_offsets),
            (&mut found as *mut Vec<(u32, u64)>).cast(),
            null_mut(),
        )
    };
    assert_eq!(status, gts_status::GTS_OK);
    let bounds = gtastream_core::check::Rule::BnryBounds.code();
    assert!(found.contains(&(bounds, 5000)), "{found:?}");

    // The rule is written where a C programmer reads it.
    let header = include_str!("../../../include/gtastream.h");
    let note = header
        .split("#define GTS_NO_OFFSET")
        .next()
        .and_then(|before| before.rsplit("/**").next())
        .unwrap();
    assert!(note.contains("past the end of the input"), "{note}");
    assert!(note.contains("at 5000"), "{note}");
}
