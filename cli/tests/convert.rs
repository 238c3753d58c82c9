//! `gtastream convert`: every target, format names in any case, lossless conversions that come
//! back to the same keyframes, one-line errors with nothing written, `--quantize`.

#[allow(dead_code)]
mod support;

use std::path::{Path, PathBuf};

use gtastream::encode;
use gtastream::{Format, FrameType, Keyframe, Package};
use support::{run, stderr};
use testkit::anpk::{anim, bone, package};

/// A scratch directory of its own for each test, emptied.
fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("convert-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// `convert --to TO OPTIONS.. INPUT OUTPUT`, the output beside `input`: the bytes written, or
/// the tool's message.
fn convert(input: &Path, to: &str, options: &[&str]) -> Result<Vec<u8>, String> {
    let written = input.with_extension(format!("{to}{}.out", options.concat()));
    let mut args = vec!["convert", "--to", to];
    args.extend_from_slice(options);
    args.extend([s(input), s(&written)]);
    let output = run(&args);
    match output.status.success() {
        true => Ok(std::fs::read(&written).unwrap()),
        false => Err(stderr(&output).to_string()),
    }
}

/// Float keyframes (ANPK `KRT0`, `KR00`) with values that are not on the packed steps.
fn anpk_package(animation_name: &str) -> Package {
    let frames = |n: usize| -> Vec<Keyframe> {
        (0..n)
            .map(|i| Keyframe {
                time: i as f32 * 0.033,
                rotation: [0.1, -0.2 * i as f32, 0.3, 0.9],
                translation: [i as f32 * 0.01, 1.0, -2.5],
                scale: [0.0; 3],
            })
            .collect()
    };
    package(
        "ped",
        vec![anim(
            animation_name,
            vec![
                bone("Root", Some(2), FrameType::Krt0, frames(5)),
                bone("L Hand", Some(34), FrameType::Kr00, frames(3)),
            ],
        )],
    )
}

/// The keyframes of every bone, as bits.
fn frames(path: &Path) -> Vec<Vec<[u32; 8]>> {
    let p = Package::parse(&std::fs::read(path).unwrap()).unwrap();
    p.animations
        .iter()
        .flat_map(|a| &a.bones)
        .map(|b| {
            b.frames
                .iter()
                .map(|k| {
                    let mut v = [0; 8];
                    let all = [k.time].into_iter().chain(k.rotation).chain(k.translation);
                    for (o, x) in v.iter_mut().zip(all) {
                        *o = x.to_bits();
                    }
                    v
                })
                .collect()
        })
        .collect()
}

#[test]
fn every_animation_target_keeps_every_keyframe() {
    let dir = scratch("animations");
    let source = dir.join("ped.ifp");
    std::fs::write(&source, encode::write(&anpk_package("walk")).unwrap()).unwrap();
    let want = frames(&source);
    for to in ["anp3", "ANP2", "Anpk"] {
        let out = dir.join(format!("out.{to}"));
        // For San Andreas, which reads float frames in every format (MTA would be warned of).
        let output = run(&["convert", "--game", "sa", "--to", to, s(&source), s(&out)]);
        assert!(output.status.success(), "{to}: {}", stderr(&output));
        assert_eq!(stderr(&output), "");
        assert_eq!(frames(&out), want, "{to}");
        let format = Package::parse(&std::fs::read(&out).unwrap())
            .unwrap()
            .format;
        assert_eq!(format.name().to_ascii_lowercase(), to.to_ascii_lowercase());
        // And back to ANPK: the very same file.
        let back = dir.join(format!("back.{to}"));
        assert!(run(&["convert", "--to", "anpk", s(&out), s(&back)])
            .status
            .success());
        assert_eq!(
            std::fs::read(&back).unwrap(),
            std::fs::read(&source).unwrap()
        );
    }
    // Only the outputs are left: no temporary file.
    let names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(names.iter().all(|n| !n.contains("tmp")), "{names:?}");
}

#[test]
fn anp3_through_anpk_comes_back_packed_and_whole() {
    let dir = scratch("packed");
    let frames: Vec<Keyframe> = (0..40)
        .map(|i| Keyframe {
            time: i as f32 / 60.0,
            rotation: [i as f32 / 4096.0, -0.5, 0.25, 1.0],
            translation: [i as f32 / 1024.0, 2.0, -3.0],
            scale: [0.0; 3],
        })
        .collect();
    let mut p = anpk_package("walk");
    p.format = Format::Anp3;
    p.animations[0].bones = vec![
        bone(
            "Root",
            Some(2),
            FrameType::Ifp2PackedRotTrans,
            frames.clone(),
        ),
        bone("Spine", Some(2), FrameType::Ifp2PackedRot, frames),
    ];
    let source = dir.join("walk.ifp");
    std::fs::write(&source, encode::write(&p).unwrap()).unwrap();
    let (anpk, back) = (dir.join("walk.anpk"), dir.join("back.ifp"));
    assert!(run(&["convert", "--to", "anpk", s(&source), s(&anpk)])
        .status
        .success());
    assert!(run(&["convert", "--to", "anp3", s(&anpk), s(&back)])
        .status
        .success());
    assert_eq!(
        std::fs::read(&back).unwrap(),
        std::fs::read(&source).unwrap()
    );
}

#[test]
fn quantize_packs_on_the_steps() {
    let dir = scratch("quantize");
    let source = dir.join("ped.ifp");
    std::fs::write(&source, encode::write(&anpk_package("walk")).unwrap()).unwrap();
    let out = dir.join("q.ifp");
    assert!(
        run(&["convert", "--to", "anp3", "--quantize", s(&source), s(&out)])
            .status
            .success()
    );
    let p = Package::parse(&std::fs::read(&out).unwrap()).unwrap();
    let types: Vec<FrameType> = p.animations[0].bones.iter().map(|b| b.frame_type).collect();
    assert_eq!(
        types,
        [FrameType::Ifp2PackedRotTrans, FrameType::Ifp2PackedRot]
    );
    let k = p.animations[0].bones[0].frames[1];
    assert_eq!(k.time, 2.0 / 60.0); // 0.033 s: 1.98 ticks, rounded
    assert_eq!(k.rotation[1], -819.0 / 4096.0); // -0.2 × 4096 = -819.2
}

#[test]
fn what_cannot_be_written_is_one_line_and_nothing_written() {
    let dir = scratch("errors");
    let source = dir.join("long.ifp");
    let long = "an_animation_name_of_29_bytes";
    std::fs::write(&source, encode::write(&anpk_package(long)).unwrap()).unwrap();
    let out = dir.join("out.ifp");
    std::fs::write(&out, b"previous").unwrap();
    let output = run(&["convert", "--to", "anp3", s(&source), s(&out)]);
    assert_eq!(output.status.code(), Some(1));
    let message = stderr(&output);
    assert_eq!(message.lines().count(), 1, "{message}");
    assert!(message.starts_with("gtastream: "), "{message}");
    assert!(
        message.contains(&format!("\"{long}\" (29 bytes)")),
        "{message}"
    );
    assert_eq!(std::fs::read(&out).unwrap(), b"previous");
    assert_eq!(
        std::fs::read_dir(&dir).unwrap().count(),
        2,
        "a temporary file was left"
    );

    // Animations do not become placements.
    let output = run(&["convert", "--to", "text", s(&source), s(&out)]);
    assert_eq!(output.status.code(), Some(1));
    assert!(stderr(&output).contains("cannot convert ANPK to text"));
    // A format that is not written is a usage error.
    let output = run(&["convert", "--to", "anim", s(&source), s(&out)]);
    assert_eq!(output.status.code(), Some(2));
    // A source that does not decode.
    let bad = dir.join("bad.ifp");
    std::fs::write(&bad, b"ANP3\x10\0\0\0abc").unwrap();
    let output = run(&["convert", "--to", "anpk", s(&bad), s(&out)]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).contains("file cut short"),
        "{}",
        stderr(&output)
    );
    assert_eq!(std::fs::read(&out).unwrap(), b"previous");
}

