//! Builds the C and C++ examples (`c-examples/`, through its Makefile) against the C library
//! with `-Wall -Wextra -Werror -pedantic` as C99 and C++17, runs them on files of every format
//! written here, and checks their output against what the Rust decoder reports for the same
//! files. Three builds: static linking, shared linking, and static linking under
//! AddressSanitizer and UndefinedBehaviorSanitizer. A C harness linked with the allocator
//! wrapped proves that the library calls no allocator.
//!
//! The library is built first with a nested `cargo build --release -p gtastream-ffi` (for the
//! target these tests run on: with `--target i686-unknown-linux-gnu` the examples get `-m32`),
//! because cargo builds no `staticlib`/`cdylib` for a crate's own integration tests.
//!
//! Needs `make`, `cc` and `c++` (for `-m32`: gcc-multilib and g++-multilib).

mod archive_example;
mod fixtures;
// The benchmark generator (`benches/inputs/mod.rs`) names the core `gtastream`.
extern crate gtastream_core as gtastream;
#[path = "../../benches/inputs/mod.rs"]
mod inputs;

use gtastream::Record;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;

use gtastream_core::{
    AnimationInfo, BoneInfo, Decoder, Error, FileInfo, Flow, Keyframes, Options, Package, Status,
    Visitor, Warning,
};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("ffi/ lies in the repository")
        .to_path_buf()
}

/// Whether this test (and so the library and the examples) is built for 32-bit x86.
const M32: bool = cfg!(target_pointer_width = "32");

/// Builds the C library once, for the target this test runs on; returns the directory that
/// holds `libgtastream.a` and `libgtastream.so`.
fn library() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let target = env!("GTS_BUILD_TARGET");
        let cross = target != env!("GTS_BUILD_HOST");
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        let mut build = Command::new(cargo);
        build
            .current_dir(repo())
            .args(["build", "--release", "--quiet", "-p", "gtastream-ffi"]);
        if cross {
            build.args(["--target", target]);
        }
        run_ok(&mut build, "cargo build of the C library");
        let target_dir = std::env::var_os("CARGO_TARGET_DIR")
            .map(PathBuf::from)
            .unwrap_or_else(|| repo().join("target"));
        let dir = if cross {
            target_dir.join(target).join("release")
        } else {
            target_dir.join("release")
        };
        for lib in ["libgtastream.a", "libgtastream.so"] {
            assert!(
                dir.join(lib).is_file(),
                "{} is missing",
                dir.join(lib).display()
            );
        }
        dir
    })
}

#[track_caller]
fn run_ok(command: &mut Command, what: &str) -> Output {
    let output = command
        .output()
        .unwrap_or_else(|e| panic!("{what}: cannot run {command:?}: {e}"));
    assert!(
        output.status.success(),
        "{what} failed ({}):\n{command:?}\nstdout:\n{}\nstderr:\n{}",
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

/// A scratch directory of this test binary, emptied.
fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("c-examples-{}", env!("GTS_BUILD_TARGET")))
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

/// The test files, written once into a scratch directory.
fn files() -> &'static [(String, PathBuf, Vec<u8>)] {
    static FILES: OnceLock<Vec<(String, PathBuf, Vec<u8>)>> = OnceLock::new();
    FILES.get_or_init(|| {
        let dir = scratch("files");
        fixtures::all()
            .into_iter()
            .chain(fixtures::damaged())
            .map(|f| {
                let path = dir.join(f.name);
                std::fs::write(&path, &f.bytes).expect("write a test file");
                (f.name.to_string(), path, f.bytes)
            })
            .collect()
    })
}

fn file(name: &str) -> &'static (String, PathBuf, Vec<u8>) {
    files()
        .iter()
        .find(|f| f.0 == name)
        .unwrap_or_else(|| panic!("no file {name}"))
}

const VALID: [&str; 7] = [
    "walk.ifp",
    "floats.ifp",
    "vc_ped.ifp",
    "forward.anim",
    "backward.anim",
    "sector.ipl",
    "map.ipl",
];
const ANIMATIONS: [&str; 5] = [
    "walk.ifp",
    "floats.ifp",
    "vc_ped.ifp",
    "forward.anim",
    "backward.anim",
];
const DAMAGED: [&str; 5] = [
    "truncated.ifp",
    "bad_type.ifp",
    "sloppy.ifp",
    "bad.ipl",
    "garbage.bin",
];

/// Builds the examples with the Makefile into a new directory.
fn build_examples(variant: &str, link: &str, extra: &str) -> PathBuf {
    let out = scratch(variant);
    let extra = if M32 {
        format!("-m32 {extra}")
    } else {
        extra.to_string()
    };
    run_ok(
        Command::new("make")
            .current_dir(repo().join("c-examples"))
            .arg(format!("OUT={}", out.display()))
            .arg(format!("LIBDIR={}", library().display()))
            .arg(format!("LINK={link}"))
            .arg(format!("EXTRA={extra}"))
            .arg("--no-print-directory"),
        &format!("make ({variant})"),
    );
    out
}

/// Exit code of a program that valgrind found an error in (distinct from the examples' own).
const VALGRIND_ERROR: i32 = 97;

/// With `GTS_VALGRIND` set (CI step "C: examples under valgrind"), the programs of the 64-bit
/// builds without sanitizers run under `valgrind --leak-check=full`: the log file it writes
/// (quiet: errors and leaks only) for this run, which must stay empty.
fn valgrind_log(bin: &Path, program: &str) -> Option<PathBuf> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static RUNS: AtomicUsize = AtomicUsize::new(0);
    let sanitized = bin.to_string_lossy().contains("sanitizers");
    if std::env::var_os("GTS_VALGRIND").is_none() || M32 || sanitized {
        return None;
    }
    let n = RUNS.fetch_add(1, Ordering::Relaxed);
    Some(bin.join(format!("valgrind-{program}-{n}.log")))
}

/// Runs an example; returns its exit code, stdout and stderr.
fn run(bin: &Path, program: &str, args: &[&Path], stdin: Option<&Path>) -> (i32, String, String) {
    let valgrind = valgrind_log(bin, program);
    let mut command = match &valgrind {
        Some(log) => {
            let mut command = Command::new("valgrind");
            command
                .arg("-q")
                .arg("--leak-check=full")
                .arg(format!("--error-exitcode={VALGRIND_ERROR}"))
                .arg(format!("--log-file={}", log.display()))
                .arg(bin.join(program));
            command
        }
        None => Command::new(bin.join(program)),
    };
    command.args(args);
    if let Some(input) = stdin {
        command.stdin(Stdio::from(std::fs::File::open(input).expect("stdin file")));
    }
    // A sanitizer report is an error exit, whatever the program would have returned.
    command.env("ASAN_OPTIONS", "exitcode=99:abort_on_error=0");
    command.env(
        "UBSAN_OPTIONS",
        "print_stacktrace=1:halt_on_error=1:exitcode=98",
    );
    let output = command
        .output()
        .unwrap_or_else(|e| panic!("cannot run {program}: {e}"));
    let code = output.status.code().unwrap_or(-1);
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(
        !stderr.contains("Sanitizer") && !stderr.contains("runtime error"),
        "{program} {args:?}: sanitizer report:\n{stderr}"
    );
    if let Some(log) = valgrind {
        let report = std::fs::read_to_string(&log).unwrap_or_else(|e| panic!("{log:?}: {e}"));
        assert!(
            code != VALGRIND_ERROR && report.trim().is_empty(),
            "{program} {args:?}: valgrind report (exit code {code}):\n{report}"
        );
    }
    (code, stdout, stderr)
}

