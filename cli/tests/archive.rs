//! The archive commands (issue 12): `ls`, `info` over archives and several inputs, `dump` of
//! `ARCHIVE:ENTRY`, `extract`, and `-` for standard input, on IMG archives of both versions
//! built in code, with junk, out-of-order data and a broken entry.

#[path = "../../benches/inputs/mod.rs"]
mod inputs;
#[allow(dead_code)]
mod support;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use support::{run, run_piped, stderr, stdout, Json};
use testkit::img::{Img, SECTOR};

/// A scratch folder of its own for each test.
fn scratch(test: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("archive")
        .join(test);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> String {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path.to_str().unwrap().to_owned()
}

/// The entries of the test archive: every format, a model, junk, a broken package.
fn entries() -> Vec<(&'static str, Vec<u8>)> {
    // A bone count no file can hold.
    let mut broken = inputs::anp3(3000, 6).bytes;
    broken[60..64].copy_from_slice(&[0xFF, 0xFF, 0xFF, 0x7F]);
    // Text ends at its sector's zero padding (a NUL ends a text).
    let text = inputs::ipl_text(3000, 5).bytes;
    vec![
        ("walk.ifp", inputs::anp3(3000, 1).bytes),
        ("PED.IFP", inputs::anpk(5000, 2).bytes),
        ("clip.anim", inputs::stories(4000, 3).bytes),
        ("countn2_stream0.ipl", inputs::ipl_binary(2500, 4).bytes),
        ("city.ipl", text),
        ("car.dff", [0x10, 0, 0, 0].repeat(30)),
        ("junk.bin", vec![0xEE; 500]),
        ("broken.ifp", broken),
    ]
}

/// The archive of `entries`: data in reverse order of the directory, after room for a
/// version 2 directory in sector 0, and garbage after each name's NUL, as real archives have.
fn img(entries: &[(&str, Vec<u8>)]) -> Img {
    let mut img = Img::reversed(entries);
    for (record, (name, _)) in img.records.iter_mut().zip(entries) {
        if name.len() + 2 < 24 {
            record.name[name.len() + 1] = b'x';
        }
    }
    img
}

/// (sector, sectors) of each entry.
fn layout(entries: &[(&str, Vec<u8>)]) -> Vec<(u32, u32)> {
    img(entries)
        .records
        .iter()
        .map(|r| (r.offset, r.size))
        .collect()
}

fn v2(entries: &[(&str, Vec<u8>)]) -> Vec<u8> {
    img(entries).v2()
}

/// The test archive as version 2 (`test.img`) and version 1 (`old.img` + `old.DIR`).
fn archives(dir: &Path) -> (String, String, String) {
    let archive = img(&entries());
    let (dir_bytes, data) = archive.v1();
    let v2 = write(dir, "test.img", &archive.v2());
    let img = write(dir, "old.img", &data);
    let dir_file = write(dir, "old.DIR", &dir_bytes);
    (v2, img, dir_file)
}

#[test]
fn ls_lists_every_entry_of_both_versions() {
    let dir = scratch("ls");
    let (v2, img, dir_file) = archives(&dir);
    let entries = entries();
    let places = layout(&entries);
    let formats = [
        Some("ANP3"),
        Some("ANPK"),
        Some("ANIM"),
        Some("bnry"),
        Some("text"),
        None,
        None,
        Some("ANP3"),
    ];
    for (path, version) in [(&v2, "VER2"), (&img, "VER1"), (&dir_file, "VER1")] {
        let output = run(&["ls", "--json", path]);
        assert!(output.status.success(), "{}", stderr(&output));
        assert_eq!(stderr(&output), "");
        let json = Json::parse(stdout(&output)).unwrap();
        assert_eq!(json.keys(), ["format", "entries"]);
        assert_eq!(json.get("format").str(), version);
        let listed = json.get("entries").arr();
        assert_eq!(listed.len(), entries.len());
        for (i, entry) in listed.iter().enumerate() {
            assert_eq!(entry.keys(), ["name", "offset", "size", "format"]);
            assert_eq!(entry.get("name").str(), entries[i].0);
            let (at, n) = places[i];
            assert_eq!(
                entry.get("offset"),
                &Json::Num((at as usize * SECTOR).to_string())
            );
            assert_eq!(
                entry.get("size"),
                &Json::Num((n as usize * SECTOR).to_string())
            );
            match formats[i] {
                Some(format) => assert_eq!(entry.get("format").str(), format),
                None => assert_eq!(entry.get("format"), &Json::Null),
            }
        }
        let output = run(&["ls", path]);
        assert!(output.status.success());
        let lines: Vec<&str> = stdout(&output).lines().collect();
        assert_eq!(lines.len(), entries.len());
        for (i, line) in lines.iter().enumerate() {
            let fields: Vec<&str> = line.split_whitespace().collect();
            let (at, n) = places[i];
            assert_eq!(
                fields,
                [
                    entries[i].0,
                    &(at as usize * SECTOR).to_string(),
                    &(n as usize * SECTOR).to_string(),
                    formats[i].unwrap_or("-")
                ]
            );
        }
    }
    // Not an archive.
    let output = run(&["ls", &write(&dir, "plain.ifp", &entries[0].1)]);
    assert_eq!(output.status.code(), Some(1));
    assert!(stderr(&output).contains("not an IMG archive"));
}

#[test]
fn dump_of_an_entry_is_the_dump_of_the_extracted_file() {
    let dir = scratch("dump");
    let (v2, img, dir_file) = archives(&dir);
    let entries = entries();
    for (name, bytes) in &entries[..5] {
        // The extracted entry: its whole sectors.
        let mut extracted = bytes.clone();
        extracted.resize(bytes.len().div_ceil(SECTOR) * SECTOR, 0);
        let loose = write(&dir, &format!("loose_{name}"), &extracted);
        let expected = run(&["dump", "--json", &loose]);
        assert!(expected.status.success(), "{name}: {}", stderr(&expected));
        for archive in [&v2, &img, &dir_file] {
            for spelled in [name.to_string(), name.to_uppercase(), name.to_lowercase()] {
                let output = run(&["dump", "--json", &format!("{archive}:{spelled}")]);
                assert!(output.status.success(), "{spelled}: {}", stderr(&output));
                assert_eq!(output.stdout, expected.stdout, "{archive}:{spelled}");
            }
        }
    }
    // The broken entry fails as the extracted file does, with nothing on stdout.
    let output = run(&["dump", "--json", &format!("{v2}:broken.ifp")]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(stdout(&output), "");
    assert!(
        stderr(&output).starts_with(&format!("gtastream: {v2}:broken.ifp: ")),
        "{}",
        stderr(&output)
    );
    let output = run(&["dump", "--json", &format!("{v2}:missing.ifp")]);
    assert_eq!(output.status.code(), Some(1));
    assert!(stderr(&output).contains("no entry named \"missing.ifp\""));
    // A whole argument that is a file is that file, colon or not.
    let odd = write(&dir, "a:walk.ifp", &entries[0].1);
    let output = run(&["dump", "--json", &odd]);
    assert!(output.status.success(), "{}", stderr(&output));
}

#[test]
fn convert_reads_an_entry_as_the_extracted_file() {
    let dir = scratch("convert");
    let (v2, img, dir_file) = archives(&dir);
    for (name, to) in [("PED.IFP", "anp3"), ("countn2_stream0.ipl", "text")] {
        let bytes = &entries().into_iter().find(|(n, _)| *n == name).unwrap().1;
        let mut extracted = bytes.clone();
        extracted.resize(bytes.len().div_ceil(SECTOR) * SECTOR, 0);
        let loose = write(&dir, &format!("loose_{name}"), &extracted);
        let expected_path = dir.join(format!("expected_{name}"));
        let output = run(&[
            "convert",
            "--to",
            to,
            &loose,
            expected_path.to_str().unwrap(),
        ]);
        assert!(output.status.success(), "{name}: {}", stderr(&output));
        let expected = std::fs::read(&expected_path).unwrap();
        for archive in [&v2, &img, &dir_file] {
            let out = dir.join(format!("out_{to}"));
            let entry = format!("{archive}:{}", name.to_lowercase());
            let output = run(&["convert", "--to", to, &entry, out.to_str().unwrap()]);
            assert!(output.status.success(), "{entry}: {}", stderr(&output));
            assert_eq!(std::fs::read(&out).unwrap(), expected, "{entry}");
        }
    }
    // A whole archive is not one file to convert.
    let out = dir.join("whole");
    let output = run(&["convert", "--to", "anp3", &v2, out.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).contains("name one entry"),
        "{}",
        stderr(&output)
    );
    assert!(!out.exists());
}

#[test]
fn info_reports_archives_and_files_and_fails_after_all() {
    let dir = scratch("info");
    let (v2_path, img, _) = archives(&dir);
    let entries = entries();
    let loose = write(&dir, "walk.ifp", &entries[0].1);
    let output = run(&["info", "--json", &loose, &v2_path, &img]);
    // The broken entry makes the status 1, after every input was reported.
    assert_eq!(output.status.code(), Some(1));
    let err = stderr(&output);
    assert_eq!(err.lines().count(), 2, "{err}");
    assert!(err.contains(&format!("{v2_path}:broken.ifp: ")), "{err}");
    assert!(err.contains(&format!("{img}:broken.ifp: ")), "{err}");
    // One JSON document per input.
    let text = stdout(&output);
    let documents: Vec<&str> = text.split_inclusive("\n}\n").collect();
    assert_eq!(documents.len(), 3);
    let file = Json::parse(documents[0]).unwrap();
    assert_eq!(
        file.keys(),
        [
            "format",
            "animations",
            "bones",
            "keyframes",
            "instances",
            "cars",
            "warnings",
            "error"
        ]
    );
    assert_eq!(file.get("format").str(), "ANP3");
    assert_eq!(file.get("error"), &Json::Null);
    let expected_frames = inputs::anp3(3000, 1).items;
    assert_eq!(
        file.get("keyframes"),
        &Json::Num(expected_frames.to_string())
    );
    for (document, version) in [(documents[1], "VER2"), (documents[2], "VER1")] {
        let archive = Json::parse(document).unwrap();
        assert_eq!(
            archive.keys(),
            ["format", "entries", "warnings", "totals", "error"]
        );
        assert_eq!(archive.get("format").str(), version);
        let listed = archive.get("entries").arr();
        assert_eq!(listed.len(), entries.len());
        for (entry, (name, _)) in listed.iter().zip(&entries) {
            assert_eq!(entry.get("name").str(), *name);
            assert_eq!(&entry.keys()[1..], &file.keys()[..]);
        }
        // The broken entry's error; the others decode.
        let error = listed[7].get("error");
        assert_eq!(
            error.keys(),
            [
                "kind",
                "reason",
                "offset",
                "animation",
                "bone",
                "line",
                "message"
            ]
        );
        for entry in &listed[..7] {
            assert_eq!(entry.get("error"), &Json::Null);
        }
        assert_eq!(listed[0].get("keyframes"), file.get("keyframes"));
        // The generator counts instances and cars together.
        let records = [listed[3].get("instances"), listed[3].get("cars")]
            .iter()
            .map(|n| match n {
                Json::Num(n) => n.parse::<u64>().unwrap(),
                other => panic!("{other:?}"),
            })
            .sum::<u64>();
        assert_eq!(records, inputs::ipl_binary(2500, 4).items);
        let totals = archive.get("totals");
        assert_eq!(
            totals.keys(),
            [
                "entries",
                "formats",
                "animations",
                "bones",
                "keyframes",
                "instances",
                "cars",
                "warnings",
                "failed"
            ]
        );
        assert_eq!(totals.get("entries"), &Json::Num("8".into()));
        assert_eq!(totals.get("failed"), &Json::Num("1".into()));
        let formats = totals.get("formats");
        assert_eq!(formats.get("ANP3"), &Json::Num("2".into()));
        assert_eq!(formats.get("other"), &Json::Num("2".into()));
        // Totals are the sums of the entries.
        for key in ["animations", "bones", "keyframes", "instances", "cars"] {
            let sum: u64 = listed
                .iter()
                .map(|e| match e.get(key) {
                    Json::Num(n) => n.parse::<u64>().unwrap(),
                    other => panic!("{other:?}"),
                })
                .sum();
            assert_eq!(totals.get(key), &Json::Num(sum.to_string()), "{key}");
        }
    }
    // Text: totals, and a line per entry with --entries; no bar when stderr is not a terminal.
    let output = run(&["info", "--entries", &v2_path]);
    assert_eq!(output.status.code(), Some(1));
    let text = stdout(&output);
    assert!(text.contains("  archive:     VER2"), "{text}");
    assert!(text.contains("  entries:     8 ("), "{text}");
    assert!(text.contains("  failed:      1"), "{text}");
    for (name, _) in &entries {
        assert!(
            text.lines().any(|l| l.trim_start().starts_with(name)),
            "{name}"
        );
    }
    assert!(!stderr(&output).contains('\u{1b}'));
    // Without the broken entry, success.
    let good: Vec<(&str, Vec<u8>)> = entries[..7].to_vec();
    let good = write(&dir, "good.img", &v2(&good));
    let output = run(&["info", &good, &loose]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(stderr(&output), "");
}

#[test]
fn extract_writes_the_entries_bytes() {
    let dir = scratch("extract");
    let (v2, _, dir_file) = archives(&dir);
    let entries = entries();
    let out = dir.join("all");
    let output = run(&["extract", &v2, "-o", out.to_str().unwrap()]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(stdout(&output).lines().count(), entries.len());
    for (name, bytes) in &entries {
        let written = std::fs::read(out.join(name)).unwrap();
        assert_eq!(
            written.len(),
            bytes.len().div_ceil(SECTOR) * SECTOR,
            "{name}"
        );
        assert_eq!(&written[..bytes.len()], &bytes[..], "{name}");
        assert!(written[bytes.len()..].iter().all(|&b| b == 0));
    }
    // By name, any case, from the version 1 pair named by its .dir; a missing name fails.
    let some = dir.join("some");
    let output = run(&[
        "extract",
        &dir_file,
        "WALK.ifp",
        "nothing.here",
        "-o",
        some.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(1));
    assert!(stderr(&output).contains("no entry named \"nothing.here\""));
    let names: Vec<String> = std::fs::read_dir(&some)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(names, ["walk.ifp"]);
}

#[test]
fn duplicate_and_hostile_names_stay_in_the_folder() {
    let dir = scratch("names");
    let first = inputs::anp3(2500, 1).bytes;
    let second = inputs::anpk(2500, 2).bytes;
    let entries = vec![
        ("same.ifp", first.clone()),
        ("SAME.ifp", second),
        ("../up.ifp", first.clone()),
    ];
    let img = write(&dir, "dup.img", &v2(&entries));
    let out = dir.join("out");
    let output = run(&["extract", &img, "-o", out.to_str().unwrap()]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stderr(&output).contains("has the name of an earlier entry"));
    let mut names: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(names, [".._up.ifp", "same.ifp"]);
    assert_eq!(
        &std::fs::read(out.join("same.ifp")).unwrap()[..first.len()],
        &first[..]
    );
    assert!(!dir.join("up.ifp").exists());
}

#[test]
fn standard_input_is_read_front_to_back() {
    let dir = scratch("stdin");
    let entries = entries();
    for (name, bytes) in &entries[..5] {
        let path = write(&dir, name, bytes);
        for args in [&["dump", "--json"][..], &["info", "--json"][..]] {
            let expected = run(&[args, &[path.as_str()]].concat());
            let piped = run_piped(&[args, &["-"]].concat(), bytes);
            if *name == "clip.anim" {
                // Stories files need seeks: a clear error naming the offset.
                assert_eq!(piped.status.code(), Some(1));
                assert!(stderr(&piped).contains("cannot seek"), "{}", stderr(&piped));
                continue;
            }
            assert!(piped.status.success(), "{name}: {}", stderr(&piped));
            assert_eq!(piped.stdout, expected.stdout, "{name} {args:?}");
        }
    }
    // An archive on a pipe is read into memory: what the file gives (named `-`).
    let (v2, _, dir_file) = archives(&dir);
    let bytes = std::fs::read(&v2).unwrap();
    for args in [&["ls"][..], &["ls", "--json"], &["info", "--entries"]] {
        let expected = run(&[args, &[v2.as_str()]].concat());
        let piped = run_piped(&[args, &["-"]].concat(), &bytes);
        assert_eq!(piped.status.code(), expected.status.code(), "{args:?}");
        let shown = |o: &Output| stdout(o).replace(&v2, "-");
        assert_eq!(shown(&piped), shown(&expected), "{args:?}");
        assert!(!stdout(&piped).is_empty());
    }
    // A version 1 archive is two files: refused clearly.
    let output = run_piped(&["ls", "-"], &std::fs::read(&dir_file).unwrap());
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).contains("standard input is not a VER2 archive"),
        "{}",
        stderr(&output)
    );
}

// ---- gtastream img (issue 25) ----

/// (name, size, format) of each entry, as `ls --json` lists them.
fn listing(archive: &str) -> Vec<(String, i64, String)> {
    let out = run(&["ls", "--json", archive]);
    assert!(out.status.success(), "{}", stderr(&out));
    Json::parse(stdout(&out))
        .unwrap()
        .get("entries")
        .arr()
        .iter()
        .map(|e| {
            let format = match e.get("format") {
                Json::Null => "-",
                format => format.str(),
            };
            (
                e.get("name").str().to_owned(),
                e.get("size").i64(),
                format.to_owned(),
            )
        })
        .collect()
}

#[test]
fn img_new_add_rm_rebuild() {
    for v1 in [false, true] {
        let dir = scratch(if v1 { "img_v1" } else { "img_v2" });
        let walk = write(&dir, "walk.ifp", &inputs::anp3(3000, 1).bytes);
        let ipl = write(&dir, "sector.ipl", &inputs::ipl_binary(2500, 4).bytes);
        let archive = dir.join("custom.img").to_str().unwrap().to_owned();
        let mut new = vec!["img", "new", archive.as_str(), walk.as_str(), ipl.as_str()];
        if v1 {
            new.insert(2, "--v1");
        }
        let out = run(&new);
        assert!(out.status.success(), "{}", stderr(&out));
        assert!(
            stderr(&out).contains("2 entries, 2 added"),
            "{}",
            stderr(&out)
        );
        assert_eq!(dir.join("custom.dir").exists(), v1);
        let walk_size = inputs::anp3(3000, 1).bytes.len().div_ceil(SECTOR) as i64 * 2048;
        assert_eq!(
            listing(&archive)[0],
            ("walk.ifp".into(), walk_size, "ANP3".into())
        );
        // A second `new` is refused: the archive exists.
        let again = run(&new);
        assert!(!again.status.success());
        assert!(stderr(&again).contains("exists"), "{}", stderr(&again));

        // Replace in place (a name in another case), then append.
        let replacement = write(&dir, "WALK.IFP", &inputs::anpk(5000, 2).bytes);
        let text = write(
            &dir,
            "map.ipl",
            b"inst\n1, a, 0, 1, 2, 3, 0, 0, 0, 1, -1\nend\n",
        );
        let out = run(&["img", "add", &archive, &replacement, &text]);
        assert!(out.status.success(), "{}", stderr(&out));
        let names: Vec<(String, String)> = listing(&archive)
            .into_iter()
            .map(|(n, _, f)| (n, f))
            .collect();
        assert_eq!(
            names,
            [
                ("WALK.IFP", "ANPK"),
                ("sector.ipl", "bnry"),
                ("map.ipl", "text")
            ]
            .map(|(n, f)| (n.to_owned(), f.to_owned()))
        );
        // The entry's bytes are the file's, padded to its sector.
        let extracted = dir.join("out");
        let out = run(&[
            "extract",
            &archive,
            "map.ipl",
            "-o",
            extracted.to_str().unwrap(),
        ]);
        assert!(out.status.success(), "{}", stderr(&out));
        let bytes = std::fs::read(extracted.join("map.ipl")).unwrap();
        assert!(bytes.starts_with(b"inst\n1, a"));
        assert_eq!(bytes.len(), SECTOR);

        let out = run(&["img", "rm", &archive, "SECTOR.IPL"]);
        assert!(out.status.success(), "{}", stderr(&out));
        assert_eq!(listing(&archive).len(), 2);
        let out = run(&["img", "rebuild", &archive]);
        assert!(out.status.success(), "{}", stderr(&out));
        assert!(
            stderr(&out).contains("2 entries, 2 kept"),
            "{}",
            stderr(&out)
        );
    }
}

#[test]
fn img_refusals_name_the_entry_and_change_nothing() {
    let dir = scratch("img_refusals");
    let walk = write(&dir, "walk.ifp", &inputs::anp3(3000, 1).bytes);
    let archive = dir.join("a.img").to_str().unwrap().to_owned();
    assert!(run(&["img", "new", &archive, &walk]).status.success());
    let before = std::fs::read(&archive).unwrap();
    let long = write(&dir, "a_name_far_too_long_for_it.ifp", b"x");
    let out = run(&["img", "add", &archive, &long]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("entry name longer than 23 bytes")
            && stderr(&out).contains("a_name_far_too_long_for_it.ifp"),
        "{}",
        stderr(&out)
    );
    let out = run(&["img", "rm", &archive, "missing.dff"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("no entry named missing.dff"),
        "{}",
        stderr(&out)
    );
    let out = run(&["img", "add", &walk, &walk]);
    assert!(
        stderr(&out).contains("not an IMG archive"),
        "{}",
        stderr(&out)
    );
    assert_eq!(std::fs::read(&archive).unwrap(), before);
}

/// Runs `gtastream` with `args`, raising `signal` (`KILL@N`, `INT@N`, `TERM@N`) at the
/// command's Nth step.
fn run_raising(args: &[&str], signal: &str) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gtastream"))
        .args(args)
        .env("GTASTREAM_TEST_RAISE", signal)
        .output()
        .expect("the binary runs")
}

/// What one reader command gave: its status and output, or a refusal naming the unfinished
/// change and the command that completes it.
#[derive(Clone, Debug, PartialEq)]
enum Reading {
    Gave(Option<i32>, String),
    Refused,
}

/// What every reader gives on `archive` (`ls`, `info`, `check`, `dump` of `entry`, `extract`
/// of every entry, with the files it wrote), and whether one named a temporary file left
/// beside it.
fn read_with_every_reader(archive: &str, entry: &str, out: &Path) -> (Vec<Reading>, bool) {
    let _ = std::fs::remove_dir_all(out);
    let outdir = out.to_str().unwrap();
    let named = format!("{archive}:{entry}");
    let commands: [&[&str]; 5] = [
        &["ls", "--json", archive],
        &["info", "--json", "--entries", archive],
        &["check", "--json", archive],
        &["dump", "--json", &named],
        &["extract", archive, "-o", outdir],
    ];
    let mut named_leftover = false;
    // The readers run side by side: they only read.
    let outputs: Vec<Output> = std::thread::scope(|scope| {
        let running: Vec<_> = commands
            .iter()
            .map(|args| scope.spawn(move || run(args)))
            .collect();
        running.into_iter().map(|r| r.join().unwrap()).collect()
    });
    let readings = commands
        .iter()
        .zip(outputs)
        .map(|(args, output)| {
            let err = stderr(&output);
            named_leftover |= err.contains(".gtastream-new was left by an interrupted")
                && err.contains("gtastream img recover");
            if err.contains(".dir.pending") {
                assert!(
                    !output.status.success()
                        && err.contains("unfinished")
                        && err.contains(&format!("`gtastream img recover {archive}`")),
                    "{args:?}: {err}"
                );
                return Reading::Refused;
            }
            let mut text = stdout(&output).to_owned();
            if args[0] == "extract" && output.status.success() {
                let mut files: Vec<_> = std::fs::read_dir(out)
                    .unwrap()
                    .map(|e| e.unwrap().path())
                    .collect();
                files.sort();
                for file in files {
                    let bytes = std::fs::read(&file).unwrap();
                    // FNV-1a: a short, exact enough trace of the bytes.
                    let hash = bytes.iter().fold(0xcbf29ce484222325u64, |h, &b| {
                        (h ^ u64::from(b)).wrapping_mul(0x100000001b3)
                    });
                    text += &format!("{}: {} bytes, {hash:016x}\n", file.display(), bytes.len());
                }
            }
            Reading::Gave(output.status.code(), text)
        })
        .collect();
    (readings, named_leftover)
}

/// The files of a folder, by name, with their bytes.
type Files = Vec<(String, Vec<u8>)>;

fn folder_files(dir: &Path) -> Files {
    let mut files: Files = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap())
        .map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            (name, std::fs::read(e.path()).unwrap())
        })
        .collect();
    files.sort();
    files
}

