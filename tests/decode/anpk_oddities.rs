//! What real ANPK files get wrong, and what the decoder must make of it (feature `alloc`: the
//! files are written by `encode::anpk`, then patched). Decoding follows counts and sizes, never
//! tags: wrong tags and wrong `size` fields are warnings at their offsets; 44- and 48-byte ANIM
//! chunks mix; objects without frames may be followed by an empty keyframe chunk; names are
//! delivered whole up to 255 characters; negative counts, other ANIM sizes and unknown
//! keyframe tags are errors at the unit that holds them. Expected offsets are worked out from
//! the layout docs/FORMATS.md gives (and checked against the reference decoder's map).
#![cfg(feature = "alloc")]

use gtastream::{ErrorKind, Format, FrameType, WarningKind};
use testkit::anpk::*;
use testkit::anpk_stories::*;

fn feeds() -> [Feed; 4] {
    [Feed::Whole, Feed::Chunk(1), Feed::Chunk(7), Feed::Chunk(64)]
}

/// The log of `file` fed every way; all must equal the reference's.
fn check(what: &str, file: &[u8]) -> Vec<Ev> {
    let expected = anpk_reference(file).log;
    for feed in feeds() {
        assert_eq!(log_of(file, &feed), expected, "{what} {feed:?}");
    }
    expected
}

#[test]
fn the_encoder_lays_out_chunks_as_the_spec_says() {
    // The map the offsets below come from, checked by hand against docs/FORMATS.md §1 for the
    // start of `mixed`: ANPK(8) INFO(8) count(4) "ped\0"(4), then NAME.
    let file = bytes(&mixed());
    let m = map(&file);
    let b = &m.blocks[0];
    assert_eq!((b.at, b.info, b.name_field), (0, 8, 20));
    let a = &b.animations[0];
    // NAME at 24; "walk_civi\0" is 10 bytes, padded to 12; DGAN at 44; INFO at 52; the
    // first CPAN after INFO's 8 payload bytes, at 68.
    assert_eq!(
        (a.name_chunk, a.name_field, a.dgan, a.info),
        (24, 32, 44, 52)
    );
    assert_eq!(&file[44..48], b"DGAN");
    assert_eq!(a.objects[0].cpan, 68);
    // Root: 44-byte ANIM (bone id 0), KRT0 of 3 × 32.
    assert_eq!((a.objects[0].anim, a.objects[0].body), (76, 84));
    assert_eq!(get_u32(&file, 80), 44);
    assert_eq!(a.objects[0].keyframes, Some(128));
    assert_eq!(&file[128..132], b"KRT0");
    assert_eq!(get_u32(&file, 132), 96);
    // Spine: no bone id, so the 48-byte ANIM.
    let spine = &a.objects[1];
    assert_eq!(spine.cpan, 136 + 96);
    assert_eq!(get_u32(&file, spine.anim + 4), 48);
    // The sizes: bytes after each size field.
    assert_eq!(get_u32(&file, 4) as usize, file.len() - 8);
    assert_eq!(u64::from(get_u32(&file, a.dgan + 4)), a.end - a.dgan - 8);
    assert_eq!(check("mixed", &file).last(), Some(&Ev::End));
}

#[test]
fn mixed_anim_sizes_give_a_bone_id_only_with_44_bytes() {
    let log = check("mixed", &bytes(&mixed()));
    let bones: Vec<(Vec<u8>, Option<i32>, FrameType, u32)> = log
        .into_iter()
        .filter_map(|e| match e {
            Ev::Bone {
                name,
                bone_id,
                frame_type,
                frame_count: frames,
                bone_key,
                ..
            } => {
                assert_eq!(bone_key, None);
                Some((name.unwrap(), bone_id, frame_type, frames))
            }
            _ => None,
        })
        .collect();
    use FrameType::{Kr00, Krt0, Krts};
    let expected: Vec<(Vec<u8>, Option<i32>, FrameType, u32)> = vec![
        (b"Root".to_vec(), Some(0), Krt0, 3),
        (b"Spine".to_vec(), None, Kr00, 2),
        (b"Empty".to_vec(), Some(7), Kr00, 0),
        (b"Head".to_vec(), Some(5), Krts, 2),
        (b"Bip01".to_vec(), None, Kr00, 0),
        (b"R Hand".to_vec(), Some(-1), Kr00, 1),
        (b"Last".to_vec(), None, Kr00, 0),
    ];
    assert_eq!(bones, expected);
}

