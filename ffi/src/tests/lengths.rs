//! Every C entry point that takes a length refuses one over `isize::MAX` (`PTRDIFF_MAX`) with
//! `GTS_ERR_INVALID_ARGUMENT` before it makes a slice of it: a slice that long is undefined
//! behaviour even unread (and a debug build's precondition check aborts). The pointers are
//! dangling but non-NULL and well aligned, as a caller's wrong length would come with a real
//! pointer: nothing may be read through them.

use core::ptr::{null_mut, NonNull};

use crate::encoder::tests::{new_buf, new_encoder};
use crate::*;

/// Lengths no slice may have: just past `isize::MAX`, and the largest.
const HUGE: [usize; 2] = [isize::MAX as usize + 1, usize::MAX];

fn dangling<T>() -> *mut T {
    NonNull::<T>::dangling().as_ptr()
}

fn refused(status: gts_status, call: &str, len: usize) {
    assert_eq!(
        status,
        gts_status::GTS_ERR_INVALID_ARGUMENT,
        "{call} with a length of {len:#x}"
    );
}

#[test]
fn decoder_and_archive_reader_refuse_huge_lengths() {
    for len in HUGE {
        let mut d = super::new_decoder();
        let cb = super::all_callbacks();
        let mut r = super::Recorder::answering(None);
        super::init(&mut d, &cb, &mut r);
        let mut used = 0usize;
        // SAFETY: an initialised decoder; the dangling pointer is never read (refused first).
        unsafe {
            refused(
                gts_decoder_feed(&mut *d, dangling(), len, &mut used),
                "gts_decoder_feed",
                len,
            );
            refused(
                gts_decode_buffer(&mut *d, dangling(), len),
                "gts_decode_buffer",
                len,
            );
        }

        let mut archive = gts_archive {
            opaque: [0; GTS_ARCHIVE_WORDS],
        };
        // SAFETY: no callbacks (every field an Option, None when zero).
        let callbacks: gts_archive_callbacks = unsafe { core::mem::zeroed() };
        // SAFETY: valid storage and callbacks; the dangling pointer is never read.
        unsafe {
            let st = gts_archive_init(
                &mut archive,
                core::mem::size_of::<gts_archive>(),
                4096,
                &callbacks,
                &cb,
                null_mut(),
            );
            assert_eq!(st, gts_status::GTS_OK);
            refused(
                gts_archive_feed(&mut archive, dangling(), len, &mut used),
                "gts_archive_feed",
                len,
            );
        }
    }
}

#[test]
fn streaming_checker_refuses_huge_lengths() {
    let mut checker = Box::new(gts_checker {
        opaque: [0; GTS_CHECKER_WORDS],
    });
    let size = core::mem::size_of::<gts_checker>();
    for len in HUGE {
        // A file, a version 2 archive and a version 1 archive: each reader behind the feed.
        for kind in 0..3 {
            let c: *mut gts_checker = &mut *checker;
            let name = c"x.ifp".as_ptr();
            // SAFETY: valid storage, a NUL-terminated name, no callback.
            let status = unsafe {
                match kind {
                    0 => gts_checker_init(c, size, name, 0, None, null_mut()),
                    1 => gts_checker_init_archive(c, size, 4096, name, 0, None, null_mut()),
                    _ => gts_checker_init_archive_v1(c, size, 64, 4096, name, 0, None, null_mut()),
                }
            };
            assert_eq!(status, gts_status::GTS_OK);
            let mut used = 0usize;
            // SAFETY: an initialised checker; the dangling pointer is never read.
            unsafe {
                refused(
                    gts_checker_feed(c, dangling(), len, &mut used),
                    "gts_checker_feed",
                    len,
                );
            }
            // Refused, not failed: the checker goes on with real input.
            let ipl = b"inst\n20000, x, 0, 0, 0, 0, 0, 0, 0, 1, -1\nend\n";
            if kind == 0 {
                // SAFETY: as above, with a real buffer.
                let status = unsafe { gts_checker_feed(c, ipl.as_ptr(), ipl.len(), &mut used) };
                assert_eq!((status, used), (gts_status::GTS_OK, ipl.len()));
                let mut errors = 0;
                // SAFETY: as above.
                let status = unsafe { gts_checker_finish(c, &mut errors) };
                assert_eq!((status, errors), (gts_status::GTS_OK, 1));
            }
        }
    }
}

