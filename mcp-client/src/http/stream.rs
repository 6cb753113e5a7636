//! The SSE streams of the HTTP link: a request's answer as a stream (resumed with `GET` and
//! `Last-Event-ID` when it ends before the answer), and the standalone `GET` stream of a
//! session. Every reconnection waits the server's `retry`, within [`MIN_RETRY`] and
//! [`MAX_RETRY`], and is counted: a request's stream is resumed [`MAX_RESUMES`] times at most,
//! the standalone stream is given up after [`MAX_RESUMES`] streams in a row that brought
//! nothing.

use std::time::Duration;

use futures_util::StreamExt as _;
use mcp_core::jsonrpc::RequestId;

use super::Shared;
use crate::error::ClientError;
use crate::outgoing::Incoming;
use crate::sse::{Event, Parser};

/// How long to wait before reconnecting when the server gave no `retry`.
const DEFAULT_RETRY: Duration = Duration::from_secs(1);
/// The shortest wait before a reconnection, whatever `retry` says (`retry: 0` would otherwise
/// reconnect in a tight loop).
pub(super) const MIN_RETRY: Duration = Duration::from_millis(100);
/// The longest `retry` honoured (a server cannot park a request for longer).
pub(super) const MAX_RETRY: Duration = Duration::from_secs(30);
/// How many times one request's stream is resumed at most, and how many standalone streams in
/// a row may bring nothing before the client stops reopening it.
pub(super) const MAX_RESUMES: u32 = 5;

/// How one response's events ended.
enum Pumped {
    /// The answer to the request went by (or nobody reads any more).
    Answered,
    /// The stream ended (or failed) before it; whether any message went by.
    Ended { progress: bool },
    /// An event passed this bound: the stream is dropped.
    TooLarge(usize),
    /// An event of a request's stream was not UTF-8 (at this byte): the stream is dropped.
    InvalidUtf8(usize),
}

impl Shared {
    /// Reads an SSE answer to request `id`, resuming it with `GET` after `retry` when it ends
    /// before the answer came.
    pub(super) async fn read_stream(
        &self,
        resp: reqwest::Response,
        id: Option<RequestId>,
        limit: usize,
    ) {
        let mut parser = Parser::new(limit);
        let mut pumped = self.pump(resp, &mut parser, id.as_ref()).await;
        let mut resumes = 0;
        while id.is_some() {
            match pumped {
                Pumped::Answered => return,
                Pumped::TooLarge(limit) => {
                    let err = ClientError::MessageTooLarge { limit };
                    return self.deliver(self.fail_with(&id, err)).await;
                }
                Pumped::InvalidUtf8(offset) => {
                    let err = ClientError::InvalidUtf8 { offset };
                    return self.deliver(self.fail_with(&id, err)).await;
                }
                Pumped::Ended { .. } => {}
            }
            let Some(last) = parser.last_id.clone() else {
                let why =
                    "the event stream ended before the answer (and had no event id to resume)";
                return self.deliver(self.fail(&id, why)).await;
            };
            if resumes == MAX_RESUMES {
                let why = format!("the event stream ended {MAX_RESUMES} times before the answer");
                return self.deliver(self.fail(&id, why)).await;
            }
            resumes += 1;
            tokio::time::sleep(retry_of(&parser)).await;
            match self.get(Some(&last)).await {
                Ok(resp) => pumped = self.pump(resp, &mut parser, id.as_ref()).await,
                Err(e) => tracing::debug!("mcp client: resuming a stream failed: {e}"),
            }
        }
    }