#[test]
fn zero_or_wrong_tags_are_warnings_before_the_event_of_their_unit() {
    let base = bytes(&mixed());
    let m = map(&base);
    for tag in [[0u8; 4], *b"XXXX", *b"info"] {
        let mut file = base.clone();
        let mut expected = Vec::new();
        let b = &m.blocks[0];
        put_u32(&mut file, b.info, u32::from_le_bytes(tag));
        expected.push((WarningKind::UnexpectedTag, b.info));
        for a in &b.animations {
            for at in [a.name_chunk, a.dgan, a.info] {
                put_u32(&mut file, at, u32::from_le_bytes(tag));
                expected.push((WarningKind::UnexpectedTag, at));
            }
            for o in &a.objects {
                for at in [o.cpan, o.anim] {
                    put_u32(&mut file, at, u32::from_le_bytes(tag));
                    expected.push((WarningKind::UnexpectedTag, at));
                }
            }
        }
        let log = check("tags", &file);
        assert_eq!(warnings(&log), expected, "{tag:?}");
        // Nothing else changes.
        assert_eq!(without_warnings(&log), check("mixed", &base), "{tag:?}");
        // Each warning comes right before its unit's event (or the next warning of the
        // unit): the INFO one before `file`, NAME/DGAN/INFO before `animation`, CPAN/ANIM
        // before `bone`.
        for (i, e) in log.iter().enumerate() {
            if e.is_warning() {
                let next = log[i + 1..].iter().find(|e| !e.is_warning()).unwrap();
                assert!(
                    matches!(
                        next,
                        Ev::File { .. } | Ev::Animation { .. } | Ev::Bone { .. }
                    ),
                    "{e:?} then {next:?}"
                );
            }
        }
    }
}

#[test]
fn wrong_sizes_are_warnings_at_the_size_field() {
    let base = bytes(&mixed());
    let m = map(&base);
    let a0 = &m.blocks[0].animations[0];
    let kf0 = a0.objects[0].keyframes.unwrap();
    for delta in [1i64, -4, 1000, -(base.len() as i64)] {
        let mut file = base.clone();
        bump_u32(&mut file, 4, delta);
        bump_u32(&mut file, a0.dgan + 4, delta);
        bump_u32(&mut file, a0.objects[1].cpan + 4, delta);
        bump_u32(&mut file, kf0 + 4, delta);
        let log = check("sizes", &file);
        // In event order: the keyframe chunk's before bone 0, CPAN of object 1 at its end,
        // DGAN at the animation's end, ANPK at the end of the block.
        assert_eq!(
            warnings(&log),
            [
                (WarningKind::SizeMismatch, kf0 + 4),
                (WarningKind::SizeMismatch, a0.objects[1].cpan + 4),
                (WarningKind::SizeMismatch, a0.dgan + 4),
                (WarningKind::SizeMismatch, 4),
            ],
            "{delta}"
        );
        assert_eq!(without_warnings(&log), check("mixed", &base), "{delta}");
        let i = log
            .iter()
            .position(|e| *e == Ev::Warning(WarningKind::SizeMismatch, kf0 + 4))
            .unwrap();
        assert!(matches!(log[i + 1], Ev::Bone { index: 0, .. }));
        let i = log
            .iter()
            .position(|e| *e == Ev::Warning(WarningKind::SizeMismatch, 4))
            .unwrap();
        assert_eq!(log[i + 1..], [Ev::End]);
    }
}

