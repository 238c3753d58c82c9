//! The checker never allocates: over a package with findings of many rules, whole and byte by
//! byte, and over an archive.
#![cfg(feature = "alloc")]

use gtastream::archive::ArchiveDecoder;
use gtastream::check::{Checker, Finding, Games};
use gtastream::Decoder;
use testkit::ifp2::{AnimSpec, BoneSpec, FileSpec};

#[test]
fn checking_does_not_allocate() {
    let bone = |times: &[i16]| BoneSpec::packed("Root", times);
    let file = FileSpec::anp3(
        "demo",
        vec![
            AnimSpec::new("walk", vec![bone(&[5, 5, 3]), bone(&[])]).flags(0),
            AnimSpec::new("WALK", vec![bone(&[0])]),
        ],
    )
    .build();
    let mut img = vec![0u8; 2048];
    img[..8].copy_from_slice(b"VER2\x02\0\0\0");
    img[8..16].copy_from_slice(&[1, 0, 0, 0, 1, 0, 1, 0]);
    img[16..24].copy_from_slice(b"demo.ifp");
    img[40..48].copy_from_slice(&[1, 0, 0, 0, 1, 0, 0, 0]);
    img[48..53].copy_from_slice(b"a.dff");
    img.extend_from_slice(&file);
    img.resize(4096, 0);
    let mut findings = 0;
    let (allocations, ()) = testkit::alloc_count::allocations(|| {
        let mut checker = Checker::new(Games::ALL, |_: &Finding| findings += 1);
        checker.set_file_name(b"demo.ifp");
        Decoder::new().decode_slice(&file, &mut checker).unwrap();
        let mut decoder = Decoder::new();
        for byte in file.chunks(1) {
            decoder.feed(byte, &mut checker).unwrap();
        }
        decoder.finish(&mut checker).unwrap();
        ArchiveDecoder::new(img.len() as u64)
            .decode_slice(&img, &mut checker)
            .unwrap();
        checker.finish();
    });
    assert_eq!(allocations, 0);
    assert!(findings > 10, "{findings}");
}
