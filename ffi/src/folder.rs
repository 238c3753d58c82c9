//! A game or mod folder checked from C (issue 34, `check DIR`): the core's walk
//! (`check::walk`) over the host's file system, reached through callbacks (`gts_mod_files`:
//! open, length, read at an offset, close), so that a host with its own files (an archive, a
//! virtual file system, a game's memory) can use it. Every file, finding and unreadable file
//! goes to the host's callbacks (`gts_mod_callbacks`) as the walk meets it.
//!
//! No allocation: the walk's name and id tables live in memory the host gives
//! (`gts_mod_tables_size`), everything else on the call's stack.

use core::ffi::{c_char, c_int, c_void};
use core::fmt::{self, Write as _};
use core::mem::{align_of, size_of};
use std::panic::{catch_unwind, AssertUnwindSafe};

use gtastream_core::check::mods::{model_ids, IdSlot, ModFinding, NameSlot, NAME_SLOTS};
use gtastream_core::check::walk::{self, ModFiles, WalkError, WalkEvent, WalkSummary};
use gtastream_core::level::MAX_DAT_LINE;
use gtastream_core::Game;

use crate::check::{with_c_finding, Text};
use crate::types::{gts_game, gts_status};
use crate::{gts_finding, GameArg};

/// The host's file system, as the walk reaches it. `user` is passed to each function; the
/// functions are called on the caller's thread during `gts_mod_check` and `gts_mod_find_game`
/// only.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct gts_mod_files {
    /// Opens the file at `path` (`len` bytes, also NUL-terminated) as a level file writes it:
    /// either slash, any case, relative to the game's folder (`DATA\MAPS\LA\LAE.IDE`,
    /// `models/gta3.img`), resolved as the games on Windows resolve it (each component in any
    /// case). Returns a handle of the host's choice, or NULL when there is no such file.
    pub open: Option<
        unsafe extern "C" fn(user: *mut c_void, path: *const c_char, len: usize) -> *mut c_void,
    >,
    /// Writes the length in bytes of the open `file` to `*length`; returns 0, or any other
    /// value for a failure (the file is then reported unreadable).
    pub length: Option<
        unsafe extern "C" fn(user: *mut c_void, file: *mut c_void, length: *mut u64) -> c_int,
    >,
    /// Reads up to `len` bytes of `file` from `offset` into `buffer` and writes how many to
    /// `*bytes_read` (0 only at the end of the file); returns 0, or any other value for a failure
    /// (as is writing more than `len` to `*bytes_read`).
    pub read_at: Option<
        unsafe extern "C" fn(
            user: *mut c_void,
            file: *mut c_void,
            offset: u64,
            buffer: *mut u8,
            len: usize,
            bytes_read: *mut usize,
        ) -> c_int,
    >,
    /// Closes a file `open` returned; called once for each.
    pub close: Option<unsafe extern "C" fn(user: *mut c_void, file: *mut c_void)>,
    /// Passed to each function.
    pub user: *mut c_void,
}

/// A finding of a folder check: the finding (`finding.line` is the line in `file`;
/// `finding.entry` the archive entry) and the files it concerns, by the numbers `on_file`
/// gave them. Valid during the callback only.
#[repr(C)]
pub struct gts_mod_finding {
    /// The rule, level, games, offset, place and message, as `gts_check_memory` gives them.
    pub finding: gts_finding,
    /// The file it is in.
    pub file: u32,
    /// The other file involved (the archive that also holds a name, the parent text IPL),
    /// when `has_other`.
    pub other: u32,
    /// Whether `other` names a file.
    pub has_other: bool,
}

/// What a folder check tells the host, in order; `user` is passed to each. Any may be NULL.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct gts_mod_callbacks {
    /// A file gets its number (findings name files by number, from 0, in this order): its
    /// path as the level file writes it (`len` bytes, also NUL-terminated), or as the game
    /// names it (`models/gta3.img`).
    pub on_file:
        Option<unsafe extern "C" fn(user: *mut c_void, file: u32, path: *const c_char, len: usize)>,
    /// The file is being read; `entries`: the archive entries read so far (progress).
    pub on_reading: Option<unsafe extern "C" fn(user: *mut c_void, file: u32, entries: u64)>,
    /// A finding, of one file or across files.
    pub on_finding:
        Option<unsafe extern "C" fn(user: *mut c_void, finding: *const gts_mod_finding)>,
    /// A file the level files name, which is there, could not be read: why (`len` bytes,
    /// also NUL-terminated).
    pub on_unreadable: Option<
        unsafe extern "C" fn(user: *mut c_void, file: u32, reason: *const c_char, len: usize),
    >,
    /// Passed to each callback.
    pub user: *mut c_void,
}