#[test]
fn other_anim_sizes_are_malformed_at_the_anim_chunk() {
    let base = bytes(&mixed());
    let m = map(&base);
    let full = check("mixed", &base);
    for (object, size) in [(0, 40u32), (1, 52), (3, 0), (3, 45), (1, 47), (0, u32::MAX)] {
        let o = &m.blocks[0].animations[0].objects[object];
        let mut file = base.clone();
        put_u32(&mut file, o.anim + 4, size);
        let log = check("ANIM size", &file);
        assert_eq!(
            error_of(&log),
            Some((ErrorKind::Malformed, o.anim)),
            "{size}"
        );
        assert_eq!(
            log[..log.len() - 1],
            full[..log.len() - 1],
            "{size}: a prefix"
        );
    }
}

#[test]
fn objects_without_frames_with_and_without_an_empty_chunk() {
    let base = check("mixed", &bytes(&mixed()));
    // The empty chunk is read and passed over, wherever the object is (first, middle, last of
    // the file), whatever its tag.
    for tag in [b"K000", b"KR00", b"KRT0", b"KRTS"] {
        let file = with_empty_chunks(tag, true);
        // Three objects without frames: Empty, Bip01, Last.
        assert_eq!(file.len(), bytes(&mixed()).len() + 3 * 8);
        assert_eq!(check("empty chunks", &file), base, "{tag:?}");
    }
    // An empty chunk the sizes do not count: each enclosing size is 8 short.
    let file = with_empty_chunks(b"K000", false);
    let log = check("K000 not counted", &file);
    assert_eq!(without_warnings(&log), without_warnings(&base));
    let m = map(&file);
    let mut expected = Vec::new();
    let b = &m.blocks[0];
    for a in &b.animations {
        for o in &a.objects {
            if o.frame_count == 0 {
                assert!(o.keyframes.is_some(), "{o:?}");
                expected.push((WarningKind::SizeMismatch, o.cpan + 4));
            }
        }
        if a.objects.iter().any(|o| o.frame_count == 0) {
            expected.push((WarningKind::SizeMismatch, a.dgan + 4));
        }
    }
    expected.push((WarningKind::SizeMismatch, 4));
    assert_eq!(warnings(&log), expected);
}

#[test]
fn a_chunk_that_is_not_an_empty_keyframe_chunk_is_not_consumed() {
    // After the file's last object (no frames): 8 bytes that are not an empty keyframe chunk
    // (a size that is not 0, or another tag) are trailing data.
    let base = bytes(&mixed());
    for chunk in [
        b"K000\x04\0\0\0",
        b"KR01\0\0\0\0",
        b"\0\0\0\0\0\0\0\x01",
        b"ANPK\0\0\0\0",
    ] {
        let mut file = base.clone();
        file.extend_from_slice(chunk);
        let log = check("not empty", &file);
        let first = chunk.iter().position(|&b| b != 0).unwrap();
        assert_eq!(
            warnings(&log),
            [(WarningKind::TrailingData, (base.len() + first) as u64)],
            "{chunk:?}"
        );
    }
    // The same 8 bytes as an empty K000 are consumed: the sizes then disagree by 8.
    let mut file = base.clone();
    file.extend_from_slice(b"K000\0\0\0\0");
    let log = check("K000 at the end", &file);
    let m = map(&base);
    let last = m.blocks[0].animations[2].clone();
    assert_eq!(
        warnings(&log),
        [
            (WarningKind::SizeMismatch, last.objects[2].cpan + 4),
            (WarningKind::SizeMismatch, last.dgan + 4),
            (WarningKind::SizeMismatch, 4),
        ]
    );
}

