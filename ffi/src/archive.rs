//! IMG archives through the C ABI: `gts_archive`, caller-owned storage of an archive decoder
//! (the core's `ArchiveDecoder`), with entry callbacks that choose to skip or decode each
//! entry, and the decoder callbacks (`gts_callbacks`) for the events of the entries decoded.
//!
//! The storage is kept by the one handle machinery (`handle.rs`): a tag word marks it
//! initialised, a busy byte refuses calls from inside its own callbacks, panics are caught at
//! the boundary, and no `&mut` to the whole storage is ever made.

use core::ffi::{c_char, c_void, CStr};

use gtastream_core::archive::{
    ArchiveDecoder, ArchiveInfo, ArchiveVersion, ArchiveVisitor, ArchiveWarning,
    ArchiveWarningKind, Choice, Entry, Input,
};
use gtastream_core::{Error, Flow, Options, Progress};

use crate::bridge::{error_status, format, format_name, Bridge, Place};
use crate::handle::{self, status, Handle, Object, Streaming};
use crate::storage::NO_CALLBACKS;
use crate::types::{gts_callbacks, gts_format, gts_status, GTS_CONTINUE, GTS_NO_OFFSET, GTS_PAUSE};

/// Number of 64-bit words of a `gts_archive`: the core's archive decoder (at most 768 bytes, a
/// bound it checks at compile time), both sets of callbacks, the user pointer and a tag word.
pub const GTS_ARCHIVE_WORDS: usize = 160;

/// `on_entry` answer: go on with the next entry without decoding this one.
pub const GTS_ENTRY_SKIP: i32 = 0;
/// `on_entry` answer: decode the entry (its events through the `gts_callbacks`, then
/// `on_entry_end`). Any other value than `GTS_ENTRY_SKIP` and `GTS_ENTRY_DECODE` aborts.
pub const GTS_ENTRY_DECODE: i32 = 1;

/// `gts_archive_input`: the `.dir` file of a version 1 archive.
pub const GTS_INPUT_DIR: i32 = 0;
/// `gts_archive_input`: the `.img` file (the only one of a version 2 archive).
pub const GTS_INPUT_IMG: i32 = 1;

/// Caller-owned storage of one archive decoder: put it on the stack, in static memory or
/// inside another struct, and pass `sizeof` it to `gts_archive_init`. Its contents are
/// private; it needs no cleanup.
#[repr(C)]
pub struct gts_archive {
    /// Private storage; never read or written by the caller.
    pub opaque: [u64; GTS_ARCHIVE_WORDS],
}

/// A directory entry, before its data is decoded.
#[repr(C)]
pub struct gts_archive_entry {
    /// 0-based position in the directory.
    pub index: u32,
    /// The name: `name_len` bytes up to the first NUL of the 24-byte field, not NUL-terminated.
    pub name: *const c_char,
    /// Bytes of `name` (at most 24).
    pub name_len: usize,
    /// Absolute offset of the entry's first byte in the `.img`.
    pub offset: u64,
    /// Bytes of the entry the `.img` holds (its sectors, cut at the end of the file): what the
    /// entry's decoder reads, and what an extracted copy holds.
    pub size: u64,
    /// Bytes the directory declares (sectors × 2048).
    pub declared_size: u64,
    /// The format found in the entry's first bytes (`GTS_FORMAT_UNKNOWN` if none).
    pub format: gts_format,
    /// Whether gtastream decodes the entry's content (false: a model, a texture, ...).
    pub has_format: bool,
    /// The format's short name ("ANP3", "bnry", ...), a static string; NULL if `!has_format`.
    pub format_name: *const c_char,
}

/// Oddities of an archive's directory: the archive is still read.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum gts_archive_warning_kind {
    /// Not one this version of the library names.
    GTS_ARCHIVE_WARNING_UNKNOWN = 0,
    /// The directory ends inside a record; the whole records are read.
    GTS_ARCHIVE_WARNING_DIRECTORY_TRUNCATED = 1,
    /// An entry of no sectors.
    GTS_ARCHIVE_WARNING_EMPTY_ENTRY = 2,
    /// An entry runs past the end of the `.img`: it is cut there.
    GTS_ARCHIVE_WARNING_ENTRY_PAST_END = 3,
    /// A version 2 entry's data overlaps the directory.
    GTS_ARCHIVE_WARNING_ENTRY_OVERLAPS_DIRECTORY = 4,
    /// A name field without a NUL: the name is all 24 bytes.
    GTS_ARCHIVE_WARNING_UNTERMINATED_NAME = 5,
}

