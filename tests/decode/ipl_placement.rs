//! `Placement::parse` (feature `alloc`): the whole-file result of every placement fixture and of
//! every truncation of them, against a reference parser built here from the reference
//! decoder's events; which files it refuses, and that `Package::parse` refuses placements.
#![cfg(feature = "alloc")]

use gtastream::{
    Error, ErrorKind, Format, Instance, IplCar, Package, Placement, RawLine, Warning, WarningKind,
};
use testkit::ipl::*;

/// What `Placement::parse` must return for `data`, from the reference decoder: every record,
/// pass-through line and warning in file order; the error if decoding fails.
fn reference_placement(data: &[u8]) -> Result<(Placement, Vec<Car>), Error> {
    let mut placement: Option<Placement> = None;
    let mut cars = Vec::new();
    // Binary header warnings come before the file event.
    let mut early_warnings = Vec::new();
    for ev in reference(data).log() {
        match ev {
            Ev::File { format, .. } => {
                placement = Some(Placement {
                    format,
                    instances: Vec::new(),
                    cars: Vec::new(),
                    section_lines: Vec::new(),
                    warnings: std::mem::take(&mut early_warnings),
                    stored: Vec::new(),
                    header: Vec::new(),
                    trailing: Vec::new(),
                })
            }
            Ev::Warning(kind, offset) if placement.is_none() => {
                early_warnings.push(Warning { kind, offset })
            }
            Ev::Instance(i) => placement.as_mut().unwrap().instances.push(Instance {
                position: i.position,
                rotation: i.rotation,
                model_id: i.model_id,
                interior: i.interior,
                lod: i.lod,
                // One character per byte.
                model_name: i
                    .model_name
                    .map(|n| n.iter().map(|&b| char::from(b)).collect()),
                scale: i.scale,
            }),
            Ev::Car(c) => cars.push(c),
            Ev::Line { section, text, .. } => {
                placement.as_mut().unwrap().section_lines.push(RawLine {
                    section,
                    text: text.iter().map(|&b| char::from(b)).collect(),
                })
            }
            Ev::Warning(kind, offset) => placement
                .as_mut()
                .unwrap()
                .warnings
                .push(Warning { kind, offset }),
            Ev::Error(kind, offset) => return Err(Error { kind, offset }),
            Ev::End => {}
            _ => unreachable!("an animation event"),
        }
    }
    Ok((placement.expect("a file event"), cars))
}

fn car_of(c: &IplCar) -> Car {
    Car::new(c.position, c.angle, c.ints())
}

/// Compares by the bits of the floats (`Placement`'s own `==` is IEEE equality).
fn same_instances(a: &[Instance], b: &[Instance]) -> bool {
    let key = |i: &Instance| {
        (
            i.position.map(f32::to_bits),
            i.rotation.map(f32::to_bits),
            i.model_id,
            i.interior,
            i.lod,
            i.model_name.clone(),
            i.scale.map(|s| s.map(f32::to_bits)),
        )
    };
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| key(x) == key(y))
}

fn check(name: &str, data: &[u8]) {
    let got = Placement::parse(data);
    match (got, reference_placement(data)) {
        (Ok(p), Ok((want, want_cars))) => {
            assert_eq!(p.format, want.format, "{name}");
            assert!(
                same_instances(&p.instances, &want.instances),
                "{name}: {:?} != {:?}",
                p.instances,
                want.instances
            );
            assert_eq!(
                p.cars.iter().map(car_of).collect::<Vec<_>>(),
                want_cars,
                "{name}"
            );
            assert_eq!(p.section_lines, want.section_lines, "{name}");
            assert_eq!(p.warnings, want.warnings, "{name}");
        }
        (Err(e), Err(want)) => assert_eq!(e, want, "{name}"),
        (got, want) => panic!("{name}: {got:?}, expected {want:?}"),
    }
}

#[test]
fn every_fixture_matches_the_reference_parser() {
    for (name, file) in all_fixtures() {
        check(&name, &file);
    }
}

#[test]
fn every_truncation_matches_the_reference_parser() {
    for (name, file) in all_fixtures() {
        for cut in 0..file.len() {
            check(&format!("{name} cut at {cut}"), &file[..cut]);
        }
    }
}

