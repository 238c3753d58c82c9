//! Every seed passes the checks of the targets it seeds (a fuzz run starts from them), on the
//! stable toolchain: `cargo test --manifest-path fuzz/Cargo.toml`.

use gtastream_fuzz::{harness, seeds};

#[test]
fn every_decode_seed_passes() {
    for (name, file) in seeds::files() {
        eprintln!("{name}");
        harness::check_decode(&file);
    }
}

#[test]
fn every_chunking_seed_passes() {
    for (name, input) in seeds::chunking_inputs() {
        eprintln!("{name}");
        let (plan, file) = harness::Plan::parse(&input).expect("a plan");
        harness::check_chunking(&plan, file);
    }
}

#[test]
fn plans_read_back_with_the_game() {
    for (name, plan) in seeds::plans() {
        let mut input = plan.to_prefix();
        input.extend_from_slice(b"inst\n");
        let (back, file) = harness::Plan::parse(&input).expect("a plan");
        assert_eq!(back.game, plan.game, "{name}");
        assert_eq!(back.can_seek, plan.can_seek, "{name}");
        assert_eq!(file, b"inst\n");
    }
}
