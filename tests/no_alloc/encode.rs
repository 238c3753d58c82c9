//! The streaming encoders never allocate: the kit's counting allocator counts the allocations
//! made on this thread while a decoder feeds an encoder that writes into a caller's buffer, for
//! every output format, input cut in pieces of several sizes.

#![cfg(feature = "alloc")]

use gtastream::encode::{self, EncodeOptions, Encoder, SliceSink};
use gtastream::{Decoder, Format, FrameType, Keyframe, Package, Status};
use testkit::alloc_count::allocations;
use testkit::{ipl, stories};

fn package(format: Format) -> Package {
    let types: &[FrameType] = if format == Format::Anpk {
        &[FrameType::Kr00, FrameType::Krt0, FrameType::Krts]
    } else {
        &[FrameType::Ifp2PackedRotTrans, FrameType::Ifp2Rot]
    };
    let animations = (0..3)
        .map(|a| gtastream::Animation {
            name: format!("anim{a}"),
            frame_data_size: None,
            flags: None,
            duration: None,
            bones: types
                .iter()
                .enumerate()
                .map(|(b, &frame_type)| gtastream::Bone {
                    name: Some(format!("bone{b}")),
                    bone_id: Some(b as i32),
                    bone_key: None,
                    frame_type,
                    frames: (0..150)
                        .map(|i| Keyframe {
                            time: i as f32 / 60.0,
                            rotation: [0.5, -0.25, 0.0, 1.0],
                            translation: [i as f32 / 1024.0, 0.0, 1.0],
                            scale: [1.0; 3],
                        })
                        .collect(),
                    raw: Vec::new(),
                })
                .collect(),
            raw: Vec::new(),
        })
        .collect();
    Package {
        format,
        name: Some("p".into()),
        animations,
        warnings: Vec::new(),
        raw: Vec::new(),
        trailing: Vec::new(),
    }
}

/// Feeds `data` in pieces of `piece` bytes (following seeks) into an encoder for `to` over
/// `buf`; returns the bytes written.
fn convert(data: &[u8], piece: usize, to: Format, buf: &mut [u8]) -> usize {
    let mut encoder = Encoder::new(to, SliceSink::new(buf), EncodeOptions::default()).unwrap();
    let mut decoder = Decoder::new();
    let mut at = 0;
    while at < data.len() {
        let end = at.saturating_add(piece).min(data.len());
        let progress = decoder.feed(&data[at..end], &mut encoder).unwrap();
        match progress.status {
            Status::Seek(to) => at = to as usize,
            Status::Done => break,
            _ => at += progress.consumed,
        }
    }
    decoder.finish(&mut encoder).unwrap();
    assert!(encoder.is_finished(), "{:?}", encoder.error());
    encoder.sink().written().len()
}

fn convert_to_vec(data: &[u8]) -> usize {
    let mut encoder = Encoder::new(Format::Anp3, Vec::new(), EncodeOptions::default()).unwrap();
    Decoder::new().decode_slice(data, &mut encoder).unwrap();
    encoder.into_sink().len()
}

