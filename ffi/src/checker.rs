//! The checker fed in pieces from C (issue 30): `gts_checker`, caller-owned storage of the
//! core's checker with the decoder (or archive decoder) that drives it. The host feeds the
//! file as it reads it, as it feeds a `gts_decoder` (or `gts_archive`), and each finding goes
//! to its callback as soon as the rule finds it. The findings are those of
//! `gts_check_memory`, however the input is cut.
//!
//! The storage is kept by the one handle machinery (`handle.rs`). The checker's sink is the
//! closure `relay` returns (the callback and its user pointer); its type has no name, so the
//! entry points name the state through that function (`Witness`).

use core::ffi::{c_char, c_void, CStr};

use gtastream_core::archive::{ArchiveDecoder, Input};
use gtastream_core::check::{Checker, Finding, Games};
use gtastream_core::{Decoder, Error, ErrorKind, Progress, Status};

use crate::check::{report, FindingFn, GTS_CHECK_III};
use crate::handle::{self, Handle, Object, Streaming};
use crate::types::{gts_status, GTS_NO_OFFSET};

/// Number of 64-bit words of a `gts_checker`: the core's checker (its name tables are most of
/// it, about 21 KiB), a decoder and an archive decoder, the callback, the user pointer and a
/// tag word (the library checks at compile time that they fit, on 32- and 64-bit targets).
pub const GTS_CHECKER_WORDS: usize = 3072;

/// Caller-owned storage of one streaming checker (24 KiB): put it in static memory, on the
/// heap or on a large enough stack, and pass `sizeof` it to `gts_checker_init`. Its contents
/// are private; it needs no cleanup.
#[repr(C)]
pub struct gts_checker {
    /// Private storage; never read or written by the caller.
    pub opaque: [u64; GTS_CHECKER_WORDS],
}

/// What reads the input for the checker.
enum Reader {
    File(Decoder),
    Archive(ArchiveDecoder),
}

/// What a `gts_checker` holds besides the handle's header.
struct CheckerState<S> {
    checker: Checker<S>,
    reader: Reader,
    /// The input stopped decoding: its finding was given, later bytes are not read.
    stopped: bool,
    finished: bool,
}

/// The checker's sink: each finding to the caller's callback.
fn relay(on_finding: FindingFn, user: *mut c_void) -> impl FnMut(&Finding) {
    move |f: &Finding| report(f, on_finding, user)
}

/// `relay`, which names the sink's type (and so the state's) for the entry points.
type Witness<S> = fn(FindingFn, *mut c_void) -> S;

impl<S> Object for CheckerState<S> {
    type Storage = gts_checker;
    /// "gtschk" and the version of this layout.
    const TAG: u64 = 0x6774_7363_686b_0001;

    fn position(&self) -> u64 {
        match &self.reader {
            Reader::File(d) => d.position(),
            Reader::Archive(a) => a.position(),
        }
    }
}

impl<S: FnMut(&Finding)> Streaming for CheckerState<S> {
    fn feed(&mut self, input: &[u8]) -> Result<Progress, Error> {
        if self.finished {
            return Err(Error {
                kind: ErrorKind::Finished,
                offset: self.position(),
            });
        }
        if self.stopped {
            return Ok(Progress {
                consumed: 0,
                status: Status::Done,
            });
        }
        let fed = match &mut self.reader {
            Reader::File(d) => d.feed(input, &mut self.checker),
            Reader::Archive(a) => a.feed(input, &mut self.checker),
        };
        match fed {
            Ok(progress) => Ok(progress),
            // A file that does not decode is a finding, as in `gts_check_memory`; the host
            // is told the content is over.
            Err(error) => {
                self.checker.failed(error);
                self.stopped = true;
                Ok(Progress {
                    consumed: 0,
                    status: Status::Done,
                })
            }
        }
    }

    fn finish(&mut self) -> Result<(), Error> {
        if self.finished {
            return Err(Error {
                kind: ErrorKind::Finished,
                offset: self.position(),
            });
        }
        self.finished = true;
        if !self.stopped {
            let ended = match &mut self.reader {
                Reader::File(d) => d.finish(&mut self.checker),
                Reader::Archive(a) => a.finish(&mut self.checker),
            };
            if let Err(error) = ended {
                self.checker.failed(error);
            }
        }
        self.checker.finish();
        Ok(())
    }
}