#[test]
fn a_binary_placement_by_hand() {
    let p = Placement::parse(&hand_bnry()).unwrap();
    assert_eq!(p.format, Format::IplBinary);
    assert_eq!(
        p.instances,
        [Instance {
            position: [1.0, -2.0, 3.0],
            rotation: [0.5, -0.5, 0.25, -0.25],
            model_id: 12345,
            interior: 0x10D,
            lod: -1,
            model_name: None,
            scale: None,
        }]
    );
    assert_eq!(p.cars.len(), 1);
    assert_eq!(
        car_of(&p.cars[0]),
        Car::new(
            [100.0, -200.0, 300.0],
            core::f32::consts::FRAC_PI_2,
            [400, -1, 126, 3, 50, 100, 1000, 10000]
        )
    );
    assert!(p.section_lines.is_empty());
    assert!(p.warnings.is_empty());
}

#[test]
fn a_text_placement_by_hand() {
    let file = b"# x\ncull\n1, 2\nend\ninst\n3, caf\xe9, 0, 1, 2, 3, 1, 1, 1, 0, 0, 0, 1\nend\na stray\nzone\nz";
    let p = Placement::parse(file).unwrap();
    assert_eq!(p.format, Format::IplText);
    assert_eq!(
        p.instances,
        [Instance {
            position: [1.0, 2.0, 3.0],
            rotation: [0.0, 0.0, 0.0, 1.0],
            model_id: 3,
            interior: 0,
            lod: -1,
            model_name: Some("café".to_string()),
            scale: Some([1.0, 1.0, 1.0]),
        }]
    );
    assert!(p.cars.is_empty());
    assert_eq!(
        p.section_lines,
        [
            RawLine {
                section: "cull".into(),
                text: "1, 2".to_string()
            },
            RawLine {
                section: "".into(),
                text: "a stray".to_string()
            },
            RawLine {
                section: "zone".into(),
                text: "z".to_string()
            },
        ]
    );
    // 4 + 5 + 5 + 4 + 5 + 41 + 4 bytes before "a stray" (68); the input ends, unclosed, at 82.
    assert_eq!(file.len(), 82);
    assert_eq!(
        p.warnings,
        [
            Warning {
                kind: WarningKind::LineOutsideSection,
                offset: 68
            },
            Warning {
                kind: WarningKind::UnclosedSection,
                offset: 82
            },
        ]
    );
}

#[test]
fn header_warnings_are_kept() {
    // A binary file's header warnings come before its file event: they are the placement's
    // warnings too, first, in offset order.
    let mut file = vanilla();
    put_u32(&mut file, 0x0C, 2);
    put_u32(&mut file, 0x40, 1);
    let placement = Placement::parse(&file).unwrap();
    assert_eq!(
        placement.warnings,
        [
            Warning {
                kind: WarningKind::UnknownSection,
                offset: 0x0C
            },
            Warning {
                kind: WarningKind::SizeMismatch,
                offset: 0x40
            },
        ]
    );
    assert_eq!(placement.instances.len(), 3);
    assert_eq!(placement.cars.len(), 2);
}

#[test]
fn failures_are_the_decoder_errors() {
    let error = |kind, offset| Err(Error { kind, offset });
    assert_eq!(Placement::parse(b""), error(ErrorKind::Empty, 0));
    assert_eq!(
        Placement::parse(b"[package]\n"),
        error(ErrorKind::BadMagic, 0)
    );
    assert_eq!(Placement::parse(b"\x80abc"), error(ErrorKind::BadMagic, 0));
    assert_eq!(
        Placement::parse(&vanilla()[..200]),
        error(ErrorKind::Truncated, 196)
    );
    assert_eq!(
        Placement::parse(&[&b"cars\n"[..], &[b'1'; 300]].concat()),
        error(ErrorKind::Limit, 5)
    );
    // Before a section keyword or a record, an over-long line shows no placement file.
    assert_eq!(
        Placement::parse(&[b'#'; 300]),
        error(ErrorKind::BadMagic, 0)
    );
    // A bad line is no failure: a warning, the line kept.
    let placement = Placement::parse(b"cars\n1 2 3\nend\n").unwrap();
    assert!(placement.cars.is_empty());
    assert_eq!(
        placement.warnings,
        [Warning {
            kind: WarningKind::MalformedLine,
            offset: 5
        }]
    );
    assert_eq!(placement.section_lines.len(), 1);
    assert_eq!(placement.section_lines[0].text, "1 2 3");
}

