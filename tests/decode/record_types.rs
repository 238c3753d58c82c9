//! The bindings' record types follow from the core's declarations (`for_each_record!`): the
//! TypeScript interfaces and field table of the npm package (`bindings/js/src/records.ts`) and
//! the Python package's TypedDicts (the generated part of `_native.pyi`) are written here from
//! `RecordKind::ALL` and compared with the committed files, as the C header is in CI. After
//! changing a kind: `GTASTREAM_BLESS=1 cargo test -p gtastream --test decode record_types`,
//! then commit both files.

use std::fmt::Write;
use std::path::PathBuf;

use gtastream::record::{Field, FieldType, RecordKind};

const PY_BEGIN: &str =
    "# BEGIN record kinds: generated from src/record.rs by tests/decode/record_types.rs\n";
const PY_END: &str = "# END record kinds\n";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `section_line` → `SectionLine`.
fn pascal(name: &str) -> String {
    name.split('_')
        .map(|w| {
            let mut c = w.chars();
            c.next().map_or(String::new(), |f| {
                f.to_ascii_uppercase().to_string() + c.as_str()
            })
        })
        .collect()
}

fn fields(kind: RecordKind) -> impl Iterator<Item = &'static Field> {
    kind.schema().fields.iter().filter(|f| f.in_document)
}

/// A doc comment's text on one line per line, without the blank end.
fn doc_lines(doc: &str) -> Vec<&str> {
    doc.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect()
}

fn ts_type(field: &Field) -> String {
    let base = match field.ty {
        FieldType::I32 | FieldType::U32 | FieldType::U64 => "number",
        // NaN and infinities are null in the document.
        FieldType::F32 => "number | null",
        FieldType::Floats(_) => "(number | null)[]",
        FieldType::Text => "string",
    };
    match (field.optional, field.ty) {
        (true, FieldType::Floats(_)) => format!("{base} | null"),
        (true, FieldType::F32) => base.to_string(),
        (true, _) => format!("{base} | null"),
        _ => base.to_string(),
    }
}

fn ts_code(ty: FieldType) -> String {
    match ty {
        FieldType::I32 => "'i32'".into(),
        FieldType::U32 => "'u32'".into(),
        FieldType::U64 => "'u64'".into(),
        FieldType::F32 => "'f32'".into(),
        FieldType::Floats(n) => n.to_string(),
        FieldType::Text => "'text'".into(),
    }
}

fn typescript() -> String {
    let mut out = String::from(
        "// Generated from the core's record declarations (src/record.rs, `for_each_record!`) by\n\
         // tests/decode/record_types.rs: do not edit. Each kind's object, as the document and the\n\
         // events have it, and its fields in order for the module's generic record buffers.\n",
    );
    for &kind in RecordKind::ALL {
        let schema = kind.schema();
        out.push_str("\n/**\n");
        for line in doc_lines(schema.doc) {
            let _ = writeln!(out, " * {line}");
        }
        let _ = writeln!(out, " */\nexport interface {} {{", pascal(schema.name));
        for field in fields(kind) {
            let lines = doc_lines(field.doc);
            let _ = writeln!(out, "  /** {} */", lines.join(" "));
            let _ = writeln!(out, "  {}: {};", field.name, ts_type(field));
        }
        out.push_str("}\n");
    }
    out.push_str("\n/** Each kind's object by its name. */\nexport interface RecordTypes {\n");
    for &kind in RecordKind::ALL {
        let name = kind.schema().name;
        let _ = writeln!(out, "  {name}: {};", pascal(name));
    }
    out.push_str("}\n\n/** A record kind's name (`instance`, `dff_frame`, ...). */\n");
    out.push_str("export type RecordKind = keyof RecordTypes;\n\n");
    out.push_str(
        "/** A field's type: an integer, a float (NaN: null), n floats, or text (one character a\n \
         * byte). */\nexport type FieldCode = 'i32' | 'u32' | 'u64' | 'f32' | 'text' | number;\n\n",
    );
    out.push_str(
        "/** The kinds in the core's order (the module's kind numbers), each with its document's\n \
         * fields in order: name, type, whether it may be null. */\n\
         export const RECORD_KINDS: readonly (readonly [RecordKind, readonly (readonly [string, \
         FieldCode, boolean])[]])[] = [\n",
    );
    for &kind in RecordKind::ALL {
        let _ = write!(out, "  ['{}', [", kind.schema().name);
        for (i, field) in fields(kind).enumerate() {
            let sep = if i == 0 { "" } else { ", " };
            let _ = write!(
                out,
                "{sep}['{}', {}, {}]",
                field.name,
                ts_code(field.ty),
                field.optional
            );
        }
        out.push_str("]],\n");
    }
    out.push_str("];\n");
    out
}