/// The handle of `storage`, its state named by `witness`.
///
/// # Safety
/// `storage` is NULL or points to a readable `gts_checker` (writable for the calls that write).
unsafe fn handle_of<S: FnMut(&Finding)>(
    storage: *const gts_checker,
    _witness: Witness<S>,
) -> Result<Handle<CheckerState<S>>, gts_status> {
    // SAFETY: the caller's contract.
    unsafe { Handle::new(storage) }
}

/// Sets up the state in `storage` (shared by the init functions).
///
/// # Safety
/// As `gts_checker_init`.
#[allow(clippy::too_many_arguments)]
unsafe fn init<S: FnMut(&Finding)>(
    storage: *mut gts_checker,
    size: usize,
    reader: Reader,
    name: *const c_char,
    games: u8,
    on_finding: FindingFn,
    user: *mut c_void,
    witness: Witness<S>,
) -> gts_status {
    // SAFETY: `storage` is NULL or points to `size` writable bytes (the caller's contract).
    unsafe {
        Handle::init(storage, size, || {
            let games = match games {
                0 => None,
                bits if bits & !0x0f != 0 => return Err(gts_status::GTS_ERR_INVALID_ARGUMENT),
                bits => Some(Games::from_bits(bits)),
            };
            let mut checker = Checker::with_games(games, witness(on_finding, user));
            if !name.is_null() {
                // SAFETY: a NUL-terminated string (the caller's contract), read before the
                // storage is written (the name is copied into the checker).
                let name = CStr::from_ptr(name).to_bytes();
                // An archive's name says whether it holds cutscenes (`cuts.img`).
                match reader {
                    Reader::Archive(_) => checker.set_archive_name(name),
                    _ => checker.set_file_name(name),
                }
            }
            Ok(CheckerState {
                checker,
                reader,
                stopped: false,
                finished: false,
            })
        })
    }
}

/// Sets up a checker in `*checker` for a file of any format the decoder reads (sniffed from
/// its first bytes), for the `games` (`GTS_CHECK_*` bits; 0: the games the file is for,
/// read from the file: `gts_checker_games` says which). `size_of_checker` must be `sizeof *checker`. `name` is the file's name (copied;
/// NULL: the block-name rules do not apply). Each finding goes to `on_finding(user, finding)`
/// as the rule finds it, during `gts_checker_feed` or `gts_checker_finish` (NULL: only
/// counted). The findings, in their order, are those of `gts_check_memory` on the whole file,
/// however it is cut. A checker needs no cleanup.
///
/// Returns `GTS_OK`, `GTS_ERR_INVALID_ARGUMENT` (NULL or misaligned `checker`, unknown game
/// bits), `GTS_ERR_SIZE_MISMATCH` or `GTS_ERR_REENTRANT`.
///
/// Pointers: `checker` is NULL or points to `size_of_checker` writable bytes; `name` is NULL or
/// NUL-terminated.
#[no_mangle]
pub unsafe extern "C" fn gts_checker_init(
    checker: *mut gts_checker,
    size_of_checker: usize,
    name: *const c_char,
    games: u8,
    on_finding: Option<unsafe extern "C" fn(user: *mut c_void, finding: *const crate::gts_finding)>,
    user: *mut c_void,
) -> gts_status {
    // A single game named fixes a text IPL's layout, as in `gts_check_memory` and `check`.
    let game = Games::from_bits(games & 0x0f).layout();
    let reader = Reader::File(Decoder::with_options(gtastream_core::Options {
        game,
        ..gtastream_core::Options::default()
    }));
    // SAFETY: the caller's contract.
    unsafe {
        init(
            checker,
            size_of_checker,
            reader,
            name,
            games,
            on_finding,
            user,
            relay,
        )
    }
}

