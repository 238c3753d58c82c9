//! `gts_mod_check` (issue 34, `check DIR` from C): a folder held in memory, served through the
//! C callbacks, gives the files, findings, unreadable files and summary of the core's `walk`
//! over the same files, and of `check_folder` on disk (what `gtastream check DIR` prints); bad
//! arguments, folders that cannot be walked, host failures and panics give their statuses,
//! and every file opened is closed.

use core::ffi::{c_char, c_int, c_void, CStr};
use core::fmt::Write as _;
use core::ptr::{null, null_mut};

use gtastream_core::check::json::write_message;
use gtastream_core::check::mods::ModFinding;
use gtastream_core::check::walk::{self, WalkEvent};
use gtastream_core::check::Level;
use gtastream_core::Game;
use testkit::folder::{Folder, MemFiles};

use super::fixtures::folders::{folders, iii, unique};
use crate::*;

/// The host: files in memory, matched as a level file names them (any case, either slash).
struct Host {
    files: MemFiles,
    /// Reads of the file of this name fail with this status (0: they say they read one byte
    /// more than asked for).
    failing: Option<(&'static [u8], c_int)>,
    opened: usize,
    closed: usize,
}

impl Host {
    fn new(folder: &Folder) -> Host {
        Host {
            files: MemFiles::read(folder),
            failing: None,
            opened: 0,
            closed: 0,
        }
    }