#[test]
fn scale_dropped_is_a_warning() {
    let dir = scratch("scale");
    let mut p = anpk_package("walk");
    p.animations[0].bones[0].frame_type = FrameType::Krts;
    let source = dir.join("s.ifp");
    std::fs::write(&source, encode::write(&p).unwrap()).unwrap();
    let out = dir.join("o.ifp");
    let output = run(&[
        "convert",
        "--game",
        "sa",
        "--to",
        "anp3",
        s(&source),
        s(&out),
    ]);
    assert!(output.status.success());
    assert_eq!(
        stderr(&output),
        format!(
            "gtastream: {}: warning: scale dropped: the output format has none in the output at offset 72\n",
            s(&source)
        )
    );
}

#[test]
fn binary_and_text_placements() {
    let dir = scratch("ipl");
    let text = dir.join("a.ipl");
    std::fs::write(
        &text,
        b"inst\n1, tree, 0, 1.5, -2.25, 3, 0, 0, 0.70710677, 0.70710677, -1\nend\n\
          cars\n1, 2, 3, 0.5, 400, -1, -1, 0, 0, 0, 0, 0\nend\n",
    )
    .unwrap();
    let bnry = dir.join("b.ipl");
    assert!(run(&["convert", "--to", "BNRY", s(&text), s(&bnry)])
        .status
        .success());
    let back = dir.join("c.ipl");
    assert!(run(&["convert", "--to", "text", s(&bnry), s(&back)])
        .status
        .success());
    assert_eq!(
        std::fs::read_to_string(&back).unwrap(),
        "inst\n1, dummy, 0, 1.5, -2.25, 3, 0, 0, 0.70710677, 0.70710677, -1\nend\n\
         cars\n1, 2, 3, 0.5, 400, -1, -1, 0, 0, 0, 0, 0\nend\n"
    );
}