/// As `gts_checker_init`, for a version 2 IMG archive (`VER2`) of `img_len` bytes, checked
/// with its entries. The caller feeds the `.img` from `gts_checker_position` and follows
/// `GTS_SEEK`, as for a `gts_archive`.
///
/// Pointers: as `gts_checker_init`.
#[no_mangle]
pub unsafe extern "C" fn gts_checker_init_archive(
    checker: *mut gts_checker,
    size_of_checker: usize,
    img_len: u64,
    name: *const c_char,
    games: u8,
    on_finding: Option<unsafe extern "C" fn(user: *mut c_void, finding: *const crate::gts_finding)>,
    user: *mut c_void,
) -> gts_status {
    let reader = Reader::Archive(ArchiveDecoder::new(img_len));
    // SAFETY: the caller's contract.
    unsafe {
        init(
            checker,
            size_of_checker,
            reader,
            name,
            games,
            on_finding,
            user,
            relay,
        )
    }
}

/// As `gts_checker_init_archive`, for a version 1 archive (GTA III, Vice City): a `.dir` of
/// `dir_len` bytes beside an `.img` of `img_len` bytes. `gts_checker_input` says which file
/// the next bytes come from (it starts with the `.dir`; every change comes with `GTS_SEEK`).
///
/// Pointers: as `gts_checker_init`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn gts_checker_init_archive_v1(
    checker: *mut gts_checker,
    size_of_checker: usize,
    dir_len: u64,
    img_len: u64,
    name: *const c_char,
    games: u8,
    on_finding: Option<unsafe extern "C" fn(user: *mut c_void, finding: *const crate::gts_finding)>,
    user: *mut c_void,
) -> gts_status {
    let reader = Reader::Archive(ArchiveDecoder::version1(dir_len, img_len));
    // SAFETY: the caller's contract.
    unsafe {
        init(
            checker,
            size_of_checker,
            reader,
            name,
            games,
            on_finding,
            user,
            relay,
        )
    }
}

/// Checks `len` bytes at `data`, the next bytes of the input (any piece, down to one byte),
/// giving each finding to the callback as it is found. `*consumed` gets the bytes used.
///
/// Returns `GTS_OK` (every byte used: feed the next ones, or call `gts_checker_finish` at the
/// end of the input), `GTS_SEEK` (feed from `gts_checker_position`, of the file
/// `gts_checker_input` names), `GTS_DONE` (nothing more is read: the content is complete, or
/// the input stopped decoding and that was a finding; call `gts_checker_finish`), or an error of
/// the call itself (`GTS_ERR_FINISHED` after finish, the handle checks' errors). A file that
/// does not decode is a finding, not a status.
///
/// Pointers: `checker` is NULL or points to a writable `gts_checker`; `data` is NULL or points
/// to `len` readable bytes that do not change during the call; `consumed` is NULL or points to
/// a writable `size_t`. The callback is called on this thread, before this returns.
#[no_mangle]
pub unsafe extern "C" fn gts_checker_feed(
    checker: *mut gts_checker,
    data: *const u8,
    len: usize,
    consumed: *mut usize,
) -> gts_status {
    // SAFETY: the caller's contract.
    unsafe { feed_as(relay, checker, data, len, consumed) }
}

/// `handle::feed` for the state `witness` names.
///
/// # Safety
/// As `gts_checker_feed`.
unsafe fn feed_as<S: FnMut(&Finding)>(
    _witness: Witness<S>,
    checker: *mut gts_checker,
    data: *const u8,
    len: usize,
    consumed: *mut usize,
) -> gts_status {
    // SAFETY: the caller's contract.
    unsafe { handle::feed::<CheckerState<S>>(checker, data, len, consumed) }
}

/// Ends the input: the rules that need the whole input (totals, an input cut short) give
/// their findings. `*errors` (if not NULL) receives how many findings were errors in all.
/// After it, feed and finish return `GTS_ERR_FINISHED`; init again for a new input.
///
/// Returns `GTS_OK`, `GTS_ERR_FINISHED`, or the handle checks' errors.
///
/// Pointers: `checker` is NULL or points to a writable `gts_checker`; `errors` is NULL or
/// points to a writable `uint32_t`.
#[no_mangle]
pub unsafe extern "C" fn gts_checker_finish(
    checker: *mut gts_checker,
    errors: *mut u32,
) -> gts_status {
    // SAFETY: the caller's contract.
    unsafe { finish_as(relay, checker, errors) }
}