/// An oddity of the directory.
#[repr(C)]
pub struct gts_archive_warning {
    /// What looked odd.
    pub kind: gts_archive_warning_kind,
    /// The kind's stable name ("empty_entry", ...), a static NUL-terminated string.
    pub name: *const c_char,
    /// A short description, a static NUL-terminated string.
    pub reason: *const c_char,
    /// Offset of the directory record concerned, in the directory's file (the `.img` for
    /// version 2, the `.dir` for version 1).
    pub offset: u64,
    /// The entry concerned.
    pub index: u32,
}

/// The archive's own events. Every member may be NULL (skip the event; a NULL `on_entry`
/// skips every entry). The entries' events come through the `gts_callbacks` given beside.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct gts_archive_callbacks {
    /// The archive was recognised: `version` 1 or 2, the records of its directory.
    pub on_archive:
        Option<unsafe extern "C" fn(user: *mut c_void, version: u32, entry_count: u32) -> i32>,
    /// A directory entry: return `GTS_ENTRY_DECODE` to decode it, `GTS_ENTRY_SKIP` to go on.
    pub on_entry:
        Option<unsafe extern "C" fn(user: *mut c_void, entry: *const gts_archive_entry) -> i32>,
    /// A decoded entry ended: `result` is `GTS_OK`, or the error that stopped it, at
    /// `error_offset` from the entry's first byte (`GTS_NO_OFFSET` when `GTS_OK`; past the
    /// entry's end where the entry places the unit there, see `GTS_NO_OFFSET`). The archive
    /// goes on with the next entry. Returns `GTS_CONTINUE`, `GTS_PAUSE` or `GTS_ABORT`.
    pub on_entry_end: Option<
        unsafe extern "C" fn(user: *mut c_void, result: gts_status, error_offset: u64) -> i32,
    >,
    /// An oddity of the directory; the archive goes on.
    pub on_archive_warning:
        Option<unsafe extern "C" fn(user: *mut c_void, warning: *const gts_archive_warning) -> i32>,
}

const NO_ARCHIVE_CALLBACKS: gts_archive_callbacks = gts_archive_callbacks {
    on_archive: None,
    on_entry: None,
    on_entry_end: None,
    on_archive_warning: None,
};

/// What a `gts_archive` holds besides the handle's header.
struct ArchiveState {
    callbacks: Callbacks,
    archive: ArchiveDecoder,
}

/// The caller's callbacks of an archive, copied into its storage.
struct Callbacks {
    decoder: gts_callbacks,
    archive: gts_archive_callbacks,
    user: *mut c_void,
    /// The bridge's record of the animation and bone (not asked for by the archive API).
    place: Place,
}

impl Object for ArchiveState {
    type Storage = gts_archive;
    /// "gtsarc" and the version of this layout.
    const TAG: u64 = 0x6774_7361_7263_0003;
}

impl Callbacks {
    /// The bridge to both sets of callbacks, inside `Handle::run`.
    fn bridge(&self) -> ArchiveBridge<'_> {
        ArchiveBridge {
            inner: Bridge::new(&self.decoder, self.user, &self.place),
            callbacks: &self.archive,
            user: self.user,
        }
    }
}

impl Streaming for ArchiveState {
    fn feed(&mut self, input: &[u8]) -> Result<Progress, Error> {
        self.archive.feed(input, &mut self.callbacks.bridge())
    }

    fn finish(&mut self) -> Result<(), Error> {
        self.archive.finish(&mut self.callbacks.bridge())
    }
}

/// The entry events to the archive callbacks, the entries' own to the decoder's bridge.
struct ArchiveBridge<'a> {
    inner: Bridge<'a>,
    callbacks: &'a gts_archive_callbacks,
    user: *mut c_void,
}

fn flow(answer: i32) -> Flow {
    match answer {
        GTS_CONTINUE => Flow::Continue,
        GTS_PAUSE => Flow::Pause,
        _ => Flow::Abort,
    }
}