/// Written to its own format, a file exported with garbage after its names, a stale size,
/// `frameDataSize` and `flags`, and bytes after its content comes back byte for byte;
/// `--normalise` writes the clean file.
#[test]
fn own_format_is_written_back_byte_for_byte_unless_normalise() {
    use testkit::ifp2;
    let dir = scratch("own-format");
    let mut odd = ifp2::anp3_packed()
        .fill(ifp2::GARBAGE)
        .size(3)
        .trailing(b"\x01junk");
    odd.animations[0] = odd.animations[0].clone().flags(0).frame_data_size(99);
    let input = dir.join("odd.ifp");
    std::fs::write(&input, odd.build()).unwrap();
    assert_eq!(convert(&input, "anp3", &[]), Ok(odd.build()));
    let clean = convert(&input, "ANP3", &["--normalise"]);
    assert_eq!(clean, Ok(ifp2::anp3_packed().fill(0).build()));
}

/// A text IPL as found (a header comment, a line before any section, CRLF, tabs, `INST`/`END`,
/// numbers spelt `1.50` and `-0`, a trailing comment, a mod's `wanted` section, a last line
/// without a line break, archive padding) comes back byte for byte; `--normalise` writes the
/// clean text (the line before any section is then lost: refused, naming it).
#[test]
fn text_ipl_is_written_back_byte_for_byte_unless_normalise() {
    let dir = scratch("own-text");
    let found = b"# exported\r\nmade by a tool\r\nINST\r\n\
        4,\tvc_obj,\t2, 10.50, -0, 1e3, 1, 1.5, 2, 0, 0, 0, 1 # note\r\nEND\r\n\
        wanted\r\n3, 2\r\n\t1\t2\r\nend\r\ncull\r\n1 2\r\nend\0\0\0";
    let input = dir.join("found.ipl");
    std::fs::write(&input, found).unwrap();
    assert_eq!(convert(&input, "text", &[]).as_deref(), Ok(&found[..]));
    let refused = convert(&input, "text", &["--normalise"]).unwrap_err();
    assert!(refused.contains("outside"), "{refused}");
    let tidy = &found[found.iter().position(|&b| b == b'I').unwrap()..];
    std::fs::write(&input, tidy).unwrap();
    let clean = convert(&input, "text", &["--normalise"]).unwrap();
    assert_eq!(
        String::from_utf8(clean).unwrap(),
        "inst\n4, vc_obj, 2, 10.5, -0, 1000, 1, 1.5, 2, 0, 0, 0, 1\nend\nwanted\n3, 2\n1\t2\nend\n\
         cull\n1 2\nend\n"
    );
}