/// `gts_checker_finish` for the state `witness` names.
///
/// # Safety
/// As `gts_checker_finish`.
unsafe fn finish_as<S: FnMut(&Finding)>(
    witness: Witness<S>,
    checker: *mut gts_checker,
    errors: *mut u32,
) -> gts_status {
    if !errors.is_null() && !errors.is_aligned() {
        return gts_status::GTS_ERR_INVALID_ARGUMENT;
    }
    // SAFETY: the caller's contract.
    let result = unsafe { handle_of(checker, witness) }.and_then(|h| {
        h.call(|state| {
            state.finish()?;
            Ok::<_, Error>(state.checker.errors())
        })
    });
    match result {
        Ok(count) => {
            if !errors.is_null() {
                // SAFETY: non-NULL, aligned and writable (the caller's contract).
                unsafe { errors.write(count) };
            }
            gts_status::GTS_OK
        }
        Err(status) => status,
    }
}

/// Findings so far at error level (0 for a checker that cannot be used).
///
/// Pointers: `checker` is NULL or points to a readable `gts_checker`.
#[no_mangle]
pub unsafe extern "C" fn gts_checker_errors(checker: *const gts_checker) -> u32 {
    // SAFETY: the caller's contract.
    unsafe { read(relay, checker, |s| s.checker.errors()) }.unwrap_or(0)
}

/// The games checked so far (`GTS_CHECK_*` bits): those the input's files are for, read from
/// the files (games 0 at init) or among the games named; 0 for a checker that cannot be used.
///
/// Pointers: `checker` is NULL or points to a readable `gts_checker`.
#[no_mangle]
pub unsafe extern "C" fn gts_checker_games(checker: *const gts_checker) -> u8 {
    // SAFETY: the caller's contract.
    unsafe { read(relay, checker, |s| s.checker.games().bits()) }.unwrap_or(0)
}

/// Findings so far (0 for a checker that cannot be used).
///
/// Pointers: `checker` is NULL or points to a readable `gts_checker`.
#[no_mangle]
pub unsafe extern "C" fn gts_checker_findings(checker: *const gts_checker) -> u32 {
    // SAFETY: the caller's contract.
    unsafe { read(relay, checker, |s| s.checker.findings()) }.unwrap_or(0)
}

/// The offset of the next byte wanted, in the file `gts_checker_input` names: after
/// `GTS_SEEK`, where to feed from (`GTS_NO_OFFSET` if `checker` is not usable).
///
/// Pointers: `checker` is NULL or points to a readable `gts_checker`.
#[no_mangle]
pub unsafe extern "C" fn gts_checker_position(checker: *const gts_checker) -> u64 {
    // SAFETY: the caller's contract.
    unsafe { read(relay, checker, |s| s.position()) }.unwrap_or(GTS_NO_OFFSET)
}

/// The file the next bytes come from: `GTS_INPUT_IMG` (a file, or a version 2 archive), or
/// `GTS_INPUT_DIR` (a version 1 archive's `.dir`); -1 if `checker` is not usable.
///
/// Pointers: `checker` is NULL or points to a readable `gts_checker`.
#[no_mangle]
pub unsafe extern "C" fn gts_checker_input(checker: *const gts_checker) -> i32 {
    // SAFETY: the caller's contract.
    unsafe {
        read(relay, checker, |s| match &s.reader {
            Reader::Archive(a) if a.input() == Input::Directory => crate::GTS_INPUT_DIR,
            _ => crate::GTS_INPUT_IMG,
        })
    }
    .unwrap_or(-1)
}

/// Reads the state of an initialised, idle checker.
///
/// # Safety
/// `checker` is NULL or points to a readable `gts_checker`.
unsafe fn read<S: FnMut(&Finding), R>(
    witness: Witness<S>,
    checker: *const gts_checker,
    f: impl FnOnce(&CheckerState<S>) -> R,
) -> Option<R> {
    // SAFETY: the caller's contract.
    let handle = unsafe { handle_of(checker, witness) };
    handle.ok().map(|h| h.read(f))
}

