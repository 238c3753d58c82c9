//! The streaming encoder (docs/FORMATS.md §9): decode → encode → decode gives the same events
//! for every format and fixture and for generated packages; conversions between the animation
//! formats keep every keyframe; binary ↔ text IPL keeps every value; the output does not
//! depend on how the input was cut.

#![cfg(feature = "alloc")]

use gtastream::encode::{self, EncodeError, EncodeOptions, Encoder, LineAt, Lost};
use gtastream::{
    Decoder, ErrorKind, Format, FrameType, IplCar, IplInstance, Keyframe, Package, WarningKind,
};
use testkit::ipl::Inst;
use testkit::log::{frame_bits, warnings, Ev, Recorder};
use testkit::{anpk, ifp2, ipl, stories};

/// The events of a file, or the decoding error: the kit's log, exact (NaN payloads count)
/// and without warnings (a writer writes clean files).
fn events(data: &[u8]) -> Result<Vec<Ev>, gtastream::Error> {
    let mut log = Recorder::default().exact().without_warnings();
    Decoder::new().decode_slice(data, &mut log)?;
    Ok(log.events)
}

/// Decodes `data` straight into an encoder for `to`.
fn convert(data: &[u8], to: Format, options: EncodeOptions) -> Result<Vec<u8>, EncodeError> {
    let mut encoder = Encoder::new(to, Vec::new(), options).unwrap();
    match Decoder::new().decode_slice(data, &mut encoder) {
        Ok(()) => {}
        Err(e) if e.kind == ErrorKind::Aborted => return Err(encoder.error().unwrap()),
        Err(e) => panic!("the source does not decode: {e}"),
    }
    assert!(encoder.is_finished());
    Ok(encoder.into_sink())
}

/// The same conversion with the input fed one byte at a time.
fn convert_bytewise(data: &[u8], to: Format) -> Vec<u8> {
    let mut encoder = Encoder::new(to, Vec::new(), EncodeOptions::default()).unwrap();
    let mut decoder = Decoder::new();
    let mut at = 0;
    while at < data.len() {
        let progress = decoder.feed(&data[at..at + 1], &mut encoder).unwrap();
        match progress.status {
            gtastream::Status::Seek(to) => at = to as usize,
            _ => at += progress.consumed.max(1),
        }
    }
    decoder.finish(&mut encoder).unwrap();
    encoder.into_sink()
}

/// The format a file is written back in (an ANLF's blocks become one ANPK).
fn own_format(events: &[Ev]) -> Format {
    match events.first() {
        Some(Ev::File { format, .. }) => *format,
        other => panic!("no file event: {other:?}"),
    }
}

fn has_warnings(data: &[u8]) -> bool {
    let mut log = Recorder::default();
    let _ = Decoder::new().decode_slice(data, &mut log);
    !warnings(&log.events).is_empty()
}

/// Only what a writer keeps of the events: the bones and keyframes in order, names, ids.
fn content(events: &[Ev]) -> Vec<Ev> {
    events
        .iter()
        .filter(|e| !matches!(e, Ev::File { .. } | Ev::End))
        .map(|e| match e {
            // frameDataSize and flags are recomputed (sloppy sources had them wrong), and an
            // ANLF's blocks are numbered on as one package.
            Ev::Animation {
                name,
                bone_count,
                duration,
                ..
            } => Ev::Animation {
                index: 0,
                name: name.clone(),
                bone_count: *bone_count,
                frame_data_size: None,
                flags: None,
                duration: *duration,
            },
            other => other.clone(),
        })
        .collect()
}

fn stories_files() -> Vec<(String, Vec<u8>)> {
    use stories::{sample, write, Layout};
    let mut out = Vec::new();
    for layout in [Layout::DepthFirst, Layout::Grouped, Layout::Backward] {
        for vcs in [false, true] {
            out.push((format!("stories {vcs}"), write(&sample(), layout, vcs, 0)));
        }
    }
    out
}

/// Every fixture of every format that decodes.
fn all_fixtures() -> Vec<(String, Vec<u8>)> {
    let mut all: Vec<(String, Vec<u8>)> = ifp2::fixtures()
        .into_iter()
        .map(|(n, b)| (n.to_string(), b))
        .collect();
    all.extend(anpk::fixtures());
    all.extend(ipl::all_fixtures());
    all.extend(stories_files());
    all.into_iter()
        .filter(|(_, data)| events(data).is_ok())
        .collect()
}

