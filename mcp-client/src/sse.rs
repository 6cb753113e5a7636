//! An incremental reader of `text/event-stream` bodies (the WHATWG event-stream format), with a
//! bound on the size of one event. Bytes that are not UTF-8 are never repaired: an event with
//! them is handed on as refused, an `id` with them is ignored.

/// One dispatched event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Event {
    /// The `data` lines joined with `\n`; `Err(offset)` when they (or the `event` field) are
    /// not UTF-8, with where the first byte that is not is (in the data, or in the field).
    pub(crate) data: Result<String, usize>,
    /// The `event` field (`message` when absent).
    pub(crate) name: Option<String>,
}

/// What the parser learnt from a chunk.
#[derive(Debug)]
pub(crate) struct Parser {
    /// The largest event (its data lines, and the line being read), in bytes.
    limit: usize,
    line: Vec<u8>,
    data: Vec<u8>,
    has_data: bool,
    name: Option<Vec<u8>>,
    /// The last `id` field seen (the stream's `Last-Event-ID`).
    pub(crate) last_id: Option<String>,
    /// The last `retry` field, in milliseconds.
    pub(crate) retry_ms: Option<u64>,
    skipped_cr: bool,
}

impl Parser {
    /// A parser of events of at most `limit` bytes.
    pub(crate) fn new(limit: usize) -> Self {
        Self {
            limit,
            line: Vec::new(),
            data: Vec::new(),
            has_data: false,
            name: None,
            last_id: None,
            retry_ms: None,
            skipped_cr: false,
        }
    }

    /// Feeds one chunk, pushing complete events to `out`; `Err(limit)` when the event being
    /// read (its data and the line being read) passes the limit.
    pub(crate) fn feed(&mut self, chunk: &[u8], out: &mut Vec<Event>) -> Result<(), usize> {
        for &b in chunk {
            if self.skipped_cr {
                self.skipped_cr = false;
                if b == b'\n' {
                    continue;
                }
            }
            match b {
                b'\n' | b'\r' => {
                    self.skipped_cr = b == b'\r';
                    let line = std::mem::take(&mut self.line);
                    self.line_done(&line, out);
                }
                _ => {
                    if self.line.len() + self.data.len() >= self.limit {
                        return Err(self.limit);
                    }
                    self.line.push(b);
                }
            }
            if self.data.len() > self.limit {
                return Err(self.limit);
            }
        }
        Ok(())
    }

    fn line_done(&mut self, line: &[u8], out: &mut Vec<Event>) {
        if line.is_empty() {
            if self.has_data {
                let offset = |e: std::string::FromUtf8Error| e.utf8_error().valid_up_to();
                let name = self.name.take().map(String::from_utf8).transpose();
                let data = String::from_utf8(std::mem::take(&mut self.data));
                out.push(match (data, name) {
                    (Ok(data), Ok(name)) => Event {
                        data: Ok(data),
                        name,
                    },
                    (Err(e), _) | (Ok(_), Err(e)) => Event {
                        data: Err(offset(e)),
                        name: None,
                    },
                });
            }
            self.data.clear();
            self.has_data = false;
            self.name = None;
            return;
        }
        if line[0] == b':' {
            return;
        }
        let (field, value) = match line.iter().position(|&b| b == b':') {
            Some(i) => {
                let v = &line[i + 1..];
                (&line[..i], v.strip_prefix(b" ").unwrap_or(v))
            }
            None => (line, &[][..]),
        };
        match field {
            b"data" => {
                if self.has_data {
                    self.data.push(b'\n');
                }
                self.data.extend_from_slice(value);
                self.has_data = true;
            }
            b"event" => self.name = Some(value.to_vec()),
            // An id that is not UTF-8 (or has a NUL) is ignored, as one with a NUL is by the
            // standard: it could not be sent back in `Last-Event-ID` as it came.
            b"id" if !value.contains(&0) => {
                if let Ok(id) = std::str::from_utf8(value) {
                    self.last_id = Some(id.to_owned());
                }
            }
            b"retry" => {
                if let Some(ms) = std::str::from_utf8(value).ok().and_then(|v| v.parse().ok()) {
                    self.retry_ms = Some(ms);
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_ids_and_retry_across_chunks() {
        let mut p = Parser::new(1024);
        let mut out = Vec::new();
        p.feed(b"id: e-1\nretry: 500\ndata: \n\nevent: mess", &mut out)
            .unwrap();
        assert_eq!(
            out,
            vec![Event {
                data: Ok(String::new()),
                name: None
            }]
        );
        assert_eq!(p.last_id.as_deref(), Some("e-1"));
        assert_eq!(p.retry_ms, Some(500));
        out.clear();
        p.feed(
            b"age\r\nid: e-2\r\ndata: {\"a\":\r\ndata: 1}\r\n\r\n: comment\n",
            &mut out,
        )
        .unwrap();
        assert_eq!(
            out,
            vec![Event {
                data: Ok("{\"a\":\n1}".into()),
                name: Some("message".into())
            }]
        );
        assert_eq!(p.last_id.as_deref(), Some("e-2"));
    }

    #[test]
    fn an_event_without_data_is_not_dispatched() {
        let mut p = Parser::new(1024);
        let mut out = Vec::new();
        p.feed(b"id: 7\n\n", &mut out).unwrap();
        assert!(out.is_empty());
        assert_eq!(p.last_id.as_deref(), Some("7"));
    }

    #[test]
    fn an_event_over_the_limit_is_refused_while_read() {
        let mut p = Parser::new(16);
        let mut out = Vec::new();
        p.feed(b"data: 0123456789\n", &mut out).unwrap();
        // 10 bytes of data, then a line that would take the event past 16 bytes.
        assert_eq!(p.feed(b"data: 0123", &mut out), Err(16));
        assert!(out.is_empty());
        let mut p = Parser::new(16);
        p.feed(b"data: 0123456789\n\ndata: 0123456789\n\n", &mut out)
            .unwrap();
        assert_eq!(out.len(), 2, "each event is bounded, not the stream");
    }

    #[test]
    fn bytes_that_are_not_utf8_are_refused_never_repaired() {
        let mut p = Parser::new(1024);
        let mut out = Vec::new();
        p.feed(
            b"id: a\nid: b\xff\ndata: {\"x\":\"\xed\xa0\x80\"}\n\n",
            &mut out,
        )
        .unwrap();
        // A lone surrogate's encoding at byte 6 of the data; the id before it is kept.
        assert_eq!(
            out,
            vec![Event {
                data: Err(6),
                name: None
            }]
        );
        assert_eq!(p.last_id.as_deref(), Some("a"));
        out.clear();
        p.feed(b"event: n\xc3\ndata: {}\n\ndata: [1]\n\n", &mut out)
            .unwrap();
        assert_eq!(
            out,
            vec![
                Event {
                    data: Err(1),
                    name: None
                },
                Event {
                    data: Ok("[1]".into()),
                    name: None
                }
            ]
        );
    }
}