/// What a folder check did.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct gts_mod_summary {
    /// The game checked: the one named, or the one the folder's level file shows.
    pub game: gts_game,
    /// Files numbered (`on_file` calls).
    pub files: u32,
    /// Archive entries read.
    pub entries: u64,
    /// Error findings: 0 means the game loads the folder ("loads"), more that it fails.
    pub errors: u32,
}

/// The alignment the tables given to `gts_mod_check` need (their address a multiple of it):
/// `malloc`'s memory has it (a static array: `_Alignas(8)` in C11, `alignas(8)` in C++).
pub const GTS_MOD_TABLES_ALIGN: usize = 8;

const _: () = assert!(align_of::<NameSlot>() <= GTS_MOD_TABLES_ALIGN);
const _: () = assert!(align_of::<IdSlot>() <= GTS_MOD_TABLES_ALIGN);

/// The game a `gts_game` names; `Ok(None)`: `GTS_GAME_AUTO`.
fn game_arg(game: GameArg) -> Result<Option<Game>, gts_status> {
    match game {
        0 => Ok(None),
        1 => Ok(Some(Game::Iii)),
        2 => Ok(Some(Game::ViceCity)),
        3 => Ok(Some(Game::SanAndreas)),
        _ => Err(gts_status::GTS_ERR_INVALID_ARGUMENT),
    }
}

fn c_game(game: Game) -> gts_game {
    match game {
        Game::Iii => gts_game::GTS_GAME_III,
        Game::ViceCity => gts_game::GTS_GAME_VC,
        Game::SanAndreas => gts_game::GTS_GAME_SA,
    }
}

/// The status of a folder that cannot be walked.
fn walk_status(error: WalkError) -> gts_status {
    match error {
        WalkError::NoGame => gts_status::GTS_ERR_NO_GAME,
        WalkError::SeveralGames => gts_status::GTS_ERR_SEVERAL_GAMES,
        _ => gts_status::GTS_ERR_NO_LEVEL_FILE,
    }
}

/// Bytes of the name table (rounded up so that the id table after it starts aligned), then
/// of the id table, for `game`.
fn table_bytes(game: Game) -> (usize, usize) {
    (
        (NAME_SLOTS * size_of::<NameSlot>()).next_multiple_of(GTS_MOD_TABLES_ALIGN),
        model_ids(game) * size_of::<IdSlot>(),
    )
}

/// Bytes of the tables `gts_mod_check` needs for `game` (`GTS_GAME_AUTO`: for any game, the
/// largest), about 2 MiB for San Andreas; 0 for a value that is no `gts_game`. The memory is
/// the host's (static, or `malloc`ed: aligned to `GTS_MOD_TABLES_ALIGN`), its contents need no
/// setting up, and it can be reused for the next check.
#[no_mangle]
pub extern "C" fn gts_mod_tables_size(game: GameArg) -> usize {
    let size = |game| {
        let (names, ids) = table_bytes(game);
        names + ids
    };
    match game_arg(game) {
        Ok(Some(game)) => size(game),
        Ok(None) => [Game::Iii, Game::ViceCity, Game::SanAndreas]
            .into_iter()
            .map(size)
            .max()
            .unwrap_or(0),
        Err(_) => 0,
    }
}

/// A failure the host reported.
struct HostError(c_int);

impl fmt::Display for HostError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0 == 0 {
            f.write_str("the host's read gave more bytes than asked for")
        } else {
            write!(f, "the host's file function failed ({})", self.0)
        }
    }
}

/// The host's files, their functions checked non-NULL.
struct HostFiles {
    open: unsafe extern "C" fn(*mut c_void, *const c_char, usize) -> *mut c_void,
    length: unsafe extern "C" fn(*mut c_void, *mut c_void, *mut u64) -> c_int,
    read_at:
        unsafe extern "C" fn(*mut c_void, *mut c_void, u64, *mut u8, usize, *mut usize) -> c_int,
    close: unsafe extern "C" fn(*mut c_void, *mut c_void),
    user: *mut c_void,
}