#[test]
fn decode_io_refuses_a_huge_capacity() {
    unsafe extern "C" fn read(_: *mut core::ffi::c_void, _: *mut u8, _: usize) -> isize {
        panic!("nothing may be read into a refused buffer")
    }
    for len in HUGE {
        let mut d = super::new_decoder();
        let cb = super::all_callbacks();
        let mut r = super::Recorder::answering(None);
        super::init(&mut d, &cb, &mut r);
        // SAFETY: an initialised decoder; the buffer is refused before it is touched.
        let st = unsafe { gts_decode_io(&mut *d, Some(read), None, null_mut(), dangling(), len) };
        refused(st, "gts_decode_io", len);
    }
}

#[test]
fn stateless_calls_refuse_huge_lengths() {
    // Never decoded: the name's length is refused first.
    let file = b"ANP3";
    for len in HUGE {
        let mut poses = [const { core::mem::MaybeUninit::<gts_bone_pose>::uninit() }; 1];
        let mut count = 0usize;
        let mut offset = 0u64;
        let mut summary = core::mem::MaybeUninit::<gts_animation_summary>::uninit();
        let mut errors = 0u32;
        // SAFETY: the dangling pointers are refused before they are read.
        unsafe {
            refused(
                gts_sample(
                    dangling(),
                    len,
                    b"walk".as_ptr(),
                    4,
                    0.0,
                    0,
                    poses.as_mut_ptr().cast(),
                    1,
                    &mut count,
                    &mut offset,
                ),
                "gts_sample (data)",
                len,
            );
            refused(
                gts_sample(
                    file.as_ptr(),
                    file.len(),
                    dangling(),
                    len,
                    0.0,
                    0,
                    poses.as_mut_ptr().cast(),
                    1,
                    &mut count,
                    &mut offset,
                ),
                "gts_sample (name)",
                len,
            );
            refused(
                gts_summarize_animation(dangling(), len, 0, summary.as_mut_ptr(), &mut offset),
                "gts_summarize_animation",
                len,
            );
            refused(
                gts_check_memory(
                    dangling(),
                    len,
                    core::ptr::null(),
                    0,
                    None,
                    null_mut(),
                    &mut errors,
                ),
                "gts_check_memory",
                len,
            );
        }
    }
}

#[test]
fn archive_writer_refuses_huge_lengths() {
    unsafe extern "C" fn ignore(_: *mut core::ffi::c_void, _: *const u8, _: usize) -> i32 {
        0
    }
    unsafe extern "C" fn ignore_patch(
        _: *mut core::ffi::c_void,
        _: u64,
        _: *const u8,
        _: usize,
    ) -> i32 {
        0
    }
    let sink = gts_sink {
        write: Some(ignore),
        patch: Some(ignore_patch),
        user: null_mut(),
    };
    for len in HUGE {
        let mut w = gts_archive_writer {
            opaque: [0; GTS_ARCHIVE_WRITER_WORDS],
        };
        // SAFETY: valid storage and sink; the dangling pointers are refused before any read.
        unsafe {
            let size = core::mem::size_of::<gts_archive_writer>();
            assert_eq!(
                gts_archive_writer_init(&mut w, size, 2, 2, &sink, core::ptr::null()),
                gts_status::GTS_OK
            );
            refused(
                gts_archive_writer_begin(&mut w, dangling(), len),
                "gts_archive_writer_begin",
                len,
            );
            // A refused call fails the writer (sticky): a new one for the next call.
            w.opaque = [0; GTS_ARCHIVE_WRITER_WORDS];
            assert_eq!(
                gts_archive_writer_init(&mut w, size, 2, 2, &sink, core::ptr::null()),
                gts_status::GTS_OK
            );
            assert_eq!(
                gts_archive_writer_begin(&mut w, b"a.ifp".as_ptr().cast(), 5),
                gts_status::GTS_OK
            );
            refused(
                gts_archive_writer_write(&mut w, dangling(), len),
                "gts_archive_writer_write",
                len,
            );
        }
    }
}