#[test]
fn every_fixture_writes_back_to_the_same_events() {
    let (mut checked, mut refused) = (0, 0);
    for (name, data) in all_fixtures() {
        let before = events(&data).unwrap();
        let format = own_format(&before);
        if format == Format::Anim {
            continue; // not written (§9.5): converted below
        }
        let files = before
            .iter()
            .filter(|e| matches!(e, Ev::File { .. }))
            .count();
        let written = match convert(&data, format, EncodeOptions::default()) {
            // Placements come back byte for byte (§9.7).
            Ok(w) if !format.is_animation() => {
                assert!(w == data, "{name}: not byte for byte");
                w
            }
            Ok(w) => w,
            // A binary IPL whose sections lie apart is not written back in another layout
            // silently (§9.7); clean, it is in the stock one.
            Err(EncodeError::NotRepresentable(Lost::SectionOffset)) => {
                let clean = EncodeOptions::default().with_normalise(true);
                convert(&data, format, clean).unwrap_or_else(|e| panic!("{name}: {e}"))
            }
            // Text files may hold lines the writer refuses to change (§9.3).
            Err(EncodeError::NotRepresentable(_)) if format == Format::IplText => continue,
            // A line outside any section, which the decoder passes no text for (§9.3).
            Err(EncodeError::LineLost(line)) if line.section.is_empty() => continue,
            // A name filling its whole IFP2 field: the games read it, the writer keeps a NUL
            // (§9.4).
            Err(EncodeError::NameTooLong(n)) if n.len == 24 && n.max == 23 => {
                refused += 1;
                continue;
            }
            Err(e) => panic!("{name}: {e}"),
        };
        let after = events(&written).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(
            !has_warnings(&written) || has_warnings(&data),
            "{name}: the output is clean"
        );
        if has_warnings(&data) || files > 1 {
            assert_eq!(content(&after), content(&before), "{name}");
        } else {
            assert_eq!(after, before, "{name}");
        }
        // The output does not depend on how the input was cut.
        if written == data || format.is_animation() {
            assert_eq!(convert_bytewise(&data, format), written, "{name}");
        }
        checked += 1;
    }
    assert!(checked > 40 && refused < 5, "{checked} {refused}");
}

/// A small deterministic generator (xorshift), so the property tests need no crate.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    /// Any finite f32, often a plain one.
    fn float(&mut self) -> f32 {
        match self.below(4) {
            0 => (self.below(2001) as f32 - 1000.0) / 64.0,
            1 => 0.0,
            _ => loop {
                let f = f32::from_bits(self.next() as u32);
                if f.is_finite() {
                    break f;
                }
            },
        }
    }
    fn i16(&mut self) -> f32 {
        self.below(65536) as i16 as f32
    }
    fn name(&mut self, max: u64) -> String {
        let n = self.below(max + 1);
        (0..n)
            .map(|_| char::from(b' ' + self.below(95) as u8))
            .collect()
    }
}

fn generated(rng: &mut Rng, format: Format) -> Package {
    let max = if format == Format::Anpk { 27 } else { 23 };
    generated_with(rng, format, max)
}

/// A package whose bone names are at most `max` bytes.
fn generated_with(rng: &mut Rng, format: Format, max: u64) -> Package {
    let types: &[FrameType] = match format {
        Format::Anpk => &[FrameType::Kr00, FrameType::Krt0, FrameType::Krts],
        _ => &[
            FrameType::Ifp2Rot,
            FrameType::Ifp2RotTrans,
            FrameType::Ifp2PackedRot,
            FrameType::Ifp2PackedRotTrans,
        ],
    };
    let animations = (0..rng.below(4))
        .map(|_| gtastream::Animation {
            name: rng.name(23),
            frame_data_size: None,
            flags: None,
            duration: None,
            bones: (0..rng.below(5))
                .map(|_| {
                    let frame_type = types[rng.below(types.len() as u64) as usize];
                    let frames = (0..rng.below(70))
                        .map(|_| {
                            let mut k = Keyframe::default();
                            if frame_type.is_packed() {
                                k.rotation = [0; 4].map(|_| rng.i16() / 4096.0);
                                k.time = rng.i16() / 60.0;
                                if frame_type.has_translation() {
                                    k.translation = [0; 3].map(|_| rng.i16() / 1024.0);
                                }
                            } else {
                                k.rotation = [0; 4].map(|_| rng.float());
                                k.time = rng.float();
                                if frame_type.has_translation() {
                                    k.translation = [0; 3].map(|_| rng.float());
                                }
                                if frame_type.has_scale() {
                                    k.scale = [0; 3].map(|_| rng.float());
                                }
                            }
                            k
                        })
                        .collect();
                    gtastream::Bone {
                        name: Some(rng.name(max)),
                        bone_id: match (format, rng.below(3)) {
                            (Format::Anpk, 0) => None,
                            _ => Some(rng.next() as i32),
                        },
                        bone_key: None,
                        frame_type,
                        frames,
                        raw: Vec::new(),
                    }
                })
                .collect(),
            raw: Vec::new(),
        })
        .collect();
    Package {
        format,
        name: Some(rng.name(23)),
        animations,
        warnings: Vec::new(),
        raw: Vec::new(),
        trailing: Vec::new(),
    }
}

