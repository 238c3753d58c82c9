//! The checker from C (issue 23): the rule table, and one call that checks a file or a
//! version 2 archive held in memory, giving each finding to a callback. No handle: the checker
//! lives on the call's stack for the call (about 21 KiB, its name tables included).

use core::ffi::{c_char, c_int, c_void, CStr};
use core::fmt::Write;
use std::panic::{catch_unwind, AssertUnwindSafe};

use gtastream_core::archive::ArchiveDecoder;
use gtastream_core::check::{Checker, Finding, Games, Level, Rule};
use gtastream_core::context::{Name, CONTEXT_NAME};
use gtastream_core::Decoder;

use crate::gts_status;

/// A rule of the checker's table (docs/CHECKS.md). The strings are static and NUL-terminated.
#[repr(C)]
pub struct gts_rule {
    /// The rule's number (1..=`gts_rule_count()`), as `gts_finding.rule` gives it.
    pub code: u32,
    /// The stable id, e.g. "ifp.time.zero_duration".
    pub id: *const c_char,
    /// The games it concerns: `GTS_CHECK_III` 1, `GTS_CHECK_VC` 2, `GTS_CHECK_SA` 4, `GTS_CHECK_MTA` 8.
    pub games: u8,
    /// `GTS_LEVEL_NOTE` 0, `GTS_LEVEL_WARNING` 1, `GTS_LEVEL_ERROR` 2.
    pub level: c_int,
    /// One line: what the game does.
    pub reason: *const c_char,
    /// The engine code the rule rests on.
    pub source: *const c_char,
}

/// Game bits of `gts_rule.games`, `gts_finding.games` and `gts_check_memory`'s `games`.
pub const GTS_CHECK_III: u8 = 1;
/// Vice City.
pub const GTS_CHECK_VC: u8 = 2;
/// San Andreas.
pub const GTS_CHECK_SA: u8 = 4;
/// MTA:SA.
pub const GTS_CHECK_MTA: u8 = 8;
/// A note: the game copes.
pub const GTS_LEVEL_NOTE: c_int = 0;
/// A warning: the game loads the file, not as meant.
pub const GTS_LEVEL_WARNING: c_int = 1;
/// An error: the game crashes or corrupts memory.
pub const GTS_LEVEL_ERROR: c_int = 2;

/// A finding, valid during the callback only (its strings live on the library's stack).
#[repr(C)]
#[derive(Clone, Copy)]
pub struct gts_finding {
    /// The rule's number (`gts_rule_info`).
    pub rule: u32,
    /// `GTS_LEVEL_*`.
    pub level: c_int,
    /// The games concerned (`GTS_CHECK_*` bits).
    pub games: u8,
    /// Absolute offset (in the `.img` for an archive entry); it may lie past the end of the
    /// input, where the file places the record concerned (see `GTS_NO_OFFSET`).
    pub offset: u64,
    /// The archive entry's name, or NULL.
    pub entry: *const c_char,
    /// The animation's index, or -1.
    pub animation: i64,
    /// The animation's name (up to 32 bytes), or NULL.
    pub animation_name: *const c_char,
    /// The bone's index, or -1.
    pub bone: i64,
    /// The bone's name (up to 32 bytes), or NULL.
    pub bone_name: *const c_char,
    /// Text formats: the line (from 1), or 0.
    pub line: u32,
    /// The message: place and reason, as the command line's JSON gives it (cut at 511 bytes).
    pub message: *const c_char,
}

/// Receives a finding; `user` is the pointer given to `gts_check_memory`.
pub(crate) type FindingFn =
    Option<unsafe extern "C" fn(user: *mut c_void, finding: *const gts_finding)>;

/// Rules in the table.
#[no_mangle]
pub extern "C" fn gts_rule_count() -> u32 {
    Rule::ALL.len() as u32
}

/// Fills `*out` with rule number `code` (1..=`gts_rule_count()`).
/// Pointers: `out` points to a writable `gts_rule`.
/// Returns `GTS_ERR_INVALID_ARGUMENT` for a NULL `out` or an unknown number.
#[no_mangle]
pub unsafe extern "C" fn gts_rule_info(code: u32, out: *mut gts_rule) -> gts_status {
    let Some(rule) = Rule::from_code(code) else {
        return gts_status::GTS_ERR_INVALID_ARGUMENT;
    };
    if out.is_null() {
        return gts_status::GTS_ERR_INVALID_ARGUMENT;
    }
    let [id, reason, source] = rule.texts_nul();
    let info = gts_rule {
        code,
        id: id.as_ptr().cast(),
        games: rule.games().bits(),
        level: level(rule.level()),
        reason: reason.as_ptr().cast(),
        source: source.as_ptr().cast(),
    };
    // SAFETY: `out` is non-NULL and, by the contract, points to a writable `gts_rule`.
    unsafe { out.write(info) };
    gts_status::GTS_OK
}

