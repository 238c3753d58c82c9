use gtastream::*;

fn bnry(
    instances: &[[u8; 40]],
    cars: &[[u8; 48]],
    inst_at: u32,
    cars_at: u32,
    len: usize,
) -> Vec<u8> {
    let mut b = vec![0u8; len];
    b[..4].copy_from_slice(b"bnry");
    b[4..8].copy_from_slice(&(instances.len() as u32).to_le_bytes());
    b[0x14..0x18].copy_from_slice(&(cars.len() as u32).to_le_bytes());
    b[0x1C..0x20].copy_from_slice(&inst_at.to_le_bytes());
    b[0x3C..0x40].copy_from_slice(&cars_at.to_le_bytes());
    for (i, r) in instances.iter().enumerate() {
        let a = inst_at as usize + 40 * i;
        b[a..a + 40].copy_from_slice(r);
    }
    for (i, r) in cars.iter().enumerate() {
        let a = cars_at as usize + 48 * i;
        b[a..a + 48].copy_from_slice(r);
    }
    b
}
fn inst(id: i32) -> [u8; 40] {
    let mut r = [0u8; 40];
    r[0..4].copy_from_slice(&1.5f32.to_le_bytes());
    r[24..28].copy_from_slice(&1.0f32.to_le_bytes());
    r[28..32].copy_from_slice(&id.to_le_bytes());
    r[36..40].copy_from_slice(&(-1i32).to_le_bytes());
    r
}
fn car(id: i32) -> [u8; 48] {
    let mut r = [0u8; 48];
    r[16..20].copy_from_slice(&id.to_le_bytes());
    r
}

#[test]
fn smoke() {
    let i = [inst(100), inst(101), inst(102)];
    let c = [car(400), car(401)];
    let vanilla = bnry(&i, &c, 76, 76 + 120, 76 + 120 + 96);
    let p = Placement::parse(&vanilla).unwrap();
    assert_eq!(
        p.instances.iter().map(|x| x.model_id).collect::<Vec<_>>(),
        [100, 101, 102]
    );
    assert_eq!(
        p.cars.iter().map(|x| x.model_id).collect::<Vec<_>>(),
        [400, 401]
    );
    assert!(p.warnings.is_empty(), "{:?}", p.warnings);
    let padded = {
        let mut v = vanilla.clone();
        v.resize(2048, 0);
        v
    };
    assert_eq!(Placement::parse(&padded).unwrap(), p);
    let cars_first = bnry(&i, &c, 76 + 96 + 8, 76, 2048);
    let q = Placement::parse(&cars_first).unwrap();
    assert_eq!(q.instances, p.instances);
    assert_eq!(q.cars, p.cars);
    let overlapping = bnry(&i, &[], 76, 999, 76 + 120);
    assert_eq!(Placement::parse(&overlapping).unwrap().cars.len(), 0);
    let mut warn = vanilla.clone();
    warn[8] = 1;
    warn[0x20] = 7;
    println!("{:?}", Placement::parse(&warn).unwrap().warnings);

    let text = b"# comment\r\ninst\r\n1, lod_a, 0, 1.0, 2.0, 3.0, 0, 0, 0, 1, -1\r\n2 lod_b 13 1 2 3 0 0 0.5 1 5\nend\ncull\n1, 2, 3, 4\nend\ncars\n1.0, 2.0, 3.0, 1.57, -1, -1, -1, 0, 0, 0, 0, 0\nend\ninst\n5, vc_obj, 0, 1, 2, 3, 1, 1, 1, 0, 0, 0, 1\n6, iii_obj, 1, 2, 3, 1, 1, 1, 0, 0, 0, 1\n";
    let t = Placement::parse(text).unwrap();
    println!("{t:#?}");
    for n in 1..text.len() {
        let mut d = Decoder::new();
        struct L(Vec<String>);
        impl Visitor for L {
            fn instance(&mut self, i: &IplInstance<'_>) -> Flow {
                self.0.push(format!("{i:?}"));
                Flow::Continue
            }
            fn car(&mut self, i: &IplCar) -> Flow {
                self.0.push(format!("{i:?}"));
                Flow::Continue
            }
            fn section_line(&mut self, i: &SectionLine<'_>) -> Flow {
                self.0.push(format!("{i:?}"));
                Flow::Continue
            }
            fn warning(&mut self, w: Warning) -> Flow {
                self.0.push(format!("{w:?}"));
                Flow::Continue
            }
        }
        let mut l = L(vec![]);
        for ch in text.chunks(n) {
            d.feed(ch, &mut l).unwrap();
        }
        d.finish(&mut l).unwrap();
        assert_eq!(l.0.len(), 7, "{n}: {:?}", l.0);
    }
    let bad = b"inst\n1, a, 0, 1.0, x, 3.0, 0, 0, 0, 1, -1\nend\n";
    let mut d = Decoder::new();
    let e = d.decode_slice(bad, &mut L2).unwrap_err();
    println!("{e} line {:?}", d.line());
    struct L2;
    impl Visitor for L2 {}
    let long = [b'a'; 300];
    println!("{:?}", Placement::parse(&long));
    println!("{:?}", Placement::parse(b"ab"));
    println!("{:?}", Placement::parse(b""));
    println!("{:?}", Package::parse(&vanilla).err());
    println!("size {}", DECODER_SIZE);
}