#[test]
fn generated_packages_write_back_byte_for_byte() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for round in 0..300 {
        for format in [Format::Anp3, Format::Anp2, Format::Anpk] {
            let package = generated(&mut rng, format);
            let bytes = encode::write(&package).unwrap();
            let before = events(&bytes).unwrap();
            let again = convert(&bytes, format, EncodeOptions::default())
                .unwrap_or_else(|e| panic!("round {round} {format:?}: {e}"));
            assert_eq!(events(&again).unwrap(), before, "round {round} {format:?}");
            // Packed frames stay packed, floats floats: the same bytes.
            assert_eq!(again, bytes, "round {round} {format:?}");
        }
    }
}

/// The keyframes of each bone, in order.
fn frames_by_bone(events: &[Ev]) -> Vec<Vec<[u32; 11]>> {
    let mut out = Vec::new();
    for e in events {
        match e {
            Ev::Bone { .. } => out.push(Vec::new()),
            Ev::Frame { frame, .. } => out.last_mut().unwrap().push(frame_bits(&frame.0)),
            _ => {}
        }
    }
    out
}

fn names(events: &[Ev]) -> Vec<Vec<u8>> {
    events
        .iter()
        .filter_map(|e| match e {
            Ev::Animation { name, .. } => Some(name.clone()),
            Ev::Bone { name, .. } => name.clone(),
            _ => None,
        })
        .collect()
}

/// What survives in `to`: scale only in ANPK `KRTS`; translation only where the source had it.
fn expected(frame: [u32; 11], to: Format) -> [u32; 11] {
    let mut f = frame;
    if to != Format::Anpk {
        f[8..].fill(0);
    }
    f
}

#[test]
fn conversions_between_animation_formats_keep_every_keyframe() {
    let mut rng = Rng(77);
    let mut sources: Vec<(String, Vec<u8>)> = Vec::new();
    for round in 0..40 {
        for format in [Format::Anp3, Format::Anp2, Format::Anpk] {
            let p = generated_with(&mut rng, format, 23);
            sources.push((format!("{format:?} {round}"), encode::write(&p).unwrap()));
        }
    }
    // Stories files, their names cut to fit IFP2 (the sample fills all 24 bytes of one).
    for layout in [stories::Layout::DepthFirst, stories::Layout::Backward] {
        let mut anims = stories::sample();
        for a in &mut anims {
            a.name = &a.name[..a.name.len().min(23)];
        }
        sources.push((
            format!("stories {layout:?}"),
            stories::write(&anims, layout, true, 0),
        ));
    }
    let targets = [Format::Anp3, Format::Anp2, Format::Anpk];
    for (name, data) in &sources {
        let before = events(data).unwrap();
        let scaled = before.iter().any(|e| {
            matches!(e, Ev::Bone { frame_type: FrameType::Krts, frame_count, .. }
                if *frame_count > 0)
        });
        for to in targets {
            let mut encoder = Encoder::new(to, Vec::new(), EncodeOptions::default()).unwrap();
            Decoder::new().decode_slice(data, &mut encoder).unwrap();
            let warned = encoder.warnings();
            let after = events(&encoder.into_sink()).unwrap();
            let want: Vec<Vec<[u32; 11]>> = frames_by_bone(&before)
                .into_iter()
                .map(|b| b.into_iter().map(|f| expected(f, to)).collect())
                .collect();
            assert_eq!(frames_by_bone(&after), want, "{name} -> {to:?}");
            if own_format(&before) != Format::Anim {
                assert_eq!(names(&after), names(&before), "{name} -> {to:?}");
            }
            // A scale dropped is said.
            let dropped = scaled && to != Format::Anpk;
            assert_eq!(warned.count > 0, dropped, "{name} -> {to:?}");
            if dropped {
                assert_eq!(warned.first.unwrap().kind, WarningKind::ScaleDropped);
            }
        }
    }
}