/// A file the host opened, closed when dropped (also when a panic unwinds the walk).
struct HostFile {
    handle: *mut c_void,
    close: unsafe extern "C" fn(*mut c_void, *mut c_void),
    user: *mut c_void,
}

impl Drop for HostFile {
    fn drop(&mut self) {
        // SAFETY: the host's `close`, with its user pointer and a handle its `open` returned,
        // once (this value owns the handle).
        unsafe { (self.close)(self.user, self.handle) };
    }
}

/// A path copied with a NUL after it: every path the walk opens or numbers fits (a level
/// line, and `.dir` after its stem).
struct CPath {
    bytes: [u8; MAX_DAT_LINE + 8],
    len: usize,
}

impl CPath {
    fn new(path: &[u8]) -> CPath {
        let mut bytes = [0u8; MAX_DAT_LINE + 8];
        let len = path.len().min(bytes.len() - 1);
        bytes[..len].copy_from_slice(&path[..len]);
        CPath { bytes, len }
    }

    fn ptr(&self) -> *const c_char {
        self.bytes.as_ptr().cast()
    }
}

impl ModFiles for HostFiles {
    type File = HostFile;
    type Error = HostError;

    fn open(&mut self, path: &[u8]) -> Option<HostFile> {
        let path = CPath::new(path);
        // SAFETY: the host's `open`, with its user pointer and a NUL-terminated path of `len`
        // bytes that lives for the call.
        let handle = unsafe { (self.open)(self.user, path.ptr(), path.len) };
        // Made only for a handle: a `HostFile` closes what it holds when dropped.
        (!handle.is_null()).then(|| HostFile {
            handle,
            close: self.close,
            user: self.user,
        })
    }

    fn len(&mut self, file: &mut HostFile) -> Result<u64, HostError> {
        let mut length = 0u64;
        // SAFETY: the host's `length`, with its user pointer, an open handle and a writable
        // `uint64_t`.
        match unsafe { (self.length)(self.user, file.handle, &mut length) } {
            0 => Ok(length),
            failed => Err(HostError(failed)),
        }
    }

    fn read_at(
        &mut self,
        file: &mut HostFile,
        offset: u64,
        buf: &mut [u8],
    ) -> Result<usize, HostError> {
        let mut read = 0usize;
        // SAFETY: the host's `read_at`, with its user pointer, an open handle, `buf.len()`
        // writable bytes at `buf` and a writable `size_t`.
        let status = unsafe {
            (self.read_at)(
                self.user,
                file.handle,
                offset,
                buf.as_mut_ptr(),
                buf.len(),
                &mut read,
            )
        };
        match status {
            0 if read <= buf.len() => Ok(read),
            failed => Err(HostError(failed)),
        }
    }
}

/// The host's files from `*files`, or `GTS_ERR_INVALID_ARGUMENT` (NULL or misaligned pointer,
/// a NULL function).
///
/// # Safety
/// `files` is NULL or points to a readable `gts_mod_files`.
unsafe fn host_files(files: *const gts_mod_files) -> Result<HostFiles, gts_status> {
    if files.is_null() || !files.is_aligned() {
        return Err(gts_status::GTS_ERR_INVALID_ARGUMENT);
    }
    // SAFETY: non-NULL, aligned and readable (the caller's contract); copied.
    let files = unsafe { files.read() };
    match (files.open, files.length, files.read_at, files.close) {
        (Some(open), Some(length), Some(read_at), Some(close)) => Ok(HostFiles {
            open,
            length,
            read_at,
            close,
            user: files.user,
        }),
        _ => Err(gts_status::GTS_ERR_INVALID_ARGUMENT),
    }
}