// ---------------------------------------------------------------------------------------------
// What the examples should print, from the Rust decoder.

fn decode(data: &[u8], seekable: bool, visitor: &mut impl Visitor) -> Result<(), Error> {
    Decoder::with_options(Options {
        can_seek: seekable,
        ..Options::DEFAULT
    })
    .decode_slice(data, visitor)
}

/// Example 1: counts and warnings.
#[derive(Default)]
struct Summary {
    format: String,
    name: Option<String>,
    counts: [usize; 7],
    warnings: String,
}

impl Visitor for Summary {
    fn file(&mut self, info: &FileInfo<'_>) -> Flow {
        self.format = info.format.name().into();
        self.name = info.name.map(|n| String::from_utf8_lossy(n).into_owned());
        Flow::Continue
    }
    fn animation(&mut self, _: &AnimationInfo<'_>) -> Flow {
        self.counts[0] += 1;
        Flow::Continue
    }
    fn bone(&mut self, _: &BoneInfo<'_>) -> Flow {
        self.counts[1] += 1;
        Flow::Continue
    }
    fn keyframes(&mut self, frames: Keyframes<'_>) -> Flow {
        self.counts[2] += frames.len();
        Flow::Continue
    }
    fn record(&mut self, record: &Record<'_>) -> Flow {
        match record {
            Record::Instance(_) => {
                self.counts[3] += 1;
                Flow::Continue
            }
            Record::Car(_) => {
                self.counts[4] += 1;
                Flow::Continue
            }
            Record::SectionLine(_) => {
                self.counts[5] += 1;
                Flow::Continue
            }
            _ => Flow::Continue,
        }
    }
    fn warning(&mut self, w: Warning) -> Flow {
        self.counts[6] += 1;
        writeln!(
            self.warnings,
            "warning: {} at offset {}",
            w.kind.reason(),
            w.offset
        )
        .unwrap();
        Flow::Continue
    }
}

fn expected_summary(data: &[u8]) -> String {
    let mut s = Summary::default();
    decode(data, true, &mut s).expect("a valid file");
    let mut out = s.warnings.clone();
    writeln!(out, "format: {}", s.format).unwrap();
    writeln!(out, "name: {}", s.name.as_deref().unwrap_or("-")).unwrap();
    let labels = [
        "animations",
        "bones",
        "keyframes",
        "instances",
        "cars",
        "section lines",
        "warnings",
    ];
    for (label, n) in labels.iter().zip(s.counts) {
        writeln!(out, "{label}: {n}").unwrap();
    }
    out
}

/// Example 2: one line per animation, paused after each, with the position there.
#[derive(Default)]
struct PerAnimation {
    lines: Vec<String>,
    current: (u32, String, usize, usize),
}

impl Visitor for PerAnimation {
    fn animation(&mut self, info: &AnimationInfo<'_>) -> Flow {
        self.current = (
            info.index,
            String::from_utf8_lossy(info.name).into_owned(),
            0,
            0,
        );
        Flow::Continue
    }
    fn bone(&mut self, _: &BoneInfo<'_>) -> Flow {
        self.current.2 += 1;
        Flow::Continue
    }
    fn keyframes(&mut self, frames: Keyframes<'_>) -> Flow {
        self.current.3 += frames.len();
        Flow::Continue
    }
    fn animation_end(&mut self) -> Flow {
        let (index, name, bones, frames) = &self.current;
        self.lines.push(format!(
            "animation {index} {name}: {bones} bones, {frames} keyframes; paused at offset "
        ));
        Flow::Pause
    }
}

fn expected_static_pause(data: &[u8]) -> String {
    let mut v = PerAnimation::default();
    let mut decoder = Decoder::new();
    let mut at = 0;
    let mut positions = Vec::new();
    loop {
        let progress = decoder.feed(&data[at..], &mut v).expect("a valid file");
        match progress.status {
            Status::Paused => {
                at += progress.consumed;
                positions.push(decoder.position());
            }
            Status::Seek(to) => at = to as usize,
            Status::NeedInput | Status::Done => break,
        }
    }
    decoder.finish(&mut v).expect("a valid file");
    let mut out = String::from("before init: GTS_ERR_NOT_INITIALIZED\n");
    for (line, position) in v.lines.iter().zip(&positions) {
        writeln!(out, "{line}{position}").unwrap();
    }
    writeln!(out, "done: {} animations", v.lines.len()).unwrap();
    out
}

/// Example 3: warnings, then "ok" or the error, per file.
#[derive(Default)]
struct Report {
    out: String,
    records: usize,
}

impl Visitor for Report {
    fn animation(&mut self, _: &AnimationInfo<'_>) -> Flow {
        self.records += 1;
        Flow::Continue
    }
    fn record(&mut self, record: &Record<'_>) -> Flow {
        match record {
            Record::Instance(_) => {
                self.records += 1;
                Flow::Continue
            }
            _ => Flow::Continue,
        }
    }
    fn warning(&mut self, w: Warning) -> Flow {
        writeln!(
            self.out,
            "warning: {}: {} at offset {}",
            w.kind.name(),
            w.kind.reason(),
            w.offset
        )
        .unwrap();
        Flow::Continue
    }
}

fn expected_errors(names: &[&str]) -> (String, bool) {
    let mut out = String::new();
    let mut failed = false;
    for name in names {
        let (_, path, data) = file(name);
        writeln!(out, "== {}", path.display()).unwrap();
        let mut report = Report::default();
        let mut decoder = Decoder::new();
        // The core's context of the error: the animation and bone the C decoder names.
        let result = gtastream_core::context::decode_slice(&mut decoder, data, &mut report);
        out.push_str(&report.out);
        match result {
            Ok(()) => writeln!(out, "ok: {} records", report.records).unwrap(),
            Err(failure) => {
                let e = failure.error;
                failed = true;
                let status = format!("GTS_ERR_{}", e.kind.name().to_uppercase());
                write!(
                    out,
                    "error: {status}: {} at offset {}",
                    e.kind.reason(),
                    e.offset
                )
                .unwrap();
                if let Some(line) = decoder.line().filter(|&l| l > 0) {
                    write!(out, " (line {line})").unwrap();
                }
                if let Some(animation) = failure.context.animation {
                    write!(out, " (animation {}", animation.index).unwrap();
                    if let Some(bone) = failure.context.bone {
                        write!(out, ", bone {}", bone.index).unwrap();
                    }
                    out.push(')');
                }
                out.push('\n');
            }
        }
    }
    (out, failed)
}