#[test]
fn names_are_padded_to_4_and_delivered_whole() {
    // Name length with its NUL, and the padded field, by hand.
    for (n, field) in [
        (0usize, 4u64),
        (3, 4),
        (4, 8),
        (5, 8),
        (7, 8),
        (8, 12),
        (255, 256),
    ] {
        let p = named(n);
        let name = p.animations[0].name.as_bytes().to_vec();
        let file = bytes(&p);
        // INFO: size 4 + n + 1, the package name field `field` bytes, then NAME.
        assert_eq!(get_u32(&file, 12), 4 + n as u32 + 1, "{n}");
        let name_chunk = 20 + field;
        assert_eq!(
            &file[name_chunk as usize..name_chunk as usize + 4],
            b"NAME",
            "{n}"
        );
        assert_eq!(get_u32(&file, name_chunk + 4), n as u32 + 1, "{n}");
        let dgan = (name_chunk + 8 + field) as usize;
        assert_eq!(&file[dgan..dgan + 4], b"DGAN", "{n}");
        let log = check("names", &file);
        assert_eq!(
            log[0],
            Ev::File {
                format: Format::Anpk,
                name: Some(name.clone()),
                animation_count: 2,
                instance_count: None,
                car_count: None,
            },
            "{n}"
        );
        assert!(
            matches!(&log[1], Ev::Animation { name: a, .. } if *a == name),
            "{n}"
        );
        assert_eq!(log.last(), Some(&Ev::End), "{n}");
    }
}

#[test]
fn a_name_filling_its_256_byte_field_without_nul_is_delivered_whole() {
    let mut file = bytes(&named(255));
    // The animation name's NUL (at NAME + 8 + 255) becomes a character.
    let name_field = 20 + 256 + 8;
    assert_eq!(file[name_field + 255], 0);
    file[name_field + 255] = b'!';
    let log = check("256 without NUL", &file);
    let Ev::Animation { name, .. } = &log[1] else {
        panic!("{log:?}")
    };
    assert_eq!(name.len(), 256);
    assert_eq!(name[255], b'!');
}

#[test]
fn longer_names_are_a_limit_error_at_their_chunk() {
    let file = bytes(&named(255));
    let name_chunk = 20 + 256;
    // NAME: 256 with the NUL is the most; 257 and more is Limit at the NAME chunk.
    for len in [257u32, 260, 261, 1000, u32::MAX] {
        let mut f = file.clone();
        put_u32(&mut f, name_chunk + 4, len);
        let log = check("NAME", &f);
        assert_eq!(log.len(), 2, "{len}: {log:?}");
        assert!(matches!(log[0], Ev::File { .. }));
        assert_eq!(log[1], Ev::Error(ErrorKind::Limit, name_chunk), "{len}");
    }
    // INFO: 4 + 256 is the most; more is Limit at the INFO chunk, before anything.
    for size in [261u32, 264, 4 + 1000, u32::MAX] {
        let mut f = file.clone();
        put_u32(&mut f, 12, size);
        assert_eq!(
            check("INFO", &f),
            [Ev::Error(ErrorKind::Limit, 8)],
            "{size}"
        );
    }
    // The largest that is allowed: INFO 260 (a 256-byte field).
    let mut f = file.clone();
    put_u32(&mut f, 12, 260);
    assert_eq!(check("INFO 260", &f), check("255", &file));
}

#[test]
fn negative_counts_are_count_too_large_at_their_unit() {
    let base = bytes(&mixed());
    let m = map(&base);
    let full = check("mixed", &base);
    let b = &m.blocks[0];
    let a = &b.animations[2];
    let o = &a.objects[1];
    // (field, value, the unit that holds it): numAnimations in the block header; numObjects
    // in the unit that begins at the animation's name; numFrames in the ANIM payload.
    for (field, unit) in [
        (b.at + 16, b.at),
        (a.info + 8, a.name_field),
        (o.body + 28, o.body),
    ] {
        for value in [-1i32, i32::MIN, i32::MAX] {
            let mut file = base.clone();
            put_i32(&mut file, field, value);
            let log = check("count", &file);
            assert_eq!(
                error_of(&log),
                Some((ErrorKind::CountTooLarge, unit)),
                "field at {field} = {value}"
            );
            assert_eq!(log[..log.len() - 1], full[..log.len() - 1], "a prefix");
        }
    }
    // The ANLF block count.
    let mut file = anlf(std::slice::from_ref(&base));
    put_i32(&mut file, 8, -1);
    assert_eq!(
        check("ANLF", &file),
        [Ev::Error(ErrorKind::CountTooLarge, 0)]
    );
}