/// The value a packed field decodes to after rounding.
fn quantized(v: f32, scale: f32) -> f32 {
    let r = v * scale;
    let r = if r >= 0.0 { r + 0.5 } else { r - 0.5 };
    f32::from(r as i16) / scale
}

#[test]
fn quantize_rounds_to_the_packed_steps_and_nothing_else() {
    let mut rng = Rng(5);
    for round in 0..60 {
        // Plain values in range: the generator's small floats.
        let mut p = generated_with(&mut rng, Format::Anpk, 23);
        for a in &mut p.animations {
            for b in &mut a.bones {
                for k in &mut b.frames {
                    k.rotation = [0; 4].map(|_| (rng.below(8001) as f32 - 4000.0) / 4000.0);
                    k.time = rng.below(30000) as f32 / 1000.0;
                    k.translation = [0; 3].map(|_| (rng.below(6001) as f32 - 3000.0) / 100.0);
                }
            }
        }
        let data = encode::write(&p).unwrap();
        let before = events(&data).unwrap();
        for to in [Format::Anp3, Format::Anp2] {
            let out = convert(&data, to, EncodeOptions::quantize(true)).unwrap();
            let after = events(&out).unwrap();
            for (b, a) in frames_by_bone(&before).iter().zip(frames_by_bone(&after)) {
                for (x, y) in b.iter().zip(&a) {
                    let x = x.map(f32::from_bits);
                    let y = y.map(f32::from_bits);
                    assert_eq!(y[0], quantized(x[0], 60.0), "round {round}");
                    for i in 1..5 {
                        assert_eq!(y[i], quantized(x[i], 4096.0), "round {round}");
                    }
                    for i in 5..8 {
                        assert_eq!(y[i], quantized(x[i], 1024.0), "round {round}");
                    }
                }
            }
            assert!(after.iter().all(|e| !matches!(
                e,
                Ev::Bone {
                    frame_type: FrameType::Ifp2Rot | FrameType::Ifp2RotTrans,
                    ..
                }
            )));
        }
    }
}

#[test]
fn packed_frames_are_written_only_when_exact() {
    // A packed bone whose values are not multiples of the steps cannot stay packed without
    // rounding: the encoder refuses rather than round.
    let mut e = Encoder::new(Format::Anp3, Vec::new(), EncodeOptions::default()).unwrap();
    e.file(Some(b"p")).unwrap();
    e.animation(b"a").unwrap();
    e.bone(&encode::BoneHeader {
        name: Some(b"b"),
        bone_id: None,
        bone_key: None,
        frame_type: FrameType::Ifp2PackedRot,
    })
    .unwrap();
    let mut k = Keyframe {
        rotation: [0.5, 0.25, 0.0, 1.0],
        time: 2.0 / 60.0,
        ..Keyframe::default()
    };
    e.keyframe(&k).unwrap();
    k.time = 0.1234;
    assert_eq!(
        e.keyframe(&k),
        Err(EncodeError::NotRepresentable(Lost::PackedValue))
    );
    // The error sticks.
    assert_eq!(
        e.bone_end(),
        Err(EncodeError::NotRepresentable(Lost::PackedValue))
    );
}

#[test]
fn a_name_too_long_is_refused_by_name() {
    let mut p = anpk::mixed();
    p.animations[1].name = "an_animation_name_of_29_bytes".into();
    let data = encode::write(&p).unwrap();
    for to in [Format::Anp3, Format::Anp2] {
        let error = convert(&data, to, EncodeOptions::default()).unwrap_err();
        let EncodeError::NameTooLong(n) = error else {
            panic!("{error:?}")
        };
        assert_eq!(
            (n.name(), n.len, n.max),
            (&b"an_animation_name_of_29_bytes"[..], 29, 23)
        );
        assert!(error
            .to_string()
            .contains("\"an_animation_name_of_29_bytes\""));
    }
    // ANPK holds it.
    assert!(convert(&data, Format::Anpk, EncodeOptions::default()).is_ok());
}

