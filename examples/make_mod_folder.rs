//! Writes a San Andreas folder the size of the game's (`gta3.img` of 16,000 entries, 250 IPLs,
//! 10 IDEs), for measuring `gtastream check DIR` (PERFORMANCE.md):
//! `cargo run --example make_mod_folder --features std -- OUT_DIR`.

use std::fmt::Write;

use testkit::folder::{sa_ide, sa_text_ipl, stream_ipl};
use testkit::img::Img;

fn main() {
    let out = std::path::PathBuf::from(std::env::args().nth(1).expect("an output folder"));
    let write = |path: &str, bytes: &[u8]| {
        let at = out.join(path);
        std::fs::create_dir_all(at.parent().unwrap()).unwrap();
        std::fs::write(at, bytes).unwrap();
    };
    write("data/default.dat", b"IDE DATA\\DEFAULT.IDE\r\n");
    write("data/default.ide", &sa_ide(&[]));
    // 10 IDEs of 1,200 ids each (models lae_mID.dff, textures lae_txd.txd); 50 text IPLs of 100
    // instances, each with 4 stream IPLs.
    let mut gta = String::new();
    for i in 0..10 {
        let ids: Vec<i32> = (0..1200).map(|k| 4000 + i * 1200 + k).collect();
        write(&format!("data/maps/m{i}.ide"), &sa_ide(&ids));
        writeln!(gta, "IDE DATA\\MAPS\\M{i}.IDE\r").unwrap();
    }
    for p in 0..50 {
        let instances: Vec<(i32, String, i32)> = (0..100)
            .map(|k| (4000 + p * 100 + k, format!("m{k}"), -1))
            .collect();
        let borrowed: Vec<(i32, &str, i32)> = instances
            .iter()
            .map(|(id, n, l)| (*id, n.as_str(), *l))
            .collect();
        write(&format!("data/maps/p{p}.ipl"), &sa_text_ipl(&borrowed));
        writeln!(gta, "IPL DATA\\MAPS\\P{p}.IPL\r").unwrap();
    }
    write("data/gta.dat", gta.as_bytes());
    let mut img = Img::default();
    let mut n = 0;
    // Data after the directory of 16,000 records.
    let mut sector = (8 + 32 * 16_000u32).div_ceil(2048);
    let mut add = |img: &mut Img, name: &str, bytes: &[u8]| {
        img.add_at(name, sector, bytes);
        sector += (bytes.len() as u32).div_ceil(2048);
    };
    for p in 0..50 {
        for s in 0..4 {
            let lods: Vec<i32> = (0..200)
                .map(|k| if k % 2 == 0 { k % 100 } else { -1 })
                .collect();
            add(
                &mut img,
                &format!("p{p}_stream{s}.ipl"),
                &stream_ipl(4000 + p * 100, &lods),
            );
            n += 1;
        }
    }
    let mut k = 0;
    while n < 16_000 {
        // About the mix of the game's gta3.img: within its TXD and COL slots.
        let name = match k {
            0 => "lae_txd.txd".to_string(),
            1..200 => format!("m{k}.col"),
            200..3200 => format!("m{k}.txd"),
            _ => format!("lae_m{}.dff", 4000 + k - 3200),
        };
        add(&mut img, &name, &[0x10, 0, 0, 0]);
        n += 1;
        k += 1;
    }
    write("models/gta3.img", &img.v2());
    write(
        "models/gta_int.img",
        &Img::default().add("int.dff", b"x").v2(),
    );
    eprintln!("{} archive entries", n + 1);
}