// The archive callbacks below are the caller's functions of the declared types (the contract
// of gts_archive_init); every pointer passed to one lives for the duration of the call.
impl ArchiveVisitor for ArchiveBridge<'_> {
    fn archive(&mut self, info: &ArchiveInfo) -> Flow {
        let Some(f) = self.callbacks.on_archive else {
            return Flow::Continue;
        };
        let version = match info.version {
            ArchiveVersion::V1 => 1,
            _ => 2,
        };
        // SAFETY: see the comment above this impl.
        flow(unsafe { f(self.user, version, info.entry_count) })
    }

    fn entry(&mut self, entry: &Entry<'_>) -> Choice {
        let Some(f) = self.callbacks.on_entry else {
            return Choice::Skip;
        };
        let c_entry = gts_archive_entry {
            index: entry.index,
            name: if entry.name.is_empty() {
                c"".as_ptr()
            } else {
                entry.name.as_ptr().cast()
            },
            name_len: entry.name.len(),
            offset: entry.offset,
            size: entry.size,
            declared_size: entry.declared_size,
            format: entry.format.map_or(gts_format::GTS_FORMAT_UNKNOWN, format),
            has_format: entry.format.is_some(),
            format_name: entry
                .format
                .map_or(core::ptr::null(), |f| format_name(f).as_ptr()),
        };
        // SAFETY: see the comment above this impl.
        match unsafe { f(self.user, &c_entry) } {
            GTS_ENTRY_SKIP => Choice::Skip,
            GTS_ENTRY_DECODE => Choice::Decode,
            _ => Choice::Abort,
        }
    }

    fn entry_end(&mut self, result: Result<(), Error>) -> Flow {
        let Some(f) = self.callbacks.on_entry_end else {
            return Flow::Continue;
        };
        let (status, offset) = match result {
            Ok(()) => (gts_status::GTS_OK, GTS_NO_OFFSET),
            Err(error) => (error_status(error.kind), error.offset),
        };
        // SAFETY: see the comment above this impl.
        flow(unsafe { f(self.user, status, offset) })
    }

    fn archive_warning(&mut self, warning: ArchiveWarning) -> Flow {
        let Some(f) = self.callbacks.on_archive_warning else {
            return Flow::Continue;
        };
        let (kind, name, reason) = warning_kind(warning.kind);
        let c_warning = gts_archive_warning {
            kind,
            name: name.as_ptr(),
            reason: reason.as_ptr(),
            offset: warning.offset,
            index: warning.index,
        };
        // SAFETY: see the comment above this impl.
        flow(unsafe { f(self.user, &c_warning) })
    }
}

