//! Test support: running the binary ([`run`], [`run_piped`]), a tiny, strict JSON reader for
//! checking the tool's output (it rejects anything RFC 8259 does not allow: raw control
//! characters in strings, leading zeros, trailing commas, ...), and Stories files (the test
//! kit's writer).

pub mod stories;

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs `gtastream` with `args`.
pub fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gtastream"))
        .args(args)
        .output()
        .expect("the binary runs")
}

/// Runs with `input` piped to standard input.
pub fn run_piped(args: &[&str], input: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_gtastream"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    let writer = std::thread::spawn(move || {
        // The tool may stop reading early (a file is refused): a broken pipe is fine.
        let _ = stdin.write_all(&input);
    });
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap();
    output
}

pub fn stdout(output: &Output) -> &str {
    std::str::from_utf8(&output.stdout).expect("stdout is UTF-8")
}

pub fn stderr(output: &Output) -> &str {
    std::str::from_utf8(&output.stderr).expect("stderr is UTF-8")
}

#[derive(Clone, Debug, PartialEq)]
pub enum Json {
    Null,
    Bool(bool),
    /// The number's text, so each test converts it exactly (`f32` straight from the text).
    Num(String),
    Str(String),
    Arr(Vec<Json>),
    /// Members in document order.
    Obj(Vec<(String, Json)>),
}

impl Json {
    pub fn parse(text: &str) -> Result<Json, String> {
        let mut reader = Reader {
            bytes: text.as_bytes(),
            at: 0,
        };
        let value = reader.value()?;
        reader.space();
        if reader.at != reader.bytes.len() {
            return Err(format!("trailing text at byte {}", reader.at));
        }
        Ok(value)
    }

    /// The member `key` of an object; panics if absent.
    pub fn get(&self, key: &str) -> &Json {
        self.member(key)
            .unwrap_or_else(|| panic!("no key {key:?} in {self:?}"))
    }

