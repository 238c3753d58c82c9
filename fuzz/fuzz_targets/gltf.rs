//! `gltf`: the glTF reader and the import (`gtastream::gltf::import`) over any bytes, JSON or
//! GLB, never panic: hostile input is an error. A buffer the file names by URI reads as the
//! 48 bytes after the first 16 of the input (so a mutated input mutates it too), and the
//! import runs for each target with resampling and the report: the caps bound its memory and
//! work (`MAX_FILE`, `MAX_VALUES`, `MAX_KEYS`, `MAX_REPORT_WORK`).
#![no_main]

use gtastream::check::Games;
use gtastream::gltf::import::{import, read, BoneMap, ImportOptions};
use gtastream::Format;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: &[u8]| {
    let beside = input.get(16..64).unwrap_or(&[]).to_vec();
    let Ok(gltf) = read(input, &mut |_uri| Ok(beside.clone())) else {
        return;
    };
    let _ = gltf.animation_names();
    let map = BoneMap::parse("mixamorig:Hips = Pelvis\nmixamorig:LeftUpLeg = 41\n").unwrap();
    for (format, resample, quantize) in [
        (Format::Anp3, None, true),
        (Format::Anpk, None, false),
        (Format::Anp3, Some(60), true),
    ] {
        let mut options = ImportOptions::new(format, "fuzz");
        options.bone_map = Some(&map);
        options.resample = resample;
        options.quantize = quantize;
        options.report = resample.is_some();
        options.games = Some(Games::SA);
        let _ = import(&gltf, &options);
    }
});