// Every event of an entry goes on to the decoder's bridge.
gtastream_core::forward_visitor!(['a] ArchiveBridge<'a>, |this| Some(&mut this.inner));

/// The C kind of an archive warning, with its name and reason: the row of
/// [`ARCHIVE_WARNINGS`] with the kind's number.
fn warning_kind(
    kind: ArchiveWarningKind,
) -> (gts_archive_warning_kind, &'static CStr, &'static CStr) {
    ARCHIVE_WARNINGS
        .iter()
        .find(|row| row.0 as u32 == kind.code())
        .copied()
        .unwrap_or((
            gts_archive_warning_kind::GTS_ARCHIVE_WARNING_UNKNOWN,
            c"unknown",
            c"unknown archive warning",
        ))
}

/// The C archive warning kinds, each with the core's name and reason (the core's table gives
/// them; a C value that is no core number fails the build).
const ARCHIVE_WARNINGS: &[(gts_archive_warning_kind, &CStr, &CStr)] = {
    use gts_archive_warning_kind::*;
    const fn core(code: u32) -> ArchiveWarningKind {
        match ArchiveWarningKind::from_code(code) {
            Some(kind) => kind,
            None => panic!("a C archive warning kind that the core does not define"),
        }
    }
    macro_rules! rows {
        ($($c:ident),*) => {
            &[$(($c, c_text!(core($c as u32).name()), c_text!(core($c as u32).reason()))),*]
        };
    }
    rows![
        GTS_ARCHIVE_WARNING_DIRECTORY_TRUNCATED,
        GTS_ARCHIVE_WARNING_EMPTY_ENTRY,
        GTS_ARCHIVE_WARNING_ENTRY_PAST_END,
        GTS_ARCHIVE_WARNING_ENTRY_OVERLAPS_DIRECTORY,
        GTS_ARCHIVE_WARNING_UNTERMINATED_NAME
    ]
};

/// Sets every member of `*archive_callbacks` to NULL (skip the event). Does nothing if
/// `archive_callbacks` is NULL.
///
/// Pointers: `archive_callbacks` is NULL or points to a writable `gts_archive_callbacks`.
#[no_mangle]
pub unsafe extern "C" fn gts_archive_callbacks_init(archive_callbacks: *mut gts_archive_callbacks) {
    if !archive_callbacks.is_null() && archive_callbacks.is_aligned() {
        // SAFETY: non-NULL, aligned and writable (the caller's contract); the old contents
        // (function pointers) need no drop.
        unsafe { archive_callbacks.write(NO_ARCHIVE_CALLBACKS) };
    }
}

/// Shared by both init functions.
///
/// # Safety
/// As `gts_archive_init`.
unsafe fn init(
    a: *mut gts_archive,
    size_of_archive: usize,
    decoder: ArchiveDecoder,
    archive_callbacks: *const gts_archive_callbacks,
    callbacks: *const gts_callbacks,
    user: *mut c_void,
) -> gts_status {
    // SAFETY: `a` is NULL or points to `size_of_archive` writable bytes (the caller's
    // contract).
    unsafe {
        Handle::init(a, size_of_archive, || {
            if !archive_callbacks.is_aligned() || !callbacks.is_aligned() {
                return Err(gts_status::GTS_ERR_INVALID_ARGUMENT);
            }
            // SAFETY: NULL or aligned valid structs (the caller's contract), read before the
            // storage is written in case they overlap.
            let callbacks = Callbacks {
                decoder: callbacks.as_ref().copied().unwrap_or(NO_CALLBACKS),
                archive: archive_callbacks
                    .as_ref()
                    .copied()
                    .unwrap_or(NO_ARCHIVE_CALLBACKS),
                user,
                place: Place::new(),
            };
            Ok(ArchiveState {
                callbacks,
                archive: decoder,
            })
        })
    }
}

/// Sets up a decoder for a version 2 (San Andreas, `VER2`) archive of `img_len` bytes in
/// `*archive`. `size_of_archive` must be `sizeof *archive`. `archive_callbacks` (the entry
/// events) and `callbacks` (the events of the entries decoded) are copied; either may be NULL.
/// `user` is passed to every callback. The caller feeds the `.img` from
/// `gts_archive_position` and follows `GTS_SEEK` to reach the entries.
///
/// Returns `GTS_OK`, `GTS_ERR_INVALID_ARGUMENT`, `GTS_ERR_SIZE_MISMATCH` or
/// `GTS_ERR_REENTRANT`.
///
/// Pointers: `archive` is NULL or points to `size_of_archive` writable bytes; each callbacks
/// pointer is NULL or points to a struct whose non-NULL members are functions of the declared
/// types.
#[no_mangle]
pub unsafe extern "C" fn gts_archive_init(
    archive: *mut gts_archive,
    size_of_archive: usize,
    img_len: u64,
    archive_callbacks: *const gts_archive_callbacks,
    callbacks: *const gts_callbacks,
    user: *mut c_void,
) -> gts_status {
    let decoder = ArchiveDecoder::new(img_len);
    // SAFETY: the caller's contract.
    unsafe {
        init(
            archive,
            size_of_archive,
            decoder,
            archive_callbacks,
            callbacks,
            user,
        )
    }
}

/// As `gts_archive_init`, for a version 1 (GTA III, Vice City) archive: a `.dir` of `dir_len`
/// bytes beside an `.img` of `img_len` bytes. The decoder reads both: `gts_archive_input`
/// says which file `gts_archive_position` refers to (it starts with the `.dir`, and every
/// change of file comes with `GTS_SEEK`).
///
/// Pointers: as `gts_archive_init`.
#[no_mangle]
pub unsafe extern "C" fn gts_archive_init_v1(
    archive: *mut gts_archive,
    size_of_archive: usize,
    dir_len: u64,
    img_len: u64,
    archive_callbacks: *const gts_archive_callbacks,
    callbacks: *const gts_callbacks,
    user: *mut c_void,
) -> gts_status {
    let decoder = ArchiveDecoder::version1(dir_len, img_len);
    // SAFETY: the caller's contract.
    unsafe {
        init(
            archive,
            size_of_archive,
            decoder,
            archive_callbacks,
            callbacks,
            user,
        )
    }
}

/// Tells the archive decoder the caller cannot seek (before the first feed). Archives need
/// seeks, so decoding then stops at the first with `GTS_ERR_SEEK_REQUIRED`.
///
/// Pointers: `archive` is NULL or points to a writable `gts_archive`.
#[no_mangle]
pub unsafe extern "C" fn gts_archive_set_seekable(
    archive: *mut gts_archive,
    seekable: bool,
) -> gts_status {
    // SAFETY: the caller's contract.
    let handle = unsafe { Handle::<ArchiveState>::new(archive) };
    status(handle.and_then(|h| {
        h.configure(|a| {
            a.archive = a.archive.clone().with_options(Options {
                can_seek: seekable,
                ..Options::DEFAULT
            })
        })
    }))
}

/// Decodes `len` bytes at `data`: the next bytes of the file `gts_archive_input` names, from
/// `gts_archive_position`. Returns as `gts_decoder_feed`: `GTS_OK` (feed more), `GTS_PAUSED`
/// (feed from `data + *consumed`), `GTS_SEEK` (feed from `gts_archive_position` of
/// `gts_archive_input`), `GTS_DONE` (every entry was read: call `gts_archive_finish`), or an
/// error of the archive itself (sticky). An entry's error is not an error here: it goes to
/// `on_entry_end`, and the archive goes on.
///
/// Pointers: `archive` is NULL or points to a writable `gts_archive`; `data` is NULL or points to
/// `len` readable bytes; `consumed` is NULL or points to a writable `size_t`.
#[no_mangle]
pub unsafe extern "C" fn gts_archive_feed(
    archive: *mut gts_archive,
    data: *const u8,
    len: usize,
    consumed: *mut usize,
) -> gts_status {
    // SAFETY: the caller's contract.
    unsafe { handle::feed::<ArchiveState>(archive, data, len, consumed) }
}

/// Ends the input: `GTS_OK` once every directory record was read, `GTS_ERR_TRUNCATED` if the
/// files were shorter than the lengths given.
///
/// Pointers: `archive` is NULL or points to a writable `gts_archive`.
#[no_mangle]
pub unsafe extern "C" fn gts_archive_finish(archive: *mut gts_archive) -> gts_status {
    // SAFETY: the caller's contract.
    unsafe { handle::finish::<ArchiveState>(archive) }
}

/// Reads the archive decoder of an initialised, idle `gts_archive`.
///
/// # Safety
/// `a` is NULL or points to a readable `gts_archive`.
unsafe fn read<R>(a: *const gts_archive, f: impl FnOnce(&ArchiveDecoder) -> R) -> Option<R> {
    // SAFETY: the caller's contract.
    let handle = unsafe { Handle::<ArchiveState>::new(a) };
    handle.ok().map(|h| h.read(|state| f(&state.archive)))
}

/// The offset, in the file `gts_archive_input` names, of the next byte wanted
/// (`GTS_NO_OFFSET` if `archive` is not usable).
///
/// Pointers: `archive` is NULL or points to a readable `gts_archive`.
#[no_mangle]
pub unsafe extern "C" fn gts_archive_position(archive: *const gts_archive) -> u64 {
    // SAFETY: the caller's contract.
    unsafe { read(archive, |a| a.position()) }.unwrap_or(GTS_NO_OFFSET)
}

/// The file the next bytes come from: `GTS_INPUT_IMG`, or `GTS_INPUT_DIR` (version 1); -1 if
/// `archive` is not usable.
///
/// Pointers: `archive` is NULL or points to a readable `gts_archive`.
#[no_mangle]
pub unsafe extern "C" fn gts_archive_input(archive: *const gts_archive) -> i32 {
    // SAFETY: the caller's contract.
    unsafe {
        read(archive, |a| match a.input() {
            Input::Directory => GTS_INPUT_DIR,
            _ => GTS_INPUT_IMG,
        })
    }
    .unwrap_or(-1)
}

/// The offset at which the archive failed (`GTS_NO_OFFSET` if it did not); it may lie past the
/// end of the input (see `GTS_NO_OFFSET`).
///
/// Pointers: `archive` is NULL or points to a readable `gts_archive`.
#[no_mangle]
pub unsafe extern "C" fn gts_archive_error_offset(archive: *const gts_archive) -> u64 {
    // SAFETY: the caller's contract.
    unsafe { read(archive, |a| a.error().map(|e| e.offset)) }
        .flatten()
        .unwrap_or(GTS_NO_OFFSET)
}

#[cfg(test)]
mod tests {
    //! The archive entry points called as a C host would: pointer and state checks,
    //! re-entry refused, both versions in every chunking, results equal to the core's.
    #![allow(clippy::undocumented_unsafe_blocks)]

    use super::*;
    use std::fmt::Write as _;

    /// What the callbacks saw, as text.
    #[derive(Default)]
    struct Seen {
        log: String,
        archive: *mut gts_archive,
        reentered: Option<gts_status>,
        /// Bytes after the current entry's content (`on_trailing`).
        trailing: usize,
    }

    unsafe extern "C" fn on_archive(user: *mut c_void, version: u32, count: u32) -> i32 {
        let seen = unsafe { &mut *user.cast::<Seen>() };
        let _ = writeln!(seen.log, "archive {version} {count}");
        // A call back into the archive from its own callback is refused.
        seen.reentered = Some(unsafe { gts_archive_feed(seen.archive, null(), 0, null_mut()) });
        GTS_CONTINUE
    }

    unsafe extern "C" fn on_entry(user: *mut c_void, entry: *const gts_archive_entry) -> i32 {
        let seen = unsafe { &mut *user.cast::<Seen>() };
        let entry = unsafe { &*entry };
        let name = unsafe { core::slice::from_raw_parts(entry.name.cast::<u8>(), entry.name_len) };
        let _ = writeln!(
            seen.log,
            "entry {} {} {} {} {}",
            entry.index,
            String::from_utf8_lossy(name),
            entry.offset,
            entry.size,
            entry.has_format
        );
        if entry.has_format {
            GTS_ENTRY_DECODE
        } else {
            GTS_ENTRY_SKIP
        }
    }

    unsafe extern "C" fn on_entry_end(user: *mut c_void, result: gts_status, offset: u64) -> i32 {
        let seen = unsafe { &mut *user.cast::<Seen>() };
        let _ = writeln!(
            seen.log,
            "end {result:?} {offset} trailing {}",
            seen.trailing
        );
        seen.trailing = 0;
        GTS_CONTINUE
    }

    unsafe extern "C" fn on_trailing(user: *mut c_void, _: *const u8, len: usize) -> i32 {
        let seen = unsafe { &mut *user.cast::<Seen>() };
        seen.trailing += len;
        GTS_CONTINUE
    }

    unsafe extern "C" fn on_animation(
        user: *mut c_void,
        info: *const crate::types::gts_animation_info,
    ) -> i32 {
        let seen = unsafe { &mut *user.cast::<Seen>() };
        let _ = writeln!(seen.log, "animation {}", unsafe { (*info).index });
        GTS_CONTINUE
    }

    use core::ptr::{null, null_mut};

    /// A version 2 archive of an ANP3 package, junk and a broken package, and its pieces.
    /// (The package's length is 36 + 36: its sector's other bytes are its trailing zeros.)
    fn archive() -> (Vec<u8>, Vec<u8>, Vec<u8>) {
        let package = gtastream_core::Package {
            format: gtastream_core::Format::Anp3,
            name: Some("demo".into()),
            animations: vec![gtastream_core::Animation {
                name: "walk".into(),
                frame_data_size: None,
                flags: None,
                duration: None,
                bones: vec![],
                raw: Vec::new(),
            }],
            warnings: vec![],
            raw: Vec::new(),
            trailing: Vec::new(),
        };
        let good = gtastream_core::encode::ifp2(&package).unwrap();
        // An animation count no file can hold.
        let mut broken = good.clone();
        broken[32..36].copy_from_slice(&[0xFF, 0xFF, 0xFF, 0x7F]);
        let files: [&[u8]; 3] = [&good, &[0xEE; 100], &broken];
        let mut data = vec![0u8; 2048];
        let mut dir = Vec::new();
        for (i, file) in files.iter().enumerate() {
            let at = data.len() / 2048;
            data.extend_from_slice(file);
            data.resize((at + 1) * 2048, 0);
            dir.extend_from_slice(&(at as u32).to_le_bytes());
            dir.extend_from_slice(&1u32.to_le_bytes());
            let mut name = [0u8; 24];
            name[0] = b'a' + i as u8;
            dir.extend_from_slice(&name);
        }
        let mut v2 = data.clone();
        v2[..4].copy_from_slice(b"VER2");
        v2[4..8].copy_from_slice(&3u32.to_le_bytes());
        for i in 0..3 {
            let r = &dir[32 * i..32 * i + 32];
            v2[8 + 32 * i..12 + 32 * i].copy_from_slice(&r[..4]);
            v2[12 + 32 * i..14 + 32 * i].copy_from_slice(&r[4..6]);
            v2[16 + 32 * i..40 + 32 * i].copy_from_slice(&r[8..]);
        }
        (v2, dir, data)
    }

    /// Feeds the archive in `chunk`-byte pieces from the file and offset it asks for.
    fn drive(a: *mut gts_archive, dir: &[u8], img: &[u8], chunk: usize) -> gts_status {
        loop {
            let file = if unsafe { gts_archive_input(a) } == GTS_INPUT_DIR {
                dir
            } else {
                img
            };
            let at = unsafe { gts_archive_position(a) } as usize;
            let rest = file.get(at..).unwrap_or_default();
            let piece = &rest[..rest.len().min(chunk)];
            if piece.is_empty() {
                return unsafe { gts_archive_finish(a) };
            }
            let mut used = 0;
            let status = unsafe { gts_archive_feed(a, piece.as_ptr(), piece.len(), &mut used) };
            match status {
                gts_status::GTS_OK | gts_status::GTS_SEEK => {}
                gts_status::GTS_DONE => return unsafe { gts_archive_finish(a) },
                other => return other,
            }
        }
    }

    #[test]
    fn both_versions_in_every_chunking() {
        let (v2, dir, data) = archive();
        let archive_callbacks = gts_archive_callbacks {
            on_archive: Some(on_archive),
            on_entry: Some(on_entry),
            on_entry_end: Some(on_entry_end),
            on_archive_warning: None,
        };
        let mut callbacks = NO_CALLBACKS;
        callbacks.on_animation = Some(on_animation);
        callbacks.on_trailing = Some(on_trailing);
        let mut expected = None;
        // Miri interprets every step: fewer cuts there.
        let chunks: &[usize] = if cfg!(miri) {
            &[2048]
        } else {
            &[1, 7, 32, 2048, 1 << 20]
        };
        for &chunk in chunks {
            for v1 in [false, true] {
                let mut a = Box::new(gts_archive {
                    opaque: [0; GTS_ARCHIVE_WORDS],
                });
                // One pointer for every call, the callback's re-entrant one included.
                let p: *mut gts_archive = &mut *a;
                let mut seen = Seen {
                    archive: p,
                    ..Seen::default()
                };
                let user = (&mut seen as *mut Seen).cast();
                let status = unsafe {
                    if v1 {
                        gts_archive_init_v1(
                            p,
                            size_of::<gts_archive>(),
                            dir.len() as u64,
                            data.len() as u64,
                            &archive_callbacks,
                            &callbacks,
                            user,
                        )
                    } else {
                        gts_archive_init(
                            p,
                            size_of::<gts_archive>(),
                            v2.len() as u64,
                            &archive_callbacks,
                            &callbacks,
                            user,
                        )
                    }
                };
                assert_eq!(status, gts_status::GTS_OK);
                let img = if v1 { &data } else { &v2 };
                assert_eq!(drive(p, &dir, img, chunk), gts_status::GTS_OK);
                assert_eq!(seen.reentered, Some(gts_status::GTS_ERR_REENTRANT));
                // The version line differs; the rest is the same for both.
                let body = seen.log.split_once('\n').unwrap().1.to_string();
                assert!(seen
                    .log
                    .starts_with(if v1 { "archive 1 3" } else { "archive 2 3" }));
                match &expected {
                    None => expected = Some(body),
                    Some(e) => assert_eq!(&body, e, "chunk {chunk} v1 {v1}"),
                }
            }
        }
        // The broken package fails as the core fails the extracted entry.
        struct Quiet;
        impl gtastream_core::Visitor for Quiet {}
        let error = gtastream_core::Decoder::new()
            .decode_slice(&data[6144..8192], &mut Quiet)
            .unwrap_err();
        let log = expected.unwrap();
        assert_eq!(
            log,
            format!(
                "entry 0 a 2048 2048 true\nanimation 0\n\
                 end GTS_OK 18446744073709551615 trailing {}\n\
                 entry 1 b 4096 2048 false\n\
                 entry 2 c 6144 2048 true\nend {:?} {} trailing 0\n",
                2048 - 72,
                error_status(error.kind),
                error.offset
            )
        );
    }

    #[test]
    fn checks_pointers_and_state() {
        let mut a = Box::new(gts_archive {
            opaque: [0; GTS_ARCHIVE_WORDS],
        });
        let p: *mut gts_archive = &mut *a;
        unsafe {
            assert_eq!(
                gts_archive_init(
                    null_mut(),
                    size_of::<gts_archive>(),
                    0,
                    null(),
                    null(),
                    null_mut()
                ),
                gts_status::GTS_ERR_INVALID_ARGUMENT
            );
            assert_eq!(
                gts_archive_init(p, 8, 0, null(), null(), null_mut()),
                gts_status::GTS_ERR_SIZE_MISMATCH
            );
            // Zeroed storage was never initialised.
            assert_eq!(
                gts_archive_feed(p, null(), 0, null_mut()),
                gts_status::GTS_ERR_NOT_INITIALIZED
            );
            assert_eq!(gts_archive_position(p), GTS_NO_OFFSET);
            assert_eq!(gts_archive_input(p), -1);
            assert_eq!(
                gts_archive_init(p, size_of::<gts_archive>(), 4, null(), null(), null_mut()),
                gts_status::GTS_OK
            );
            assert_eq!(gts_archive_input(p), GTS_INPUT_IMG);
            assert_eq!(
                gts_archive_feed(p, null(), 5, null_mut()),
                gts_status::GTS_ERR_INVALID_ARGUMENT
            );
            // Not an archive: a sticky error with its offset.
            let mut used = 0;
            assert_eq!(
                gts_archive_feed(p, b"ANP3".as_ptr(), 4, &mut used),
                gts_status::GTS_OK
            );
            assert_eq!(gts_archive_finish(p), gts_status::GTS_ERR_TRUNCATED);
            assert_eq!(gts_archive_error_offset(p), 4);
            // Cannot seek: the first seek is an error.
            let (v2, _, _) = archive();
            assert_eq!(
                gts_archive_init(
                    p,
                    size_of::<gts_archive>(),
                    v2.len() as u64,
                    null(),
                    null(),
                    null_mut()
                ),
                gts_status::GTS_OK
            );
            assert_eq!(gts_archive_set_seekable(p, false), gts_status::GTS_OK);
            let entry_callbacks = gts_archive_callbacks {
                on_entry: Some(on_entry_decode_all),
                ..NO_ARCHIVE_CALLBACKS
            };
            assert_eq!(
                gts_archive_init(
                    p,
                    size_of::<gts_archive>(),
                    v2.len() as u64,
                    &entry_callbacks,
                    null(),
                    null_mut()
                ),
                gts_status::GTS_OK
            );
            assert_eq!(gts_archive_set_seekable(p, false), gts_status::GTS_OK);
            assert_eq!(
                gts_archive_feed(p, v2.as_ptr(), v2.len(), &mut used),
                gts_status::GTS_ERR_SEEK_REQUIRED
            );
            assert_eq!(
                gts_archive_set_seekable(p, true),
                gts_status::GTS_ERR_INVALID_STATE
            );
        }
    }

    unsafe extern "C" fn on_entry_decode_all(_: *mut c_void, _: *const gts_archive_entry) -> i32 {
        GTS_ENTRY_DECODE
    }
}