pub(crate) fn level(level: Level) -> c_int {
    match level {
        Level::Note => GTS_LEVEL_NOTE,
        Level::Warning => GTS_LEVEL_WARNING,
        Level::Error => GTS_LEVEL_ERROR,
    }
}

/// Checks the `len` bytes at `data`: a file, or a version 2 IMG archive (`VER2`) with its
/// entries, for the `games` (`GTS_CHECK_*` bits; 0: the games the file is for, read from it). `name`
/// is the file's name (NUL-terminated, may be NULL: the block-name rules then do not apply).
/// Each finding goes to `on_finding(user, finding)` (may be NULL: only counted); `*errors` (if not NULL) receives how many were errors. A
/// file that does not decode is a finding, not a status.
/// Pointers: `data` points to `len` readable bytes (may be NULL when `len` is 0); `name` is NULL
/// or NUL-terminated; `errors` is NULL or writable.
/// Returns `GTS_OK`, `GTS_ERR_INVALID_ARGUMENT`, or `GTS_ERR_PANIC`.
#[no_mangle]
pub unsafe extern "C" fn gts_check_memory(
    data: *const u8,
    len: usize,
    name: *const c_char,
    games: u8,
    on_finding: Option<unsafe extern "C" fn(user: *mut c_void, finding: *const gts_finding)>,
    user: *mut c_void,
    errors: *mut u32,
) -> gts_status {
    if (data.is_null() && len > 0) || len > isize::MAX as usize {
        return gts_status::GTS_ERR_INVALID_ARGUMENT;
    }
    let bytes: &[u8] = if len == 0 {
        &[]
    } else {
        // SAFETY: non-NULL, `len <= isize::MAX` readable bytes by the contract, not written
        // during the call.
        unsafe { core::slice::from_raw_parts(data, len) }
    };
    let name = if name.is_null() {
        None
    } else {
        // SAFETY: a NUL-terminated string by the contract.
        Some(unsafe { CStr::from_ptr(name) }.to_bytes())
    };
    let games = match games {
        0 => None,
        bits => Some(Games::from_bits(bits)),
    };
    let result = catch_unwind(AssertUnwindSafe(|| {
        let mut checker = Checker::with_games(games, |f: &Finding| report(f, on_finding, user));
        if let Some(name) = name {
            // An archive's name says whether it holds cutscenes (`cuts.img`).
            match bytes.starts_with(b"VER2") {
                true => checker.set_archive_name(name),
                false => checker.set_file_name(name),
            }
        }
        let failed = if bytes.starts_with(b"VER2") {
            ArchiveDecoder::new(bytes.len() as u64).decode_slice(bytes, &mut checker)
        } else {
            let game = games.and_then(Games::layout);
            let options = gtastream_core::Options {
                game,
                ..gtastream_core::Options::default()
            };
            Decoder::with_options(options).decode_slice(bytes, &mut checker)
        };
        if let Err(error) = failed {
            checker.failed(error);
        }
        checker.finish();
        checker.errors()
    }));
    match result {
        Ok(count) => {
            if !errors.is_null() {
                // SAFETY: non-NULL and writable by the contract.
                unsafe { errors.write(count) };
            }
            gts_status::GTS_OK
        }
        Err(_) => gts_status::GTS_ERR_PANIC,
    }
}

/// Text in a fixed buffer, NUL-terminated, cut at its capacity.
pub(crate) struct Text<const N: usize> {
    bytes: [u8; N],
    len: usize,
}

impl<const N: usize> Text<N> {
    pub(crate) fn new() -> Self {
        Text {
            bytes: [0; N],
            len: 0,
        }
    }

    fn name(name: &Name) -> Self {
        let mut text = Self::new();
        // Names hold no NUL (the decoder cuts them at the first); at most CONTEXT_NAME bytes.
        let n = name.as_bytes().len().min(N - 1);
        text.bytes[..n].copy_from_slice(&name.as_bytes()[..n]);
        text.len = n;
        text
    }

    pub(crate) fn ptr(&self) -> *const c_char {
        self.bytes.as_ptr().cast()
    }

    /// Bytes written, without the NUL.
    pub(crate) fn len(&self) -> usize {
        self.len
    }
}