/// Example 4: the animation table.
fn expected_table(data: &[u8]) -> String {
    let package = Package::parse(data).expect("an animation file");
    let name = package
        .name
        .as_deref()
        .filter(|n| !n.is_empty())
        .unwrap_or("-");
    let mut out = format!(
        "package {name} ({}): {} animations\n",
        package.format.name(),
        package.animations.len()
    );
    for a in &package.animations {
        let length = a.duration.unwrap_or_else(|| {
            a.bones
                .iter()
                .filter_map(|b| b.frames.last())
                .fold(0.0f32, |end, f| end.max(f.time))
        });
        writeln!(out, "{}: {} bones, {length:.4} s", a.name, a.bones.len()).unwrap();
        for (i, b) in a.bones.iter().enumerate() {
            match &b.name {
                Some(name) => write!(out, "  {name}").unwrap(),
                None => write!(out, "  #{i}").unwrap(),
            }
            if let Some(id) = b.bone_id {
                write!(out, " id {id}").unwrap();
            }
            if let Some(key) = b.bone_key {
                write!(out, " key {key:08x}").unwrap();
            }
            write!(out, ": {} keyframes", b.frames.len()).unwrap();
            if b.frame_type.has_translation() {
                out.push_str(", translation");
            }
            if b.frame_type.has_scale() {
                out.push_str(", scale");
            }
            if let Some(last) = b.frames.last() {
                let [x, y, z, w] = last.rotation;
                write!(
                    out,
                    ", last at {:.4} s: rotation {x:.4} {y:.4} {z:.4} {w:.4}",
                    last.time
                )
                .unwrap();
            }
            out.push('\n');
        }
    }
    out
}

/// Example 5: animations, bones and seeks, read 4 KiB at a time as the C program reads.
#[derive(Default)]
struct Trace(String);

impl Visitor for Trace {
    fn animation(&mut self, info: &AnimationInfo<'_>) -> Flow {
        write!(
            self.0,
            "animation {} {}: {} bones",
            info.index,
            String::from_utf8_lossy(info.name),
            info.bone_count
        )
        .unwrap();
        if let Some(d) = info.duration {
            write!(self.0, ", {d:.4} s").unwrap();
        }
        self.0.push('\n');
        Flow::Continue
    }
    fn bone(&mut self, info: &BoneInfo<'_>) -> Flow {
        write!(self.0, "  bone {}", info.index).unwrap();
        if let Some(key) = info.bone_key {
            write!(self.0, " key {key:08x}").unwrap();
        }
        if let Some(id) = info.bone_id {
            write!(self.0, " id {id}").unwrap();
        }
        writeln!(
            self.0,
            ": {} keyframes{}",
            info.frame_count,
            if info.has_translation() {
                ", translation"
            } else {
                ""
            }
        )
        .unwrap();
        Flow::Continue
    }
    fn end(&mut self) -> Flow {
        self.0.push_str("end\n");
        Flow::Continue
    }
}

fn expected_trace(data: &[u8]) -> String {
    let mut trace = Trace::default();
    let mut decoder = Decoder::new();
    let (mut position, mut seeks) = (0usize, 0);
    loop {
        let chunk = &data[position.min(data.len())..(position + 4096).min(data.len())];
        if chunk.is_empty() {
            break;
        }
        position += chunk.len();
        let progress = decoder.feed(chunk, &mut trace).expect("a valid file");
        if let Status::Seek(to) = progress.status {
            writeln!(trace.0, "seek to {to}").unwrap();
            seeks += 1;
            position = to as usize;
        }
    }
    decoder.finish(&mut trace).expect("a valid file");
    writeln!(trace.0, "seeks: {seeks}").unwrap();
    trace.0
}

/// Examples 6 and 7 (one_call.c, cpp_wrapper.cpp): what the core sees of a whole file, pausing
/// after every animation if asked.
#[derive(Default)]
struct Whole {
    format: String,
    name: Option<String>,
    counts: [usize; 6],
    pause_after_animation: bool,
    /// cpp_wrapper's table: one line per animation and per bone.
    lines: Vec<String>,
    bone: (String, usize, f32),
}

impl Visitor for Whole {
    fn file(&mut self, info: &FileInfo<'_>) -> Flow {
        self.format = info.format.name().into();
        self.name = info
            .name
            .filter(|n| !n.is_empty())
            .map(|n| String::from_utf8_lossy(n).into_owned());
        Flow::Continue
    }
    fn animation(&mut self, info: &AnimationInfo<'_>) -> Flow {
        self.counts[0] += 1;
        let name = String::from_utf8_lossy(info.name);
        self.lines
            .push(format!("{name}: {} bones", info.bone_count));
        Flow::Continue
    }
    fn bone(&mut self, info: &BoneInfo<'_>) -> Flow {
        self.counts[1] += 1;
        let label = match info.name {
            Some(name) => String::from_utf8_lossy(name).into_owned(),
            None => format!("#{}", info.index),
        };
        self.bone = (label, 0, 0.0);
        Flow::Continue
    }
    fn keyframes(&mut self, frames: Keyframes<'_>) -> Flow {
        self.counts[2] += frames.len();
        self.bone.1 += frames.len();
        if let Some(last) = frames.iter().last() {
            self.bone.2 = last.time;
        }
        Flow::Continue
    }
    fn bone_end(&mut self) -> Flow {
        let (label, frames, last) = &self.bone;
        self.lines.push(format!(
            "  {label}: {frames} keyframes, last at {last:.4} s"
        ));
        Flow::Continue
    }
    fn animation_end(&mut self) -> Flow {
        if self.pause_after_animation {
            Flow::Pause
        } else {
            Flow::Continue
        }
    }
    fn record(&mut self, record: &Record<'_>) -> Flow {
        match record {
            Record::Instance(_) => {
                self.counts[3] += 1;
                Flow::Continue
            }
            Record::Car(_) => {
                self.counts[4] += 1;
                Flow::Continue
            }
            _ => Flow::Continue,
        }
    }
    fn warning(&mut self, _: Warning) -> Flow {
        self.counts[5] += 1;
        Flow::Continue
    }
}

/// Decodes `data` whole with the core, resuming after pauses: what was seen, the pauses, and
/// the error.
fn whole(data: &[u8], seekable: bool, pause: bool) -> (Whole, usize, Option<Error>) {
    let mut w = Whole {
        pause_after_animation: pause,
        ..Whole::default()
    };
    let mut decoder = Decoder::with_options(Options {
        can_seek: seekable,
        ..Options::DEFAULT
    });
    let mut pauses = 0;
    let mut at = 0;
    let result = loop {
        let progress = match decoder.feed(data.get(at..).unwrap_or_default(), &mut w) {
            Ok(progress) => progress,
            Err(e) => break Err(e),
        };
        match progress.status {
            Status::Paused => {
                pauses += 1;
                at += progress.consumed;
            }
            Status::Seek(to) => at = to as usize,
            Status::NeedInput | Status::Done => break decoder.finish(&mut w),
        }
    };
    (w, pauses, result.err())
}