#[test]
fn encoders_never_allocate() {
    let mut inputs: Vec<(Vec<u8>, Vec<Format>)> = Vec::new();
    let animation_targets = vec![Format::Anp3, Format::Anp2, Format::Anpk];
    for format in [Format::Anp3, Format::Anp2, Format::Anpk] {
        inputs.push((
            encode::write(&package(format)).unwrap(),
            animation_targets.clone(),
        ));
    }
    let mut anims = stories::sample();
    for a in &mut anims {
        a.name = &a.name[..a.name.len().min(23)];
    }
    inputs.push((
        stories::write(&anims, stories::Layout::Backward, true, 0),
        animation_targets.clone(),
    ));
    // An ANLF of two blocks, written back in its container.
    let block = encode::write(&package(Format::Anpk)).unwrap();
    inputs.push((
        testkit::anpk::anlf(&[block.clone(), block]),
        vec![Format::Anpk],
    ));
    inputs.push((ipl::vanilla(), vec![Format::IplBinary, Format::IplText]));
    let text = b"inst\n1, a, 0, 1.5, 2, 3, 0, 0, 0, 1, -1\nend\ncars\n1, 2, 3, 0.5, 400, -1, -1, 0, 0, 0, 0, 0\nend\n";
    inputs.push((text.to_vec(), vec![Format::IplBinary, Format::IplText]));
    let mut buf = vec![0u8; 1 << 20];
    // The counter sees allocations (a Vec sink would allocate).
    let (count, _) = allocations(|| convert_to_vec(&inputs[0].0));
    assert!(count > 0);
    for (data, targets) in &inputs {
        for to in targets {
            for piece in [1, 7, 64, 4096, usize::MAX] {
                let (count, written) = allocations(|| convert(data, piece, *to, &mut buf));
                assert!(written > 0);
                assert_eq!(count, 0, "{to:?}, pieces of {piece}");
            }
        }
    }
}

/// A text IPL written back with its stored lines (comments, CRLF, tabs, stray and unknown-
/// section lines, an edited value's line) or clean allocates nothing either.
#[test]
fn text_rewrite_never_allocates() {
    let mut inputs = vec![ipl::text_all_sections(), ipl::crlf(&ipl::sa_quirks())];
    inputs.push(
        b"# header\r\nstray line\r\n\r\nINST\r\n4, vc, 2, 10.50, -0, 1e3, 1, 1.5, 2, 0, 0, 0, 1\r\n\
          END\r\nwanted\r\n3, 2\r\n\t1\t2\r\nend\r\ncull\r\n1 2\r\nend"
            .to_vec(),
    );
    let mut buf = vec![0u8; 1 << 20];
    for data in &inputs {
        for piece in [1, 7, 64, usize::MAX] {
            let (count, written) = allocations(|| convert(data, piece, Format::IplText, &mut buf));
            assert_eq!(&buf[..written], &data[..]);
            assert_eq!(count, 0, "pieces of {piece}");
        }
        let clean = EncodeOptions::default().with_normalise(true);
        let (count, _) = allocations(|| {
            let mut encoder = Encoder::new(Format::IplText, SliceSink::new(&mut buf), clean);
            let encoder = encoder.as_mut().unwrap();
            let _ = Decoder::new().decode_slice(data, encoder);
        });
        assert_eq!(count, 0);
    }
}

/// The reading-ahead adapter allocates nothing either.
#[test]
fn lookahead_never_allocates() {
    let anp3 = encode::write(&package(Format::Anp3)).unwrap();
    let anpk = {
        let mut out = vec![0u8; 1 << 20];
        let n = convert(&anp3, usize::MAX, Format::Anpk, &mut out);
        out.truncate(n);
        out
    };
    let mut buf = vec![0u8; 1 << 20];
    let (count, written) = allocations(|| {
        let mut encoder = Encoder::new(
            Format::Anp3,
            SliceSink::new(&mut buf),
            EncodeOptions::default(),
        )
        .unwrap();
        let mut ahead = encode::Lookahead::new(&mut encoder, &anpk[..]);
        Decoder::new().decode_slice(&anpk, &mut ahead).unwrap();
        assert!(encoder.is_finished());
        encoder.written()
    });
    assert_eq!(count, 0);
    // The float bone of `package` lies on the packed steps: it comes back packed, the file
    // smaller than the original.
    let back = Package::parse(&buf[..written as usize]).unwrap();
    assert!(back.animations[0]
        .bones
        .iter()
        .all(|b| b.frame_type.is_packed()));
    assert!((written as usize) < anp3.len());
}

/// The encoder's whole state, whatever the format (reported in PERFORMANCE.md).
#[test]
fn encoder_is_small() {
    let size = std::mem::size_of::<Encoder<SliceSink<'static>>>();
    println!("Encoder<SliceSink> is {size} bytes");
    assert!(size <= 256, "{size}");
}
