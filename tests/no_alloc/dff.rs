//! Reading a RenderWare model never allocates: every shape of testkit's, whole, byte by byte
//! and in 7-byte pieces, with a visitor that reads every field of every record.

use std::hint::black_box;

use gtastream::record::{Record, Value};
use gtastream::{Decoder, Flow, Visitor};

/// Sums every field of every record, without allocating.
#[derive(Default)]
struct Fields {
    records: usize,
    sum: f64,
    ended: bool,
}

impl Visitor for Fields {
    fn record(&mut self, record: &Record<'_>) -> Flow {
        self.records += 1;
        for i in 0..record.kind().schema().fields.len() {
            self.sum += match record.value(i) {
                Value::I32(v) => f64::from(v),
                Value::U32(v) => f64::from(v),
                Value::U64(v) => v as f64,
                Value::F32(v) => f64::from(v),
                Value::Floats(v) => v.iter().map(|&x| f64::from(x)).sum(),
                Value::Text(t) => t.len() as f64,
                _ => 0.0,
            };
        }
        Flow::Continue
    }
    fn end(&mut self) -> Flow {
        self.ended = true;
        Flow::Continue
    }
}

#[test]
fn reading_models_allocates_nothing() {
    for (name, model) in testkit::dff::shapes() {
        let file = model.bytes();
        for chunk in [file.len(), 1, 7] {
            let mut decoder = Decoder::new();
            let mut fields = Fields::default();
            let mut result = Ok(());
            let (n, _) = testkit::alloc_count::allocations(|| {
                for piece in file.chunks(chunk) {
                    if let Err(e) = decoder.feed(piece, &mut fields) {
                        result = Err(e);
                        return;
                    }
                }
                result = decoder.finish(&mut fields);
            });
            assert_eq!(result, Ok(()), "{name}");
            assert_eq!(n, 0, "{name}, chunks of {chunk}: {n} allocations");
            assert!(fields.ended && fields.records > 5, "{name}");
            black_box(fields.sum);
        }
    }
}
