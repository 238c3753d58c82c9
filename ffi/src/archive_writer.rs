//! The C ABI of the IMG archive writer: `gts_archive_writer` lives in storage the caller owns
//! and writes an archive's entries, given in order with their bytes in pieces, through the
//! caller's `gts_sink` callbacks (one for the `.img`, and for version 1 one for the `.dir`):
//! docs/FORMATS.md §5.4. Every rule is the core's `ArchiveWriter`.

use core::mem::size_of;

use gtastream_core::archive::{ArchiveSink, ArchiveVersion, ArchiveWriteError, ArchiveWriter};
use gtastream_core::encode::Sink;

use crate::bridge::STATUSES;
use crate::encoder::{gts_sink, CSink};
use crate::handle::{status, Handle, Object, Sticky};
use crate::types::gts_status;

/// Words of `gts_archive_writer`.
pub const GTS_ARCHIVE_WRITER_WORDS: usize = 24;

/// Caller-owned storage of one archive writer, like `gts_encoder`: anywhere, `sizeof` it passed
/// to `gts_archive_writer_init`, no cleanup.
#[repr(C)]
pub struct gts_archive_writer {
    /// Private storage; never read or written by the caller.
    pub opaque: [u64; GTS_ARCHIVE_WRITER_WORDS],
}

/// The sinks of a writer: the `.img`, and the `.dir` of a version 1 archive.
struct Sinks {
    img: CSink,
    dir: Option<CSink>,
}

impl ArchiveSink for Sinks {
    fn img(&mut self) -> &mut dyn Sink {
        &mut self.img
    }
    fn dir(&mut self) -> Option<&mut dyn Sink> {
        self.dir.as_mut().map(|dir| dir as &mut dyn Sink)
    }
}

/// What a `gts_archive_writer` holds besides the handle's header.
struct WriterState {
    writer: ArchiveWriter,
    sinks: Sinks,
    /// The first error, the core's or one of the C arguments': every later call returns it.
    error: Sticky,
}

impl Object for WriterState {
    type Storage = gts_archive_writer;
    /// "gtsimw" and the layout's version.
    const TAG: u64 = 0x6774_7369_6d77_0001;
}

/// The status of an archive writing error: the one whose number is the kind's (400..).
fn write_status(error: ArchiveWriteError) -> gts_status {
    STATUSES
        .iter()
        .find(|row| row.0 as u32 == error.kind.code())
        .map_or(gts_status::GTS_ERR_OTHER, |row| row.0)
}

/// One call on the writer in `w`'s storage (checked by the handle), busy meanwhile, panics
/// caught; its error sticks.
///
/// # Safety
/// `w` is NULL or points to a `gts_archive_writer` (set up by `gts_archive_writer_init`, by
/// the caller's contract, when its tag says so).
unsafe fn call(
    w: *mut gts_archive_writer,
    f: impl FnOnce(&mut ArchiveWriter, &mut Sinks) -> Result<(), gts_status>,
) -> gts_status {
    // SAFETY: the caller's contract.
    let handle = unsafe { Handle::<WriterState>::new(w) };
    status(handle.and_then(|h| {
        h.call(|state| {
            let WriterState {
                writer,
                sinks,
                error,
            } = state;
            error.run(|| f(writer, sinks))
        })
    }))
}

/// A sink argument: NULL refused, and both callbacks required where patches are needed.
///
/// # Safety
/// `sink` is NULL or points to a valid `gts_sink`.
unsafe fn sink_arg(sink: *const gts_sink, patches: bool) -> Result<CSink, gts_status> {
    if sink.is_null() || !sink.is_aligned() {
        return Err(gts_status::GTS_ERR_INVALID_ARGUMENT);
    }
    // SAFETY: non-NULL, aligned, a valid `gts_sink` (the caller's contract).
    let sink = unsafe { sink.read() };
    if sink.write.is_none() || (patches && sink.patch.is_none()) {
        return Err(gts_status::GTS_ERR_INVALID_ARGUMENT);
    }
    Ok(CSink(sink))
}

/// `sizeof(gts_archive_writer)` as the library knows it.
#[no_mangle]
pub extern "C" fn gts_archive_writer_size() -> usize {
    size_of::<gts_archive_writer>()
}