fn one_call_line(way: &str, data: &[u8], seekable: bool, pause: bool) -> (String, bool) {
    let (w, pauses, error) = whole(data, seekable, pause);
    match error {
        Some(e) => (
            format!(
                "{way}: error GTS_ERR_{}: {} at offset {}\n",
                e.kind.name().to_uppercase(),
                e.kind.reason(),
                e.offset
            ),
            true,
        ),
        None => {
            let [animations, bones, keyframes, instances, cars, warnings] = w.counts;
            let format = if w.format.is_empty() { "-" } else { &w.format };
            (
                format!(
                    "{way}: format {format}, {animations} animations, {bones} bones, \
                     {keyframes} keyframes, {instances} instances, {cars} cars, \
                     {warnings} warnings, {pauses} pauses\n"
                ),
                false,
            )
        }
    }
}

/// Example 6: the file by gts_decode_buffer, then by gts_decode_io pausing after animations.
fn expected_one_call(data: &[u8]) -> (String, i32) {
    let (buffer, failed_buffer) = one_call_line("buffer", data, true, false);
    let (io, failed_io) = one_call_line("io", data, true, true);
    let out = format!("version: {}\n{buffer}{io}", env!("CARGO_PKG_VERSION"));
    (out, i32::from(failed_buffer || failed_io))
}

/// Example 7: the C++ wrapper's table and counts.
fn expected_cpp_wrapper(data: &[u8]) -> (String, i32) {
    let (w, pauses, error) = whole(data, true, true);
    if let Some(e) = error {
        let status = format!("GTS_ERR_{}", e.kind.name().to_uppercase());
        let reason = e.kind.reason();
        return (
            format!("error: {status}: {reason} at offset {}\n", e.offset),
            1,
        );
    }
    let mut out = format!(
        "package {} ({}): {} animations, {pauses} pauses\n",
        w.name.as_deref().unwrap_or("-"),
        w.format,
        w.counts[0]
    );
    for line in &w.lines {
        writeln!(out, "{line}").unwrap();
    }
    writeln!(
        out,
        "handlers: {} keyframes, {} warnings",
        w.counts[2], w.counts[5]
    )
    .unwrap();
    (out, 0)
}

/// What check_stream prints for `data` named `name`: the core's findings (for the games the
/// file is for) as they come, then the games checked and the counts; and the errors.
fn expected_check_stream(name: &str, data: &[u8]) -> (String, u32) {
    use gtastream::check::{json::write_message, Checker, Finding, Level};
    let mut out = String::new();
    let mut checker = Checker::with_games(None, |f: &Finding| {
        if let Some(entry) = f.context.entry {
            let _ = write!(out, "{}: ", String::from_utf8_lossy(entry.name.as_bytes()));
        }
        let level = match f.level() {
            Level::Error => "error",
            Level::Warning => "warning",
            Level::Note => "note",
        };
        let games: Vec<&str> = f.games.names().collect();
        let _ = write!(
            out,
            "{level} {} ({}) at {}: ",
            f.rule.id(),
            games.join(", "),
            f.offset
        );
        let _ = write_message(&mut out, f);
        out.push('\n');
    });
    checker.set_file_name(name.as_bytes());
    let failed = if data.starts_with(b"VER2") {
        gtastream::archive::ArchiveDecoder::new(data.len() as u64).decode_slice(data, &mut checker)
    } else {
        Decoder::new().decode_slice(data, &mut checker)
    };
    if let Err(error) = failed {
        checker.failed(error);
    }
    checker.finish();
    let games: Vec<&str> = checker.games().names().collect();
    let games = if games.is_empty() {
        "none".to_owned()
    } else {
        games.join(", ")
    };
    let (findings, errors) = (checker.findings(), checker.errors());
    let plural = |n: u32| if n == 1 { "" } else { "s" };
    let _ = writeln!(
        out,
        "checked for {games}: {findings} finding{}, {errors} error{}",
        plural(findings),
        plural(errors)
    );
    (out, errors)
}

// ---------------------------------------------------------------------------------------------