// The game bits are the core's.
const _: () = assert!(GTS_CHECK_III == Games::III.bits());

#[cfg(test)]
mod tests {
    //! The streaming checker called as a C host would: its findings equal `gts_check_memory`'s
    //! for every split of several files and archives, bytewise and in larger pieces.
    #![allow(clippy::undocumented_unsafe_blocks)]

    use super::*;
    use crate::check::{gts_check_memory, gts_finding};
    use core::mem::size_of;
    use testkit::check_cases::{cases, misses, Input};

    /// A finding as text: everything the callback gets.
    unsafe extern "C" fn collect(user: *mut c_void, finding: *const gts_finding) {
        let (found, f) = unsafe { (&mut *user.cast::<Vec<String>>(), &*finding) };
        let text = |p: *const c_char| match p.is_null() {
            true => "-".to_owned(),
            false => unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned(),
        };
        found.push(format!(
            "{} {} {:x} {} {} {} {} {} {} {} {}",
            f.rule,
            f.level,
            f.games,
            f.offset,
            text(f.entry),
            f.animation,
            text(f.animation_name),
            f.bone,
            text(f.bone_name),
            f.line,
            text(f.message)
        ));
    }

    fn memory(data: &[u8], name: &CStr) -> (Vec<String>, u32) {
        let mut found = Vec::new();
        let mut errors = 0;
        let status = unsafe {
            gts_check_memory(
                data.as_ptr(),
                data.len(),
                name.as_ptr(),
                0,
                Some(collect),
                (&mut found as *mut Vec<String>).cast(),
                &mut errors,
            )
        };
        assert_eq!(status, gts_status::GTS_OK);
        (found, errors)
    }

    /// The findings of `data` fed in pieces that end at `cuts` (offsets in the file) or after
    /// `chunk` bytes, following seeks.
    fn streamed(data: &[u8], name: &CStr, cuts: &[usize], chunk: usize) -> (Vec<String>, u32) {
        let mut found = Vec::new();
        let mut storage = Box::new(gts_checker {
            opaque: [0; GTS_CHECKER_WORDS],
        });
        let c: *mut gts_checker = &mut *storage;
        let user = (&mut found as *mut Vec<String>).cast();
        let status = unsafe {
            if data.starts_with(b"VER2") {
                let len = data.len() as u64;
                let size = size_of::<gts_checker>();
                gts_checker_init_archive(c, size, len, name.as_ptr(), 0, Some(collect), user)
            } else {
                gts_checker_init(
                    c,
                    size_of::<gts_checker>(),
                    name.as_ptr(),
                    0,
                    Some(collect),
                    user,
                )
            }
        };
        assert_eq!(status, gts_status::GTS_OK);
        let mut at = 0;
        while at < data.len() {
            let end = cuts
                .iter()
                .copied()
                .find(|&cut| cut > at)
                .unwrap_or(data.len())
                .min(at.saturating_add(chunk));
            let mut consumed = usize::MAX;
            let piece = &data[at..end];
            match unsafe { gts_checker_feed(c, piece.as_ptr(), piece.len(), &mut consumed) } {
                gts_status::GTS_OK => {
                    assert_eq!(consumed, piece.len());
                    at = end;
                }
                gts_status::GTS_SEEK => at = unsafe { gts_checker_position(c) } as usize,
                gts_status::GTS_DONE => break,
                other => panic!("feed: {other:?}"),
            }
        }
        let mut errors = u32::MAX;
        assert_eq!(
            unsafe { gts_checker_finish(c, &mut errors) },
            gts_status::GTS_OK
        );
        assert_eq!(unsafe { gts_checker_errors(c) }, errors);
        assert_eq!(unsafe { gts_checker_findings(c) } as usize, found.len());
        // Finished: further calls are refused.
        let status = unsafe { gts_checker_feed(c, data.as_ptr(), 0, core::ptr::null_mut()) };
        assert_eq!(status, gts_status::GTS_ERR_FINISHED);
        let status = unsafe { gts_checker_finish(c, core::ptr::null_mut()) };
        assert_eq!(status, gts_status::GTS_ERR_FINISHED);
        (found, errors)
    }