/// Sets up a writer in `*writer` of an archive of `version` 2 (San Andreas `VER2`: one file,
/// to `*img`, whose `write` and `patch` are required; `dir` is ignored) or 1 (GTA III / Vice
/// City: the data to `*img`, the records to `*dir`, whose `patch` may be NULL). `capacity` is
/// the most entries a version 2 directory gets room for (the count written is the entries'
/// number; version 1 ignores it). The sinks are copied. `size_of_writer` must be
/// `sizeof *writer`.
///
/// Then per entry `gts_archive_writer_begin`, `gts_archive_writer_write` (any number of calls)
/// and `gts_archive_writer_end_entry`; `gts_archive_writer_finish` last. The first error
/// sticks: every later call returns it, and the bytes written are not a valid archive.
///
/// Returns `GTS_OK`, `GTS_ERR_INVALID_ARGUMENT` (a NULL or misaligned pointer, a required sink
/// callback NULL, a version other than 1 or 2) or `GTS_ERR_SIZE_MISMATCH`.
#[no_mangle]
pub unsafe extern "C" fn gts_archive_writer_init(
    writer: *mut gts_archive_writer,
    size_of_writer: usize,
    version: u32,
    capacity: u32,
    img: *const gts_sink,
    dir: *const gts_sink,
) -> gts_status {
    // SAFETY: `writer` is NULL or points to `size_of_writer` writable bytes; the sinks are NULL
    // or valid (the caller's contract).
    unsafe {
        Handle::init(writer, size_of_writer, || {
            let (version, dir) = match version {
                2 => (ArchiveVersion::V2, None),
                1 => (ArchiveVersion::V1, Some(sink_arg(dir, false)?)),
                _ => return Err(gts_status::GTS_ERR_INVALID_ARGUMENT),
            };
            let img = sink_arg(img, version == ArchiveVersion::V2)?;
            Ok(WriterState {
                writer: ArchiveWriter::new(version, capacity),
                sinks: Sinks { img, dir },
                error: Sticky::default(),
            })
        })
    }
}

/// Begins an entry named by the `name_len` bytes at `name`: 1 to 23 bytes, a `.` at index 20
/// at the latest, no NUL, control byte or path separator (`GTS_ERR_EMPTY_NAME`,
/// `GTS_ERR_ENTRY_NAME_TOO_LONG`, `GTS_ERR_INVALID_NAME`); `GTS_ERR_TOO_MANY_ENTRIES` past a
/// version 2 writer's capacity.
#[no_mangle]
pub unsafe extern "C" fn gts_archive_writer_begin(
    writer: *mut gts_archive_writer,
    name: *const core::ffi::c_char,
    name_len: usize,
) -> gts_status {
    // SAFETY: the caller's contract: `name` points to `name_len` readable bytes.
    unsafe {
        call(writer, |w, sinks| {
            // The length is checked before a slice is made of it (a slice over isize::MAX
            // bytes is undefined behaviour, even unread).
            if (name.is_null() && name_len > 0) || name_len > isize::MAX as usize {
                return Err(gts_status::GTS_ERR_INVALID_ARGUMENT);
            }
            let name = match name_len {
                0 => &[][..],
                n => core::slice::from_raw_parts(name.cast::<u8>(), n),
            };
            w.begin_entry(sinks, name).map_err(write_status)
        })
    }
}

/// Appends the `len` bytes at `data` to the entry begun (`GTS_ERR_ENTRY_TOO_LARGE` past 65535
/// sectors of a version 2 entry, `GTS_ERR_ARCHIVE_TOO_LARGE` past 4 GiB).
#[no_mangle]
pub unsafe extern "C" fn gts_archive_writer_write(
    writer: *mut gts_archive_writer,
    data: *const u8,
    len: usize,
) -> gts_status {
    // SAFETY: the caller's contract: `data` points to `len` readable bytes.
    unsafe {
        call(writer, |w, sinks| {
            // Checked before the slice is made (a slice over isize::MAX bytes is undefined).
            if (data.is_null() && len > 0) || len > isize::MAX as usize {
                return Err(gts_status::GTS_ERR_INVALID_ARGUMENT);
            }
            let bytes = match len {
                0 => &[][..],
                n => core::slice::from_raw_parts(data, n),
            };
            w.write(sinks, bytes).map_err(write_status)
        })
    }
}

/// Ends the entry begun: pads it to its last sector and writes its record.
#[no_mangle]
pub unsafe extern "C" fn gts_archive_writer_end_entry(
    writer: *mut gts_archive_writer,
) -> gts_status {
    // SAFETY: the caller's contract.
    unsafe { call(writer, |w, sinks| w.end_entry(sinks).map_err(write_status)) }
}