#[test]
fn stories_bones_are_named_from_their_keys() {
    use gtastream::bone_names::{standard_bone_names, stories_bone_key};
    use stories::{frame, write, Anim, BoneRow, Layout};
    let q = [0.5, -0.25, 0.0, 0.8125];
    let known = stories_bone_key(b"Bip01 L Clavicle");
    let unknown = 0x1A2B_3C4D;
    assert!(standard_bone_names().all(|(_, k)| k != unknown));
    let anim = Anim {
        name: "walk",
        duration: 1.0,
        bones: [known, unknown]
            .map(|key| BoneRow {
                flags: 0x01,
                key,
                frames: vec![frame(q, 0.0, None)],
                garbage_offset: 0,
            })
            .to_vec(),
    };
    let data = write(&[anim], Layout::DepthFirst, false, 0);
    let bones: Vec<Option<Vec<u8>>> = events(&data)
        .unwrap()
        .into_iter()
        .filter_map(|e| match e {
            Ev::Bone { name, .. } => Some(name),
            _ => None,
        })
        .collect();
    assert_eq!(bones, [Some(b"Bip01 L Clavicle".to_vec()), None]);
    let ifp = convert(&data, Format::Anp3, EncodeOptions::default()).unwrap();
    let names: Vec<Vec<u8>> = names(&events(&ifp).unwrap());
    assert_eq!(
        names,
        [
            b"walk".to_vec(),
            b"Bip01 L Clavicle".to_vec(),
            b"bone_1A2B3C4D".to_vec()
        ]
    );
}

#[test]
fn binary_and_text_ipl_keep_every_value() {
    let mut checked = 0;
    for (name, data) in ipl::binary_fixtures() {
        let Ok(before) = events(&data) else { continue };
        let text = match convert(&data, Format::IplText, EncodeOptions::default()) {
            Ok(text) => text,
            // NaN and infinities have no text the games read.
            Err(EncodeError::NotRepresentable(Lost::NonFinite)) => {
                assert!(has_non_finite(&before), "{name}");
                continue;
            }
            Err(e) => panic!("{name}: {e}"),
        };
        let as_text = events(&text).unwrap();
        let back = convert(&text, Format::IplBinary, EncodeOptions::default()).unwrap();
        let after = events(&back).unwrap();
        // Binary → text → binary: every event back (counts come from the records).
        let records = |ev: &[Ev]| -> Vec<Ev> {
            ev.iter()
                .filter(|e| matches!(e, Ev::Instance(_) | Ev::Car(_)))
                .cloned()
                .collect()
        };
        assert_eq!(records(&after), records(&before), "{name}");
        // Text keeps each value (the name the binary file has not is `dummy`).
        let unnamed = |ev: Vec<Ev>| -> Vec<Ev> {
            ev.into_iter()
                .map(|e| match e {
                    Ev::Instance(i) => Ev::Instance(Inst {
                        model_name: None,
                        ..i
                    }),
                    other => other,
                })
                .collect()
        };
        assert_eq!(unnamed(records(&as_text)), records(&before), "{name}");
        checked += 1;
    }
    assert!(checked > 5, "{checked}");
    // Text → binary: a text-only section cannot be stored; the error names its first line.
    let text = b"inst\n1, a, 0, 1.5, 2, 3, 0, 0, 0, 1, -1\nend\ncull\n1 2 3\nend\n";
    let first = LineAt {
        section: "cull",
        line: 5,
        offset: 0,
    };
    assert_eq!(
        convert(text, Format::IplBinary, EncodeOptions::default()),
        Err(EncodeError::LineLost(first))
    );
}

