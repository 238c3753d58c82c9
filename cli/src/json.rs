//! A small JSON writer: enough for `dump --json`, with no dependencies.
//!
//! Containers are laid out one member per line, except "inline" ones (and everything inside
//! them), which stay on one line: `{"time": 0.5, "rotation": [0, 0, 0, 1]}`.

use std::fmt::Write as _;

pub struct JsonWriter {
    out: String,
    stack: Vec<Level>,
    /// A key was just written: the next value follows it on the same line.
    after_key: bool,
}

struct Level {
    close: char,
    inline: bool,
    empty: bool,
}

impl JsonWriter {
    pub fn new() -> Self {
        JsonWriter {
            out: String::new(),
            stack: Vec::new(),
            after_key: false,
        }
    }

    /// The document, ending with a newline.
    pub fn finish(mut self) -> String {
        debug_assert!(self.stack.is_empty(), "unclosed JSON container");
        self.out.push('\n');
        self.out
    }

    /// The text written so far, taken out (the writer goes on where it was): output of
    /// any length in pieces.
    pub fn take(&mut self) -> String {
        std::mem::take(&mut self.out)
    }

    /// Containers open.
    pub fn depth(&self) -> usize {
        self.stack.len()
    }

    pub fn begin_object(&mut self, inline: bool) {
        self.open('{', '}', inline);
    }

    pub fn begin_array(&mut self, inline: bool) {
        self.open('[', ']', inline);
    }

    /// Closes the innermost object or array.
    pub fn end(&mut self) {
        let level = self.stack.pop().expect("end without begin");
        if !level.empty && !level.inline {
            self.newline();
        }
        self.out.push(level.close);
    }

    /// An object member's key; the value is written next.
    pub fn key(&mut self, key: &str) {
        self.separate();
        escape_into(&mut self.out, key);
        self.out.push_str(": ");
        self.after_key = true;
    }

    pub fn string(&mut self, value: &str) {
        self.before_value();
        escape_into(&mut self.out, value);
    }

    pub fn opt_string(&mut self, value: Option<&str>) {
        match value {
            Some(value) => self.string(value),
            None => self.null(),
        }
    }

    /// A value written by the library (a piece of JSON, e.g. a model's counts).
    pub fn raw(&mut self, json: &str) {
        self.before_value();
        self.out.push_str(json);
    }

    pub fn null(&mut self) {
        self.before_value();
        self.out.push_str("null");
    }

    pub fn bool(&mut self, value: bool) {
        self.before_value();
        self.out.push_str(if value { "true" } else { "false" });
    }

    pub fn uint(&mut self, value: u64) {
        self.before_value();
        let _ = write!(self.out, "{value}");
    }

    fn open(&mut self, open: char, close: char, inline: bool) {
        self.before_value();
        let inline = inline || self.stack.last().is_some_and(|level| level.inline);
        self.out.push(open);
        self.stack.push(Level {
            close,
            inline,
            empty: true,
        });
    }

    fn before_value(&mut self) {
        if self.after_key {
            self.after_key = false;
        } else {
            self.separate();
        }
    }

    /// Whatever goes before a new member of the current container.
    fn separate(&mut self) {
        let Some(level) = self.stack.last_mut() else {
            return;
        };
        let first = level.empty;
        level.empty = false;
        let inline = level.inline;
        if !first {
            self.out.push(',');
        }
        if !inline {
            self.newline();
        } else if !first {
            self.out.push(' ');
        }
    }

    fn newline(&mut self) {
        self.out.push('\n');
        for _ in 0..self.stack.len() {
            self.out.push_str("  ");
        }
    }
}

/// Writes `value` as a JSON string: quote and backslash escaped, control characters
/// (C0, DEL and C1) as `\u00XX`, everything else as itself.
pub fn escape_into(out: &mut String, value: &str) {
    out.push('"');
    for c in value.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;

    fn escaped(value: &str) -> String {
        let mut out = String::new();
        escape_into(&mut out, value);
        out
    }

    #[test]
    fn escapes() {
        assert_eq!(escaped("a\"b\\c"), r#""a\"b\\c""#);
        assert_eq!(
            escaped("\u{0}\u{1f}\n\u{7f}\u{85}"),
            r#""\u0000\u001f\u000a\u007f\u0085""#
        );
        assert_eq!(escaped("\u{e9}\u{ff}/"), "\"\u{e9}\u{ff}/\"");
    }

    #[test]
    fn layout() {
        let mut w = JsonWriter::new();
        w.begin_object(false);
        w.key("a");
        w.begin_array(false);
        w.begin_object(true);
        w.key("t");
        w.uint(5);
        w.key("s");
        w.string("x");
        w.end();
        w.uint(1);
        w.end();
        w.key("empty");
        w.begin_array(false);
        w.end();
        w.key("n");
        w.opt_string(None);
        w.end();
        assert_eq!(
            w.finish(),
            "{\n  \"a\": [\n    {\"t\": 5, \"s\": \"x\"},\n    1\n  ],\n  \
             \"empty\": [],\n  \"n\": null\n}\n"
        );
    }
}