/// A minimal ANP3 package: header, name, no animations (docs/FORMATS.md §2).
fn anp3() -> Vec<u8> {
    let mut b = b"ANP3".to_vec();
    b.extend_from_slice(&28u32.to_le_bytes());
    let mut name = [0u8; 24];
    name[..4].copy_from_slice(b"demo");
    b.extend_from_slice(&name);
    b.extend_from_slice(&0u32.to_le_bytes());
    b
}

#[test]
fn animation_files_are_refused_as_bad_magic() {
    let file = anp3();
    // It is an animation package …
    let package = Package::parse(&file).expect("an animation package");
    assert_eq!(package.format, Format::Anp3);
    // … so not a placement.
    assert_eq!(
        Placement::parse(&file),
        Err(Error {
            kind: ErrorKind::BadMagic,
            offset: 0
        })
    );
}

#[test]
fn placement_files_are_refused_by_package() {
    let bad_magic = Err(Error {
        kind: ErrorKind::BadMagic,
        offset: 0,
    });
    for file in [
        hand_bnry(),
        vanilla(),
        text_all_sections(),
        text_warnings(),
        b"\n".to_vec(),
    ] {
        assert!(Placement::parse(&file).is_ok());
        assert_eq!(Package::parse(&file), bad_magic, "{file:?}");
    }
}

/// `encode::placement` writes every placement fixture that decodes back byte for byte (a
/// binary IPL whose sections lie apart is refused: §9.7); an edited instance changes its own
/// line only; an added one follows; `normalise` writes the clean file.
#[test]
fn placements_write_back_byte_for_byte() {
    let mut checked = 0;
    for (name, file) in all_fixtures() {
        let Ok(placement) = Placement::parse(&file) else {
            continue;
        };
        match gtastream::encode::placement(&placement) {
            Ok(out) => assert!(out == file, "{name}"),
            Err(gtastream::encode::EncodeError::NotRepresentable(
                gtastream::encode::Lost::SectionOffset,
            )) => assert_eq!(placement.format, Format::IplBinary, "{name}"),
            Err(e) => panic!("{name}: {e}"),
        }
        checked += 1;
    }
    assert!(checked > 30, "{checked}");

    let file = b"# vc\r\ninst\r\n4, a, 2, 10.50, -0, 1e3, 1, 1, 1, 0, 0, 0, 1\r\n\
                 5,\tb, 0, 1, 2, 3, 1, 1, 1, 0, 0, 0, 1 # two\r\nend\r\ncull\r\n1 2\r\nend\r\n";
    let mut placement = Placement::parse(file).unwrap();
    placement.instances[1].position[2] = 9.5;
    let out = gtastream::encode::placement(&placement).unwrap();
    let expected = String::from_utf8_lossy(file).replace(
        "5,\tb, 0, 1, 2, 3, 1, 1, 1, 0, 0, 0, 1 # two",
        "5, b, 0, 1, 2, 9.5, 1, 1, 1, 0, 0, 0, 1",
    );
    assert_eq!(String::from_utf8_lossy(&out), expected);
    let mut added = placement.instances[0].clone();
    added.model_id = 6;
    placement.instances.push(added);
    let out = gtastream::encode::placement(&placement).unwrap();
    assert!(
        out.ends_with(b"end\r\ninst\r\n6, a, 2, 10.5, -0, 1000, 1, 1, 1, 0, 0, 0, 1\r\nend\r\n")
    );
    placement.normalise();
    let clean = gtastream::encode::placement(&placement).unwrap();
    assert!(
        clean.starts_with(b"inst\n4, a, 2, 10.5, -0, 1000,"),
        "{}",
        String::from_utf8_lossy(&clean)
    );
}