#[test]
fn encoder_refuses_huge_lengths() {
    let buf = new_buf();
    // A refused call fails the encoder (sticky): each call gets a new one.
    let check =
        |format: gts_format, call: &str, len: usize, f: &dyn Fn(*mut gts_encoder) -> gts_status| {
            let mut e = new_encoder(format, buf);
            refused(f(&mut *e), call, len);
        };
    let (anp3, text) = (gts_format::GTS_FORMAT_ANP3, gts_format::GTS_FORMAT_IPL_TEXT);
    // Keyframes whose bytes, not count, exceed isize::MAX.
    let too_many_frames = isize::MAX as usize / core::mem::size_of::<gts_keyframe>() + 1;
    for len in HUGE {
        // SAFETY (every block below): zeroed C structs are valid (every enum has a 0, every
        // pointer may be NULL); the dangling pointers are refused before they are read.
        let file = |name: bool| {
            let mut file: gts_file_info = unsafe { core::mem::zeroed() };
            file.format = anp3;
            if name {
                (file.name, file.name_len, file.has_name) = (dangling(), len, true);
            } else {
                (file.raw, file.raw_len) = (dangling(), len);
            }
            file
        };
        check(anp3, "gts_encoder_file (name)", len, &|e| unsafe {
            gts_encoder_file(e, &file(true))
        });
        check(anp3, "gts_encoder_file (raw)", len, &|e| unsafe {
            gts_encoder_file(e, &file(false))
        });
        let animation = |name: bool| {
            let mut a: gts_animation_info = unsafe { core::mem::zeroed() };
            if name {
                (a.name, a.name_len) = (dangling(), len);
            } else {
                (a.raw, a.raw_len) = (dangling(), len);
            }
            a
        };
        check(anp3, "gts_encoder_animation (name)", len, &|e| unsafe {
            gts_encoder_animation(e, &animation(true))
        });
        check(anp3, "gts_encoder_animation (raw)", len, &|e| unsafe {
            gts_encoder_animation(e, &animation(false))
        });
        let bone = |name: bool| {
            let mut b: gts_bone_info = unsafe { core::mem::zeroed() };
            b.frame_type = gts_frame_type::GTS_FRAME_IFP2_ROT;
            if name {
                (b.name, b.name_len, b.has_name) = (dangling(), len, true);
            } else {
                (b.raw, b.raw_len) = (dangling(), len);
            }
            b
        };
        check(anp3, "gts_encoder_bone (name)", len, &|e| unsafe {
            gts_encoder_bone(e, &bone(true))
        });
        check(anp3, "gts_encoder_bone (raw)", len, &|e| unsafe {
            gts_encoder_bone(e, &bone(false))
        });
        check(anp3, "gts_encoder_keyframes", len, &|e| unsafe {
            gts_encoder_keyframes(e, dangling(), len)
        });
        check(
            anp3,
            "gts_encoder_keyframes (bytes)",
            too_many_frames,
            &|e| unsafe { gts_encoder_keyframes(e, dangling(), too_many_frames) },
        );
        check(anp3, "gts_encoder_trailing", len, &|e| unsafe {
            gts_encoder_trailing(e, dangling(), len)
        });
        let instance = |name: bool| {
            let mut i: gts_ipl_instance = unsafe { core::mem::zeroed() };
            if name {
                (i.model_name, i.model_name_len, i.has_model_name) = (dangling(), len, true);
            } else {
                (i.raw, i.raw_len) = (dangling(), len);
            }
            i
        };
        check(
            text,
            "gts_encoder_instance (model name)",
            len,
            &|e| unsafe { gts_encoder_instance(e, &instance(true)) },
        );
        check(text, "gts_encoder_instance (raw)", len, &|e| unsafe {
            gts_encoder_instance(e, &instance(false))
        });
        check(text, "gts_encoder_car (raw)", len, &|e| unsafe {
            let mut car: gts_ipl_car = core::mem::zeroed();
            (car.raw, car.raw_len) = (dangling(), len);
            gts_encoder_car(e, &car)
        });
        for field in 0..3 {
            check(text, "gts_encoder_section_line", len, &|e| unsafe {
                let mut line: gts_section_line = core::mem::zeroed();
                match field {
                    0 => (line.section, line.section_len) = (dangling(), len),
                    1 => (line.text, line.text_len) = (dangling(), len),
                    _ => (line.raw, line.raw_len) = (dangling(), len),
                }
                gts_encoder_section_line(e, &line)
            });
        }
        check(text, "gts_encoder_text_line", len, &|e| unsafe {
            gts_encoder_text_line(e, dangling(), len)
        });
    }
    // SAFETY: made by `new_buf`; the encoders that wrote to it are gone.
    drop(unsafe { Box::from_raw(buf) });
}

