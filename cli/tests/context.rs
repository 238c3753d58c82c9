//! Context in every message (issue 22): each command's error names the animation and bone (or
//! the line) and what was decoded before it; `dump --json` and `info --json` give each
//! warning's animation, bone and line. Files built in code; offsets worked out by hand from
//! the IFP2 layout (36-byte file, animation and bone headers; 10-byte packed keyframes).

#[allow(dead_code)]
mod support;

use std::path::PathBuf;

use support::{run, stderr, stdout, Json};
use testkit::ifp2::{f2, AnimSpec, BoneSpec, FileSpec};

/// Two animations; bone 2 of animation 1 ("b2") has a time that goes back (at offset 322).
///
/// ```text
/// 0 file | 36 "first" | 72 "a" | 108 frames | 128 "second" | 164 "b0" | 200 frames
/// | 220 "b1" | 256 frames | 276 "b2" | 312 frame | 322 frame (time -1) | 332 end
/// ```
fn spec() -> FileSpec {
    FileSpec::anp3(
        "ctx",
        vec![
            AnimSpec::new("first", vec![packed("a", &[0, 1])]),
            AnimSpec::new(
                "second",
                vec![
                    packed("b0", &[0, 1]),
                    packed("b1", &[0, 1]),
                    packed("b2", &[1, -1]),
                ],
            ),
        ],
    )
}

fn packed(name: &str, times: &[i16]) -> BoneSpec {
    BoneSpec::packed(name, times)
}

