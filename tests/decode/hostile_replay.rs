//! The fuzz targets' checks (the kit's `driver`) run on stable over
//! the seed files, under fixed cuttings, and over every input the fuzzers found a problem with
//! (minimized), so a regression fails the ordinary test suite, not only a fuzz run.
#![cfg(feature = "std")]

use testkit::driver::{check_chunking, check_decode, check_findings, check_model, Plan};
use testkit::seeds;

/// Cuttings every seed is checked under, besides the seed plans.
fn plans() -> Vec<Plan> {
    let mut plans: Vec<Plan> = seeds::plans().into_iter().map(|(_, p)| p).collect();
    for size in [2, 3, 5, 16, 37] {
        for can_seek in [true, false] {
            plans.push(Plan::chunks(size, can_seek));
        }
    }
    for game in [None, Some(gtastream::Game::ViceCity)] {
        plans.push(Plan {
            sizes: vec![1],
            pause_mask: 0xFF,
            abort_at: None,
            can_seek: true,
            game,
        });
    }
    plans
}

#[test]
fn plans_read_back_from_their_prefix() {
    for plan in plans() {
        if plan.sizes.len() > 8 {
            continue;
        }
        let mut input = plan.to_prefix();
        input.extend_from_slice(b"inst\n");
        let (back, file) = Plan::parse(&input).expect("a plan");
        assert_eq!(
            (back.game, back.can_seek, back.pause_mask),
            (plan.game, plan.can_seek, plan.pause_mask),
            "{plan:?}"
        );
        assert_eq!(file, b"inst\n");
    }
}

#[test]
fn seeds_pass_the_decode_checks() {
    for (name, file) in all_seeds() {
        eprintln!("{name}");
        check_decode(&file);
    }
}

#[test]
fn seeds_pass_the_check_checks() {
    for (name, file) in all_seeds() {
        for plan in [
            Plan::chunks(1, true),
            Plan::chunks(7, true),
            Plan::whole(true),
        ] {
            eprintln!("{name} {plan:?}");
            check_findings(&plan, &file);
        }
    }
}

#[test]
fn seeds_pass_the_chunking_checks() {
    let plans = plans();
    for (name, file) in all_seeds() {
        for plan in &plans {
            eprintln!("{name} {plan:?}");
            check_chunking(plan, &file);
        }
    }
}

#[test]
fn chunking_seed_inputs_parse_back_to_their_plans() {
    for (name, plan) in seeds::plans() {
        let mut input = plan.to_prefix();
        input.extend_from_slice(b"ANP3");
        let (parsed, data) = Plan::parse(&input).expect(name);
        assert_eq!((parsed, data), (plan, &b"ANP3"[..]), "{name}");
    }
}

/// Every truncation of every seed passes the decode checks too.
#[test]
fn truncated_seeds_pass_the_decode_checks() {
    for (name, file) in all_seeds() {
        let step = (file.len() / 300).max(1);
        for cut in (0..file.len()).step_by(step) {
            eprintln!("{name} cut at {cut}");
            check_decode(&file[..cut]);
        }
    }
}

/// Every truncation of every seed passes the check checks: a file cut anywhere (a Stories
/// file, which no checked game loads, too) has a finding for its failure.
#[test]
fn truncated_seeds_pass_the_check_checks() {
    for (name, file) in seeds::files() {
        for cut in 0..file.len().min(4096) {
            eprintln!("{name} cut at {cut}");
            check_findings(&Plan::whole(true), &file[..cut]);
        }
    }
}

/// The `dff` target's checks over its seeds (every model shape, each plan), every model
/// under the fixed cuttings, every truncation, and bytes flipped through the frame list and
/// the extensions.
#[test]
fn dff_seeds_and_their_damage_pass_the_model_checks() {
    for (name, input) in seeds::dff_inputs() {
        let (plan, file) = Plan::parse(&input).expect("a plan");
        eprintln!("{name}");
        check_model(&plan, file);
    }
    for (name, model) in testkit::dff::shapes() {
        let file = model.bytes();
        for plan in plans() {
            check_model(&plan, &file);
        }
        let step = (file.len() / 200).max(1);
        for cut in (0..file.len()).step_by(step) {
            eprintln!("{name} cut at {cut}");
            check_model(&Plan::chunks(7, true), &file[..cut]);
        }
        for at in (0..file.len().min(900)).step_by(7) {
            let mut damaged = file.clone();
            damaged[at] ^= 0xA5;
            eprintln!("{name} flipped at {at}");
            check_model(&Plan::chunks(3, true), &damaged);
        }
    }
}

// ------------------------------------------------------------------------------------------
// Minimized inputs the fuzzers found. Each names the src location that was wrong.

/// `decode`: a text `inst` line with fewer than two fields panicked (index out of bounds) in
/// `src/format/ipl_text.rs`, `instance()`, which read `f[0]` and `f[1]` before checking the
/// field count. Fixed in d42afcd; now a `MalformedLine` warning at the line (a line of
/// commas and tabs only is blank for the games).
#[test]
fn regression_text_inst_line_with_too_few_fields() {
    for input in [&b"inst\n1\nend\n"[..], b"inst\n,,,\nend\n", b"inst\n\t,\n"] {
        check_decode(input);
        let placement = gtastream::Placement::parse(input).expect("a placement file");
        assert!(placement.instances.is_empty());
        let malformed: Vec<_> = placement
            .warnings
            .iter()
            .filter(|w| w.kind == gtastream::WarningKind::MalformedLine)
            .map(|w| w.offset)
            .collect();
        let expected: &[u64] = if input == b"inst\n1\nend\n" {
            &[5]
        } else {
            &[]
        };
        assert_eq!(malformed, expected);
    }
}