    pub fn member(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Obj(members) => members.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            other => panic!("not an object: {other:?}"),
        }
    }

    pub fn keys(&self) -> Vec<&str> {
        match self {
            Json::Obj(members) => members.iter().map(|(k, _)| k.as_str()).collect(),
            other => panic!("not an object: {other:?}"),
        }
    }

    pub fn str(&self) -> &str {
        match self {
            Json::Str(s) => s,
            other => panic!("not a string: {other:?}"),
        }
    }

    pub fn arr(&self) -> &[Json] {
        match self {
            Json::Arr(items) => items,
            other => panic!("not an array: {other:?}"),
        }
    }

    pub fn i64(&self) -> i64 {
        match self {
            Json::Num(text) => text
                .parse()
                .unwrap_or_else(|_| panic!("not an integer: {text}")),
            other => panic!("not a number: {other:?}"),
        }
    }

    /// A number as `f32`, or NaN for `null` (how the tool writes NaN and infinities).
    pub fn f32(&self) -> f32 {
        match self {
            Json::Num(text) => text.parse().unwrap(),
            Json::Null => f32::NAN,
            other => panic!("not a number: {other:?}"),
        }
    }

    pub fn f32s(&self) -> Vec<f32> {
        self.arr().iter().map(Json::f32).collect()
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    fn error<T>(&self, what: &str) -> Result<T, String> {
        Err(format!("{what} at byte {}", self.at))
    }

    fn space(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.at += 1;
        }
    }

    fn expect(&mut self, literal: &str) -> Result<(), String> {
        if self.bytes[self.at..].starts_with(literal.as_bytes()) {
            self.at += literal.len();
            Ok(())
        } else {
            self.error(&format!("expected {literal}"))
        }
    }

    fn value(&mut self) -> Result<Json, String> {
        self.space();
        match self.peek() {
            Some(b'{') => self.object(),
            Some(b'[') => self.array(),
            Some(b'"') => self.string().map(Json::Str),
            Some(b'n') => self.expect("null").map(|()| Json::Null),
            Some(b't') => self.expect("true").map(|()| Json::Bool(true)),
            Some(b'f') => self.expect("false").map(|()| Json::Bool(false)),
            Some(b'-' | b'0'..=b'9') => self.number(),
            _ => self.error("expected a value"),
        }
    }

    fn object(&mut self) -> Result<Json, String> {
        self.at += 1;
        let mut members = Vec::new();
        self.space();
        if self.peek() == Some(b'}') {
            self.at += 1;
            return Ok(Json::Obj(members));
        }
        loop {
            self.space();
            if self.peek() != Some(b'"') {
                return self.error("expected a key");
            }
            let key = self.string()?;
            if members.iter().any(|(k, _)| *k == key) {
                return self.error(&format!("duplicate key {key:?}"));
            }
            self.space();
            self.expect(":")?;
            let value = self.value()?;
            members.push((key, value));
            self.space();
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(b'}') => {
                    self.at += 1;
                    return Ok(Json::Obj(members));
                }
                _ => return self.error("expected , or }"),
            }
        }
    }

    fn array(&mut self) -> Result<Json, String> {
        self.at += 1;
        let mut items = Vec::new();
        self.space();
        if self.peek() == Some(b']') {
            self.at += 1;
            return Ok(Json::Arr(items));
        }
        loop {
            items.push(self.value()?);
            self.space();
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(b']') => {
                    self.at += 1;
                    return Ok(Json::Arr(items));
                }
                _ => return self.error("expected , or ]"),
            }
        }
    }

    fn string(&mut self) -> Result<String, String> {
        self.at += 1;
        let mut bytes = Vec::new();
        loop {
            let Some(b) = self.peek() else {
                return self.error("unterminated string");
            };
            self.at += 1;
            match b {
                b'"' => break,
                0x00..=0x1f => return self.error("raw control character in a string"),
                b'\\' => {
                    let escape = self.peek();
                    self.at += 1;
                    let c = match escape {
                        Some(b'"') => '"',
                        Some(b'\\') => '\\',
                        Some(b'/') => '/',
                        Some(b'b') => '\u{8}',
                        Some(b'f') => '\u{c}',
                        Some(b'n') => '\n',
                        Some(b'r') => '\r',
                        Some(b't') => '\t',
                        Some(b'u') => {
                            let hex = self.bytes.get(self.at..self.at + 4);
                            let hex = hex.and_then(|h| std::str::from_utf8(h).ok());
                            let code = hex.and_then(|h| u32::from_str_radix(h, 16).ok());
                            self.at += 4;
                            // The tool never writes characters that need surrogate pairs.
                            match code.and_then(char::from_u32) {
                                Some(c) => c,
                                None => return self.error("bad \\u escape"),
                            }
                        }
                        _ => return self.error("bad escape"),
                    };
                    let mut buf = [0; 4];
                    bytes.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                }
                b => bytes.push(b),
            }
        }
        String::from_utf8(bytes).or_else(|_| self.error("invalid UTF-8"))
    }

    fn number(&mut self) -> Result<Json, String> {
        let start = self.at;
        let digits = |r: &mut Self| {
            let from = r.at;
            while matches!(r.peek(), Some(b'0'..=b'9')) {
                r.at += 1;
            }
            r.at - from
        };
        if self.peek() == Some(b'-') {
            self.at += 1;
        }
        let int_start = self.at;
        match digits(self) {
            0 => return self.error("expected digits"),
            n if n > 1 && self.bytes[int_start] == b'0' => return self.error("leading zero"),
            _ => {}
        }
        if self.peek() == Some(b'.') {
            self.at += 1;
            if digits(self) == 0 {
                return self.error("expected fraction digits");
            }
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.at += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.at += 1;
            }
            if digits(self) == 0 {
                return self.error("expected exponent digits");
            }
        }
        let text = std::str::from_utf8(&self.bytes[start..self.at]).unwrap();
        Ok(Json::Num(text.to_owned()))
    }
}

#[test]
fn reader_accepts_and_rejects() {
    let v = Json::parse(r#" {"a": [1, -0.5, 2e-3, null], "b": "x\"\u00e9\n", "c": {}} "#).unwrap();
    assert_eq!(v.keys(), ["a", "b", "c"]);
    assert_eq!(v.get("a").arr().len(), 4);
    assert_eq!(v.get("a").arr()[2].f32(), 0.002);
    assert_eq!(v.get("b").str(), "x\"\u{e9}\n");
    for bad in [
        "[1,]",
        "{\"a\" 1}",
        "01",
        "1.",
        "\"\u{1}\"",
        "[1] x",
        "{\"a\":1,\"a\":2}",
        "nul",
        "\"\\x\"",
    ] {
        assert!(Json::parse(bad).is_err(), "{bad}");
    }
}