/// Ends the archive (version 2: patches the count). Every entry must have ended.
#[no_mangle]
pub unsafe extern "C" fn gts_archive_writer_finish(writer: *mut gts_archive_writer) -> gts_status {
    // SAFETY: the caller's contract.
    unsafe {
        call(writer, |w, sinks| {
            w.finish(sinks).map(drop).map_err(write_status)
        })
    }
}

/// Entries ended so far (0 for a writer that cannot be used).
#[no_mangle]
pub unsafe extern "C" fn gts_archive_writer_entries(writer: *const gts_archive_writer) -> u32 {
    // SAFETY: the caller's contract.
    match unsafe { Handle::<WriterState>::new(writer) } {
        Ok(handle) => handle.read(|state| state.writer.entries()),
        Err(_) => 0,
    }
}

#[cfg(test)]
mod tests {
    use core::ffi::c_void;
    use std::ffi::CStr;

    use gtastream_core::archive::{ArchiveWriteErrorKind, SplitSink};

    use super::*;

    unsafe extern "C" fn append(user: *mut c_void, bytes: *const u8, len: usize) -> i32 {
        // SAFETY: `user` is the test's Vec; `bytes` points to `len` bytes for the call.
        unsafe {
            (*user.cast::<Vec<u8>>()).extend_from_slice(core::slice::from_raw_parts(bytes, len))
        };
        0
    }

    unsafe extern "C" fn patch(
        user: *mut c_void,
        offset: u64,
        bytes: *const u8,
        len: usize,
    ) -> i32 {
        // SAFETY: as in `append`.
        let (out, bytes) = unsafe {
            (
                &mut *user.cast::<Vec<u8>>(),
                core::slice::from_raw_parts(bytes, len),
            )
        };
        match out.get_mut(offset as usize..offset as usize + len) {
            Some(at) => {
                at.copy_from_slice(bytes);
                0
            }
            None => 1,
        }
    }

    fn sink(out: &mut Vec<u8>) -> gts_sink {
        gts_sink {
            write: Some(append),
            patch: Some(patch),
            user: (out as *mut Vec<u8>).cast(),
        }
    }

    const ENTRIES: [(&[u8], &[u8]); 3] = [
        (b"walk.ifp", &[7; 3000]),
        (b"x.ipl", b"inst\nend\n"),
        (b"e.dff", b""),
    ];

    /// The archive through the C entry points, each entry's bytes in pieces of 1000.
    fn through_c(version: u32) -> (gts_status, Vec<u8>, Vec<u8>) {
        let (mut img, mut dir) = (Vec::new(), Vec::new());
        let (img_sink, dir_sink) = (sink(&mut img), sink(&mut dir));
        let mut w = gts_archive_writer {
            opaque: [0; GTS_ARCHIVE_WRITER_WORDS],
        };
        let size = size_of::<gts_archive_writer>();
        // SAFETY: valid storage and sinks; the Vecs outlive the writer's calls.
        let st = unsafe {
            let st = gts_archive_writer_init(&mut w, size, version, 3, &img_sink, &dir_sink);
            assert_eq!(st, gts_status::GTS_OK);
            for (name, data) in ENTRIES {
                assert_eq!(
                    gts_archive_writer_begin(&mut w, name.as_ptr().cast(), name.len()),
                    gts_status::GTS_OK
                );
                for piece in data.chunks(1000) {
                    assert_eq!(
                        gts_archive_writer_write(&mut w, piece.as_ptr(), piece.len()),
                        gts_status::GTS_OK
                    );
                }
                assert_eq!(gts_archive_writer_end_entry(&mut w), gts_status::GTS_OK);
            }
            assert_eq!(gts_archive_writer_entries(&w), 3);
            gts_archive_writer_finish(&mut w)
        };
        (st, img, dir)
    }

    #[test]
    fn both_versions_write_the_cores_bytes() {
        let (st, img, _) = through_c(2);
        assert_eq!(st, gts_status::GTS_OK);
        let mut expected = Vec::new();
        let mut writer = ArchiveWriter::new(ArchiveVersion::V2, 3);
        for (name, data) in ENTRIES {
            writer.begin_entry(&mut expected, name).unwrap();
            writer.write(&mut expected, data).unwrap();
            writer.end_entry(&mut expected).unwrap();
        }
        writer.finish(&mut expected).unwrap();
        assert_eq!(img, expected);

        let (st, img, dir) = through_c(1);
        assert_eq!(st, gts_status::GTS_OK);
        let mut pair = SplitSink {
            img: Vec::new(),
            dir: Vec::new(),
        };
        let mut writer = ArchiveWriter::new(ArchiveVersion::V1, 0);
        for (name, data) in ENTRIES {
            writer.begin_entry(&mut pair, name).unwrap();
            writer.write(&mut pair, data).unwrap();
            writer.end_entry(&mut pair).unwrap();
        }
        writer.finish(&mut pair).unwrap();
        assert_eq!((img, dir), (pair.img, pair.dir));
    }