    fn find(&self, wanted: &[u8]) -> Option<usize> {
        self.files.find(wanted)
    }
}

// The handle of file `i` is the address `i + 1`, never dereferenced.
fn index(file: *mut c_void) -> usize {
    file as usize - 1
}

unsafe extern "C" fn open(user: *mut c_void, path: *const c_char, len: usize) -> *mut c_void {
    let host = unsafe { &mut *user.cast::<Host>() };
    let bytes = unsafe { core::slice::from_raw_parts(path.cast::<u8>(), len) };
    // The path is NUL-terminated too.
    assert_eq!(unsafe { CStr::from_ptr(path) }.to_bytes(), bytes);
    match host.find(bytes) {
        Some(i) => {
            host.opened += 1;
            core::ptr::without_provenance_mut(i + 1)
        }
        None => null_mut(),
    }
}

unsafe extern "C" fn length(user: *mut c_void, file: *mut c_void, out: *mut u64) -> c_int {
    let host = unsafe { &mut *user.cast::<Host>() };
    unsafe { out.write(host.files.file(index(file)).1.len() as u64) };
    0
}

unsafe extern "C" fn read_at(
    user: *mut c_void,
    file: *mut c_void,
    offset: u64,
    buffer: *mut u8,
    len: usize,
    read: *mut usize,
) -> c_int {
    let host = unsafe { &mut *user.cast::<Host>() };
    let (name, bytes) = host.files.file(index(file));
    if let Some((failing, status)) = host.failing {
        if name == failing {
            unsafe { read.write(len + 1) };
            return status;
        }
    }
    let from = (offset as usize).min(bytes.len());
    let n = len.min(bytes.len() - from);
    unsafe { core::ptr::copy_nonoverlapping(bytes[from..].as_ptr(), buffer, n) };
    unsafe { read.write(n) };
    0
}

unsafe extern "C" fn close(user: *mut c_void, _file: *mut c_void) {
    let host = unsafe { &mut *user.cast::<Host>() };
    host.closed += 1;
}

fn files_of(host: &mut Host) -> gts_mod_files {
    gts_mod_files {
        open: Some(open),
        length: Some(length),
        read_at: Some(read_at),
        close: Some(close),
        user: (host as *mut Host).cast(),
    }
}

/// A finding as the host sees it: file, other, rule, level, games, offset, line, entry,
/// animation, bone, message.
type Seen = (
    u32,
    Option<u32>,
    u32,
    c_int,
    u8,
    u64,
    u32,
    Option<String>,
    i64,
    i64,
    String,
);

/// What the callbacks were told.
#[derive(Debug, Default, PartialEq)]
struct Told {
    files: Vec<(u32, String)>,
    reading: Vec<(u32, u64)>,
    findings: Vec<Seen>,
    unreadable: Vec<(u32, String)>,
}

fn text(p: *const c_char, len: usize) -> String {
    let bytes = unsafe { core::slice::from_raw_parts(p.cast::<u8>(), len) };
    assert_eq!(unsafe { CStr::from_ptr(p) }.to_bytes(), bytes);
    String::from_utf8_lossy(bytes).into_owned()
}

fn optional(p: *const c_char) -> Option<String> {
    (!p.is_null()).then(|| unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned())
}

unsafe extern "C" fn on_file(user: *mut c_void, file: u32, path: *const c_char, len: usize) {
    let told = unsafe { &mut *user.cast::<Told>() };
    told.files.push((file, text(path, len)));
}

unsafe extern "C" fn on_reading(user: *mut c_void, file: u32, entries: u64) {
    let told = unsafe { &mut *user.cast::<Told>() };
    told.reading.push((file, entries));
}

unsafe extern "C" fn on_finding(user: *mut c_void, finding: *const gts_mod_finding) {
    let told = unsafe { &mut *user.cast::<Told>() };
    let m = unsafe { &*finding };
    let f = &m.finding;
    told.findings.push((
        m.file,
        m.has_other.then_some(m.other),
        f.rule,
        f.level,
        f.games,
        f.offset,
        f.line,
        optional(f.entry),
        f.animation,
        f.bone,
        optional(f.message).unwrap(),
    ));
}

unsafe extern "C" fn on_unreadable(
    user: *mut c_void,
    file: u32,
    reason: *const c_char,
    len: usize,
) {
    let told = unsafe { &mut *user.cast::<Told>() };
    told.unreadable.push((file, text(reason, len)));
}

fn callbacks_of(told: &mut Told) -> gts_mod_callbacks {
    gts_mod_callbacks {
        on_file: Some(on_file),
        on_reading: Some(on_reading),
        on_finding: Some(on_finding),
        on_unreadable: Some(on_unreadable),
        user: (told as *mut Told).cast(),
    }
}

/// A summary: game, files, entries, errors.
type Summary = (gts_game, u32, u64, u32);

/// Tables for any game, in `u64`s (so aligned).
fn tables() -> Vec<u64> {
    vec![0u64; gts_mod_tables_size(gts_game::GTS_GAME_AUTO as c_int).div_ceil(8)]
}

/// `gts_mod_check` over the host for `game`: its status, what it told, its summary.
fn check_c(host: &mut Host, game: gts_game) -> (gts_status, Told, Option<Summary>) {
    let files = files_of(host);
    let mut told = Told::default();
    let callbacks = callbacks_of(&mut told);
    let mut tables = tables();
    let mut summary = core::mem::MaybeUninit::<gts_mod_summary>::uninit();
    let status = unsafe {
        gts_mod_check(
            &files,
            game as c_int,
            tables.as_mut_ptr().cast(),
            tables.len() * 8,
            &callbacks,
            summary.as_mut_ptr(),
        )
    };
    let summary = (status == gts_status::GTS_OK).then(|| {
        let s = unsafe { summary.assume_init() };
        (s.game, s.files, s.entries, s.errors)
    });
    (status, told, summary)
}

fn seen(m: &ModFinding) -> Seen {
    let f = &m.finding;
    let mut message = String::new();
    write_message(&mut message, f).unwrap();
    let level = match f.level() {
        Level::Note => GTS_LEVEL_NOTE,
        Level::Warning => GTS_LEVEL_WARNING,
        Level::Error => GTS_LEVEL_ERROR,
    };
    let c = &f.context;
    (
        m.file,
        m.other,
        f.rule.code(),
        level,
        f.games.bits(),
        f.offset,
        c.line.unwrap_or(0),
        c.entry
            .map(|e| String::from_utf8_lossy(e.name.as_bytes()).into_owned()),
        c.animation.map_or(-1, |a| i64::from(a.index)),
        c.bone.map_or(-1, |b| i64::from(b.index)),
        message,
    )
}

/// The core's walk over the same files: what it tells, its summary.
fn check_core(folder: &Folder, game: Game) -> (Told, (u32, u64, u32)) {
    let mut files = MemFiles::read(folder);
    let mut names =
        vec![gtastream_core::check::mods::NameSlot::EMPTY; gtastream_core::check::mods::NAME_SLOTS];
    let mut ids = vec![
        gtastream_core::check::mods::IdSlot::EMPTY;
        gtastream_core::check::mods::model_ids(game)
    ];
    let mut told = Told::default();
    let summary = walk::walk(
        &mut files,
        game,
        &mut names,
        &mut ids,
        |event| match event {
            WalkEvent::File { file, path } => told
                .files
                .push((file, String::from_utf8_lossy(path).into_owned())),
            WalkEvent::Reading { file, entries } => told.reading.push((file, entries)),
            WalkEvent::Finding(m) => told.findings.push(seen(m)),
            WalkEvent::Unreadable { file, reason } => {
                let mut why = String::new();
                write!(why, "{reason}").unwrap();
                told.unreadable.push((file, why));
            }
            _ => {}
        },
    )
    .unwrap();
    (told, (summary.files, summary.entries, summary.errors))
}

fn c_game(game: Game) -> gts_game {
    match game {
        Game::Iii => gts_game::GTS_GAME_III,
        Game::ViceCity => gts_game::GTS_GAME_VC,
        Game::SanAndreas => gts_game::GTS_GAME_SA,
    }
}

#[test]
fn mod_check_from_c_tells_what_the_core_walk_tells() {
    let mut rules = std::collections::HashSet::new();
    let mut unreadable = 0;
    for (folder, game) in folders() {
        let (expected, (files, entries, errors)) = check_core(&folder, game);
        // Under Miri, one walk per folder: the game's name changes no unsafe code.
        let games = if cfg!(miri) { 1 } else { 2 };
        for named in [gts_game::GTS_GAME_AUTO, c_game(game)]
            .into_iter()
            .take(games)
        {
            let mut host = Host::new(&folder);
            let (status, told, summary) = check_c(&mut host, named);
            assert_eq!(status, gts_status::GTS_OK, "{game:?}");
            assert_eq!(told, expected, "{game:?}");
            assert_eq!(summary, Some((c_game(game), files, entries, errors)));
            assert_eq!(host.opened, host.closed, "every file opened is closed");
            assert!(host.opened > 0);
        }
        rules.extend(expected.findings.iter().map(|f| f.2));
        unreadable += expected.unreadable.len();
        // A walk with no callbacks and no summary reads the same files.
        let mut host = Host::new(&folder);
        let files = files_of(&mut host);
        let mut tables = tables();
        let status = unsafe {
            gts_mod_check(
                &files,
                0,
                tables.as_mut_ptr().cast(),
                tables.len() * 8,
                null(),
                null_mut(),
            )
        };
        assert_eq!(status, gts_status::GTS_OK);
        assert_eq!(host.opened, host.closed);
    }
    // The folders show findings of several rules and an unreadable archive.
    if !cfg!(miri) {
        assert!(rules.len() >= 4, "{rules:?}");
        assert!(unreadable >= 1);
    }
}

/// What `gtastream check DIR` reports (the core's `check_folder` on disk) is what the C host
/// is told: the files, each finding with its path and other path, the unreadable files, the
/// counts.
#[cfg(not(miri))]
#[test]
fn mod_check_from_c_matches_check_folder_on_disk() {
    use gtastream_core::check::folder::{check_folder, FolderOptions};
    for (folder, game) in folders() {
        let report = check_folder(&folder.root, &FolderOptions::default(), &mut |_, _| {}).unwrap();
        let mut host = Host::new(&folder);
        let (status, told, summary) = check_c(&mut host, gts_game::GTS_GAME_AUTO);
        assert_eq!(status, gts_status::GTS_OK);
        assert_eq!(report.game, game);
        let paths: Vec<String> = told.files.iter().map(|(_, p)| p.clone()).collect();
        assert_eq!(paths, report.files, "{game:?}");
        let findings: Vec<Seen> = report.findings.iter().map(seen).collect();
        assert_eq!(told.findings, findings, "{game:?}");
        let unreadable: Vec<(String, String)> = told
            .unreadable
            .iter()
            .map(|(file, why)| (paths[*file as usize].clone(), why.clone()))
            .collect();
        assert_eq!(unreadable, report.unreadable);
        let errors = report
            .findings
            .iter()
            .filter(|f| f.finding.level() == Level::Error)
            .count() as u32;
        assert_eq!(
            summary,
            Some((
                c_game(game),
                report.files.len() as u32,
                report.entries,
                errors
            ))
        );
    }
}

#[test]
fn mod_check_refuses_bad_arguments() {
    let folder = iii();
    let mut host = Host::new(&folder);
    let files = files_of(&mut host);
    let mut tables = tables();
    let len = gts_mod_tables_size(gts_game::GTS_GAME_III as c_int);
    assert!(len > 0 && len <= tables.len() * 8);
    assert!(gts_mod_tables_size(gts_game::GTS_GAME_SA as c_int) > len);
    assert_eq!(
        gts_mod_tables_size(gts_game::GTS_GAME_AUTO as c_int),
        gts_mod_tables_size(gts_game::GTS_GAME_SA as c_int)
    );
    assert_eq!(gts_mod_tables_size(4), 0);
    assert_eq!(gts_mod_tables_size(-1), 0);
    let table = tables.as_mut_ptr().cast::<c_void>();
    let mut summary = core::mem::MaybeUninit::<gts_mod_summary>::uninit();
    let check = |files: *const gts_mod_files,
                 game: c_int,
                 tables: *mut c_void,
                 len: usize,
                 summary: *mut gts_mod_summary| unsafe {
        gts_mod_check(files, game, tables, len, null(), summary)
    };
    let invalid = gts_status::GTS_ERR_INVALID_ARGUMENT;
    let iii = gts_game::GTS_GAME_III as c_int;
    let s = summary.as_mut_ptr();
    assert_eq!(check(null(), iii, table, len, s), invalid);
    assert_eq!(check(&files, iii, null_mut(), len, s), invalid);
    assert_eq!(check(&files, iii, table, len - 1, s), invalid, "too small");
    let off = unsafe { table.cast::<u8>().add(4) }.cast();
    assert_eq!(check(&files, iii, off, len, s), invalid, "misaligned");
    assert_eq!(check(&files, 4, table, len, s), invalid, "no game");
    assert_eq!(check(&files, -1, table, len, s), invalid, "no game");
    let odd = unsafe { s.cast::<u8>().add(1) }.cast();
    assert_eq!(
        check(&files, iii, table, len, odd),
        invalid,
        "misaligned summary"
    );
    for missing in 0..4 {
        let mut broken = files;
        match missing {
            0 => broken.open = None,
            1 => broken.length = None,
            2 => broken.read_at = None,
            _ => broken.close = None,
        }
        assert_eq!(
            check(&broken, iii, table, len, s),
            invalid,
            "function {missing}"
        );
        let mut game = gts_game::GTS_GAME_SA;
        assert_eq!(unsafe { gts_mod_find_game(&broken, &mut game) }, invalid);
    }
    let mut game = gts_game::GTS_GAME_SA;
    assert_eq!(unsafe { gts_mod_find_game(null(), &mut game) }, invalid);
    assert_eq!(unsafe { gts_mod_find_game(&files, null_mut()) }, invalid);
    // Nothing was opened by a refused call; the exact size is enough.
    assert_eq!(host.opened, 0);
    assert_eq!(check(&files, iii, table, len, s), gts_status::GTS_OK);
    assert_eq!(
        unsafe { summary.assume_init() }.game,
        gts_game::GTS_GAME_III
    );
    assert_eq!(host.opened, host.closed);
}

#[test]
fn mod_check_folders_that_cannot_be_walked() {
    let status_of = |folder: &Folder, game: gts_game| {
        let mut host = Host::new(folder);
        let (status, told, summary) = check_c(&mut host, game);
        assert_eq!(told, Told::default(), "nothing told");
        assert_eq!(summary, None);
        assert_eq!(host.opened, host.closed);
        let mut found = gts_game::GTS_GAME_AUTO;
        let find = unsafe { gts_mod_find_game(&files_of(&mut host), &mut found) };
        (status, find, found)
    };
    let empty = Folder::new(&unique("capi-empty"));
    empty.write("readme.txt", b"not a game");
    let (status, find, _) = status_of(&empty, gts_game::GTS_GAME_AUTO);
    assert_eq!(
        (status, find),
        (gts_status::GTS_ERR_NO_GAME, gts_status::GTS_ERR_NO_GAME)
    );

    let two = iii();
    two.write("data/gta_vc.dat", b"");
    let (status, find, _) = status_of(&two, gts_game::GTS_GAME_AUTO);
    assert_eq!(status, gts_status::GTS_ERR_SEVERAL_GAMES);
    assert_eq!(find, gts_status::GTS_ERR_SEVERAL_GAMES);
    // Named, either game is walked.
    let mut host = Host::new(&two);
    assert_eq!(
        check_c(&mut host, gts_game::GTS_GAME_III).0,
        gts_status::GTS_OK
    );

    // The level file of the game named is missing.
    let (status, find, found) = status_of(&iii(), gts_game::GTS_GAME_VC);
    assert_eq!(status, gts_status::GTS_ERR_NO_LEVEL_FILE);
    assert_eq!((find, found), (gts_status::GTS_OK, gts_game::GTS_GAME_III));
    for status in [
        gts_status::GTS_ERR_NO_GAME,
        gts_status::GTS_ERR_SEVERAL_GAMES,
        gts_status::GTS_ERR_NO_LEVEL_FILE,
    ] {
        let name = unsafe { CStr::from_ptr(gts_status_name(status as c_int)) };
        assert_eq!(name.to_str().unwrap(), format!("{status:?}"));
    }
}

#[test]
fn mod_check_host_failures_and_panics() {
    // A failing read: the file is unreadable with the host's status, the walk goes on.
    let folder = iii();
    let mut host = Host::new(&folder);
    host.failing = Some((b"data/maps/a.ipl", 5));
    let (status, told, _) = check_c(&mut host, gts_game::GTS_GAME_III);
    assert_eq!(status, gts_status::GTS_OK);
    let ipl = told
        .files
        .iter()
        .find(|(_, p)| p == "DATA\\MAPS\\A.IPL")
        .unwrap()
        .0;
    assert_eq!(
        told.unreadable,
        [(
            ipl,
            "read error: the host's file function failed (5)".to_string()
        )]
    );
    assert_eq!(host.opened, host.closed);
    // A read that says it gave more bytes than the buffer holds is a failure too.
    let mut host = Host::new(&folder);
    host.failing = Some((b"data/maps/a.ipl", 0));
    let (status, told, _) = check_c(&mut host, gts_game::GTS_GAME_III);
    assert_eq!(status, gts_status::GTS_OK);
    assert_eq!(
        told.unreadable,
        [(
            ipl,
            "read error: the host's read gave more bytes than asked for".to_string()
        )]
    );

    // A panic inside the walk stops at the boundary, every open file closed.
    let mut host = Host::new(&folder);
    super::PANIC_NEXT.with(|p| p.set(true));
    let (status, _, summary) = check_c(&mut host, gts_game::GTS_GAME_III);
    assert_eq!(status, gts_status::GTS_ERR_PANIC);
    assert_eq!(summary, None);
    assert!(host.opened > 0);
    assert_eq!(host.opened, host.closed);
}

/// A JSON string of `text`, escaped as the CLI's document escapes it.
fn json_string(text: impl Iterator<Item = char>) -> String {
    let mut out = String::from("\"");
    for c in text {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => write!(out, "\\u{:04x}", c as u32).unwrap(),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The finding objects and the folder's fields of `gtastream check --json DIR`, written from
/// nothing but what the C host was told.
fn json_of(told: &Told, summary: Summary) -> (Vec<String>, String) {
    let path = |file: u32| json_string(told.files[file as usize].1.chars());
    let index = |i: i64| {
        if i < 0 {
            "null".to_string()
        } else {
            i.to_string()
        }
    };
    let findings = told
        .findings
        .iter()
        .map(|(file, other, rule, level, games, offset, line, entry, animation, bone, message)| {
            let mut info = core::mem::MaybeUninit::<gts_rule>::uninit();
            assert_eq!(unsafe { gts_rule_info(*rule, info.as_mut_ptr()) }, gts_status::GTS_OK);
            let id = unsafe { CStr::from_ptr(info.assume_init().id) }.to_str().unwrap();
            let severity = ["note", "warning", "error"][*level as usize];
            let games: Vec<String> = ["iii", "vc", "sa", "mta"]
                .iter()
                .enumerate()
                .filter(|(bit, _)| games & (1 << bit) != 0)
                .map(|(_, name)| format!("\"{name}\""))
                .collect();
            let entry = entry
                .as_ref()
                .map_or("null".into(), |e| json_string(e.bytes().map(char::from)));
            format!(
                "    {{\"rule\": \"{id}\", \"severity\": \"{severity}\", \"games\": [{}], \"offset\": {offset}, \"entry\": {entry}, \"animation\": {}, \"bone\": {}, \"message\": {}, \"path\": {}, \"line\": {}, \"other\": {}}}",
                games.join(", "),
                index(*animation),
                index(*bone),
                json_string(message.chars()),
                path(*file),
                if *line == 0 { "null".into() } else { line.to_string() },
                other.map_or("null".into(), path),
            )
        })
        .collect();
    let (game, files, entries, _) = summary;
    let game = ["", "iii", "vc", "sa"][game as usize];
    let unreadable: Vec<String> = told
        .unreadable
        .iter()
        .map(|(file, why)| {
            format!(
                "{{\"path\": {}, \"reason\": {}}}",
                path(*file),
                json_string(why.chars())
            )
        })
        .collect();
    let tail = format!(
        "\"game\": \"{game}\", \"files\": {files}, \"entries\": {entries}, \"unreadable\": [{}]",
        unreadable.join(", ")
    );
    (findings, tail)
}

/// The document `gtastream check --json DIR` prints (the core's `write_folder_document`, the
/// same code) holds the findings and folder fields the C host can write from its callbacks:
/// one structure everywhere.
#[cfg(not(miri))]
#[test]
fn mod_check_from_c_gives_the_json_of_check_dir() {
    use gtastream_core::check::folder::DirFiles;
    use gtastream_core::check::json::write_folder_document;
    for (folder, game) in folders() {
        let mut document = String::new();
        let mut files = DirFiles::new(&folder.root, None);
        write_folder_document(&mut document, &mut files, "DIR", None).unwrap();
        let mut host = Host::new(&folder);
        let (status, told, summary) = check_c(&mut host, gts_game::GTS_GAME_AUTO);
        assert_eq!(status, gts_status::GTS_OK);
        let (findings, tail) = json_of(&told, summary.unwrap());
        let listed: Vec<&str> = document
            .lines()
            // The findings (the groups' lines, which also start so, name no path).
            .filter(|l| l.starts_with("    {\"rule\"") && l.contains("\"path\": "))
            .map(|l| l.trim_end_matches(','))
            .collect();
        assert_eq!(listed, findings, "{game:?}\n{document}");
        assert!(document.contains(&tail), "{game:?}: {tail}\n{document}");
        let verdict = if summary.unwrap().3 > 0 {
            "fails"
        } else {
            "loads"
        };
        assert!(
            document.contains(&format!("\"verdict\": \"{verdict}\"")),
            "{document}"
        );
    }
}