    /// Forwards every event of one response, until the answer to `id` went by. On the
    /// standalone stream (no `id`) an event that is not UTF-8 is skipped, as a line that is
    /// not is on stdio.
    async fn pump(
        &self,
        resp: reqwest::Response,
        parser: &mut Parser,
        id: Option<&RequestId>,
    ) -> Pumped {
        let mut body = resp.bytes_stream();
        let mut events: Vec<Event> = Vec::new();
        let mut progress = false;
        while let Some(chunk) = body.next().await {
            let Ok(chunk) = chunk else {
                return Pumped::Ended { progress };
            };
            if let Err(limit) = parser.feed(&chunk, &mut events) {
                tracing::warn!(
                    limit,
                    "mcp client: an SSE event passed the bound; the stream is dropped"
                );
                return Pumped::TooLarge(limit);
            }
            let mut answered = false;
            for event in events.drain(..) {
                let data = match event.data {
                    Ok(data) => data,
                    Err(offset) if id.is_some() => {
                        tracing::warn!(
                            offset,
                            "mcp client: an SSE event is not UTF-8; the stream is dropped"
                        );
                        return Pumped::InvalidUtf8(offset);
                    }
                    Err(offset) => {
                        tracing::warn!(
                            offset,
                            "mcp client: skipped an SSE event that is not UTF-8"
                        );
                        continue;
                    }
                };
                if data.trim().is_empty() {
                    continue;
                }
                if let Some(id) = id {
                    answered |= answers(&data, id);
                }
                progress = true;
                if self.inbound.send(Incoming::Message(data)).await.is_err() {
                    return Pumped::Answered;
                }
            }
            if answered {
                return Pumped::Answered;
            }
        }
        Pumped::Ended { progress }
    }

    /// The standalone stream from its first response on: reopened after `retry` when it ends,
    /// until [`MAX_RESUMES`] streams in a row brought no message (ended empty, failed, or sent
    /// an event over the bound); a server that refuses it (an error status) is not asked
    /// again.
    pub(super) async fn standalone(&self, first: reqwest::Response) {
        let mut parser = Parser::new(self.max_message);
        let mut idle = 0;
        let mut pumped = self.pump(first, &mut parser, None).await;
        loop {
            match pumped {
                Pumped::Ended { progress: true } | Pumped::Answered => idle = 0,
                Pumped::Ended { progress: false }
                | Pumped::TooLarge(_)
                | Pumped::InvalidUtf8(_) => {
                    idle += 1;
                }
            }
            if idle >= MAX_RESUMES {
                tracing::debug!(
                    "mcp client: the standalone stream brought nothing {MAX_RESUMES} times in a row; it is not reopened"
                );
                return;
            }
            tokio::time::sleep(retry_of(&parser)).await;
            pumped = match self.get(parser.last_id.clone().as_deref()).await {
                Ok(resp) => self.pump(resp, &mut parser, None).await,
                Err(super::GetError::Status(_)) => return,
                Err(_) => Pumped::Ended { progress: false },
            };
        }
    }
}

/// The wait before a reconnection: the server's last `retry`, within [`MIN_RETRY`] and
/// [`MAX_RETRY`].
fn retry_of(parser: &Parser) -> Duration {
    parser
        .retry_ms
        .map_or(DEFAULT_RETRY, Duration::from_millis)
        .clamp(MIN_RETRY, MAX_RETRY)
}

/// Whether `data` is the response to `id`.
fn answers(data: &str, id: &RequestId) -> bool {
    #[derive(serde::Deserialize)]
    struct Probe {
        id: Option<RequestId>,
        method: Option<serde::de::IgnoredAny>,
    }
    serde_json::from_str::<Probe>(data)
        .is_ok_and(|p| p.method.is_none() && p.id.as_ref() == Some(id))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retry_is_kept_between_its_floor_and_its_ceiling() {
        let mut parser = Parser::new(64);
        assert_eq!(retry_of(&parser), DEFAULT_RETRY);
        for (ms, wait) in [
            (0, MIN_RETRY),
            (1, MIN_RETRY),
            (100, MIN_RETRY),
            (250, Duration::from_millis(250)),
            (30_000, MAX_RETRY),
            (u64::MAX, MAX_RETRY),
        ] {
            parser.retry_ms = Some(ms);
            assert_eq!(retry_of(&parser), wait, "retry: {ms}");
        }
    }
}