    #[test]
    fn a_refused_name_sticks_and_is_named_by_the_cores_table() {
        let mut img = Vec::new();
        let img_sink = sink(&mut img);
        let mut w = gts_archive_writer {
            opaque: [0; GTS_ARCHIVE_WRITER_WORDS],
        };
        let name = b"a_name_far_too_long_for_it.ifp";
        // SAFETY: valid storage, sink and name.
        unsafe {
            let size = size_of::<gts_archive_writer>();
            assert_eq!(
                gts_archive_writer_init(&mut w, size, 2, 1, &img_sink, core::ptr::null()),
                gts_status::GTS_OK
            );
            let st = gts_archive_writer_begin(&mut w, name.as_ptr().cast(), name.len());
            assert_eq!(st, gts_status::GTS_ERR_ENTRY_NAME_TOO_LONG);
            // Every later call returns it.
            assert_eq!(gts_archive_writer_write(&mut w, b"x".as_ptr(), 1), st);
            assert_eq!(gts_archive_writer_finish(&mut w), st);
            let reason = CStr::from_ptr(crate::gts_status_reason(st as i32));
            assert_eq!(
                reason.to_str().unwrap(),
                ArchiveWriteErrorKind::NameTooLong.reason()
            );
            // A NULL name with a length is refused, not read.
            let size = size_of::<gts_archive_writer>();
            assert_eq!(
                gts_archive_writer_init(&mut w, size, 2, 1, &img_sink, core::ptr::null()),
                gts_status::GTS_OK
            );
            assert_eq!(
                gts_archive_writer_begin(&mut w, core::ptr::null(), 4),
                gts_status::GTS_ERR_INVALID_ARGUMENT
            );
            assert_eq!(
                gts_archive_writer_end_entry(&mut w),
                gts_status::GTS_ERR_INVALID_ARGUMENT
            );
        }
        // Every archive writing kind has its status, with the kind's number.
        for kind in ArchiveWriteErrorKind::ALL {
            assert!(
                STATUSES.iter().any(|row| row.0 as u32 == kind.code()),
                "{kind:?}"
            );
        }
    }

    #[test]
    fn init_checks_its_arguments() {
        let mut img = Vec::new();
        let good = sink(&mut img);
        let no_patch = gts_sink {
            patch: None,
            ..good
        };
        let mut w = gts_archive_writer {
            opaque: [0; GTS_ARCHIVE_WRITER_WORDS],
        };
        let size = size_of::<gts_archive_writer>();
        let null = core::ptr::null();
        // SAFETY: NULL or valid pointers.
        unsafe {
            assert_eq!(
                gts_archive_writer_init(&mut w, size, 2, 1, null, null),
                gts_status::GTS_ERR_INVALID_ARGUMENT
            );
            assert_eq!(
                gts_archive_writer_init(&mut w, size, 2, 1, &no_patch, null),
                gts_status::GTS_ERR_INVALID_ARGUMENT
            );
            assert_eq!(
                gts_archive_writer_init(&mut w, size, 1, 0, &good, null),
                gts_status::GTS_ERR_INVALID_ARGUMENT
            );
            assert_eq!(
                gts_archive_writer_init(&mut w, size, 3, 1, &good, &good),
                gts_status::GTS_ERR_INVALID_ARGUMENT
            );
            assert_eq!(
                gts_archive_writer_init(&mut w, size - 8, 2, 1, &good, null),
                gts_status::GTS_ERR_SIZE_MISMATCH
            );
            // A version 1 .dir needs no patch.
            assert_eq!(
                gts_archive_writer_init(&mut w, size, 1, 0, &good, &no_patch),
                gts_status::GTS_OK
            );
            let zeroed = gts_archive_writer {
                opaque: [0; GTS_ARCHIVE_WRITER_WORDS],
            };
            assert_eq!(gts_archive_writer_entries(&zeroed), 0);
            let mut zeroed = zeroed;
            assert_eq!(
                gts_archive_writer_finish(&mut zeroed),
                gts_status::GTS_ERR_NOT_INITIALIZED
            );
        }
    }
}
