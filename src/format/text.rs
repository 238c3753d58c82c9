//! The games' text line reading, shared by the text formats (text IPL, IDE): a line's content
//! as the games' line loader leaves it, and `sscanf`'s conversions over it.

use super::fields::is_blank;

/// A line read as `sscanf` reads it: each conversion skips blanks, then takes the longest
/// prefix of what follows that it accepts, which may end inside a field; the next conversion
/// starts right there.
pub(crate) struct Scanner<'a> {
    text: &'a [u8],
    at: usize,
    /// Every conversion so far took a whole field (ended at a blank or the line's end).
    pub(crate) whole: bool,
}

impl<'a> Scanner<'a> {
    pub(crate) fn new(text: &'a [u8]) -> Self {
        Scanner {
            text,
            at: 0,
            whole: true,
        }
    }

    #[inline]
    fn skip_blanks(&mut self) {
        while self.text.get(self.at).is_some_and(|&b| is_blank(b)) {
            self.at += 1;
        }
    }

    #[inline]
    fn digits(&self, from: usize) -> usize {
        self.text[from..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count()
    }

    /// The value of `count` digits at `from`, if below 2^24 (exact in an `f32`).
    #[inline]
    fn small_value(&self, from: usize, count: usize, mut value: u32) -> Option<u32> {
        for &d in &self.text[from..from + count] {
            value = value * 10 + u32::from(d - b'0');
            if value > 1 << 24 {
                return None;
            }
        }
        Some(value)
    }

    #[inline]
    fn sign(&self, at: usize) -> usize {
        usize::from(matches!(self.text.get(at), Some(b'+' | b'-')))
    }

    /// Notes whether the conversion that ended at `end` took a whole field, and moves there.
    #[inline]
    fn took(&mut self, end: usize) {
        self.whole &= self.text.get(end).is_none_or(|&b| is_blank(b));
        self.at = end;
    }

    /// `%d`: an optional sign and decimal digits. A value beyond `i32` (which the C library
    /// leaves undefined) fails like a missing number: no value is invented.
    #[inline]
    pub(crate) fn int(&mut self) -> Option<i32> {
        self.skip_blanks();
        let start = self.at;
        let digits_at = start + self.sign(start);
        let count = self.digits(digits_at);
        if count == 0 {
            return None;
        }
        let mut value: i64 = 0;
        for &d in &self.text[digits_at..digits_at + count] {
            value = value * 10 + i64::from(d - b'0');
            if value > 1 << 31 {
                return None;
            }
        }
        if self.text[start] == b'-' {
            value = -value;
        }
        let value = i32::try_from(value).ok()?;
        self.took(digits_at + count);
        Some(value)
    }

    /// `%f`, as the C library's `strtod` reads a decimal number: an optional sign, digits with
    /// an optional `.` (at least one digit in all), then an exponent if digits follow its `e`
    /// (`1.62921e-007`). No `inf`, `nan` or hexadecimal forms (the games' runtime has none);
    /// MSVC's `1.#QNAN` reads as `1.`. Rounded once to `f32`.
    #[inline]
    pub(crate) fn float(&mut self) -> Option<f32> {
        self.float_by(true)
    }

    /// [`float`](Self::float) through the general parser alone.
    #[cfg(test)]
    fn float_general(&mut self) -> Option<f32> {
        self.float_by(false)
    }

    #[inline(always)]
    fn float_by(&mut self, short_path: bool) -> Option<f32> {
        self.skip_blanks();
        let start = self.at;
        let int_at = start + self.sign(start);
        let int_digits = self.digits(int_at);
        let mut end = int_at + int_digits;
        let mut frac_digits = 0;
        if self.text.get(end) == Some(&b'.') {
            frac_digits = self.digits(end + 1);
            end += 1 + frac_digits;
        }
        if int_digits + frac_digits == 0 {
            return None;
        }
        let mut exponent = None;
        if matches!(self.text.get(end), Some(b'e' | b'E')) {
            let exp_at = end + 1 + self.sign(end + 1);
            let exp_digits = self.digits(exp_at);
            if exp_digits > 0 {
                exponent = Some((exp_at, exp_digits));
                end = exp_at + exp_digits;
            }
        }
        let short = match short_path {
            true => self.exact(start, int_at, int_digits, frac_digits, exponent),
            false => None,
        };
        let value = match short {
            Some(value) => value,
            // ASCII by construction; the standard parser reads every form taken above.
            None => core::str::from_utf8(&self.text[start..end])
                .ok()?
                .parse()
                .ok()?,
        };
        self.took(end);
        Some(value)
    }

    /// The common short number without the general parser: digits worth less than 2^24 times
    /// a power of ten up to 10^10, both exact in an `f32`, so that one multiplication or
    /// division rounds correctly, as the parser does. `None` for any other number.
    #[inline]
    fn exact(
        &self,
        start: usize,
        int_at: usize,
        int_digits: usize,
        frac_digits: usize,
        exponent: Option<(usize, usize)>,
    ) -> Option<f32> {
        const POWERS: [f32; 11] = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10];
        let mut mantissa = self.small_value(int_at, int_digits, 0)?;
        if frac_digits > 0 {
            mantissa = self.small_value(int_at + int_digits + 1, frac_digits, mantissa)?;
        }
        let mut power = -(frac_digits as i32);
        if let Some((at, count)) = exponent {
            let value = self.small_value(at, count, 0)? as i32;
            power += if self.text[at - 1] == b'-' {
                -value
            } else {
                value
            };
        }
        let magnitude = mantissa as f32;
        let scaled = match power {
            0..=10 => magnitude * POWERS[power as usize],
            -10..=-1 => magnitude / POWERS[(-power) as usize],
            _ => return None,
        };
        Some(if self.text[start] == b'-' {
            -scaled
        } else {
            scaled
        })
    }