/// Nothing is lost without a word (docs/FORMATS.md §9.3): with `drop_text_sections`, text →
/// binary writes the records and counts the dropped lines per section; model names dropped,
/// and `dummy` written for missing ones, are warnings with their count; a line outside any
/// section fails the conversion, or is dropped and counted.
#[test]
fn what_a_target_cannot_hold_is_refused_or_dropped_and_counted() {
    let text = b"# a comment\nstray line\ninst\n1, a, 0, 1.5, 2, 3, 0, 0, 0, 1, -1\n\
                 2, b, 0, 1, 2, 3, 0, 0, 0, 1, -1\nend\ncull\n1 2 3\n4 5 6\nend\n\
                 path\n7\nend\ncars\n1, 2, 3, 0.5, 400, -1, -1, 0, 0, 0, 0, 0\nend\n";
    // The stray line (the games skip it) is not silently lost: written back with the stored
    // lines, refused where they are not kept (binary; normalised text).
    let stray = Err(EncodeError::LineLost(LineAt {
        section: "",
        line: 0,
        offset: 12,
    }));
    assert_eq!(
        convert(text, Format::IplBinary, EncodeOptions::default()),
        stray
    );
    let clean = EncodeOptions::default().with_normalise(true);
    assert_eq!(convert(text, Format::IplText, clean), stray);
    assert_eq!(
        convert(text, Format::IplText, EncodeOptions::default()).as_deref(),
        Ok(&text[..])
    );
    let drop = EncodeOptions::default().with_drop_text_sections(true);
    let mut encoder = Encoder::new(Format::IplBinary, Vec::new(), drop).unwrap();
    Decoder::new().decode_slice(text, &mut encoder).unwrap();
    assert!(encoder.is_finished());
    let dropped: Vec<_> = encoder.dropped_lines().collect();
    assert_eq!(dropped, [("cull", 2), ("path", 1), ("", 1)]);
    // Two model names and four lines dropped: six warnings, the first the stray line's.
    let warnings = encoder.warnings();
    assert_eq!(warnings.count, 6);
    let first = warnings.first.unwrap();
    assert_eq!(
        (first.kind, first.offset),
        (WarningKind::SectionLineDropped, 76)
    );
    let binary = encoder.into_sink();
    let placement = gtastream::Placement::parse(&binary).unwrap();
    assert_eq!((placement.instances.len(), placement.cars.len()), (2, 1));
    // Back to text: every instance is a `dummy`, with a warning each.
    let mut encoder = Encoder::new(Format::IplText, Vec::new(), EncodeOptions::default()).unwrap();
    Decoder::new().decode_slice(&binary, &mut encoder).unwrap();
    let warnings = encoder.warnings();
    assert_eq!(warnings.count, 2);
    assert_eq!(warnings.first.unwrap().kind, WarningKind::ModelNameMissing);
    assert_eq!(encoder.dropped_lines().count(), 0);
}

fn has_non_finite(events: &[Ev]) -> bool {
    events.iter().any(|e| match e {
        Ev::Instance(i) => i.position.iter().chain(&i.rotation).any(|v| !v.is_finite()),
        Ev::Car(c) => c.position.iter().chain([&c.angle]).any(|v| !v.is_finite()),
        _ => false,
    })
}

#[test]
fn text_floats_read_back_exactly() {
    let mut rng = Rng(99);
    let mut e = Encoder::new(Format::IplText, Vec::new(), EncodeOptions::default()).unwrap();
    e.file(None).unwrap();
    let mut want = Vec::new();
    for _ in 0..2000 {
        let mut i = IplInstance::default();
        i.position = [rng.float(), rng.float(), rng.float()];
        i.rotation = [rng.float(), rng.float(), rng.float(), rng.float()];
        i.model_id = rng.next() as i32;
        i.interior = rng.next() as u32;
        i.lod = rng.next() as i32;
        i.model_name = Some(b"m");
        e.instance(&i).unwrap();
        want.push(Ev::Instance(Inst {
            model_name: Some(b"m".to_vec()),
            ..Inst::binary(i.position, i.rotation, i.model_id, i.interior, i.lod)
        }));
    }
    e.end().unwrap();
    let text = e.into_sink();
    let got: Vec<Ev> = events(&text)
        .unwrap()
        .into_iter()
        .filter(|e| matches!(e, Ev::Instance(_)))
        .collect();
    assert_eq!(got, want);
    // A model name is one field: any bytes but separators and control bytes.
    let mut e = Encoder::new(Format::IplText, Vec::new(), EncodeOptions::default()).unwrap();
    e.file(None).unwrap();
    let mut i = IplInstance::default();
    i.model_name = Some(b"caf\xe9#2");
    e.instance(&i).unwrap();
    e.end().unwrap();
    let text = e.into_sink();
    assert!(matches!(&events(&text).unwrap()[1],
        Ev::Instance(Inst { model_name: Some(n), .. }) if n == b"caf\xe9#2"));
    for bad in [&b"a b"[..], b"a,b", b"", b"a\tb"] {
        let mut e = Encoder::new(Format::IplText, Vec::new(), EncodeOptions::default()).unwrap();
        e.file(None).unwrap();
        i.model_name = Some(bad);
        assert_eq!(
            e.instance(&i),
            Err(EncodeError::NotRepresentable(Lost::ModelName))
        );
    }
    // NaN has no text the games read.
    let mut e = Encoder::new(Format::IplText, Vec::new(), EncodeOptions::default()).unwrap();
    e.file(None).unwrap();
    let mut c = IplCar::default();
    c.angle = f32::NAN;
    assert_eq!(
        e.car(&c),
        Err(EncodeError::NotRepresentable(Lost::NonFinite))
    );
}