#[test]
fn an_unknown_keyframe_tag_is_an_error_at_the_chunk() {
    let base = bytes(&mixed());
    let m = map(&base);
    for object in [0, 1, 3] {
        let k = m.blocks[0].animations[0].objects[object].keyframes.unwrap();
        for tag in [*b"KR01", *b"K000", [0; 4], *b"kr00", *b"KRT1"] {
            let mut file = base.clone();
            file[k as usize..k as usize + 4].copy_from_slice(&tag);
            let log = check("keyframe tag", &file);
            assert_eq!(
                error_of(&log),
                Some((ErrorKind::UnknownFrameType, k)),
                "{tag:?}"
            );
        }
    }
}

#[test]
fn keyframes_decode_as_the_package_holds_them() {
    // What the encoder was given comes back: conjugated twice, time last, scale for KRTS.
    let p = mixed();
    let log = check("mixed", &bytes(&p));
    let expected: Vec<Bits> = p
        .animations
        .iter()
        .flat_map(|a| &a.bones)
        .flat_map(|b| &b.frames)
        .map(|k| Bits(*k))
        .collect();
    let got: Vec<Bits> = keyframes(&log).into_iter().map(Bits).collect();
    assert_eq!(got, expected);
}

#[test]
fn time_going_backwards_is_a_warning_at_the_frame() {
    use FrameType::Kr00;
    let mut frames = frames(Kr00, 5, 0.0);
    for (k, t) in frames.iter_mut().zip([0.0, 1.0, 0.5, 0.25, 2.0]) {
        k.time = t;
    }
    let p = package("p", vec![anim("a", vec![bone("b", None, Kr00, frames)])]);
    let file = bytes(&p);
    let k = map(&file).blocks[0].animations[0].objects[0]
        .keyframes
        .unwrap();
    let log = check("backwards", &file);
    // Once, at the third frame (the first earlier than the one before).
    assert_eq!(
        warnings(&log),
        [(WarningKind::TimeBackwards, k + 8 + 2 * 20)]
    );
}

#[test]
fn anlf_blocks_are_consecutive_files() {
    let a = bytes(&mixed());
    let b = bytes(&second());
    let file = anlf(&[a.clone(), b.clone()]);
    let log = check("ANLF", &file);
    let files: Vec<&Ev> = log
        .iter()
        .filter(|e| matches!(e, Ev::File { .. }))
        .collect();
    assert_eq!(
        files,
        [
            &Ev::File {
                format: Format::Anpk,
                name: Some(b"ped".to_vec()),
                animation_count: 3,
                instance_count: None,
                car_count: None,
            },
            &Ev::File {
                format: Format::Anpk,
                name: Some(b"car".to_vec()),
                animation_count: 1,
                instance_count: None,
                car_count: None,
            },
        ]
    );
    // The events of each block are those of the block alone, except that the animations are
    // numbered across the file (docs/FORMATS.md §1.4); no warning (the sizes, the container's
    // included, are right).
    let alone_a = check("a", &a);
    let mut alone_b = check("b", &b);
    for event in &mut alone_b {
        if let Ev::Animation { index, .. } = event {
            *index += 3;
        }
    }
    let mut expected = alone_a[..alone_a.len() - 1].to_vec();
    expected.extend_from_slice(&alone_b);
    assert_eq!(log, expected);
    let indexes: Vec<u32> = log
        .iter()
        .filter_map(|e| match e {
            Ev::Animation { index, .. } => Some(*index),
            _ => None,
        })
        .collect();
    assert_eq!(indexes, [0, 1, 2, 3]);
    // A wrong container size is a warning at offset 4, after the last block.
    let mut wrong = file.clone();
    bump_u32(&mut wrong, 4, -1);
    let log = check("ANLF size", &wrong);
    assert_eq!(warnings(&log), [(WarningKind::SizeMismatch, 4)]);
    assert_eq!(
        log[log.len() - 2..],
        [Ev::Warning(WarningKind::SizeMismatch, 4), Ev::End]
    );
    // A block tag that is not ANPK is a warning at the block.
    let mut tag = file.clone();
    let second_block = 12 + a.len() as u64;
    put_u32(&mut tag, second_block, 0);
    assert_eq!(
        warnings(&check("block tag", &tag)),
        [(WarningKind::UnexpectedTag, second_block)]
    );
    // Fewer blocks than declared: truncated where the next one should begin.
    let mut short = file.clone();
    put_i32(&mut short, 8, 3);
    assert_eq!(
        error_of(&check("3 declared", &short)),
        Some((ErrorKind::Truncated, file.len() as u64))
    );
}