    /// Files with findings (and without), of every kind the checker reads.
    fn inputs() -> Vec<(&'static str, Vec<u8>)> {
        let mut inputs = testkit::ifp2::fixtures();
        inputs.retain(|(name, _)| {
            [
                "anp3_packed",
                "anp3_multi",
                "anp2_all_types",
                "anp3_all_types",
                "bad_magic",
                "unknown_type_5",
                "too_many_frames",
            ]
            .contains(name)
        });
        // Cut short: the decoder's error is a finding at the end.
        let multi = testkit::ifp2::anp3_multi().build();
        inputs.push(("cut.ifp", multi[..multi.len() - 5].to_vec()));
        let ipl =
            b"inst\n20000, x, 0, 0, 0, 0, 0, 0, 0, 1, -1\n1, y, 0, 0, 0, 0, 0, 0, 0, 1, 9\nend\n";
        inputs.push(("ids.ipl", ipl.to_vec()));
        // Two keys at one time, a first key after 0: a small stock-shaped block.
        let mut small = testkit::stock::sa_ped();
        small.animations.truncate(3);
        small.animations[1].bones[2].frames[0] = testkit::ifp2::p3([0, 0, 0, 4096], 12);
        inputs.push(("ped.ifp", small.build()));
        let mut img = testkit::img::Img::default();
        img.add("ped.ifp", &small.build());
        img.add("ids.ipl", ipl);
        img.add("spraycan.ifp", &testkit::ifp2::anp3_packed().build());
        inputs.push(("gta3.img", img.v2()));
        inputs
    }

    #[test]
    fn the_state_fits_with_room_for_more_rules() {
        type State = CheckerState<fn(&Finding)>;
        let state = size_of::<State>();
        assert!(state <= size_of::<gts_checker>(), "{state}");
        // Room for the rules' state to grow, not much more (the words are the host's memory).
        assert!(state + 4096 > size_of::<gts_checker>(), "{state}");
    }

    #[test]
    // Thousands of feeds of whole files: too slow under Miri, whose unsafe paths the other
    // tests of this module walk.
    #[cfg_attr(miri, ignore)]
    fn every_split_gives_the_findings_of_the_one_call() {
        let mut findings = 0;
        for (name, data) in inputs() {
            let cname = std::ffi::CString::new(name).unwrap();
            let whole = memory(&data, &cname);
            findings += whole.0.len();
            assert_eq!(
                streamed(&data, &cname, &[], usize::MAX),
                whole,
                "{name} whole"
            );
            assert_eq!(streamed(&data, &cname, &[], 1), whole, "{name} bytewise");
            let step = if cfg!(miri) { data.len() / 4 + 1 } else { 1 };
            for cut in (1..data.len()).step_by(step) {
                assert_eq!(
                    streamed(&data, &cname, &[cut], usize::MAX),
                    whole,
                    "{name} cut at {cut}"
                );
            }
        }
        // The inputs do have findings to compare.
        assert!(findings > 10, "{findings}");
    }