#[test]
fn animations_and_placements_do_not_mix() {
    let anp3 = encode::write(&anpk::mixed()).unwrap();
    assert_eq!(
        convert(&anp3, Format::IplText, EncodeOptions::default()),
        Err(EncodeError::CannotConvert(Format::Anpk, Format::IplText))
    );
    assert!(matches!(
        Encoder::new(Format::Anim, Vec::new(), EncodeOptions::default()),
        Err(EncodeError::UnsupportedFormat(Format::Anim))
    ));
}

/// The "Writing" example of docs/RUST.md, as written there.
fn anpk_to_anp3(input: &std::path::Path, output: &std::path::Path) -> Result<(), String> {
    use gtastream::encode::IoSink;
    use gtastream::io::decode_reader;
    let mut reader = std::fs::File::open(input).map_err(|e| e.to_string())?;
    let file = std::fs::File::create(output).map_err(|e| e.to_string())?;
    let sink = IoSink::new(std::io::BufWriter::new(file)).map_err(|e| e.to_string())?;
    let mut encoder =
        Encoder::new(Format::Anp3, sink, EncodeOptions::default()).map_err(|e| e.to_string())?;
    let decoded = decode_reader(&mut Decoder::new(), &mut reader, &mut encoder);
    // An encoding error aborts the decoder; the encoder says why.
    if let Some(error) = encoder.error() {
        return Err(error.to_string());
    }
    decoded.map_err(|e| e.to_string())
}

#[test]
fn the_readme_example_converts_a_file() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let (input, output) = (dir.join("readme.anpk"), dir.join("readme.anp3"));
    let source = encode::write(&anpk::mixed()).unwrap();
    std::fs::write(&input, &source).unwrap();
    anpk_to_anp3(&input, &output).unwrap();
    let written = std::fs::read(&output).unwrap();
    assert_eq!(
        written,
        convert(&source, Format::Anp3, EncodeOptions::default()).unwrap()
    );
    let mut long = anpk::mixed();
    long.animations[0].name = "x".repeat(24);
    std::fs::write(&input, encode::write(&long).unwrap()).unwrap();
    let error = anpk_to_anp3(&input, &output).unwrap_err();
    assert!(error.contains("(24 bytes) does not fit"), "{error}");
}

/// Converts with the reading-ahead adapter over the same slice.
fn convert_ahead(data: &[u8], to: Format) -> Vec<u8> {
    let mut encoder = Encoder::new(to, Vec::new(), EncodeOptions::default()).unwrap();
    let mut ahead = encode::Lookahead::new(&mut encoder, data);
    Decoder::new().decode_slice(data, &mut ahead).unwrap();
    assert!(encoder.is_finished(), "{:?}", encoder.error());
    encoder.into_sink()
}

#[test]
fn floats_on_the_packed_steps_are_packed_again() {
    let types = |events: &[Ev]| -> Vec<(FrameType, u32)> {
        events
            .iter()
            .filter_map(|e| match e {
                Ev::Bone {
                    frame_type,
                    frame_count,
                    ..
                } => Some((*frame_type, *frame_count)),
                _ => None,
            })
            .collect()
    };
    let mut rng = Rng(31337);
    let mut same_bytes = 0;
    for round in 0..200 {
        let p = generated_with(&mut rng, Format::Anp3, 23);
        let anp3 = encode::write(&p).unwrap();
        let anpk = convert(&anp3, Format::Anpk, EncodeOptions::default()).unwrap();
        let ahead = convert_ahead(&anpk, Format::Anp3);
        let (before, after) = (events(&anp3).unwrap(), events(&ahead).unwrap());
        // The same keyframes, bit for bit.
        assert_eq!(
            frames_by_bone(&after),
            frames_by_bone(&before),
            "round {round}"
        );
        // Every packed bone with keyframes is packed again (a float bone may become packed
        // too: its values lie on the steps, which the encoder checked one by one).
        for ((t0, n), (t1, _)) in types(&before).into_iter().zip(types(&after)) {
            if t0.is_packed() && n > 0 {
                assert!(t1.is_packed(), "round {round}");
            }
        }
        same_bytes += usize::from(ahead == anp3);
        // Without it, every ANPK bone comes back as floats.
        let plain = convert(&anpk, Format::Anp3, EncodeOptions::default()).unwrap();
        assert!(types(&events(&plain).unwrap())
            .iter()
            .all(|(t, _)| !t.is_packed()));
    }
    assert!(same_bytes > 100, "{same_bytes}");
    // Files that need seeks (Stories) and placements go through it unchanged.
    for (name, data) in stories_files() {
        if let Ok(plain) = convert(&data, Format::Anpk, EncodeOptions::default()) {
            assert_eq!(convert_ahead(&data, Format::Anpk), plain, "{name}");
        }
    }
    let ipl = ipl::vanilla();
    assert_eq!(
        convert_ahead(&ipl, Format::IplText),
        convert(&ipl, Format::IplText, EncodeOptions::default()).unwrap()
    );
}