impl<const N: usize> Write for Text<N> {
    fn write_str(&mut self, s: &str) -> core::fmt::Result {
        for &b in s.as_bytes() {
            if self.len + 1 >= N {
                break;
            }
            self.bytes[self.len] = if b == 0 { b' ' } else { b };
            self.len += 1;
        }
        Ok(())
    }
}

pub(crate) fn report(f: &Finding, on_finding: FindingFn, user: *mut c_void) {
    let Some(callback) = on_finding else { return };
    // SAFETY: the caller's callback, called with its user pointer and a finding that lives
    // for the call, as documented.
    with_c_finding(f, |finding| unsafe { callback(user, finding) });
}

/// `f` as a `gts_finding` (its strings on this stack), given to `then`.
pub(crate) fn with_c_finding(f: &Finding, then: impl FnOnce(&gts_finding)) {
    let c = &f.context;
    let entry = c.entry.map(|e| Text::<{ CONTEXT_NAME + 1 }>::name(&e.name));
    let animation = c
        .animation
        .map(|a| Text::<{ CONTEXT_NAME + 1 }>::name(&a.name));
    let bone = c.bone.map(|b| Text::<{ CONTEXT_NAME + 1 }>::name(&b.name));
    let mut message = Text::<512>::new();
    let _ = gtastream_core::check::json::write_message(&mut message, f);
    let finding = gts_finding {
        rule: f.rule.code(),
        level: level(f.level()),
        games: f.games.bits(),
        offset: f.offset,
        entry: entry.as_ref().map_or(core::ptr::null(), Text::ptr),
        animation: c.animation.map_or(-1, |a| i64::from(a.index)),
        animation_name: animation.as_ref().map_or(core::ptr::null(), Text::ptr),
        bone: c.bone.map_or(-1, |b| i64::from(b.index)),
        bone_name: bone.as_ref().map_or(core::ptr::null(), Text::ptr),
        line: c.line.unwrap_or(0),
        message: message.ptr(),
    };
    then(&finding);
}

#[cfg(test)]
mod tests {
    use super::*;

    unsafe extern "C" fn collect(user: *mut c_void, finding: *const gts_finding) {
        // SAFETY: the test passes a `Vec` and the library a valid finding.
        let (found, f) = unsafe { (&mut *user.cast::<Vec<(u32, String, i64)>>(), &*finding) };
        // SAFETY: the message is NUL-terminated and lives for the call.
        let message = unsafe { CStr::from_ptr(f.message) }
            .to_string_lossy()
            .into_owned();
        found.push((f.rule, message, f.animation));
    }

    #[test]
    fn the_table_and_a_check_from_c() {
        assert_eq!(gts_rule_count() as usize, Rule::ALL.len());
        let mut info = core::mem::MaybeUninit::<gts_rule>::uninit();
        // SAFETY: a writable `gts_rule`.
        let status = unsafe { gts_rule_info(Rule::TimeZeroDuration.code(), info.as_mut_ptr()) };
        assert_eq!(status, gts_status::GTS_OK);
        // SAFETY: written by the call.
        let info = unsafe { info.assume_init() };
        // SAFETY: a static NUL-terminated string.
        let id = unsafe { CStr::from_ptr(info.id) };
        assert_eq!(id.to_str().unwrap(), "ifp.time.zero_duration");
        assert_eq!(info.level, GTS_LEVEL_WARNING);
        // SAFETY: `out` may be anything for an unknown number.
        let unknown = unsafe { gts_rule_info(0, core::ptr::null_mut()) };
        assert_eq!(unknown, gts_status::GTS_ERR_INVALID_ARGUMENT);

        let ipl = b"inst\n20000, x, 0, 0, 0, 0, 0, 0, 0, 1, -1\nend\n";
        let mut found: Vec<(u32, String, i64)> = Vec::new();
        let mut errors = 0u32;
        // SAFETY: valid buffers and a callback that matches the user pointer.
        let status = unsafe {
            gts_check_memory(
                ipl.as_ptr(),
                ipl.len(),
                c"x.ipl".as_ptr(),
                GTS_CHECK_SA,
                Some(collect),
                (&mut found as *mut Vec<(u32, String, i64)>).cast(),
                &mut errors,
            )
        };
        assert_eq!(status, gts_status::GTS_OK);
        assert_eq!(errors, 1);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].0, Rule::IplsaInstIdRange.code());
        assert!(
            found[0].1.starts_with("line 2: a model id"),
            "{}",
            found[0].1
        );
        assert_eq!(found[0].2, -1);
    }
}