    /// A case's input fed through the streaming checker in pieces of at most `chunk` bytes
    /// (or ending at `cut`), following seeks and, for a version 1 archive, the switches
    /// between the `.dir` and the `.img`.
    fn streamed_case(input: &Input, cut: Option<usize>, chunk: usize) -> (Vec<String>, u8) {
        let mut found = Vec::new();
        let mut storage = Box::new(gts_checker {
            opaque: [0; GTS_CHECKER_WORDS],
        });
        let c: *mut gts_checker = &mut *storage;
        let user = (&mut found as *mut Vec<String>).cast();
        let size = size_of::<gts_checker>();
        let cname = |name: &str| std::ffi::CString::new(name).unwrap();
        let (dir, img): (&[u8], &[u8]) = match input {
            Input::File(_, data) | Input::FileFor(_, data, _) => (&[], data),
            Input::Img(img) | Input::ImgNamed(_, img) => (&[], img),
            Input::V1(dir, img) => (dir, img),
        };
        let status = unsafe {
            match input {
                Input::File(name, _) => {
                    let name = cname(name);
                    gts_checker_init(c, size, name.as_ptr(), 0, Some(collect), user)
                }
                Input::FileFor(name, _, games) => {
                    let name = cname(name);
                    let games = games.bits();
                    gts_checker_init(c, size, name.as_ptr(), games, Some(collect), user)
                }
                Input::Img(_) | Input::ImgNamed(..) => {
                    let name = cname(match input {
                        Input::ImgNamed(name, _) => name,
                        _ => "gta3.img",
                    });
                    let len = img.len() as u64;
                    gts_checker_init_archive(c, size, len, name.as_ptr(), 0, Some(collect), user)
                }
                Input::V1(..) => {
                    let (d, i) = (dir.len() as u64, img.len() as u64);
                    let name = core::ptr::null();
                    gts_checker_init_archive_v1(c, size, d, i, name, 0, Some(collect), user)
                }
            }
        };
        assert_eq!(status, gts_status::GTS_OK);
        let file = |c: *mut gts_checker| match unsafe { gts_checker_input(c) } {
            crate::GTS_INPUT_DIR => dir,
            _ => img,
        };
        let mut at = 0;
        loop {
            let data = file(c);
            if at >= data.len() {
                break;
            }
            let end = cut
                .filter(|&cut| cut > at)
                .unwrap_or(data.len())
                .min(data.len())
                .min(at.saturating_add(chunk));
            let piece = &data[at..end];
            let mut consumed = usize::MAX;
            match unsafe { gts_checker_feed(c, piece.as_ptr(), piece.len(), &mut consumed) } {
                gts_status::GTS_OK => {
                    assert_eq!(consumed, piece.len());
                    at = end;
                }
                gts_status::GTS_SEEK => at = unsafe { gts_checker_position(c) } as usize,
                gts_status::GTS_DONE => break,
                other => panic!("feed: {other:?}"),
            }
        }
        let mut errors = u32::MAX;
        let status = unsafe { gts_checker_finish(c, &mut errors) };
        assert_eq!(status, gts_status::GTS_OK);
        (found, unsafe { gts_checker_games(c) })
    }

    /// Every rule's case, its near miss and issue 30's misses (testkit::check_cases, which the
    /// core's tests run too): the streaming checker gives the core's findings (rule, games,
    /// offset) and games, whole, byte by byte, in 4 KiB pieces and split in two; the one call
    /// gives the same for what it reads (a file or a version 2 archive).
    #[test]
    // Thousands of feeds of whole files: too slow under Miri, whose unsafe paths the other
    // tests of this module walk.
    #[cfg_attr(miri, ignore)]
    fn every_rule_case_in_pieces_gives_the_cores_findings() {
        let mut inputs: Vec<(String, Input)> = Vec::new();
        for (rule, bad, good) in cases() {
            inputs.push((format!("{} fires", rule.id()), bad));
            inputs.push((format!("{} near miss", rule.id()), good));
        }
        inputs.extend(misses().into_iter().map(|(w, i)| (w.to_owned(), i)));
        if cfg!(miri) {
            inputs.truncate(6);
        }
        for (what, input) in &inputs {
            let core = input.findings();
            let whole = streamed_case(input, None, usize::MAX);
            let brief = |f: &[String]| -> Vec<String> {
                f.iter()
                    .map(|f| f.split(' ').take(4).collect::<Vec<_>>().join(" "))
                    .collect()
            };
            let expected: Vec<String> = core
                .iter()
                .map(|f| {
                    let level = crate::check::level(f.level());
                    format!(
                        "{} {} {:x} {}",
                        f.rule.code(),
                        level,
                        f.games.bits(),
                        f.offset
                    )
                })
                .collect();
            assert_eq!(brief(&whole.0), expected, "{what}");
            if let Input::File(name, data) | Input::FileFor(name, data, _) = input {
                let games = match input {
                    Input::FileFor(_, _, games) => games.bits(),
                    _ => 0,
                };
                let cname = std::ffi::CString::new(*name).unwrap();
                let mut found = Vec::new();
                let status = unsafe {
                    gts_check_memory(
                        data.as_ptr(),
                        data.len(),
                        cname.as_ptr(),
                        games,
                        Some(collect),
                        (&mut found as *mut Vec<String>).cast(),
                        core::ptr::null_mut(),
                    )
                };
                assert_eq!(status, gts_status::GTS_OK);
                assert_eq!(found, whole.0, "{what}: one call");
            }
            let len = input.len();
            let mut pieces = vec![(None, 4096), (Some(len / 2), usize::MAX)];
            if len <= 16 << 10 && !cfg!(miri) {
                pieces.push((None, 1));
            }
            if len <= 512 && !cfg!(miri) {
                pieces.extend((1..len).map(|cut| (Some(cut), usize::MAX)));
            }
            for (cut, chunk) in pieces {
                let got = streamed_case(input, cut, chunk);
                assert_eq!(got, whole, "{what}: cut {cut:?}, pieces of {chunk}");
            }
        }
    }