/// Runs every example on every file it is meant for and compares its output.
fn check_examples(bin: &Path) {
    for name in VALID {
        let (_, path, data) = file(name);
        let (code, out, err) = run(bin, "summary", &[path], None);
        assert_eq!(code, 0, "summary {name}: {err}");
        assert_eq!(out, expected_summary(data), "summary {name}");

        let (code, out, err) = run(bin, "static_pause", &[path], None);
        assert_eq!(code, 0, "static_pause {name}: {err}");
        assert_eq!(out, expected_static_pause(data), "static_pause {name}");
    }

    // Standard input cannot seek: fine for front-to-back formats, a clear error for Stories.
    for name in ["walk.ifp", "map.ipl", "backward.anim"] {
        let (_, path, data) = file(name);
        let (code, out, err) = run(bin, "summary", &[Path::new("-")], Some(path));
        match decode(data, false, &mut Summary::default()) {
            Ok(()) => {
                assert_eq!(code, 0, "summary - < {name}: {err}");
                assert_eq!(out, expected_summary(data));
            }
            Err(e) => {
                assert_eq!(code, 1, "summary - < {name}");
                let message = format!(
                    "summary: -: GTS_ERR_SEEK_REQUIRED: {} at offset {}\n",
                    e.kind.reason(),
                    e.offset
                );
                assert_eq!(err, message);
            }
        }
    }

    // One decoder for many files, damaged ones among them.
    let names: Vec<&str> = DAMAGED
        .iter()
        .chain(&["walk.ifp", "map.ipl"])
        .copied()
        .collect();
    let paths: Vec<&Path> = names.iter().map(|n| file(n).1.as_path()).collect();
    let (code, out, err) = run(bin, "errors", &paths, None);
    let (expected, failed) = expected_errors(&names);
    assert_eq!(out, expected, "errors: {err}");
    assert_eq!(code, i32::from(failed));

    for name in ANIMATIONS {
        let (_, path, data) = file(name);
        let (code, out, err) = run(bin, "anim_table", &[path], None);
        assert_eq!(code, 0, "anim_table {name}: {err}");
        assert_eq!(out, expected_table(data), "anim_table {name}");
    }
    let (code, out, _) = run(bin, "anim_table", &[&file("sector.ipl").1], None);
    assert_eq!(
        (code, out.as_str()),
        (0, "package - (bnry): 0 animations\n")
    );
    let (code, _, err) = run(bin, "anim_table", &[&file("truncated.ifp").1], None);
    assert_eq!(code, 1);
    assert!(err.contains("file cut short at offset"), "{err}");

    for name in VALID.iter().chain(&DAMAGED) {
        let (_, path, data) = file(name);
        let (code, out, err) = run(bin, "one_call", &[path], None);
        let (expected, expected_code) = expected_one_call(data);
        assert_eq!(
            (code, out.as_str()),
            (expected_code, expected.as_str()),
            "one_call {name}: {err}"
        );
        let (code, out, err) = run(bin, "cpp_wrapper", &[path], None);
        let (expected, expected_code) = expected_cpp_wrapper(data);
        assert_eq!(
            (code, out.as_str()),
            (expected_code, expected.as_str()),
            "cpp_wrapper {name}: {err}"
        );
    }
    // A stream: fine front to back, an error naming the record for Stories.
    for name in ["walk.ifp", "map.ipl", "backward.anim"] {
        let (_, path, data) = file(name);
        let (code, out, err) = run(bin, "one_call", &[Path::new("-")], Some(path));
        let (line, failed) = one_call_line("stream", data, false, true);
        let expected = format!("version: {}\n{line}", env!("CARGO_PKG_VERSION"));
        assert_eq!(
            (code, out),
            (i32::from(failed), expected),
            "one_call - < {name}: {err}"
        );
    }
    // An exception thrown in a callback comes out of the C++ call; the decoder can go on.
    for name in ["walk.ifp", "vc_ped.ifp"] {
        let (_, path, data) = file(name);
        let (code, out, err) = run(bin, "cpp_wrapper", &[path, Path::new("throw")], None);
        assert_eq!(code, 0, "cpp_wrapper {name} throw: {err}");
        let package = Package::parse(data).expect("an animation file");
        let (index, animation) = package
            .animations
            .iter()
            .enumerate()
            .find(|(_, a)| a.bones.len() >= 2)
            .expect("an animation with two bones");
        let bone = animation.bones[1]
            .name
            .clone()
            .unwrap_or_else(|| "#1".into());
        let expected = format!(
            "exception: thrown in bone {bone} (animation {index})\n\
             decoder error after it: GTS_ERR_ABORTED\n\
             after reset, the same visitor throws again: thrown in bone {bone} (animation {index})\n\
             another decoder: {} animations\n",
            package.animations.len()
        );
        assert_eq!(out, expected, "cpp_wrapper {name} throw");
    }

    for name in ["forward.anim", "backward.anim", "walk.ifp"] {
        let (_, path, data) = file(name);
        let (code, out, err) = run(bin, "stories_seek", &[path], None);
        assert_eq!(code, 0, "stories_seek {name}: {err}");
        assert_eq!(out, expected_trace(data), "stories_seek {name}");
    }

    // Every test file inside IMG archives of both versions, walked with fopen/fseek.
    let inside: Vec<(String, Vec<u8>)> = files()
        .iter()
        .map(|(name, _, data)| (name.clone(), data.clone()))
        .collect();
    let dir = bin.join("img");
    std::fs::create_dir_all(&dir).expect("archive directory");
    archive_example::check(&inside, &dir, |program, args| run(bin, program, args, None));

    // The streaming checker in 4 KiB pieces: the core's findings and games, on every test
    // file and on the VER2 archive of them all.
    let archive = dir.join("test.img");
    let checked = files()
        .iter()
        .map(|(_, path, data)| (path.clone(), data.clone()))
        .chain([(archive.clone(), std::fs::read(&archive).expect("archive"))]);
    let mut findings = 0;
    for (path, data) in checked {
        let (code, out, err) = run(bin, "check_stream", &[&path], None);
        let name = path.file_name().unwrap().to_str().unwrap();
        let (expected, errors) = expected_check_stream(name, &data);
        assert_eq!(out, expected, "check_stream {name}: {err}");
        assert_eq!(code, i32::from(errors > 0), "check_stream {name}: {err}");
        findings += out.lines().count() - 1;
    }
    assert!(findings > 10, "{findings}");

    check_folder_example(bin);

    // Conversion to ANP3 through the C encoder: the same bytes as the Rust encoder's.
    let dir = bin.join("converted");
    std::fs::create_dir_all(&dir).expect("output directory");
    for name in ANIMATIONS.iter().chain(&["sector.ipl"]) {
        let (_, path, data) = file(name);
        let target = dir.join(format!("{name}.anp3"));
        let (code, out, err) = run(bin, "convert", &[path, &target], None);
        match expected_conversion(data) {
            Ok(bytes) => {
                assert_eq!(code, 0, "convert {name}: {err}");
                let written = std::fs::read(&target).expect("converted file");
                assert!(
                    written == bytes,
                    "convert {name}: other bytes than the Rust encoder's"
                );
                assert_eq!(
                    out,
                    format!("{}: {} bytes of ANP3\n", target.display(), bytes.len())
                );
            }
            Err(status) => {
                assert_eq!(code, 1, "convert {name}: {out} {err}");
                assert!(err.contains(status), "convert {name}: {err}");
                assert!(!target.exists(), "convert {name} left its output");
            }
        }
    }

    // An ANP3 as exporters leave them (garbage after the names, stale size, frameDataSize
    // and flags, bytes after the content) comes back byte for byte (docs/FORMATS.md §9.7).
    let mut odd = testkit::ifp2::anp3_packed()
        .fill(testkit::ifp2::GARBAGE)
        .size(3)
        .trailing(b"\x01junk");
    odd.animations[0] = odd.animations[0].clone().flags(0).frame_data_size(99);
    let odd = odd.build();
    let path = dir.join("odd.ifp");
    std::fs::write(&path, &odd).expect("fixture");
    let target = dir.join("odd.anp3");
    let (code, _, err) = run(bin, "convert", &[&path, &target], None);
    assert_eq!(code, 0, "convert odd.ifp: {err}");
    assert!(std::fs::read(&target).expect("converted file") == odd);
}

/// Example 10 (skeleton.c): a model's skeleton, an animation bound, posed and checked, as the
/// core gives them; for a skinned SA model and an unskinned one.
/// What `check_folder DIR` prints, from the report of `gtastream check DIR` (the core's
/// `check_folder`, which the CLI prints): each finding with its path, entry, line, rule and
/// message and the other file, the files not read, the summary; and its exit code.
fn expected_check_folder(dir: &Path) -> (String, i32) {
    use gtastream::check::folder::{check_folder, FolderOptions};
    use gtastream::check::json::write_message;
    use gtastream::check::Level;
    use gtastream::Game;
    let report = check_folder(dir, &FolderOptions::default(), &mut |_, _| {}).expect("a game");
    let mut out = String::new();
    let mut errors = 0;
    for m in &report.findings {
        let f = &m.finding;
        out.push_str(&report.files[m.file as usize]);
        if let Some(entry) = f.context.entry {
            let _ = write!(out, ":{}", String::from_utf8_lossy(entry.name.as_bytes()));
        }
        if let Some(line) = f.context.line.filter(|&l| l > 0) {
            let _ = write!(out, ":{line}");
        }
        let _ = write!(out, ": {} {}: ", f.level().name(), f.rule.id());
        let _ = write_message(&mut out, f);
        if let Some(other) = m.other {
            let _ = write!(out, "; other file: {}", report.files[other as usize]);
        }
        out.push('\n');
        errors += u32::from(f.level() == Level::Error);
    }
    for (path, why) in &report.unreadable {
        let _ = writeln!(out, "{path}: not read: {why}");
    }
    let game = match report.game {
        Game::Iii => "iii",
        Game::ViceCity => "vc",
        Game::SanAndreas => "sa",
    };
    let _ = writeln!(
        out,
        "{game}: {} files, {} archive entries, {errors} errors: {}",
        report.files.len(),
        report.entries,
        if errors > 0 { "fails" } else { "loads" }
    );
    (out, i32::from(errors > 0))
}