#[test]
fn skeleton_calls_refuse_huge_lengths() {
    let mut skeleton = Box::new(gts_skeleton {
        opaque: [0; GTS_SKELETON_WORDS],
    });
    let dff = testkit::dff::sa_skin().bytes();
    let size = core::mem::size_of::<gts_skeleton>();
    // SAFETY: valid storage and bytes.
    let read =
        unsafe { gts_skeleton_read(&mut *skeleton, size, dff.as_ptr(), dff.len(), null_mut()) };
    assert_eq!(read, gts_status::GTS_OK);
    let mut bindings = [gts_track_binding::default(); 4];
    let mut matrices = [0.0f32; 64];
    let (mut count, mut offset, mut errors) = (0usize, 0u64, 0u32);
    for len in HUGE {
        // SAFETY: a read skeleton; the dangling pointers are never read (refused first).
        unsafe {
            refused(
                gts_skeleton_read(&mut *skeleton, size, dangling(), len, &mut offset),
                "gts_skeleton_read",
                len,
            );
            refused(
                gts_skeleton_bind(
                    &*skeleton,
                    dangling(),
                    len,
                    0,
                    0,
                    bindings.as_mut_ptr(),
                    4,
                    &mut count,
                    &mut offset,
                ),
                "gts_skeleton_bind",
                len,
            );
            refused(
                gts_pose_model(
                    &*skeleton,
                    dangling(),
                    len,
                    0,
                    0,
                    0.0,
                    0,
                    matrices.as_mut_ptr(),
                    4,
                    &mut count,
                    &mut offset,
                ),
                "gts_pose_model",
                len,
            );
            refused(
                gts_pose_model(
                    &*skeleton,
                    dff.as_ptr(),
                    dff.len(),
                    0,
                    0,
                    0.0,
                    0,
                    dangling(),
                    len,
                    &mut count,
                    &mut offset,
                ),
                "gts_pose_model (capacity)",
                len,
            );
            refused(
                gts_skeleton_check(
                    &mut *skeleton,
                    dangling(),
                    len,
                    core::ptr::null(),
                    0,
                    None,
                    null_mut(),
                    &mut errors,
                ),
                "gts_skeleton_check",
                len,
            );
            refused(
                gts_bind_animation(
                    core::ptr::null(),
                    0,
                    core::ptr::null(),
                    0,
                    0,
                    dangling(),
                    len,
                    0,
                    4,
                    bindings.as_mut_ptr(),
                    4,
                    &mut count,
                    &mut offset,
                ),
                "gts_bind_animation",
                len,
            );
            let frame = gts_skeleton_frame {
                parent: -1,
                rotation: [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0],
                position: [0.0; 3],
                node_id: 0,
                has_node_id: 0,
                name: dangling(),
                name_len: len,
            };
            let file = testkit::ifp2::anp3_multi().build();
            refused(
                gts_bind_animation(
                    &frame,
                    1,
                    core::ptr::null(),
                    0,
                    0,
                    file.as_ptr(),
                    file.len(),
                    0,
                    4,
                    bindings.as_mut_ptr(),
                    4,
                    &mut count,
                    &mut offset,
                ),
                "gts_bind_animation (frame name)",
                len,
            );
        }
    }
}