fn fixture(name: &str, bytes: &[u8]) -> String {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::write(&path, bytes).unwrap();
    path.to_str().unwrap().to_owned()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The message of the file cut inside b2's first keyframe.
const CUT: &str = "file cut short: it ends before the data at offset 312 is complete (animation 1 \"second\", bone 2 \"b2\"; \
                   after 2 animations, 4 bones, 6 keyframes)";

#[test]
fn dump_json_warnings_name_their_animation_and_bone() {
    let data = spec().build();
    let path = fixture("context_warning.ifp", &data);
    let output = run(&["dump", "--json", &path]);
    assert!(output.status.success(), "{}", stderr(&output));
    let doc = Json::parse(stdout(&output)).unwrap();
    let warnings = doc.get("warnings").arr();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    let w = &warnings[0];
    assert_eq!(w.get("kind").str(), "time_backwards");
    assert_eq!(w.get("offset").i64(), 322);
    assert_eq!(w.get("line"), &Json::Null);
    // The indices lead into the document's own arrays.
    let animation = &doc.get("animations").arr()[w.get("animation").i64() as usize];
    let bone = &animation.get("bones").arr()[w.get("bone").i64() as usize];
    assert_eq!(animation.get("name").str(), "second");
    assert_eq!(bone.get("name").str(), "b2");
    // The headers as stored.
    assert_eq!(bone.get("raw").str(), hex(&data[276..312]));
    assert_eq!(animation.get("raw").str(), hex(&data[128..164]));
    assert_eq!(doc.get("raw").str(), hex(&data[..36]));
    assert_eq!(doc.get("trailing"), &Json::Null);

    // `info` names the place in its line, `info --json` as `dump --json` does.
    let output = run(&["info", &path]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        stdout(&output).contains(
            "keyframe time goes backwards at offset 322, animation 1 \"second\", bone 2 \"b2\""
        ),
        "{}",
        stdout(&output)
    );
    let output = run(&["info", "--json", &path]);
    let info = Json::parse(stdout(&output)).unwrap();
    let w = &info.get("warnings").arr()[0];
    assert_eq!(
        (w.get("animation").i64(), w.get("bone").i64()),
        (1, 2),
        "{w:?}"
    );
}

#[test]
fn every_command_names_the_place_of_a_cut() {
    let data = spec().build();
    let path = fixture("context_cut.ifp", &data[..317]);
    let expected = format!("gtastream: {path}: {CUT}\n");

    // info: what was decoded before the cut, the error, and a failure status.
    let output = run(&["info", &path]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(stderr(&output), expected);
    let text = stdout(&output);
    for line in [
        "  animations:  2\n",
        "  bones:       4\n",
        "  keyframes:   6\n",
        &format!("  error:       {CUT}\n"),
    ] {
        assert!(text.contains(line), "{line:?} in {text}");
    }
    // info --json: the error's place.
    let output = run(&["info", "--json", &path]);
    assert_eq!(output.status.code(), Some(1));
    let error = Json::parse(stdout(&output)).unwrap().get("error").clone();
    assert_eq!(error.get("kind").str(), "truncated");
    assert_eq!(error.get("offset").i64(), 312);
    assert_eq!(
        (error.get("animation").i64(), error.get("bone").i64()),
        (1, 2)
    );
    assert_eq!(error.get("message").str(), CUT);

    // dump --json (nothing on stdout), convert, sample: the same message.
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("context_cut_out.ifp");
    for args in [
        vec!["dump", "--json", &path],
        vec!["convert", "--to", "anp2", &path, out.to_str().unwrap()],
        vec!["sample", "--animation", "second", "--time", "0", &path],
    ] {
        let output = run(&args);
        assert_eq!(output.status.code(), Some(1), "{args:?}");
        assert_eq!(stderr(&output), expected, "{args:?}");
        assert_eq!(stdout(&output), "", "{args:?}");
    }
    assert!(!out.exists(), "nothing written");

    // check: the finding names the bone.
    let output = run(&["check", &path]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stdout(&output).contains(
            "error file.decode_failed (sa, mta) at 312, animation 1 \"second\", bone 2 \"b2\""
        ),
        "{}",
        stdout(&output)
    );
}

/// An archive entry's error is the extracted file's: offsets from the entry's first byte, the
/// place in the entry.
#[test]
fn an_entry_names_the_place_of_its_error() {
    // b2 declares more keyframes than the entry's sector holds.
    let mut spec = spec();
    spec.animations[1].bones[2] = packed("b2", &[0, 1]).count(300);
    let data = spec.build();
    let mut img = testkit::img::Img::default();
    img.add("other.ifp", &spec.build()[..36]);
    img.add("long.ifp", &data);
    let archive = fixture("context.img", &img.v2());
    // The entry's bytes as `extract` writes them: its whole sector.
    let mut extracted = data.clone();
    extracted.resize(data.len().div_ceil(2048) * 2048, 0);
    let loose = fixture("context_long.ifp", &extracted);
    let output = run(&["info", &loose]);
    assert_eq!(output.status.code(), Some(1));
    let message = stderr(&output)
        .strip_prefix(&format!("gtastream: {loose}: "))
        .unwrap()
        .to_owned();
    assert!(
        message.contains("(animation 1 \"second\", bone 2 \"b2\"; after 2 animations, 4 bones"),
        "{message}"
    );
    for args in [
        vec!["info".to_owned(), format!("{archive}:long.ifp")],
        vec![
            "dump".to_owned(),
            "--json".to_owned(),
            format!("{archive}:long.ifp"),
        ],
    ] {
        let output = run(&args.iter().map(String::as_str).collect::<Vec<_>>());
        assert_eq!(output.status.code(), Some(1), "{args:?}");
        assert_eq!(
            stderr(&output),
            format!("gtastream: {archive}:long.ifp: {message}"),
            "{args:?}"
        );
    }
    // The whole archive: the entry's line, its offset counted from the .img's first byte
    // (docs/FORMATS.md §0) and the entry first in the place.
    let entry_at: u64 = stdout(&run(&["ls", &archive]))
        .lines()
        .find(|l| l.starts_with("long.ifp "))
        .and_then(|l| l.split_whitespace().nth(1))
        .unwrap()
        .parse()
        .unwrap();
    let offset_of = |text: &str| -> u64 {
        let at = text.find("offset ").unwrap() + "offset ".len();
        text[at..].split(' ').next().unwrap().parse().unwrap()
    };
    let in_archive = message
        .replace(
            &format!("offset {} ", offset_of(&message)),
            &format!("offset {} ", entry_at + offset_of(&message)),
        )
        .replace("(animation 1", "(entry 1 \"long.ifp\", animation 1");
    let output = run(&["info", &archive]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).contains(&format!("gtastream: {archive}:long.ifp: {in_archive}")),
        "{}",
        stderr(&output)
    );
}

/// A text IPL's error names its line, even a line too long to be read.
#[test]
fn a_text_error_names_its_line() {
    let mut text = b"inst\n1, box, 0, 1, 2, 3, 0, 0, 0, 1, -1\n".to_vec();
    let at = text.len();
    text.extend(std::iter::repeat_n(b'x', 300));
    text.extend_from_slice(b"\nend\n");
    let path = fixture("context_long_line.ipl", &text);
    let output = run(&["info", &path]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        stderr(&output),
        format!(
            "gtastream: {path}: exceeds a bound of the decoder at offset {at} (line 3; after 1 \
             instance, 0 cars, 0 lines)\n"
        )
    );
    assert!(
        stdout(&output).contains("  instances:   1\n"),
        "{}",
        stdout(&output)
    );
}

/// An encoder's refusal names the animation and bone of the input it came from.
#[test]
fn convert_names_the_bone_the_encoder_refused() {
    let mut spec = spec();
    // A translation no packed keyframe holds (the packed range is ±32 m).
    spec.animations[1].bones[2] = BoneSpec::new(
        "b2",
        2,
        0,
        vec![f2([0.0, 0.0, 0.0, 1.0], 0.0, [100.0, 0.0, 0.0])],
    );
    let path = fixture("context_far.ifp", &spec.build());
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("context_far_out.ifp");
    let output = run(&[
        "convert",
        "--to",
        "anp3",
        "--quantize",
        &path,
        out.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        stderr(&output),
        format!(
            "gtastream: {path}: packed keyframe value out of range (animation 1 \"second\", \
             bone 2 \"b2\" of the input)\n"
        )
    );
}