/// The kit's log modes that the tests above rely on: an exact log tells NaN payloads apart
/// (the default one only through the stored bytes), and a log without warnings is the log
/// with its warnings taken out.
#[test]
fn the_exact_log_tells_nan_payloads_apart() {
    let frame = anpk::kf(f32::NAN, [0.0, 0.0, 0.0, 1.0], [0.0; 3], [0.0; 3]);
    let bone = anpk::bone("b", Some(0), FrameType::Ifp2Rot, vec![frame]);
    let package = Package {
        format: Format::Anp3,
        ..anpk::package("p", vec![anpk::anim("a", vec![bone])])
    };
    let quiet = encode::write(&package).unwrap();
    let nan = f32::NAN.to_le_bytes();
    let at = quiet.windows(4).position(|w| w == nan).unwrap();
    let mut loud = quiet.clone();
    loud[at..at + 4].copy_from_slice(&0x7FC0_0001u32.to_le_bytes());
    let log = |data: &[u8], recorder: Recorder| {
        let mut recorder = recorder;
        Decoder::new().decode_slice(data, &mut recorder).unwrap();
        // Without the stored bytes, which tell the files apart in any mode.
        let values = recorder.events.into_iter().map(|e| match e {
            Ev::Frame {
                frame_type,
                frame,
                raw,
                exact,
                ..
            } => Ev::Frame {
                frame_type,
                bytes: Vec::new(),
                frame,
                raw,
                exact,
            },
            other => other,
        });
        values.collect::<Vec<Ev>>()
    };
    assert_eq!(
        log(&quiet, Recorder::default()),
        log(&loud, Recorder::default())
    );
    let exact = || Recorder::default().exact();
    assert_ne!(log(&quiet, exact()), log(&loud, exact()));
    assert_eq!(log(&quiet, exact()), log(&quiet, exact()));

    let (_, sloppy) = ifp2::fixtures()
        .into_iter()
        .find(|(_, data)| has_warnings(data))
        .unwrap();
    let mut all = Recorder::default();
    let _ = Decoder::new().decode_slice(&sloppy, &mut all);
    let mut quiet = Recorder::default().without_warnings();
    let _ = Decoder::new().decode_slice(&sloppy, &mut quiet);
    assert!(all.events.len() > quiet.events.len());
    assert_eq!(quiet.events, testkit::log::without_warnings(&all.events));
    // Warnings are still visitor calls: a policy counts them alike.
    assert_eq!(quiet.calls, all.calls);
}

/// A text IPL is taken for text by its first four bytes (docs/FORMATS.md §8.1): a line that
/// would put another byte among them (here once a blank line, which the clean writer does not
/// keep, is gone) is refused instead of written unreadable (a case the fuzzer found).
#[test]
fn text_whose_first_bytes_would_not_read_as_text_is_refused() {
    let input = b"a\n\ng\xff\xff.\n1 2 3\n";
    assert!(events(input).is_ok(), "the input reads");
    let clean = EncodeOptions::default().with_normalise(true);
    assert_eq!(
        convert(input, Format::IplText, clean),
        Err(EncodeError::NotRepresentable(Lost::Line))
    );
    // Written back with its stored lines, the blank line stays and so does the file.
    let same = convert(input, Format::IplText, EncodeOptions::default());
    assert_eq!(same.as_deref(), Ok(&input[..]));
    // Further in, the same line is written and reads back.
    let later = b"a\nok\ng\xff\xff.\n";
    let out = convert(later, Format::IplText, clean).unwrap();
    assert!(events(&out).is_ok());
}