fn py_type(field: &Field) -> String {
    let base = match field.ty {
        FieldType::I32 | FieldType::U32 | FieldType::U64 => "int",
        FieldType::F32 => "float",
        FieldType::Floats(_) => "List[float]",
        FieldType::Text => "str",
    };
    if field.optional {
        format!("Optional[{base}]")
    } else {
        base.to_string()
    }
}

fn python() -> String {
    let mut out = String::from(PY_BEGIN);
    for &kind in RecordKind::ALL {
        let schema = kind.schema();
        let _ = writeln!(
            out,
            "\n@type_check_only\nclass {}Event(TypedDict):",
            pascal(schema.name)
        );
        let _ = writeln!(
            out,
            "    \"\"\"{}\"\"\"\n",
            doc_lines(schema.doc).join("\n    ")
        );
        for field in fields(kind) {
            let _ = writeln!(out, "    {}: {}", field.name, py_type(field));
            let _ = writeln!(out, "    \"\"\"{}\"\"\"", doc_lines(field.doc).join(" "));
        }
    }
    out.push_str("\n_RecordEvent = Union[\n");
    for &kind in RecordKind::ALL {
        let name = kind.schema().name;
        let _ = writeln!(
            out,
            "    Tuple[Literal[\"{name}\"], {}Event],",
            pascal(name)
        );
    }
    out.push_str("]\n\"\"\"A record of any kind: (its kind's name, its fields).\"\"\"\n");
    out.push_str(PY_END);
    out
}

/// The committed file equals `expected`, or is rewritten with it when blessing.
fn compare(path: PathBuf, current: String, expected: String) {
    if current == expected {
        return;
    }
    if std::env::var_os("GTASTREAM_BLESS").is_some() {
        std::fs::write(&path, expected).expect("write the generated file");
        return;
    }
    panic!(
        "{} is not what the record declarations give: run \
         GTASTREAM_BLESS=1 cargo test -p gtastream --test decode record_types",
        path.display()
    );
}

#[test]
fn typescript_records_are_generated_from_the_declarations() {
    let path = root().join("bindings/js/src/records.ts");
    let current = std::fs::read_to_string(&path).unwrap_or_default();
    compare(path, current, typescript());
}

#[test]
fn python_records_are_generated_from_the_declarations() {
    let path = root().join("bindings/python/python/gtastream/_native.pyi");
    let current = std::fs::read_to_string(&path).expect("the stubs");
    let (Some(begin), Some(end)) = (current.find(PY_BEGIN), current.find(PY_END)) else {
        panic!("{} has no generated part ({PY_BEGIN:?})", path.display());
    };
    let expected = format!(
        "{}{}{}",
        &current[..begin],
        python(),
        &current[end + PY_END.len()..]
    );
    compare(path, current, expected);
}

/// Every kind's TypeScript and Python names are distinct (no two kinds fold to one name).
#[test]
fn kind_names_stay_distinct() {
    let mut names: Vec<String> = RecordKind::ALL
        .iter()
        .map(|k| pascal(k.schema().name))
        .collect();
    names.sort();
    names.dedup();
    assert_eq!(names.len(), RecordKind::ALL.len());
}