#[test]
fn a_second_block_without_anlf_is_trailing_data() {
    let a = bytes(&mixed());
    let mut file = a.clone();
    file.extend_from_slice(&bytes(&second()));
    let log = check("two blocks", &file);
    assert_eq!(
        warnings(&log),
        [(WarningKind::TrailingData, a.len() as u64)]
    );
    assert_eq!(without_warnings(&log), check("a", &a));
}

#[test]
fn zeros_after_the_content_are_silent_and_other_bytes_warn_once() {
    let base = bytes(&mixed());
    let expected = check("mixed", &base);
    let mut zeros = base.clone();
    zeros.resize(base.len() + 2048, 0);
    assert_eq!(check("zeros", &zeros), expected);
    let mut garbage = zeros.clone();
    garbage[base.len() + 100] = 1;
    garbage[base.len() + 200] = 2;
    let log = check("garbage", &garbage);
    assert_eq!(
        warnings(&log),
        [(WarningKind::TrailingData, base.len() as u64 + 100)]
    );
}

#[test]
fn a_repeated_object_name_is_a_warning_at_the_second_object() {
    let file = bytes(&duplicate_bones());
    let m = map(&file);
    let objects = &m.blocks[0].animations[0].objects;
    let log = check("duplicate bones", &file);
    assert_eq!(log.last(), Some(&Ev::End));
    assert_eq!(
        warnings(&log),
        [
            (WarningKind::DuplicateBone, objects[2].cpan),
            (WarningKind::DuplicateBone, objects[4].cpan),
        ]
    );
    // Each warning comes right before the bone it is about; every bone is still reported.
    for (i, ev) in log.iter().enumerate() {
        if let Ev::Warning(WarningKind::DuplicateBone, _) = ev {
            assert!(
                matches!(&log[i + 1], Ev::Bone { name: Some(n), .. } if n.eq_ignore_ascii_case(b"root")),
                "{:?}",
                log[i + 1]
            );
        }
    }
    let bones = log.iter().filter(|e| matches!(e, Ev::Bone { .. })).count();
    assert_eq!(bones, 7);
}

#[test]
fn names_are_kept_for_the_first_objects_only() {
    use FrameType::Kr00;
    // The first six names are kept (the documented bound): a repeat of the seventh is not
    // seen, a repeat of the first still is, after any number of objects.
    let mut bones: Vec<_> = (0..10)
        .map(|k| bone(&format!("b{k}"), None, Kr00, vec![]))
        .collect();
    bones.push(bone("b6", None, Kr00, vec![]));
    bones.push(bone("B0", None, Kr00, vec![]));
    let file = bytes(&package("p", vec![anim("a", bones)]));
    let m = map(&file);
    let objects = &m.blocks[0].animations[0].objects;
    let log = check("kept names", &file);
    assert_eq!(
        warnings(&log),
        [(WarningKind::DuplicateBone, objects[11].cpan)]
    );
}