/// An ANPK as exporters leave it (garbage after names, GTA III's 48-byte `ANIM` link fields,
/// the `INFO` field after each object count) comes back byte for byte; `--normalise` cleans it.
#[test]
fn anpk_is_written_back_byte_for_byte_unless_normalise() {
    let dir = scratch("own-anpk");
    let exported = testkit::anpk::exported();
    let input = dir.join("exported.ifp");
    std::fs::write(&input, &exported).unwrap();
    assert!(convert(&input, "anpk", &[]) == Ok(exported));
    let clean = convert(&input, "anpk", &["--normalise"]);
    assert_eq!(clean, Ok(testkit::anpk::bytes(&testkit::anpk::mixed())));
}

#[test]
fn a_dash_output_is_standard_output() {
    let dir = scratch("stdout");
    let source = dir.join("walk.ifp");
    std::fs::write(&source, encode::write(&anpk_package("walk")).unwrap()).unwrap();
    let file = dir.join("walk_sa.ifp");
    let output = run(&["convert", "--to", "anp3", s(&source), s(&file)]);
    assert!(output.status.success(), "{}", stderr(&output));
    // The same bytes on stdout, and no file named `-`.
    let output = run(&["convert", "--to", "anp3", s(&source), "-"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(output.stdout, std::fs::read(&file).unwrap());
    assert!(!std::path::Path::new("-").exists());
    assert!(!dir.join("-").exists());
    // A failure writes nothing there.
    let long = dir.join("long.ifp");
    let name = "an_animation_name_of_29_bytes";
    std::fs::write(&long, encode::write(&anpk_package(name)).unwrap()).unwrap();
    let output = run(&["convert", "--to", "anp3", s(&long), "-"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(output.stdout.is_empty());
}

/// Text → bnry: the lines a binary IPL has no place for stop the command, naming the first
/// (section and line) and the way on; `--drop-text-sections` writes the records and says how
/// many lines of which sections were dropped, and that the model names were.
#[test]
fn text_sections_are_refused_or_dropped_with_a_count() {
    let dir = scratch("drop-text-sections");
    let input = dir.join("map.ipl");
    std::fs::write(
        &input,
        "inst\n1, a, 0, 1.5, 2, 3, 0, 0, 0, 1, -1\nend\ncull\n1 2 3\n4 5 6\nend\n",
    )
    .unwrap();
    let out = dir.join("map_stream0.ipl");
    let output = run(&["convert", "--to", "bnry", s(&input), s(&out)]);
    assert_eq!(output.status.code(), Some(1));
    let message = stderr(&output);
    assert!(message.contains("line 5 (section cull)"), "{message}");
    // The flag the user types, not the library's option.
    assert!(message.contains("--drop-text-sections"), "{message}");
    assert!(!message.contains("drop_text_sections"), "{message}");
    assert!(!out.exists());
    let output = run(&[
        "convert",
        "--to",
        "bnry",
        "--drop-text-sections",
        s(&input),
        s(&out),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let message = stderr(&output);
    assert!(message.contains("model name dropped"), "{message}");
    assert!(message.contains("(2 more)"), "{message}");
    assert!(
        message.contains("dropped lines (--drop-text-sections): 2 of cull"),
        "{message}"
    );
    let placement = gtastream::Placement::parse(&std::fs::read(&out).unwrap()).unwrap();
    assert_eq!(placement.instances.len(), 1);
}