/// Puts `files` back as the folder's only files.
fn restore(dir: &Path, files: &[(String, Vec<u8>)]) {
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir).unwrap();
    for (name, bytes) in files {
        std::fs::write(dir.join(name), bytes).unwrap();
    }
}

/// Each reading is the old archive's, the new one's, or a refusal, and no two readers
/// disagree about which archive they saw (a reading the same for both says nothing). Returns
/// which: 0 old, 1 new, 2 refused.
fn old_new_or_refused(readings: &[Reading], old: &[Reading], new: &[Reading], at: &str) -> usize {
    let mut saw = [false; 3];
    for (i, reading) in readings.iter().enumerate() {
        match reading {
            Reading::Refused => saw[2] = true,
            _ if old[i] == new[i] && *reading == old[i] => {}
            _ if *reading == old[i] => saw[0] = true,
            _ if *reading == new[i] => saw[1] = true,
            _ => panic!(
                "{at}: reader {i} saw neither archive: {reading:?}\nold: {:?}\nnew: {:?}",
                old[i], new[i]
            ),
        }
    }
    assert!(!(saw[0] && saw[1]), "{at}: old and new mixed: {readings:?}");
    if saw[2] {
        2
    } else if saw[1] {
        1
    } else {
        0
    }
}

/// Kills every `img` command (new, add, add replacing, rm, rebuild; version 2 and version 1)
/// at each of its steps, and `img recover` at each of its own after a kill in a version 1
/// commit: every reader (ls, info, check, dump ARCHIVE:ENTRY, extract) then shows the old
/// archive or the new one, or refuses naming the pending directory and `gtastream img
/// recover`; a temporary file left is named; `img recover` then gives what the readers saw
/// (the new archive where they refused), and no file but the archive's.
#[cfg(unix)]
#[test]
fn img_killed_at_every_step_leaves_readers_the_old_or_the_new_archive() {
    use std::os::unix::process::ExitStatusExt;
    let root = scratch("img_kill_steps");
    let sources = root.join("sources");
    std::fs::create_dir_all(&sources).unwrap();
    let walk = write(&sources, "walk.ifp", &inputs::anp3(3000, 1).bytes);
    let ped = write(&sources, "PED.IFP", &inputs::anpk(5000, 2).bytes);
    let city = write(&sources, "city.ipl", &inputs::ipl_text(3000, 5).bytes);
    let replacement = write(&sources, "WALK.IFP", &inputs::anpk(4000, 3).bytes);
    let extra = write(&sources, "extra.dat", &[0xE7; 7000]);
    let live = root.join("live");
    let out = root.join("out");
    let archive = live.join("r.img").to_str().unwrap().to_owned();
    let mut kill_points = 0;
    for v1 in [false, true] {
        // The archive every operation but `new` starts from: entries out of order, junk
        // after names (so that `rebuild` changes it).
        let odd = img(&[
            ("walk.ifp", inputs::anp3(3000, 1).bytes),
            ("PED.IFP", inputs::anpk(5000, 2).bytes),
            ("city.ipl", inputs::ipl_text(3000, 5).bytes),
        ]);
        let start = if v1 {
            let (dir, data) = odd.v1();
            vec![("r.dir".to_owned(), dir), ("r.img".to_owned(), data)]
        } else {
            vec![("r.img".to_owned(), odd.v2())]
        };
        let mut new = vec!["img", "new", &archive, &walk, &ped, &city];
        if v1 {
            new.insert(2, "--v1");
        }
        let nothing = Files::new();
        let operations: [(&str, Vec<&str>, &Files); 5] = [
            ("new", new.clone(), &nothing),
            ("add", vec!["img", "add", &archive, &replacement], &start),
            ("add", vec!["img", "add", &archive, &extra], &start),
            ("rm", vec!["img", "rm", &archive, "PED.IFP"], &start),
            ("rebuild", vec!["img", "rebuild", &archive], &start),
        ];
        for (name, args, before) in &operations {
            restore(&live, before);
            let (old, _) = read_with_every_reader(&archive, "walk.ifp", &out);
            assert!(run(args).status.success(), "{name}");
            let (new_readings, _) = read_with_every_reader(&archive, "walk.ifp", &out);
            let after = folder_files(&live);
            assert_ne!(old, new_readings, "{name}");
            let mut step = 1;
            loop {
                restore(&live, before);
                let output = run_raising(args, &format!("KILL@{step}"));
                if output.status.success() {
                    // Past the last step: the command ran to its end.
                    assert_eq!(folder_files(&live), after, "{name}");
                    break;
                }
                assert_eq!(
                    output.status.signal(),
                    Some(9),
                    "{name} {step}: {}",
                    stderr(&output)
                );
                kill_points += 1;
                let at = format!("{name} v1={v1} killed at step {step}");
                let (readings, named) = read_with_every_reader(&archive, "walk.ifp", &out);
                let saw = old_new_or_refused(&readings, &old, &new_readings, &at);
                let leftovers = folder_files(&live)
                    .iter()
                    .any(|(n, _)| n.ends_with(".gtastream-new"));
                if saw == 0 && leftovers {
                    assert!(named, "{at}: the temporary file is not named");
                }
                // `recover`, itself killed at each of its steps when it has any.
                let killed_there = folder_files(&live);
                let mut recover_step = 1;
                loop {
                    restore(&live, &killed_there);
                    let recover = ["img", "recover", &archive];
                    let output = run_raising(&recover, &format!("KILL@{recover_step}"));
                    if output.status.signal() == Some(9) {
                        kill_points += 1;
                        let at = format!("{at}, recover killed at step {recover_step}");
                        let (readings, _) = read_with_every_reader(&archive, "walk.ifp", &out);
                        let again = old_new_or_refused(&readings, &old, &new_readings, &at);
                        assert!(
                            again == saw || again == 2 || (saw == 2 && again == 1),
                            "{at}"
                        );
                        recover_step += 1;
                        continue;
                    }
                    if before.is_empty() && !leftovers && saw == 0 {
                        // Nothing to recover where nothing was made.
                        break;
                    }
                    assert!(output.status.success(), "{at}: {}", stderr(&output));
                    let (readings, named) = read_with_every_reader(&archive, "walk.ifp", &out);
                    let expected = if saw == 0 { &old } else { &new_readings };
                    assert_eq!(&readings, expected, "{at}: recovered");
                    assert!(!named, "{at}");
                    let files = folder_files(&live);
                    let wanted = if saw == 0 {
                        before.to_vec()
                    } else {
                        after.clone()
                    };
                    assert_eq!(files, wanted, "{at}: recovered");
                    break;
                }
                step += 1;
            }
            assert!(step > 8, "{name}: {step} steps");
        }
    }
    // 5 operations on 2 versions, every step, and the recoveries' steps.
    assert!(kill_points > 100, "{kill_points}");
}