/// `check_folder` (the C API's folder check over `fopen`/`opendir`) on folders built in code
/// (paths in the level files in other cases than on disk) reports what `check DIR` reports.
fn check_folder_example(bin: &Path) {
    let mut findings = 0;
    let mut failing = 0;
    for (folder, _) in fixtures::folders::folders() {
        let (code, out, err) = run(bin, "check_folder", &[&folder.root], None);
        let (expected, expected_code) = expected_check_folder(&folder.root);
        assert_eq!(
            out,
            expected,
            "check_folder {}: {err}",
            folder.root.display()
        );
        assert_eq!(code, expected_code, "check_folder: {err}");
        findings += out.lines().count() - 1;
        failing += code;
    }
    assert!(findings > 5 && failing > 0, "{findings} findings");
    // A folder of no game: a usage error, the library's reason.
    let empty = fixtures::folders::unique("c-no-game");
    let empty = testkit::folder::Folder::new(&empty);
    let (code, out, err) = run(bin, "check_folder", &[&empty.root], None);
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(err.contains("no data/gta.dat"), "{err}");
}

fn check_skeleton_example(bin: &Path) {
    use gtastream_core::check::{Games, Level};
    use gtastream_core::rig::{self, Binding, Host};
    use testkit::ifp2::{f1, f2, AnimSpec, BoneSpec, FileSpec};

    let dir = bin.join("skeleton-files");
    std::fs::create_dir_all(&dir).expect("scratch directory");
    let q = [0.0, 0.0, 0.0, 1.0];
    let turn = [0.0, 0.0, 0.6, 0.8];
    let anim = FileSpec::anp3(
        "anim",
        vec![AnimSpec::new(
            "a",
            vec![
                BoneSpec::new(
                    "Head",
                    2,
                    5,
                    vec![f2(turn, 0.0, [0.5, 0.0, 0.0]), f2(q, 1.0, [0.0; 3])],
                ),
                BoneSpec::new(" Pelvis", 1, -1, vec![f1(q, 0.0), f1(turn, 1.0)]),
                BoneSpec::new("part1", 1, -1, vec![f1(q, 0.0), f1(turn, 1.0)]),
                BoneSpec::new("x", 1, 777, vec![f1(q, 0.0), f1(q, 1.0)]),
            ],
        )],
    )
    .build();
    let anim_path = dir.join("anim.ifp");
    std::fs::write(&anim_path, &anim).expect("fixture");
    for (name, model) in [
        ("sa_skin", testkit::dff::sa_skin()),
        ("animated_object", testkit::dff::animated_object()),
    ] {
        let bytes = model.bytes();
        let path = dir.join(format!("{name}.dff"));
        std::fs::write(&path, &bytes).expect("fixture");
        let (code, out, err) = run(
            bin,
            "skeleton",
            &[&path, &anim_path, Path::new("0.25")],
            None,
        );
        assert_eq!(code, 0, "skeleton {name}: {out} {err}");
        let s = rig::read_skeleton(&bytes).expect("a model");
        let mut expected = format!("frames {} nodes {}\n", s.frames().len(), s.nodes().len());
        for (i, f) in s.frames().iter().enumerate() {
            let name = f
                .name
                .map(|n| String::from_utf8_lossy(n.as_bytes()).into_owned());
            writeln!(
                expected,
                "frame {i} parent {} id {} name \"{}\"",
                s.parent_of(i).map_or(-1, |p| p as i64),
                f.node_id.unwrap_or(-1),
                name.unwrap_or_default()
            )
            .unwrap();
        }
        match s.skin() {
            Some(k) => {
                let m = s.inverse_binds()[0];
                writeln!(
                    expected,
                    "skin bones {} layout {} bind0 {:.3} {:.3} {:.3}",
                    k.bones, k.layout, m[12], m[13], m[14]
                )
                .unwrap();
            }
            None => expected.push_str("unskinned\n"),
        }
        let tracks = rig::AnimationTracks::find(&anim, None, 0).expect("an animation");
        rig::bind_all(&s, Host::SanAndreas, tracks.tracks(), |t, b| {
            let (frame, unbound) = match b {
                Binding::Drives(f) => (i32::from(f), 0),
                Binding::Overridden { .. } => (-1, 1),
                Binding::Unbound(r) => (
                    -1,
                    2 + rig::Unbound::ALL.iter().position(|&u| u == r).unwrap() as u32,
                ),
            };
            writeln!(
                expected,
                "track {} frame {frame} unbound {unbound}",
                t.index
            )
            .unwrap();
        });
        let sampler = gtastream_core::Sampler::<256>::by_index(&anim, 0).expect("an animation");
        let mut matrices = vec![[0.0f32; 16]; s.frames().len()];
        let host = rig::default_host(tracks.format(), &s);
        rig::pose_animation(
            &s,
            host,
            &tracks,
            &sampler,
            0.25,
            false,
            &mut matrices,
            |_, _| {},
        )
        .expect("poses");
        for (i, m) in matrices.iter().enumerate() {
            writeln!(expected, "pose {i} {:.4} {:.4} {:.4}", m[12], m[13], m[14]).unwrap();
        }
        let mut errors = 0;
        let finding =
            |expected: &mut String, errors: &mut u32, f: &gtastream_core::check::Finding| {
                let bone = f.context.bone.map_or(-1, |b| i64::from(b.index));
                writeln!(expected, "finding {} bone {bone}", f.rule.id()).unwrap();
                *errors += u32::from(f.level() == Level::Error);
            };
        rig::check_file(&anim, b"anim.ifp", Some(Games::SA), Some(&s), |f| {
            finding(&mut expected, &mut errors, f)
        });
        writeln!(expected, "check errors {errors}").unwrap();
        errors = 0;
        rig::check_skeleton(&s, rig::model_games(s.rw_version()), |f| {
            finding(&mut expected, &mut errors, f)
        });
        writeln!(expected, "report errors {errors}").unwrap();
        assert_eq!(out, expected, "skeleton {name}");
        assert!(out.contains("finding skel."), "skeleton {name}: {out}");
    }
    // Not a model: the reader's status.
    let (code, out, _) = run(
        bin,
        "skeleton",
        &[&anim_path, &anim_path, Path::new("0")],
        None,
    );
    assert_eq!(
        (code, out.as_str()),
        (1, "gts_skeleton_read: GTS_ERR_BAD_MAGIC at 0\n")
    );
}

/// The ANP3 file the Rust encoder writes from `data`, or the C status name of its error.
fn expected_conversion(data: &[u8]) -> Result<Vec<u8>, &'static str> {
    use gtastream_core::encode::{EncodeError, EncodeOptions, Encoder};
    let mut encoder = Encoder::new(
        gtastream_core::Format::Anp3,
        Vec::new(),
        EncodeOptions::default(),
    )
    .expect("ANP3 is written");
    match decode(data, true, &mut encoder) {
        Ok(()) => Ok(encoder.into_sink()),
        Err(_) => Err(match encoder.error() {
            Some(EncodeError::CannotConvert(..)) => "GTS_ERR_UNSUPPORTED_FORMAT",
            Some(EncodeError::NameTooLong(_)) => "GTS_ERR_NAME_TOO_LONG",
            Some(EncodeError::NotRepresentable(_)) => "GTS_ERR_NOT_REPRESENTABLE",
            other => panic!("unexpected {other:?}"),
        }),
    }
}