    /// A small file with findings, byte by byte and in pieces: what Miri walks of the
    /// streaming checker (the tests of whole corpora are too slow there).
    #[test]
    fn a_small_file_in_pieces_gives_the_one_calls_findings() {
        use testkit::ifp2::{AnimSpec, BoneSpec, FileSpec};
        let bone = BoneSpec::packed("Root", &[0, 5, 5]);
        let data = FileSpec::anp3("other", vec![AnimSpec::new("walk", vec![bone])]).build();
        let whole = memory(&data, c"walk.ifp");
        assert!(whole.0.len() >= 2, "{:?}", whole.0.len());
        for chunk in [1, 7, 4096] {
            assert_eq!(streamed(&data, c"walk.ifp", &[], chunk), whole, "{chunk}");
        }
    }

    #[test]
    // Thousands of feeds of whole files: too slow under Miri, whose unsafe paths the other
    // tests of this module walk.
    #[cfg_attr(miri, ignore)]
    fn a_stock_shaped_ped_in_pieces() {
        let data = testkit::stock::sa_ped().build();
        let whole = memory(&data, c"ped.ifp");
        assert!(whole.0.len() >= testkit::stock::SA_PED_ANIMATIONS * 2);
        for chunk in [1, 7, 64, 4096] {
            assert_eq!(streamed(&data, c"ped.ifp", &[], chunk), whole, "{chunk}");
        }
    }

    #[test]
    fn misuse_is_refused() {
        let mut storage = Box::new(gts_checker {
            opaque: [0; GTS_CHECKER_WORDS],
        });
        let c: *mut gts_checker = &mut *storage;
        let null: *mut c_void = core::ptr::null_mut();
        unsafe {
            let size = size_of::<gts_checker>();
            // Not initialised, NULL, wrong size, unknown games.
            let status = gts_checker_feed(c, b"x".as_ptr(), 1, null.cast());
            assert_eq!(status, gts_status::GTS_ERR_NOT_INITIALIZED);
            let status = gts_checker_init(null.cast(), size, core::ptr::null(), 0, None, null);
            assert_eq!(status, gts_status::GTS_ERR_INVALID_ARGUMENT);
            let status = gts_checker_init(c, size - 8, core::ptr::null(), 0, None, null);
            assert_eq!(status, gts_status::GTS_ERR_SIZE_MISMATCH);
            let status = gts_checker_init(c, size, core::ptr::null(), 0x10, None, null);
            assert_eq!(status, gts_status::GTS_ERR_INVALID_ARGUMENT);
            assert_eq!(gts_checker_position(core::ptr::null()), GTS_NO_OFFSET);
            assert_eq!(gts_checker_input(core::ptr::null()), -1);
            // No callback: only counted.
            let ipl = b"inst\n20000, x, 0, 0, 0, 0, 0, 0, 0, 1, -1\nend\n";
            let status = gts_checker_init(c, size, core::ptr::null(), 4, None, null);
            assert_eq!(status, gts_status::GTS_OK);
            let status = gts_checker_feed(c, ipl.as_ptr(), ipl.len(), null.cast());
            assert_eq!(status, gts_status::GTS_OK);
            let mut errors = 0;
            assert_eq!(gts_checker_finish(c, &mut errors), gts_status::GTS_OK);
            assert_eq!((errors, gts_checker_findings(c)), (1, 1));
        }
    }
}