/// Writes the game the folder `files` holds to `*game`: the one whose level file is there
/// (`data/gta.dat`: San Andreas, `data/gta_vc.dat`: Vice City, `data/gta3.dat`: GTA III).
///
/// Returns `GTS_OK`; `GTS_ERR_NO_GAME` (no level file of any game), `GTS_ERR_SEVERAL_GAMES`
/// (the level files of several games: the host names the game); `GTS_ERR_INVALID_ARGUMENT`
/// (NULL or misaligned pointer, a NULL function in `files`); `GTS_ERR_PANIC`.
///
/// Pointers: `files` points to a `gts_mod_files` whose functions are of the declared types;
/// `game` points to a writable `gts_game`.
#[no_mangle]
pub unsafe extern "C" fn gts_mod_find_game(
    files: *const gts_mod_files,
    game: *mut gts_game,
) -> gts_status {
    if game.is_null() || !game.is_aligned() {
        return gts_status::GTS_ERR_INVALID_ARGUMENT;
    }
    // SAFETY: the caller's contract.
    let mut files = match unsafe { host_files(files) } {
        Ok(files) => files,
        Err(status) => return status,
    };
    match catch_unwind(AssertUnwindSafe(|| walk::find_game(&mut files))) {
        Ok(Ok(found)) => {
            // SAFETY: non-NULL, aligned and writable (the caller's contract).
            unsafe { game.write(c_game(found)) };
            gts_status::GTS_OK
        }
        Ok(Err(error)) => walk_status(error),
        Err(_) => gts_status::GTS_ERR_PANIC,
    }
}

/// Gives each walk event to the host's callbacks.
fn tell(callbacks: &gts_mod_callbacks, event: WalkEvent<'_>) {
    #[cfg(test)]
    if matches!(event, WalkEvent::Reading { .. }) {
        crate::tests::maybe_panic();
    }
    let user = callbacks.user;
    match event {
        WalkEvent::File { file, path } => {
            if let Some(on_file) = callbacks.on_file {
                let path = CPath::new(path);
                // SAFETY: the host's callback with its user pointer and a NUL-terminated path
                // of `len` bytes that lives for the call.
                unsafe { on_file(user, file, path.ptr(), path.len) };
            }
        }
        WalkEvent::Reading { file, entries } => {
            if let Some(on_reading) = callbacks.on_reading {
                // SAFETY: the host's callback with its user pointer.
                unsafe { on_reading(user, file, entries) };
            }
        }
        WalkEvent::Finding(found) => {
            if let Some(on_finding) = callbacks.on_finding {
                let ModFinding {
                    finding,
                    file,
                    other,
                    ..
                } = *found;
                with_c_finding(&finding, |c| {
                    let finding = gts_mod_finding {
                        // The strings stay `c`'s, which outlives the call below.
                        finding: *c,
                        file,
                        other: other.unwrap_or(0),
                        has_other: other.is_some(),
                    };
                    // SAFETY: the host's callback with its user pointer and a finding whose
                    // strings live for the call.
                    unsafe { on_finding(user, &finding) };
                });
            }
        }
        WalkEvent::Unreadable { file, reason } => {
            if let Some(on_unreadable) = callbacks.on_unreadable {
                let mut text = Text::<512>::new();
                let _ = write!(text, "{reason}");
                // SAFETY: the host's callback with its user pointer and a NUL-terminated
                // reason of `len` bytes that lives for the call.
                unsafe { on_unreadable(user, file, text.ptr(), text.len()) };
            }
        }
        _ => {}
    }
}