/// `chunking`: a text file whose first line ends inside the 4 bytes sniffed for the magic
/// lost the line break when the first chunk was shorter than 4 bytes: `src/decoder.rs`,
/// `run`, the `Want::Line` arm searched only the new input for `\n`, not the carried bytes,
/// so the first two lines were read as one (`"#\ninst\n…"` lost its section). Fixed in
/// abded12 (`line_unit`).
#[test]
fn regression_text_line_break_inside_the_sniffed_bytes() {
    let inputs: [&[u8]; 4] = [
        b"=in\nn",
        b"ab\ncd",
        b"#\ninst\n1, m, 0, 1, 2, 3, 0, 0, 0, 1, -1\nend\n",
        b"\n\n\n\n\x02\0\x01",
    ];
    for input in inputs {
        for size in [1, 2, 3] {
            check_chunking(&Plan::chunks(size, true), input);
        }
        check_decode(input);
    }
    let placement = gtastream::Placement::parse(inputs[2]).expect("decodes");
    assert_eq!(placement.instances.len(), 1);
}

/// `decode`: an `ANLF` container that declares no blocks decodes without error but reports no
/// `file` event (documented as always the first), only `end`; `Package::parse` then fails
/// with `Truncated` at 0 although nothing is cut short. `src/format/anpk.rs`,
/// `container_header` (a block count of 0 goes straight to the container size check), and
/// `src/package.rs`, `Package::parse` (no package becomes `Truncated` at 0).
#[test]
fn regression_anlf_without_blocks() {
    check_decode(b"ANLF\x04\0\0\0\0\0\0\0");
    check_decode(b"ANLF\0\0\0\0\0\0\0\0");
}

/// `decode`: an error in a bone that follows whole bones in the same feed (the IFP2 fast path)
/// left `position()` and `Decoder::parsed` at the start of the feed, although events for the
/// bones before it had been reported. `src/format/ifp2.rs`, `run_whole`.
#[test]
fn regression_error_after_whole_bones_in_one_feed() {
    let mut file = Vec::new();
    let name = |s: &str| {
        let mut field = [0u8; 24];
        field[..s.len()].copy_from_slice(s.as_bytes());
        field
    };
    let u32s = |file: &mut Vec<u8>, values: &[u32]| {
        for v in values {
            file.extend_from_slice(&v.to_le_bytes());
        }
    };
    file.extend_from_slice(b"ANP3");
    u32s(&mut file, &[0]);
    file.extend_from_slice(&name("pkg"));
    u32s(&mut file, &[1]);
    file.extend_from_slice(&name("anim"));
    u32s(&mut file, &[3, 40, 1]);
    for bone in 0..2 {
        file.extend_from_slice(&name("bone"));
        u32s(&mut file, &[3, 2, bone]);
        file.extend_from_slice(&[0, 0, 0, 0, 0, 0, 0, 16, 0, 0]);
        file.extend_from_slice(&[0, 0, 0, 0, 0, 0, 0, 16, 1, 0]);
    }
    let bad_at = file.len();
    file.extend_from_slice(&name("bad"));
    u32s(&mut file, &[9, 2, 2]);
    check_decode(&file);
    let mut decoder = gtastream::Decoder::new();
    struct Quiet;
    impl gtastream::Visitor for Quiet {}
    let error = decoder.feed(&file, &mut Quiet).unwrap_err();
    assert_eq!(error.kind, gtastream::ErrorKind::UnknownFrameType);
    assert_eq!(error.offset, bad_at as u64);
    assert_eq!(decoder.position(), bad_at as u64);
    assert_eq!(decoder.parsed(), bad_at as u64);
}

/// Every seed with one byte changed (its first 2 KiB, to four values) passes the check checks.
#[test]
fn seeds_with_a_byte_changed_pass_the_check_checks() {
    for (name, file) in seeds::files() {
        for at in 0..file.len().min(2048) {
            for v in [0u8, 0xff, 0x7f, 1] {
                let mut f = file.clone();
                f[at] = v;
                eprintln!("{name}: byte {at} set to {v}");
                check_findings(&Plan::whole(true), &f);
            }
        }
    }
}

/// The seed files, models (the decode corpus's DFF shapes) among them.
fn all_seeds() -> Vec<(String, Vec<u8>)> {
    [seeds::files(), seeds::dff_seeds()].concat()
}

/// The `walk` fuzz target's seeds, and each with its level file cut short and a byte of each
/// file changed, pass its checks (`testkit::folder::check_walk`).
#[test]
fn walk_seeds_and_their_damage_pass_the_walk_checks() {
    for (name, input) in testkit::folder::walk_inputs() {
        testkit::folder::check_walk(&input);
        let step = input.len() / 12 + 1;
        for cut in (1..input.len()).step_by(step) {
            testkit::folder::check_walk(&input[..cut]);
        }
        for at in (1..input.len()).step_by(step - 1) {
            let mut damaged = input.clone();
            damaged[at] ^= 0xff;
            testkit::folder::check_walk(&damaged);
        }
        assert!(input.len() > 100, "{name}");
    }
}