#[test]
fn c_skeleton_example_under_sanitizers() {
    let bin = build_examples(
        "skeleton",
        "static",
        "-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer",
    );
    check_skeleton_example(&bin);
}

#[test]
fn c_examples_static() {
    let bin = build_examples("static", "static", "");
    check_examples(&bin);
}

#[test]
fn c_examples_shared() {
    let bin = build_examples("shared", "shared", "");
    check_examples(&bin);
}

#[test]
fn c_examples_under_sanitizers() {
    let bin = build_examples(
        "sanitizers",
        "static",
        "-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer",
    );
    check_examples(&bin);
}

// ---------------------------------------------------------------------------------------------
// The C benchmark (c-examples/bench/, issue 7): built by its Makefile with -O2 and
// -Wall -Wextra -Werror -pedantic, run here on small inputs for correctness only (PERFORMANCE.md
// says how to run it for numbers).

/// Builds the benchmark into a new directory.
fn build_bench(variant: &str, extra: &str) -> PathBuf {
    let out = scratch(variant);
    let extra = if M32 {
        format!("-m32 {extra}")
    } else {
        extra.to_string()
    };
    run_ok(
        Command::new("make")
            .current_dir(repo().join("c-examples/bench"))
            .arg(format!("OUT={}", out.display()))
            .arg(format!("LIBDIR={}", library().display()))
            .arg(format!("EXTRA={extra}"))
            .arg("--no-print-directory"),
        &format!("make bench ({variant})"),
    );
    out
}

/// What the benchmark sums: every component of every keyframe (scale aside, which ANP3 lacks),
/// in file order, one `f32` per component, as its hand-written loop and its callback do; and,
/// for its one-sum consumer, every component the bone's frame type has in one `f32`.
#[derive(Default)]
struct BenchSum {
    lanes: [f32; 8],
    frames: u64,
    one: f32,
    translation: bool,
}

impl Visitor for BenchSum {
    fn bone(&mut self, info: &BoneInfo<'_>) -> Flow {
        self.translation = info.has_translation();
        Flow::Continue
    }
    fn keyframes(&mut self, frames: Keyframes<'_>) -> Flow {
        for frame in frames.iter() {
            let values = [frame.time]
                .into_iter()
                .chain(frame.rotation)
                .chain(frame.translation);
            for (lane, value) in self.lanes.iter_mut().zip(values) {
                *lane += value;
            }
            let components = if self.translation { 8 } else { 5 };
            let values = [frame.time]
                .into_iter()
                .chain(frame.rotation)
                .chain(frame.translation);
            for value in values.take(components) {
                self.one += value;
            }
            self.frames += 1;
        }
        Flow::Continue
    }
}

/// What the benchmark sums over a binary IPL: eight sums (position x y z, rotation x y z w,
/// car angle; the integer fields exactly, modulo 2^64) and one running sum of every field in
/// record order, the integers converted to `f32`.
#[derive(Default)]
struct BenchIplSum {
    lanes: [f32; 8],
    ints: u64,
    one: f32,
    instances: u64,
    cars: u64,
}

impl Visitor for BenchIplSum {
    fn record(&mut self, record: &Record<'_>) -> Flow {
        match record {
            Record::Instance(r) => {
                let floats = r.position.into_iter().chain(r.rotation);
                for (lane, value) in self.lanes.iter_mut().zip(floats.clone()) {
                    *lane += value;
                }
                for value in floats {
                    self.one += value;
                }
                for value in [
                    i64::from(r.model_id),
                    i64::from(r.interior),
                    i64::from(r.lod),
                ] {
                    self.ints = self.ints.wrapping_add(value as u64);
                }
                self.one += r.model_id as f32;
                self.one += r.interior as f32;
                self.one += r.lod as f32;
                self.instances += 1;
                Flow::Continue
            }
            Record::Car(r) => {
                for (lane, value) in [0, 1, 2, 7]
                    .into_iter()
                    .zip(r.position.into_iter().chain([r.angle]))
                {
                    self.lanes[lane] += value;
                }
                for value in r.position.into_iter().chain([r.angle]) {
                    self.one += value;
                }
                let ints = [
                    r.model_id,
                    r.primary_color,
                    r.secondary_color,
                    r.flags,
                    r.alarm_chance,
                    r.door_lock_chance,
                    r.min_delay,
                    r.max_delay,
                ];
                for value in ints {
                    self.ints = self.ints.wrapping_add(i64::from(value) as u64);
                    self.one += value as f32;
                }
                self.cars += 1;
                Flow::Continue
            }
            _ => Flow::Continue,
        }
    }
}

fn sum_bits_line(lanes: &[f32; 8]) -> String {
    let bits: Vec<String> = lanes
        .iter()
        .map(|l| format!("{:08x}", l.to_bits()))
        .collect();
    format!("sum bits: {}\n", bits.join(" "))
}

/// The stack line: measured (but under AddressSanitizer), and within `range`.
fn check_stack(out: &str, range: std::ops::Range<usize>) {
    let stack = out
        .lines()
        .find(|l| l.starts_with("stack"))
        .expect("a stack line");
    if let Some((_, deepest)) = stack.split_once("at most ") {
        let deepest: usize = deepest.parse().expect("a number");
        assert!(range.contains(&deepest), "{stack}");
    } else {
        assert!(
            stack.contains("not measured under AddressSanitizer"),
            "{stack}"
        );
    }
}

const BENCH_WAYS: [&str; 8] = [
    "(a) hand-written loop",
    "(b) C API, 4 KiB pieces",
    "(c) C API, 1 B pieces",
    "(c) C API, 16 B pieces",
    "(c) C API, 64 B pieces",
    "(c) C API, 256 B pieces",
    "(c) C API, 64 KiB pieces",
    "C API, whole buffer in one call",
];