    /// `%s`: the next run of non-blank bytes.
    #[inline]
    pub(crate) fn word(&mut self) -> Option<&'a [u8]> {
        self.skip_blanks();
        let start = self.at;
        let len = self.text[start..]
            .iter()
            .take_while(|&&b| !is_blank(b))
            .count();
        if len == 0 {
            return None;
        }
        self.at = start + len;
        Some(&self.text[start..start + len])
    }

    pub(crate) fn floats<const N: usize>(&mut self) -> Option<[f32; N]> {
        let mut out = [0.0; N];
        for value in &mut out {
            *value = self.float()?;
        }
        Some(out)
    }

    /// What follows the last conversion: its index, unless it is only blanks (or a comment,
    /// with `comments`).
    pub(crate) fn rest(&mut self, comments: bool) -> Option<usize> {
        self.skip_blanks();
        match self.text.get(self.at) {
            None => None,
            Some(b'#') if comments => None,
            Some(_) => Some(self.at),
        }
    }
}

/// The line from its first non-blank byte; empty for a blank line or a comment.
pub(crate) fn content(unit: &[u8]) -> &[u8] {
    let start = unit
        .iter()
        .position(|&b| !is_blank(b))
        .unwrap_or(unit.len());
    match &unit[start..] {
        [b'#', ..] => &[],
        text => text,
    }
}

pub(crate) fn starts_with_ignore_case(text: &[u8], prefix: &str) -> bool {
    text.get(..prefix.len())
        .is_some_and(|head| head.eq_ignore_ascii_case(prefix.as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::Scanner;

    /// The short-number path gives the standard parser's `f32` for numbers of every shape
    /// around its bounds (digits near 2^24, powers near 10^±10, signs, MSVC exponents).
    #[test]
    fn short_numbers_read_as_the_standard_parser_reads_them() {
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        let mut text = [0u8; 40];
        for _ in 0..200_000 {
            let mut len = 0;
            let mut push = |b: u8, len: &mut usize| {
                text[*len] = b;
                *len += 1;
            };
            match next(3) {
                0 => push(b'-', &mut len),
                1 => push(b'+', &mut len),
                _ => {}
            }
            for _ in 0..next(10) {
                push(b'0' + next(10) as u8, &mut len);
            }
            if next(2) == 0 {
                push(b'.', &mut len);
                for _ in 0..next(10) {
                    push(b'0' + next(10) as u8, &mut len);
                }
            }
            if next(3) == 0 {
                push(b'e', &mut len);
                if next(2) == 0 {
                    push(b'-', &mut len);
                }
                for _ in 0..1 + next(3) {
                    push(b'0' + next(10) as u8, &mut len);
                }
            }
            let number = &text[..len];
            let got = Scanner::new(number).float();
            let mut s = Scanner::new(number);
            // What the general parser makes of the same prefix.
            let expected = s.float_general();
            assert_eq!(
                got.map(f32::to_bits),
                expected.map(f32::to_bits),
                "{}",
                core::str::from_utf8(number).unwrap()
            );
        }
        // At the bounds.
        for number in [
            &b"16777216"[..],
            b"16777217",
            b"1677721.7",
            b"9999999e10",
            b"1e-10",
            b"1e-11",
            b"-0",
            b"-0.0e-000",
            b"2.173596769e-008",
        ] {
            let got = Scanner::new(number).float();
            let expected = Scanner::new(number).float_general();
            assert_eq!(got.map(f32::to_bits), expected.map(f32::to_bits));
        }
    }
}
