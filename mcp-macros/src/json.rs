//! A JSON syntax check for the JSON text given in attributes (`meta`, `input_schema`), so a typo
//! is a compile error at the literal rather than a failure at start-up.

/// Checks that `text` is one JSON object. The error says what is wrong and at which byte.
pub(crate) fn check_object(text: &str) -> Result<(), String> {
    let mut parser = Parser {
        bytes: text.as_bytes(),
        pos: 0,
    };
    parser.skip_ws();
    if parser.peek() != Some(b'{') {
        return Err("it must be a JSON object, starting with `{`".to_owned());
    }
    parser.value(0)?;
    parser.skip_ws();
    match parser.peek() {
        None => Ok(()),
        Some(_) => Err(parser.error("unexpected text after the object")),
    }
}

struct Parser<'a> {
    bytes: &'a [u8],
    pos: usize,
}

const MAX_DEPTH: usize = 128;

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn error(&self, what: &str) -> String {
        format!("invalid JSON at byte {}: {what}", self.pos)
    }

    fn skip_ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.pos += 1;
        }
    }

    fn expect(&mut self, byte: u8) -> Result<(), String> {
        self.skip_ws();
        if self.peek() == Some(byte) {
            self.pos += 1;
            Ok(())
        } else {
            Err(self.error(&format!("expected `{}`", byte as char)))
        }
    }

    fn value(&mut self, depth: usize) -> Result<(), String> {
        if depth > MAX_DEPTH {
            return Err(self.error("nested too deeply"));
        }
        self.skip_ws();
        match self.peek() {
            Some(b'{') => {
                self.pos += 1;
                self.skip_ws();
                if self.peek() == Some(b'}') {
                    self.pos += 1;
                    return Ok(());
                }
                loop {
                    self.skip_ws();
                    if self.peek() != Some(b'"') {
                        return Err(self.error("expected a string key"));
                    }
                    self.string()?;
                    self.expect(b':')?;
                    self.value(depth + 1)?;
                    self.skip_ws();
                    match self.peek() {
                        Some(b',') => self.pos += 1,
                        Some(b'}') => {
                            self.pos += 1;
                            return Ok(());
                        }
                        _ => return Err(self.error("expected `,` or `}`")),
                    }
                }
            }
            Some(b'[') => {
                self.pos += 1;
                self.skip_ws();
                if self.peek() == Some(b']') {
                    self.pos += 1;
                    return Ok(());
                }
                loop {
                    self.value(depth + 1)?;
                    self.skip_ws();
                    match self.peek() {
                        Some(b',') => self.pos += 1,
                        Some(b']') => {
                            self.pos += 1;
                            return Ok(());
                        }
                        _ => return Err(self.error("expected `,` or `]`")),
                    }
                }
            }
            Some(b'"') => self.string(),
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(b't') => self.word("true"),
            Some(b'f') => self.word("false"),
            Some(b'n') => self.word("null"),
            Some(_) => Err(self.error("expected a value")),
            None => Err(self.error("unexpected end")),
        }
    }

    fn word(&mut self, word: &str) -> Result<(), String> {
        if self.bytes[self.pos..].starts_with(word.as_bytes()) {
            self.pos += word.len();
            Ok(())
        } else {
            Err(self.error("expected a value"))
        }
    }

    fn string(&mut self) -> Result<(), String> {
        self.pos += 1; // the opening quote
        loop {
            match self.peek() {
                None => return Err(self.error("unterminated string")),
                Some(b'"') => {
                    self.pos += 1;
                    return Ok(());
                }
                Some(b'\\') => {
                    self.pos += 1;
                    match self.peek() {
                        Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => {
                            self.pos += 1
                        }
                        Some(b'u') => {
                            let hex = self.bytes.get(self.pos + 1..self.pos + 5);
                            if !hex.is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit)) {
                                return Err(self.error("expected four hex digits after `\\u`"));
                            }
                            self.pos += 5;
                        }
                        _ => return Err(self.error("invalid escape")),
                    }
                }
                Some(byte) if byte < 0x20 => return Err(self.error("control character in string")),
                Some(_) => self.pos += 1,
            }
        }
    }

    fn number(&mut self) -> Result<(), String> {
        if self.peek() == Some(b'-') {
            self.pos += 1;
        }
        match self.peek() {
            Some(b'0') => self.pos += 1,
            Some(b'1'..=b'9') => self.digits(),
            _ => return Err(self.error("expected a digit")),
        }
        if self.peek() == Some(b'.') {
            self.pos += 1;
            if !matches!(self.peek(), Some(b'0'..=b'9')) {
                return Err(self.error("expected a digit"));
            }
            self.digits();
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.pos += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.pos += 1;
            }
            if !matches!(self.peek(), Some(b'0'..=b'9')) {
                return Err(self.error("expected a digit"));
            }
            self.digits();
        }
        Ok(())
    }

    fn digits(&mut self) {
        while matches!(self.peek(), Some(b'0'..=b'9')) {
            self.pos += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::check_object;

    #[test]
    fn accepts_objects() {
        for ok in [
            "{}",
            r#" {"k": 1, "a": [true, false, null, -1.5e3, "x\u00e9\n"], "o": {}} "#,
            r#"{"type":"object","properties":{"q":{"type":"string"}}}"#,
        ] {
            assert_eq!(check_object(ok), Ok(()), "{ok}");
        }
    }

    #[test]
    fn rejects_the_rest() {
        assert_eq!(
            check_object("[1]").unwrap_err(),
            "it must be a JSON object, starting with `{`"
        );
        assert_eq!(
            check_object(r#"{"k": 1,}"#).unwrap_err(),
            "invalid JSON at byte 8: expected a string key"
        );
        assert_eq!(
            check_object(r#"{"k" 1}"#).unwrap_err(),
            "invalid JSON at byte 5: expected `:`"
        );
        assert!(check_object(r#"{"k": tru}"#).is_err());
        assert!(check_object(r#"{"k": 01x}"#).is_err());
        assert!(check_object("{} {}").is_err());
        assert!(check_object(r#"{"k": "unterminated}"#).is_err());
    }
}
