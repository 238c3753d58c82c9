mod stories_writer;
use gtastream::*;
use stories_writer::*;

#[derive(Default)]
struct Log(Vec<String>);
impl Visitor for Log {
    fn file(&mut self, i: &FileInfo<'_>) -> Flow {
        self.0.push(format!("{i:?}"));
        Flow::Continue
    }
    fn animation(&mut self, i: &AnimationInfo<'_>) -> Flow {
        self.0.push(format!("{i:?}"));
        Flow::Continue
    }
    fn keyframes(&mut self, k: Keyframes<'_>) -> Flow {
        for f in k.iter() {
            self.0.push(format!("{f:?}"));
        }
        Flow::Continue
    }
    fn bone(&mut self, b: &BoneInfo<'_>) -> Flow {
        self.0.push(format!("{b:?}"));
        Flow::Continue
    }
    fn bone_end(&mut self) -> Flow {
        self.0.push("bone_end".into());
        Flow::Continue
    }
    fn animation_end(&mut self) -> Flow {
        self.0.push("anim_end".into());
        Flow::Continue
    }
    fn warning(&mut self, w: Warning) -> Flow {
        self.0.push(format!("{w:?}"));
        Flow::Continue
    }
    fn end(&mut self) -> Flow {
        self.0.push("end".into());
        Flow::Continue
    }
}

fn sample() -> Vec<Anim> {
    let f = |t: f32, tr: bool| Frame {
        rotation: [half(0.5), half(-0.25), half(0.0), half(1.0)],
        dt: half(t),
        translation: tr.then(|| [half(1.0), half(2.0), half(-3.0)]),
    };
    vec![
        Anim {
            name: "walk",
            duration: 1.5,
            bones: vec![
                BoneRow {
                    flags: 0x03 | 0x10,
                    key: 0xABCD_0000,
                    frames: vec![f(0.0, true), f(0.5, true), f(1.0, true)],
                    garbage_offset: 0,
                },
                BoneRow {
                    flags: 0x01 | 0x08,
                    key: 0x1234_5678,
                    frames: vec![f(0.0, false), f(0.25, false)],
                    garbage_offset: 0,
                },
                BoneRow {
                    flags: 0x01,
                    key: 7,
                    frames: vec![],
                    garbage_offset: 0xFFFF_FFF0,
                },
            ],
        },
        Anim {
            name: "idle",
            duration: 2.0,
            bones: vec![BoneRow {
                flags: 0x01 | 0x10,
                key: 0x0000_0003,
                frames: vec![f(0.0, false), f(2.0, false)],
                garbage_offset: 0,
            }],
        },
        Anim {
            name: "empty",
            duration: 0.0,
            bones: vec![],
        },
    ]
}

fn run(bytes: &[u8], chunk: usize, can_seek: bool) -> (Vec<String>, Option<Error>, usize) {
    let mut d = Decoder::with_options(Options { can_seek });
    let mut log = Log::default();
    let mut pos = 0usize;
    let mut seeks = 0;
    loop {
        let end = (pos + chunk).min(bytes.len());
        match d.feed(&bytes[pos..end], &mut log) {
            Err(e) => return (log.0, Some(e), seeks),
            Ok(p) => match p.status {
                Status::Seek(o) => {
                    seeks += 1;
                    pos = o as usize;
                }
                Status::Paused => pos += p.consumed,
                _ => {
                    pos = end;
                    if pos >= bytes.len() {
                        break;
                    }
                }
            },
        }
    }
    let e = d.finish(&mut log).err();
    (log.0, e, seeks)
}

#[test]
fn smoke() {
    let anims = sample();
    let mut reference = None;
    for layout in [Layout::DepthFirst, Layout::Grouped, Layout::Backward] {
        for vcs in [false, true] {
            for pad in [0, 8] {
                let bytes = write(&anims, layout, vcs, pad);
                let (log, e, seeks) = run(&bytes, bytes.len(), true);
                assert!(e.is_none(), "{layout:?} {e:?}\n{}", log.join("\n"));
                println!(
                    "{layout:?} vcs={vcs} pad={pad} seeks={seeks} len={}",
                    bytes.len()
                );
                if let Some(r) = &reference {
                    assert_eq!(&log, r);
                } else {
                    println!("{}", log.join("\n"));
                    reference = Some(log.clone());
                }
                for n in [1, 3, 7, 64] {
                    let (l2, e2, _) = run(&bytes, n, true);
                    assert_eq!((l2, e2), (log.clone(), None), "{layout:?} chunk {n}");
                }
                let (l3, e3, _) = run(&bytes, 4096, false);
                println!("  no-seek: {:?} after {} events", e3, l3.len());
                let pkg = Package::parse(&bytes).unwrap();
                assert_eq!(pkg.animations.len(), 3);
            }
        }
    }
}