/// Ctrl-C (SIGINT) or SIGTERM at each step of `img new`, `add` and `rm` on both versions:
/// before the commit the command removes its temporary files, names them and exits with 130,
/// the folder byte for byte as it was; from the commit on it completes the change and says
/// the interrupt came too late.
#[cfg(unix)]
#[test]
fn img_interrupted_removes_its_temporary_files_and_says_so() {
    let root = scratch("img_interrupt");
    let sources = root.join("sources");
    std::fs::create_dir_all(&sources).unwrap();
    let walk = write(&sources, "walk.ifp", &inputs::anp3(3000, 1).bytes);
    let ped = write(&sources, "PED.IFP", &inputs::anpk(5000, 2).bytes);
    let live = root.join("live");
    let archive = live.join("r.img").to_str().unwrap().to_owned();
    for (v1, signal) in [(false, "INT"), (true, "INT"), (true, "TERM")] {
        let mut new = vec!["img", "new", &archive, &walk, &ped];
        if v1 {
            new.insert(2, "--v1");
        }
        restore(&live, &[]);
        assert!(run(&new).status.success());
        let start = folder_files(&live);
        let nothing = Files::new();
        let operations: [(Vec<&str>, &Files); 3] = [
            (new.clone(), &nothing),
            (vec!["img", "add", &archive, &walk], &start),
            (vec!["img", "rm", &archive, "walk.ifp"], &start),
        ];
        for (args, before) in &operations {
            restore(&live, before);
            assert!(run(args).status.success());
            let after = folder_files(&live);
            let (mut stopped, mut completed) = (0, 0);
            for step in 1.. {
                restore(&live, before);
                let output = run_raising(args, &format!("{signal}@{step}"));
                let err = stderr(&output);
                let at = format!("{args:?} {signal}@{step}: {err}");
                if output.status.code() == Some(130) {
                    stopped += 1;
                    assert_eq!(folder_files(&live), before.to_vec(), "{at}");
                    let what = if before.is_empty() {
                        "no archive made"
                    } else {
                        "the archive is as it was"
                    };
                    assert!(
                        err.contains(&format!("interrupted: {what}; removed ")),
                        "{at}"
                    );
                    assert!(err.contains(&format!("{archive}.gtastream-new")), "{at}");
                    if v1 {
                        assert!(err.contains("r.dir.gtastream-new"), "{at}");
                    }
                    assert_eq!(completed, 0, "{at}: stopped after the commit");
                    continue;
                }
                assert!(output.status.success(), "{at}");
                assert_eq!(folder_files(&live), after, "{at}");
                if err.contains("the interrupt came once the change was being put in place") {
                    completed += 1;
                    continue;
                }
                // Past the last step: no signal was raised.
                break;
            }
            // At least: the files made, an entry written, an entry checked, the sync.
            assert!(stopped >= 4, "{args:?}: {stopped}");
            assert_eq!(completed, if v1 { 6 } else { 2 }, "{args:?}");
        }
    }
}

