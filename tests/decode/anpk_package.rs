//! `Package::parse` of ANPK and ANLF files, and the `encode::anpk` → `Package::parse` round
//! trip (feature `alloc`).
#![cfg(feature = "alloc")]

use gtastream::encode::{self, EncodeError};
use gtastream::{ErrorKind, Format, FrameType, Package, WarningKind};
use testkit::anpk::*;
use testkit::anpk_stories::*;

#[test]
fn parse_gives_the_package_of_the_reference_log() {
    for (name, file) in fixtures() {
        let log = anpk_reference(&file).log;
        match error_of(&log) {
            None => assert_eq!(
                Package::parse(&file).unwrap(),
                package_from_log(&log),
                "{name}"
            ),
            Some((kind, offset)) => {
                let e = Package::parse(&file).unwrap_err();
                assert_eq!((e.kind, e.offset), (kind, offset), "{name}");
            }
        }
    }
}

#[test]
fn encode_then_parse_gives_the_package_back() {
    for p in [mixed(), second(), named(0), named(255)] {
        let parsed = Package::parse(&bytes(&p)).unwrap();
        assert_eq!(parsed, p);
        // Bit for bit, keyframes included.
        let frames = |p: &Package| -> Vec<Bits> {
            p.animations
                .iter()
                .flat_map(|a| &a.bones)
                .flat_map(|b| &b.frames)
                .map(|k| Bits(*k))
                .collect()
        };
        assert_eq!(frames(&parsed), frames(&p));
    }
}

#[test]
fn parse_then_encode_gives_the_bytes_back() {
    for p in [mixed(), second(), named(3), named(255)] {
        let file = bytes(&p);
        assert_eq!(encode::anpk(&Package::parse(&file).unwrap()).unwrap(), file);
        assert_eq!(
            encode::write(&Package::parse(&file).unwrap()).unwrap(),
            file
        );
    }
}

#[test]
fn latin1_names_survive_the_round_trip() {
    let mut p = mixed();
    p.name = Some("Café".into());
    p.animations[0].name = "ÿ\u{80}é".into();
    p.animations[0].bones[0].name = Some("Hüfte".into());
    let file = bytes(&p);
    // One byte per character.
    let log = log_of(&file, &Feed::Whole);
    assert!(matches!(&log[0], Ev::File { name: Some(n), .. } if n == b"Caf\xE9"));
    assert!(matches!(&log[1], Ev::Animation { name, .. } if name == b"\xFF\x80\xE9"));
    assert_eq!(Package::parse(&file).unwrap(), p);
}

#[test]
fn sloppy_files_parse_with_their_warnings() {
    let base = Package::parse(&bytes(&mixed())).unwrap();
    assert!(base.warnings.is_empty());
    let file = with_empty_chunks(b"K000", false);
    let p = Package::parse(&file).unwrap();
    assert_eq!(p.animations, base.animations);
    let expected: Vec<(WarningKind, u64)> = warnings(&anpk_reference(&file).log);
    assert_eq!(expected.len(), 6);
    let got: Vec<(WarningKind, u64)> = p.warnings.iter().map(|w| (w.kind, w.offset)).collect();
    assert_eq!(got, expected);
}

#[test]
fn anlf_blocks_merge_into_the_first_package() {
    let file = anlf(&[bytes(&mixed()), bytes(&second())]);
    let p = Package::parse(&file).unwrap();
    assert_eq!(p.format, Format::Anpk);
    assert_eq!(p.name.as_deref(), Some("ped"));
    let names: Vec<&str> = p.animations.iter().map(|a| a.name.as_str()).collect();
    assert_eq!(names, ["walk_civi", "none", "idle_stance", "door_open"]);
    assert!(p.warnings.is_empty());
}

#[test]
fn lookups_ignore_case_and_find_bones_by_id() {
    let p = Package::parse(&bytes(&mixed())).unwrap();
    let walk = p.animation("WALK_Civi").unwrap();
    assert_eq!(walk.name, "walk_civi");
    assert!(p.animation("walk").is_none());
    assert_eq!(walk.bone("root").unwrap().frame_type, FrameType::Krt0);
    assert_eq!(walk.bone_by_id(5).unwrap().name.as_deref(), Some("Head"));
    assert!(walk.bone_by_id(1).is_none());
    let idle = p.animation("IDLE_STANCE").unwrap();
    assert_eq!(idle.bone_by_id(-1).unwrap().name.as_deref(), Some("R Hand"));
    // Bones without an id (48-byte ANIM) are found by name only.
    assert_eq!(idle.bone("bip01").unwrap().bone_id, None);
}

#[test]
fn truncated_files_fail_to_parse_as_they_fail_to_decode() {
    // (Where the error must be is the streaming tests' business; here, that `parse` says the
    // same as the decoder.)
    let file = bytes(&mixed());
    // (Cut at 0 nothing is left: the empty input's own error, in tests/errors.rs.)
    for cut in (3..file.len()).step_by(3) {
        let log = log_of(&file[..cut], &Feed::Chunk(5));
        let e = Package::parse(&file[..cut]).unwrap_err();
        assert_eq!(Some((e.kind, e.offset)), error_of(&log), "cut at {cut}");
        assert_eq!(e.kind, ErrorKind::Truncated, "cut at {cut}");
    }
    assert_eq!(
        Package::parse(&file[..20]).unwrap_err().kind,
        ErrorKind::Truncated
    );
}

#[test]
fn the_encoder_refuses_what_anpk_cannot_hold() {
    let mut p = mixed();
    p.animations[0].name = "x".repeat(256);
    assert!(matches!(encode::anpk(&p), Err(EncodeError::NameTooLong(n)) if n.max == 255));
    let mut p = mixed();
    p.animations[0].bones[0].name = Some("x".repeat(28));
    assert!(matches!(encode::anpk(&p), Err(EncodeError::NameTooLong(n)) if n.max == 27));
    let mut p = mixed();
    p.name = Some("€".into());
    assert_eq!(encode::anpk(&p), Err(EncodeError::BadName));
    let mut p = mixed();
    p.animations[0].bones[0].frame_type = FrameType::StoriesRot;
    assert_eq!(
        encode::anpk(&p),
        Err(EncodeError::UnsupportedFrameType(FrameType::StoriesRot))
    );
    // An object name keeps its NUL: 27 bytes fit the `char[28]` and come back whole.
    let mut p = mixed();
    p.animations[0].bones[0].name = Some("x".repeat(27));
    assert_eq!(Package::parse(&bytes(&p)).unwrap(), p);
    // Animation and package names are length-prefixed with their NUL: 255 at most.
    let mut p = mixed();
    p.name = Some("x".repeat(256));
    assert!(matches!(encode::anpk(&p), Err(EncodeError::NameTooLong(n)) if n.len == 256));
}