/// Checks the game or mod folder `files` holds, as `game` loads it (`gtastream check DIR`):
/// finds the level files (`data/default.dat`, then `data/gta.dat`, `data/gta_vc.dat` or
/// `data/gta3.dat`), reads their lines in order, the archives, IDEs and IPLs they name and
/// every archive entry, and checks each file's own rules and the rules across files
/// (docs/CHECKS.md, `mod.*`). `game` is a `GTS_GAME_*`, or `GTS_GAME_AUTO` for the game whose
/// level file the folder has (as `gts_mod_find_game`). Each file, finding and unreadable file
/// goes to `callbacks` (NULL: none) as the walk meets it; the findings and their order are
/// those of `gtastream check --json DIR`. `*summary` (if not NULL) receives the game, the
/// counts and the errors.
///
/// `tables` is the host's memory for the walk's name and id tables: at least
/// `gts_mod_tables_size(game)` bytes (of the game found, for `GTS_GAME_AUTO`), aligned to
/// `GTS_MOD_TABLES_ALIGN`, not used by anything else during the call; its contents before the
/// call do not matter. The library allocates nothing.
///
/// Returns `GTS_OK` (findings are not statuses: `summary->errors`); `GTS_ERR_NO_GAME`,
/// `GTS_ERR_SEVERAL_GAMES` (`GTS_GAME_AUTO` only), `GTS_ERR_NO_LEVEL_FILE` (the folder cannot
/// be walked; nothing was called back but `files`); `GTS_ERR_INVALID_ARGUMENT` (NULL or
/// misaligned pointer, a NULL function in `files`, a value that is no `gts_game`, `tables`
/// too small); `GTS_ERR_PANIC` (every file opened was closed).
///
/// Pointers: `files` points to a `gts_mod_files` whose functions are of the declared types;
/// `tables` points to `tables_len` writable bytes; `callbacks` is NULL or points to a
/// `gts_mod_callbacks` whose non-NULL members are functions of the declared types; `summary`
/// is NULL or points to a writable `gts_mod_summary`. The functions and callbacks are called
/// on this thread, during the call only.
#[no_mangle]
pub unsafe extern "C" fn gts_mod_check(
    files: *const gts_mod_files,
    game: GameArg,
    tables: *mut c_void,
    tables_len: usize,
    callbacks: *const gts_mod_callbacks,
    summary: *mut gts_mod_summary,
) -> gts_status {
    let Ok(named) = game_arg(game) else {
        return gts_status::GTS_ERR_INVALID_ARGUMENT;
    };
    let tables = tables.cast::<u8>();
    let misaligned = |p: *const u8| !(p as usize).is_multiple_of(GTS_MOD_TABLES_ALIGN);
    if tables.is_null() || misaligned(tables) || tables_len > isize::MAX as usize {
        return gts_status::GTS_ERR_INVALID_ARGUMENT;
    }
    if !summary.is_null() && !summary.is_aligned() {
        return gts_status::GTS_ERR_INVALID_ARGUMENT;
    }
    let callbacks = if callbacks.is_null() {
        gts_mod_callbacks {
            on_file: None,
            on_reading: None,
            on_finding: None,
            on_unreadable: None,
            user: core::ptr::null_mut(),
        }
    } else if !callbacks.is_aligned() {
        return gts_status::GTS_ERR_INVALID_ARGUMENT;
    } else {
        // SAFETY: non-NULL, aligned and readable (the caller's contract); copied.
        unsafe { callbacks.read() }
    };
    // SAFETY: the caller's contract.
    let mut files = match unsafe { host_files(files) } {
        Ok(files) => files,
        Err(status) => return status,
    };
    let result = catch_unwind(AssertUnwindSafe(|| {
        let game = match named {
            Some(game) => game,
            None => walk::find_game(&mut files).map_err(walk_status)?,
        };
        let (names_len, ids_len) = table_bytes(game);
        if tables_len < names_len + ids_len {
            return Err(gts_status::GTS_ERR_INVALID_ARGUMENT);
        }
        let (names, ids) = (NAME_SLOTS, model_ids(game));
        // SAFETY: `tables` is aligned to GTS_MOD_TABLES_ALIGN (checked), which suits both slot
        // types, and `names_len` is a multiple of it, so the ids start aligned; both
        // tables lie in the `tables_len` writable bytes the caller gives for this call only
        // (checked above) and do not overlap. Every slot is written before the slices are
        // made, so no uninitialised byte is read.
        let (names, ids) = unsafe {
            let name_slots = tables.cast::<NameSlot>();
            let id_slots = tables.add(names_len).cast::<IdSlot>();
            for i in 0..names {
                name_slots.add(i).write(NameSlot::EMPTY);
            }
            for i in 0..ids {
                id_slots.add(i).write(IdSlot::EMPTY);
            }
            (
                core::slice::from_raw_parts_mut(name_slots, names),
                core::slice::from_raw_parts_mut(id_slots, ids),
            )
        };
        let walked: WalkSummary = walk::walk(&mut files, game, names, ids, |event| {
            tell(&callbacks, event)
        })
        .map_err(walk_status)?;
        Ok((game, walked))
    }));
    match result {
        Ok(Ok((game, walked))) => {
            if !summary.is_null() {
                let done = gts_mod_summary {
                    game: c_game(game),
                    files: walked.files,
                    entries: walked.entries,
                    errors: walked.errors,
                };
                // SAFETY: non-NULL, aligned (checked) and writable (the caller's contract).
                unsafe { summary.write(done) };
            }
            gts_status::GTS_OK
        }
        Ok(Err(status)) => status,
        Err(_) => gts_status::GTS_ERR_PANIC,
    }
}