/// What `img add` says of a file it cannot take, and `ARCHIVE:ENTRY` for names with `:`.
#[test]
fn img_names_what_it_cannot_take_and_entries_with_colons_open() {
    let dir = scratch("img_messages");
    let walk = write(&dir, "walk.ifp", &inputs::anp3(3000, 1).bytes);
    let archive = dir.join("my.img").to_str().unwrap().to_owned();
    assert!(run(&["img", "new", &archive, &walk]).status.success());
    let before = std::fs::read(&archive).unwrap();
    let missing = dir.join("missing.ifp").to_str().unwrap().to_owned();
    let out = run(&["img", "add", &archive, &missing]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr(&out),
        format!(
            "gtastream: {missing}: No such file or directory (os error 2) ({archive} unchanged)\n"
        )
    );
    let folder = dir.join("imgw");
    std::fs::create_dir_all(&folder).unwrap();
    let out = run(&["img", "add", &archive, folder.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains(&format!(
            "{}: a folder, not a file (name the files in it)",
            folder.display()
        )),
        "{}",
        stderr(&out)
    );
    assert_eq!(std::fs::read(&archive).unwrap(), before);

    // A name with `:` is read back by ARCHIVE:ENTRY: the archive is the longest part before
    // a `:` that is a file.
    let weird = write(&dir, "we:ird.ifp", &inputs::anpk(4000, 2).bytes);
    assert!(run(&["img", "add", &archive, &weird]).status.success());
    let out = run(&["dump", "--json", &format!("{archive}:we:ird.ifp")]);
    assert!(out.status.success(), "{}", stderr(&out));
    let extracted = dir.join("out");
    let outdir = extracted.to_str().unwrap();
    assert!(run(&["extract", &archive, "we:ird.ifp", "-o", outdir])
        .status
        .success());
    // (written as we_ird.ifp: `:` is no file name character on Windows)
    let file = run(&[
        "dump",
        "--json",
        extracted.join("we_ird.ifp").to_str().unwrap(),
    ]);
    assert_eq!(stdout(&out), stdout(&file));
    let out = run(&["dump", "--json", &format!("{archive}:walk.ifp")]);
    assert!(out.status.success(), "{}", stderr(&out));
    // ls lists it, info and check read it by ARCHIVE:ENTRY, check of the archive names it,
    // and rm removes it by its name.
    let out = run(&["ls", &archive]);
    assert!(
        stdout(&out).lines().any(|l| l.starts_with("we:ird.ifp ")),
        "{}",
        stdout(&out)
    );
    let out = run(&["info", &format!("{archive}:we:ird.ifp")]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("format:      ANPK"),
        "{}",
        stdout(&out)
    );
    let out = run(&["check", "--json", &format!("{archive}:we:ird.ifp")]);
    assert_ne!(out.status.code(), Some(2), "{}", stderr(&out));
    let json = Json::parse(stdout(&out)).unwrap();
    assert_eq!(json.get("inputs").arr()[0].get("format").str(), "ANPK");
    let out = run(&["check", "--json", &archive]);
    assert!(
        stdout(&out).contains("\"entry\": \"we:ird.ifp\""),
        "{}",
        stdout(&out)
    );
    assert!(run(&["img", "rm", &archive, "we:ird.ifp"]).status.success());
    let out = run(&["ls", &archive]);
    assert!(!stdout(&out).contains("we:ird.ifp"), "{}", stdout(&out));

    // `recover` with nothing to do says so.
    let out = run(&["img", "recover", &archive]);
    assert!(out.status.success());
    assert_eq!(stderr(&out), format!("{archive}: nothing to recover\n"));
}

#[test]
fn extract_from_a_pipe_and_to_standard_output() {
    let dir = scratch("extract_pipe");
    let (v2, _, _) = archives(&dir);
    let entries = entries();
    let bytes = std::fs::read(&v2).unwrap();
    // From a pipe, into a folder: the same files as from the archive's file.
    let out = dir.join("piped");
    let output = run_piped(&["extract", "-", "-o", out.to_str().unwrap()], &bytes);
    assert!(output.status.success(), "{}", stderr(&output));
    for (name, entry) in &entries {
        let written = std::fs::read(out.join(name)).unwrap();
        assert_eq!(&written[..entry.len()], &entry[..], "{name}");
    }
    // One entry to standard output, from a file and from a pipe: its bytes, nothing else.
    let (name, entry) = &entries[1];
    let wanted = entry.len().div_ceil(SECTOR) * SECTOR;
    for output in [
        run(&["extract", &v2, name, "-o", "-"]),
        run_piped(&["extract", "-", name, "-o", "-"], &bytes),
    ] {
        assert!(output.status.success(), "{}", stderr(&output));
        assert_eq!(output.stdout.len(), wanted);
        assert_eq!(&output.stdout[..entry.len()], &entry[..]);
    }
    // Standard output holds one entry: none or two named is a clear error.
    for names in [&[][..], &["walk.ifp", "PED.IFP"]] {
        let output = run(&[&["extract", v2.as_str()], names, &["-o", "-"]].concat());
        assert_eq!(output.status.code(), Some(1));
        assert!(
            stderr(&output).contains("name exactly one"),
            "{}",
            stderr(&output)
        );
        assert!(output.stdout.is_empty());
    }
}

#[test]
fn extract_replaces_existing_files_only_with_force() {
    let dir = scratch("extract_force");
    let (v2, _, _) = archives(&dir);
    let entries = entries();
    let out = dir.join("out");
    std::fs::create_dir_all(&out).unwrap();
    let kept = out.join("PED.IFP");
    std::fs::write(&kept, b"mine").unwrap();
    // Refused, naming the file; nothing at all is extracted.
    let output = run(&["extract", &v2, "-o", out.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1));
    let message = stderr(&output);
    assert!(
        message.contains(&format!("{}: exists (--force replaces it)", kept.display())),
        "{message}"
    );
    assert_eq!(std::fs::read(&kept).unwrap(), b"mine");
    let names: Vec<_> = std::fs::read_dir(&out).unwrap().collect();
    assert_eq!(names.len(), 1);
    // With --force, replaced by the entry's bytes; no temporary file is left.
    let output = run(&["extract", &v2, "-o", out.to_str().unwrap(), "--force"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let (_, ped) = &entries[1];
    assert_eq!(&std::fs::read(&kept).unwrap()[..ped.len()], &ped[..]);
    let names: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(names.len(), entries.len(), "{names:?}");
    assert!(names.iter().all(|n| !n.contains("gtastream-tmp")));
}

/// A RenderWare chunk header (id, size, San Andreas library id), then a struct chunk's.
fn renderware(id: u32) -> Vec<u8> {
    [id, 0x400, 0x1803_FFFF, 1, 12, 0x1803_FFFF]
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .chain([0x5a; 40])
        .collect()
}

#[test]
fn collision_files_and_textures_are_other_entries_never_failures_and_models_are_read() {
    let dir = scratch("foreign");
    // A COL3 file whose first bytes are printable up to the first NUL (once taken for text).
    let mut col3 = b"COL3\x41\x00\x00\x00lae_house\0\0\0".to_vec();
    col3.extend_from_slice(&[0x80; 60]);
    let entries: Vec<(&str, Vec<u8>)> = vec![
        ("lae.col", col3.clone()),
        ("car.dff", testkit::dff::sa_skin().bytes()),
        ("car.txd", renderware(0x16)),
        ("walk.ifp", inputs::anp3(3000, 1).bytes),
    ];
    let img = write(&dir, "gta3.img", &v2(&entries));
    let output = run(&["ls", "--json", &img]);
    assert!(output.status.success(), "{}", stderr(&output));
    let json = Json::parse(stdout(&output)).unwrap();
    let formats: Vec<&Json> = json
        .get("entries")
        .arr()
        .iter()
        .map(|e| e.get("format"))
        .collect();
    assert_eq!(
        formats[..3],
        [&Json::Null, &Json::Str("dff".into()), &Json::Null]
    );
    assert_eq!(formats[3].str(), "ANP3");
    let output = run(&["info", "--json", &img]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(stderr(&output), "");
    let json = Json::parse(stdout(&output)).unwrap();
    let totals = json.get("totals");
    assert_eq!(totals.get("failed"), &Json::Num("0".into()));
    assert_eq!(totals.get("formats").get("other"), &Json::Num("2".into()));
    // Given on their own, each is named.
    for (name, bytes, said) in [
        ("lae.col", &col3, "collision file"),
        ("car.txd", &renderware(0x16), "texture dictionary"),
    ] {
        let path = write(&dir, name, bytes);
        let output = run(&["info", &path]);
        assert_eq!(output.status.code(), Some(1));
        let err = stderr(&output);
        assert!(
            err.contains(&format!("{path}: ")) && err.contains(said),
            "{err}"
        );
        assert!(!err.contains("unknown file magic"), "{err}");
    }
}

#[test]
fn archives_of_other_tools_and_games_get_a_clear_message() {
    let dir = scratch("foreign_archives");
    let mut verf = b"VERF".to_vec();
    verf.extend_from_slice(&[0x3C, 0x9F, 0x11, 0x02, 0xA7, 0x5E]);
    verf.resize(SECTOR, 0x11);
    let mut gta4 = vec![0x52, 0x2A, 0x4E, 0xA9, 3, 0, 0, 0, 2, 0, 0, 0];
    gta4.resize(SECTOR, 0);
    for (name, bytes, said) in [
        (
            "mod.img",
            verf,
            "Fastman92 IMG archive (VERF): not supported",
        ),
        ("gta_iv.img", gta4, "GTA IV IMG archive: not supported"),
    ] {
        let path = write(&dir, name, &bytes);
        let entry = write(&dir, "walk.ifp", &inputs::anp3(3000, 1).bytes);
        for command in [
            &["ls", &path][..],
            &["info", &path],
            &["img", "add", &path, &entry],
        ] {
            let output = run(command);
            assert_eq!(output.status.code(), Some(1), "{command:?}");
            let err = stderr(&output);
            assert!(
                err.contains(&format!("{path}: {said}")),
                "{command:?}: {err}"
            );
        }
        // Nothing was written into it.
        assert_eq!(std::fs::read(&path).unwrap(), bytes);
    }
}

/// `info ARCHIVE` names what its warnings count counts: each entry with warnings, how many, and
/// the command that lists them (which does); past 20 entries, how many more and `--entries`.
#[test]
fn info_of_an_archive_names_the_entries_its_warnings_count() {
    let dir = scratch("info-warned-entries");
    let unclosed = b"inst\n1, box, 0, 1, 2, 3, 1, 1, 1, 0, 0, 0, 1\n".to_vec();
    let mut entries: Vec<(String, Vec<u8>)> = vec![
        ("walk.ifp".into(), inputs::anp3(3000, 1).bytes),
        ("open.ipl".into(), unclosed.clone()),
    ];
    let path = write(
        &dir,
        "few.img",
        &v2(&entries
            .iter()
            .map(|(n, b)| (n.as_str(), b.clone()))
            .collect::<Vec<_>>()),
    );
    let output = run(&["info", &path]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    let listed = format!("    open.ipl: 1 warning (gtastream info {path}:open.ipl)");
    let lines: Vec<&str> = text.lines().collect();
    let count = lines.iter().position(|l| *l == "  warnings:    1");
    assert!(count.is_some(), "{text}");
    assert_eq!(lines[count.unwrap() + 1], listed, "{text}");
    assert!(!text.contains("walk.ifp:"), "{text}");
    // The command named lists the warning.
    let output = run(&["info", &format!("{path}:open.ipl")]);
    let shown = stdout(&output);
    assert!(shown.contains("(unclosed_section)"), "{shown}");

    for i in 0..22 {
        entries.push((format!("open{i}.ipl"), unclosed.clone()));
    }
    let path = write(
        &dir,
        "many.img",
        &v2(&entries
            .iter()
            .map(|(n, b)| (n.as_str(), b.clone()))
            .collect::<Vec<_>>()),
    );
    let output = run(&["info", &path]);
    let text = stdout(&output);
    assert!(text.contains("  warnings:    23\n"), "{text}");
    assert_eq!(
        text.matches(": 1 warning (gtastream info ").count(),
        20,
        "{text}"
    );
    assert!(
        text.contains(&format!(
            "    and 3 more entries with warnings (gtastream info --entries {path})"
        )),
        "{text}"
    );
    // With --entries every entry has its line already: no list.
    let output = run(&["info", "--entries", &path]);
    let text = stdout(&output);
    assert!(!text.contains("(gtastream info "), "{text}");
}

/// A warning of an entry's directory record (here: its sectors lie past the end of the
/// `.img`) is listed by `info ARCHIVE` itself: `info ARCHIVE:ENTRY` decodes the entry alone and
/// cannot show it. It pointed there and that command showed no warning.
#[test]
fn info_of_an_archive_lists_the_warnings_of_directory_records() {
    let dir = scratch("info-record-warnings");
    let mut bytes = b"VER2".to_vec();
    bytes.extend_from_slice(&1u32.to_le_bytes());
    // One entry at sector 100, of one sector, in a file of one sector.
    bytes.extend_from_slice(&100u32.to_le_bytes());
    bytes.extend_from_slice(&1u16.to_le_bytes());
    bytes.extend_from_slice(&0u16.to_le_bytes());
    let mut name = b"far.ifp".to_vec();
    name.resize(24, 0);
    bytes.extend_from_slice(&name);
    bytes.resize(2048, 0);
    let path = write(&dir, "far.img", &bytes);
    let output = run(&["info", &path]);
    let text = stdout(&output);
    assert!(text.contains("  warnings:    1\n"), "{text}");
    assert!(
        text.contains(
            "    far.ifp: entry runs past the end of the archive at offset 8 \
             (entry_past_end, its directory record)\n"
        ),
        "{text}"
    );
    assert!(!text.contains("(gtastream info "), "{text}");
    let output = run(&["info", "--entries", &path]);
    let text = stdout(&output);
    assert!(
        text.contains(
            ", 1 warning; its directory record: entry runs past the end of the archive at \
             offset 8 (entry_past_end)\n"
        ),
        "{text}"
    );
}

/// `ls`, `info --entries` and `check` agree about an entry whose first bytes are text but that
/// is no placement file (a readme): listed `-`, not decoded, no finding that it fails to
/// decode (it was `text` in `ls`, a failure in `info`, `file.decode_failed` in `check`); a text
/// placement file beside it is `text` everywhere.
#[test]
fn ls_info_and_check_agree_about_text_that_is_no_placement_file() {
    let dir = scratch("odd-text-entry");
    let entries: Vec<(&str, Vec<u8>)> = vec![
        (
            "readme.txt",
            b"hello there\nthis archive holds my mod\n".to_vec(),
        ),
        (
            "map.ipl",
            b"inst\n1, box, 0, 1, 2, 3, 1, 1, 1, 0, 0, 0, 1\nend\n".to_vec(),
        ),
    ];
    let path = write(&dir, "odd.img", &v2(&entries));
    let output = run(&["ls", &path]);
    assert!(output.status.success(), "{}", stderr(&output));
    let listed: Vec<(String, String)> = stdout(&output)
        .lines()
        .map(|l| {
            let fields: Vec<&str> = l.split_whitespace().collect();
            (fields[0].to_string(), fields[3].to_string())
        })
        .collect();
    assert_eq!(
        listed,
        [
            ("readme.txt".into(), "-".into()),
            ("map.ipl".into(), "text".into())
        ]
    );
    let output = run(&["ls", "--json", &path]);
    let json = Json::parse(stdout(&output)).unwrap();
    let formats: Vec<Json> = match json.get("entries") {
        Json::Arr(entries) => entries.iter().map(|e| e.get("format").clone()).collect(),
        other => panic!("{other:?}"),
    };
    assert_eq!(formats, [Json::Null, Json::Str("text".into())]);

    let output = run(&["info", "--entries", &path]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(
        text.lines()
            .any(|l| l.split_whitespace().collect::<Vec<_>>()
                == ["readme.txt", "-", "not", "decoded"]),
        "{text}"
    );
    assert!(text.contains("  failed:      0"), "{text}");

    let output = run(&["check", &path]);
    let text = stdout(&output);
    assert!(!text.contains("file.decode_failed"), "{text}");
    assert!(!text.contains(" error "), "{text}");
}

/// One way of counting offsets (docs/FORMATS.md §0): from the first byte of the input named.
/// A whole archive (`info ARCHIVE`, its JSON, `check ARCHIVE`): the `.img`; `ARCHIVE:ENTRY`: the
/// entry, as the extracted file. `info ARCHIVE` counted from the entry, `check` from the `.img`.
#[test]
fn offsets_count_from_the_input_named() {
    let dir = scratch("offsets-one-way");
    let mut broken = inputs::anp3(3000, 6).bytes;
    broken[60..64].copy_from_slice(&[0xFF, 0xFF, 0xFF, 0x7F]);
    let entries: Vec<(&str, Vec<u8>)> = vec![
        ("walk.ifp", inputs::anp3(3000, 1).bytes),
        ("broken.ifp", broken.clone()),
    ];
    let path = write(&dir, "offsets.img", &v2(&entries));
    let loose = write(&dir, "broken.ifp", &broken);
    let base = layout(&entries)[1].0 as u64 * SECTOR as u64;
    let offset_in = |text: &str| -> u64 {
        let at = text.find(" at offset ").expect(text) + " at offset ".len();
        text[at..]
            .split(|c: char| !c.is_ascii_digit())
            .next()
            .unwrap()
            .parse()
            .unwrap()
    };
    let in_file = offset_in(stderr(&run(&["info", &loose])));
    let in_entry = offset_in(stderr(&run(&["info", &format!("{path}:broken.ifp")])));
    assert_eq!(in_entry, in_file);
    let output = run(&["info", &path]);
    let in_archive = offset_in(stderr(&output));
    assert_eq!(in_archive, base + in_file, "{}", stderr(&output));
    let output = run(&["info", "--json", &path]);
    let json = Json::parse(stdout(&output)).unwrap();
    let Json::Arr(listed) = json.get("entries") else {
        panic!("{json:?}")
    };
    assert_eq!(
        listed[1].get("error").get("offset"),
        &Json::Num((base + in_file).to_string())
    );
    // check counts from the .img too: its finding for the failure lies at the same offset.
    let output = run(&["check", &path]);
    let text = stdout(&output);
    let at = format!(" at {}", base + in_file);
    assert!(
        text.lines().any(|l| l.contains("broken.ifp")
            && l.match_indices(&at)
                .any(|(i, _)| { !l[i + at.len()..].starts_with(|c: char| c.is_ascii_digit()) })),
        "{text}"
    );
}

/// On a terminal, the `img` progress bar counts entries and bytes in binary units, its text
/// whole on 80 columns (it drew raw byte counts, `3006464/3006464`; then the text was cut at
/// the bar's 40 columns). Run under `script`, which gives the command a terminal; without it
/// (not util-linux) there is nothing to run it on.
#[test]
fn img_progress_on_a_terminal_is_in_binary_units() {
    let script = Command::new("script").arg("--version").output();
    if !script.is_ok_and(|o| o.status.success()) {
        eprintln!("no `script` command: the progress bar is not tried on a terminal");
        return;
    }
    let dir = scratch("progress-terminal");
    // Large enough that the bar draws while it writes and checks.
    let big: Vec<u8> = (0..3_000_000u32)
        .map(|i| (i * 7 + i / 4096) as u8)
        .collect();
    let big = write(&dir, "big.bin", &big);
    let walk = write(&dir, "walk.ifp", &inputs::anp3(3000, 1).bytes);
    let archive = dir.join("big.img");
    let command = format!(
        "stty cols 80 rows 24; exec '{}' img new '{}' '{big}' '{walk}'",
        env!("CARGO_BIN_EXE_gtastream"),
        archive.display()
    );
    let output = Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let shown = String::from_utf8_lossy(&output.stdout);
    // Each drawing is a line of its own (redrawn after `\r`): the bar's texts, whole (which
    // ones are drawn depends on timing: the bar draws at most 20 times a second).
    let texts: Vec<&str> = shown
        .split('\r')
        .filter_map(|drawn| {
            drawn
                .split_once(" writing ")
                .or(drawn.split_once(" checking "))
        })
        .map(|(_, text)| text.trim_end())
        .collect();
    assert!(!texts.is_empty(), "{shown:?}");
    for text in &texts {
        assert!(text.contains(" of 2 entries, "), "{text:?} in {shown:?}");
        assert!(text.ends_with(" of 2.9 MiB"), "{text:?} in {shown:?}");
    }
    assert!(!shown.contains("/3020800"), "{shown:?}");
    assert!(
        shown.contains("big.img: 2 entries, 2 added, 3020800 bytes (2.9 MiB)"),
        "{shown:?}"
    );
}