/// Runs the benchmark on ANP3 files of types 3 and 4 (the sample package, and a small file from
/// the generator of its real input) and on binary IPLs (the sample, and a small generated
/// file): every way and consumer gives the same sums, and they are the core's.
fn check_bench(bin: &Path) {
    let generated = bin.join("input");
    std::fs::create_dir_all(&generated).expect("scratch directory");
    let small = inputs::anp3(64 << 10, 0x6774_7331_7373_7565);
    let small_path = generated.join("small.ifp");
    std::fs::write(&small_path, &small.bytes).expect("write the benchmark input");
    let repeats = Path::new("2");
    let walk = file("walk.ifp");
    for (path, data) in [(&walk.1, &walk.2), (&small_path, &small.bytes)] {
        let (code, out, err) = run(bin, "bench", &[path, repeats], None);
        assert_eq!(code, 0, "bench {}: {out}{err}", path.display());
        assert!(out.contains("sums of every run equal (a): yes"), "{out}");
        let mut sum = BenchSum::default();
        decode(data, true, &mut sum).expect("a valid file");
        assert!(
            out.contains(&format!(" {} keyframes\n", sum.frames)),
            "{out}"
        );
        let line = sum_bits_line(&sum.lanes);
        assert!(out.contains(&line), "{line} not in:\n{out}");
        let bits = format!(", bits {:08x}\n", sum.one.to_bits());
        assert!(out.contains(&bits), "one sum{bits} not in:\n{out}");
        for consumer in ["consumer: eight sums\n", "consumer: one running sum\n"] {
            let table = out.split(consumer).nth(1).expect("both consumers' tables");
            for way in BENCH_WAYS {
                assert!(table.contains(way), "{way} not in:\n{out}");
            }
        }
        // The stack depth: about what PERFORMANCE.md says: the callback's array of
        // GTS_KEYFRAME_BATCH keyframes and a few frames.
        check_stack(&out, 2816..8192);
    }

    let small = inputs::ipl_binary(64 << 10, 0x6774_7331_7373_7565);
    let small_path = generated.join("small.ipl");
    std::fs::write(&small_path, &small.bytes).expect("write the benchmark input");
    let sector = file("sector.ipl");
    for (path, data) in [(&sector.1, &sector.2), (&small_path, &small.bytes)] {
        let (code, out, err) = run(bin, "bench", &[path, repeats], None);
        assert_eq!(code, 0, "bench {}: {out}{err}", path.display());
        assert!(out.contains("sums of every run equal (a): yes"), "{out}");
        let mut sum = BenchIplSum::default();
        decode(data, true, &mut sum).expect("a valid file");
        let counts = format!(
            " {} instances, {} cars, {} records\n",
            sum.instances,
            sum.cars,
            sum.instances + sum.cars
        );
        assert!(out.contains(&counts), "{counts} not in:\n{out}");
        assert!(out.contains(&format!("integers {}\n", sum.ints)), "{out}");
        let line = sum_bits_line(&sum.lanes);
        assert!(out.contains(&line), "{line} not in:\n{out}");
        let bits = format!(", bits {:08x}\n", sum.one.to_bits());
        assert!(out.contains(&bits), "one sum{bits} not in:\n{out}");
        assert_eq!(out.matches("ns/record").count(), 2, "{out}");
        for way in BENCH_WAYS {
            assert_eq!(out.matches(way).count(), 2, "{way} twice in:\n{out}");
        }
        // No keyframe array here: the callbacks get one record each.
        check_stack(&out, 64..8192);
    }

    // A piece size and a consumer alone: (a) and that way, one table, no stack.
    let args = [
        small_path.as_path(),
        repeats,
        Path::new("64"),
        Path::new("one"),
    ];
    let (code, out, err) = run(bin, "bench", &args, None);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("consumer: one running sum\n"), "{out}");
    assert!(!out.contains("eight sums"), "{out}");
    assert!(out.contains("(c) C API, 64 B pieces"), "{out}");
    assert!(
        !out.contains("256 B pieces") && !out.contains("stack below"),
        "{out}"
    );

    // Not an ANP3 file of types 3 and 4 nor a binary IPL: a clear failure, not a crash.
    let (code, _, err) = run(bin, "bench", &[&file("vc_ped.ifp").1], None);
    assert_eq!(code, 1);
    assert!(err.contains("not an ANP3 file"), "{err}");
}

#[test]
fn c_bench_builds_with_o2_and_agrees_with_the_core() {
    check_bench(&build_bench("bench", ""));
}

#[test]
fn c_bench_under_sanitizers() {
    check_bench(&build_bench(
        "bench-sanitizers",
        "-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer",
    ));
}

#[test]
fn the_library_calls_no_allocator() {
    let out = scratch("no-malloc");
    let program = out.join("no_malloc");
    let mut cc = Command::new("cc");
    if M32 {
        cc.arg("-m32");
    }
    let wraps = [
        "malloc",
        "calloc",
        "realloc",
        "posix_memalign",
        "aligned_alloc",
        "memalign",
    ]
    .map(|f| format!("-Wl,--wrap={f}"));
    run_ok(
        cc.args([
            "-std=c99",
            "-Wall",
            "-Wextra",
            "-Werror",
            "-pedantic",
            "-O1",
        ])
        .arg(format!("-I{}", repo().join("include").display()))
        .arg("-o")
        .arg(&program)
        .arg(repo().join("ffi/tests/c/no_malloc.c"))
        .arg(library().join("libgtastream.a"))
        .args(wraps)
        .args(["-lpthread", "-ldl", "-lm"]),
        "cc no_malloc.c",
    );
    let paths: Vec<&Path> = files().iter().map(|f| f.1.as_path()).collect();
    let (code, out, err) = run(&out, "no_malloc", &paths, None);
    assert_eq!(code, 0, "allocations:\n{out}{err}");
    assert_eq!(out.lines().count(), files().len());
    assert!(out.lines().all(|l| l.ends_with(": 0 allocations")), "{out}");
}

#[test]
fn the_header_compiles_as_c99_and_cpp17_on_its_own() {
    let out = scratch("header");
    let source = out.join("header_only.c");
    std::fs::write(
        &source,
        "#include \"gtastream.h\"\n#include \"gtastream.h\"\n\
         int main(void) { gts_decoder d; (void)d; return GTS_DECODER_WORDS == 128 ? 0 : 1; }\n",
    )
    .unwrap();
    for (compiler, std) in [
        ("cc", "-std=c99"),
        ("c++", "-std=c++17"),
        ("cc", "-std=c11"),
    ] {
        let mut command = Command::new(compiler);
        if M32 {
            command.arg("-m32");
        }
        if compiler == "c++" {
            command.args(["-x", "c++"]);
        }
        run_ok(
            command
                .args([
                    std,
                    "-Wall",
                    "-Wextra",
                    "-Werror",
                    "-pedantic",
                    "-fsyntax-only",
                ])
                .arg(format!("-I{}", repo().join("include").display()))
                .arg(&source),
            &format!("{compiler} {std} on the header"),
        );
    }
    // The C++ wrapper on its own, with the warnings a C++ project commonly enables; and
    // GTS_CALL, which a project may predefine, is honoured by it.
    let source = out.join("wrapper_only.cpp");
    std::fs::write(
        &source,
        "#include \"gtastream.hpp\"\n#include \"gtastream.hpp\"\n\
         struct v : gtastream::visitor {};\n\
         int main() { v x; gtastream::decoder d(x); \
         return d.decode(nullptr, 0) == GTS_OK ? 1 : 0; }\n",
    )
    .unwrap();
    for extra in [&[][..], &["-DGTS_CALL="][..]] {
        let mut command = Command::new("c++");
        if M32 {
            command.arg("-m32");
        }
        run_ok(
            command
                .args([
                    "-std=c++17",
                    "-Wall",
                    "-Wextra",
                    "-Werror",
                    "-pedantic",
                    "-Wshadow",
                    "-Wconversion",
                    "-Wold-style-cast",
                    "-Wnon-virtual-dtor",
                    "-fsyntax-only",
                ])
                .args(extra)
                .arg(format!("-I{}", repo().join("include").display()))
                .arg(&source),
            "c++ -std=c++17 on gtastream.hpp",
        );
    }
}
