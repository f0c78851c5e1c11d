//! Every frame a client sends counts, not only whole messages.
//!
//! Tungstenite answers pings, drops pongs and joins a message's fragments by itself, so the connection's
//! loop (`ws/`) never sees those frames: a client could send millions of pongs, pings or empty
//! continuation frames without touching the message rate limit. [`FrameMeter`] sits under tungstenite,
//! on the upgraded byte stream, and reads the header of every client frame as it passes: each frame
//! spends a token of the connection's frame budget, a message may come in a bounded number of
//! fragments, and pings and pongs have a small allowance of their own, besides one pong for each of
//! the server's pings. Past any of these, the read fails with a [`FrameLimit`], which the
//! connection turns into a 1008 close; from then on what the client sends is read and thrown away, so
//! that the close frame is not lost to a reset.

use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, ready};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::time::Instant;

use crate::config::Config;

/// Why the frames of a connection were refused: the reason of its 1008 close.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FrameLimit(pub &'static str);

impl std::fmt::Display for FrameLimit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0)
    }
}

impl std::error::Error for FrameLimit {}

impl FrameLimit {
    /// The limit behind a read error, if the error is one.
    pub(crate) fn of(error: &io::Error) -> Option<FrameLimit> {
        error.get_ref().and_then(|inner| inner.downcast_ref::<FrameLimit>()).copied()
    }
}

const TOO_MANY_FRAMES: FrameLimit = FrameLimit("too many frames");
const TOO_MANY_FRAGMENTS: FrameLimit = FrameLimit("message in too many fragments");
const TOO_MANY_PINGS: FrameLimit = FrameLimit("too many pings or pongs");

/// The longest frame header: 2 bytes, an 8-byte length and a 4-byte mask.
const MAX_HEADER: usize = 14;

/// Where the parser is in the client's byte stream.
#[derive(Debug)]
enum Position {
    /// Reading a frame's header: `have` of its bytes so far.
    Header { bytes: [u8; MAX_HEADER], have: u8 },
    /// Skipping a frame's payload: `left` bytes to go.
    Payload { left: u64 },
}

/// Counts a client's frames as their headers go by. Every connection holds one for its life, so it is
/// kept small: two token buckets (frames, and pings and pongs) refilled from one instant, their sizes
/// and rates read from the shared settings.
#[derive(Debug)]
struct Meter {
    position: Position,
    /// When the buckets were last refilled.
    at: Instant,
    /// Tokens left in the frame budget.
    frames: f32,
    /// Tokens left in the allowance of pings and pongs.
    control: f32,
    /// Fragments of the message under way; 0 between messages.
    fragments: u32,
    config: Arc<Config>,
}

impl Meter {
    fn new(config: &Arc<Config>) -> Meter {
        Meter {
            position: Position::Header { bytes: [0; MAX_HEADER], have: 0 },
            at: Instant::now(),
            frames: config.frame_burst as f32,
            control: config.control_frame_burst as f32,
            fragments: 0,
            config: config.clone(),
        }
    }

    /// Refills both buckets for the time since the last refill.
    fn refill(&mut self) {
        let now = Instant::now();
        let elapsed = now.duration_since(self.at).as_secs_f64();
        self.at = now;
        let config = &self.config;
        self.frames = (f64::from(self.frames) + elapsed * config.frames_per_second).min(config.frame_burst) as f32;
        self.control = (f64::from(self.control) + elapsed * config.control_frames_per_second)
            .min(config.control_frame_burst) as f32;
    }

    /// Gives back one ping-or-pong token (for the pong the server's own ping asks for).
    fn give_control(&mut self) {
        self.refill();
        self.control = (self.control + 1.0).min(self.config.control_frame_burst as f32);
    }

    /// Reads `input`, the next bytes from the client, charging every frame whose header completes.
    fn feed(&mut self, mut input: &[u8]) -> Result<(), FrameLimit> {
        while !input.is_empty() {
            match &mut self.position {
                Position::Payload { left } => {
                    let skip = input.len().min(usize::try_from(*left).unwrap_or(usize::MAX));
                    input = &input[skip..];
                    *left -= skip as u64;
                    if *left == 0 {
                        self.position = Position::Header { bytes: [0; MAX_HEADER], have: 0 };
                    }
                }
                Position::Header { bytes, have } => {
                    bytes[usize::from(*have)] = input[0];
                    *have += 1;
                    input = &input[1..];
                    let Some(payload) = header_complete(&bytes[..usize::from(*have)]) else { continue };
                    let first = bytes[0];
                    self.position = if payload == 0 {
                        Position::Header { bytes: [0; MAX_HEADER], have: 0 }
                    } else {
                        Position::Payload { left: payload }
                    };
                    self.charge(first)?;
                }
            }
        }
        Ok(())
    }

    /// Charges one frame, given its first header byte (FIN and opcode).
    fn charge(&mut self, first: u8) -> Result<(), FrameLimit> {
        self.refill();
        if self.frames < 1.0 {
            return Err(TOO_MANY_FRAMES);
        }
        self.frames -= 1.0;
        let fin = first & 0x80 != 0;
        match first & 0x0f {
            // A continuation: one more fragment of the message under way.
            0x0 => {
                self.fragments += 1;
                if self.fragments > self.config.max_fragments {
                    return Err(TOO_MANY_FRAGMENTS);
                }
                if fin {
                    self.fragments = 0;
                }
            }
            // Text or binary: a new message, whole or its first fragment.
            0x1 | 0x2 => self.fragments = u32::from(!fin),
            // Ping or pong.
            0x9 | 0xa if self.control < 1.0 => return Err(TOO_MANY_PINGS),
            0x9 | 0xa => self.control -= 1.0,
            // A close, or an opcode tungstenite refuses itself.
            _ => {}
        }
        Ok(())
    }
}

/// The payload length of the frame whose header starts `header`, once the header is complete.
fn header_complete(header: &[u8]) -> Option<u64> {
    let second = *header.get(1)?;
    let (extended, mask) = match second & 0x7f {
        126 => (2, 4),
        127 => (8, 4),
        _ => (0, 4),
    };
    let mask = if second & 0x80 != 0 { mask } else { 0 };
    if header.len() < 2 + extended + mask {
        return None;
    }
    Some(match second & 0x7f {
        126 => u64::from(u16::from_be_bytes([header[2], header[3]])),
        127 => header[2..10].iter().fold(0, |length, &byte| (length << 8) | u64::from(byte)),
        short => u64::from(short),
    })
}

/// What the meter has decided about the connection.
#[derive(Debug, PartialEq, Eq)]
enum Verdict {
    Open,
    /// Over a limit (the read that found it failed): the rest of the input is thrown away.
    Draining,
}

/// The upgraded byte stream of one connection, with every client frame counted (see the module's
/// documentation). Writes pass through untouched.
#[derive(Debug)]
pub struct FrameMeter<S> {
    inner: S,
    meter: Meter,
    verdict: Verdict,
}

/// The most input thrown away in one read while draining, before other tasks get their turn.
const DRAIN_PER_READ: usize = 64 * 1024;

impl<S> FrameMeter<S> {
    /// Counts the frames read from `inner` against `config`'s frame limits.
    pub(crate) fn new(inner: S, config: &Arc<Config>) -> FrameMeter<S> {
        FrameMeter { inner, meter: Meter::new(config), verdict: Verdict::Open }
    }

    /// Notes that the server sent a ping: the client's pong to it is the server's doing, not charged
    /// to the client's allowance.
    pub(crate) fn pinged(&mut self) {
        self.meter.give_control();
    }

    /// Whether the client went over a limit (its later input is being thrown away).
    pub(crate) fn refused(&self) -> bool {
        self.verdict != Verdict::Open
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for FrameMeter<S> {
    fn poll_read(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        if this.verdict == Verdict::Draining {
            return this.poll_drain(cx);
        }
        let before = buf.filled().len();
        ready!(Pin::new(&mut this.inner).poll_read(cx, buf))?;
        match this.meter.feed(&buf.filled()[before..]) {
            Ok(()) => Poll::Ready(Ok(())),
            Err(limit) => {
                // What came with the frame over the limit is not handed on.
                buf.set_filled(before);
                this.verdict = Verdict::Draining;
                Poll::Ready(Err(io::Error::other(limit)))
            }
        }
    }
}

impl<S: AsyncRead + Unpin> FrameMeter<S> {
    /// Reads and throws away the client's input; ready (with nothing read) only at its end.
    fn poll_drain(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let mut scratch = [0u8; 1024];
        let mut drained = 0;
        while drained < DRAIN_PER_READ {
            let mut sink = ReadBuf::new(&mut scratch);
            ready!(Pin::new(&mut self.inner).poll_read(cx, &mut sink))?;
            if sink.filled().is_empty() {
                return Poll::Ready(Ok(()));
            }
            drained += sink.filled().len();
        }
        cx.waker().wake_by_ref();
        Poll::Pending
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for FrameMeter<S> {
    fn poll_write(self: Pin<&mut Self>, cx: &mut Context<'_>, data: &[u8]) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().inner).poll_write(cx, data)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        data: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().inner).poll_write_vectored(cx, data)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A masked client frame with `first` (FIN and opcode) and `payload`.
    fn frame(first: u8, payload: &[u8]) -> Vec<u8> {
        let mut bytes = vec![first];
        match payload.len() {
            len @ 0..=125 => bytes.push(0x80 | len as u8),
            len @ 126..=65535 => {
                bytes.push(0x80 | 126);
                bytes.extend_from_slice(&(len as u16).to_be_bytes());
            }
            len => {
                bytes.push(0x80 | 127);
                bytes.extend_from_slice(&(len as u64).to_be_bytes());
            }
        }
        bytes.extend_from_slice(&[1, 2, 3, 4]);
        bytes.extend_from_slice(payload);
        bytes
    }

    fn meter() -> Meter {
        Meter::new(&Arc::new(Config::default()))
    }

    #[tokio::test(start_paused = true)]
    async fn whole_messages_within_the_budget_pass_in_any_slicing() {
        let config = Config::default();
        let mut stream = Vec::new();
        for size in [0, 5, 125, 126, 300, 70_000] {
            stream.extend(frame(0x81, &vec![b'x'; size]));
        }
        stream.extend(frame(0x01, b"first"));
        stream.extend(frame(0x8a, b"a pong between fragments"));
        stream.extend(frame(0x80, b"last"));
        for step in [1, 2, 3, 7, 14, 1000, stream.len()] {
            let mut meter = meter();
            for chunk in stream.chunks(step) {
                assert_eq!(meter.feed(chunk), Ok(()), "in chunks of {step}");
            }
            assert!(matches!(meter.position, Position::Header { have: 0, .. }), "ends between frames");
            assert_eq!(meter.fragments, 0);
        }
        assert!(config.frame_burst >= 9.0);
    }

    #[tokio::test(start_paused = true)]
    async fn an_endless_message_is_refused_at_its_fragment_limit() {
        let config = Config::default();
        let mut meter = meter();
        assert_eq!(meter.feed(&frame(0x01, b"{")), Ok(()));
        let mut refused = None;
        for sent in 1..=100 {
            if let Err(limit) = meter.feed(&frame(0x00, b"")) {
                refused = Some((sent, limit));
                break;
            }
        }
        assert_eq!(refused, Some((config.max_fragments as usize, TOO_MANY_FRAGMENTS)));
    }

    #[tokio::test(start_paused = true)]
    async fn pongs_and_pings_beyond_their_allowance_are_refused() {
        for first in [0x8a, 0x89] {
            let mut meter = meter();
            let allowed = (0..1000).take_while(|_| meter.feed(&frame(first, b"")).is_ok()).count();
            assert_eq!(allowed, Config::default().control_frame_burst as usize);
            // The allowance comes back with time.
            tokio::time::advance(std::time::Duration::from_secs(60)).await;
            assert_eq!(meter.feed(&frame(first, &[0; 125])), Ok(()));
        }
    }

    #[tokio::test(start_paused = true)]
    async fn a_flood_of_any_frame_runs_out_of_budget() {
        let config = Config::default();
        let mut meter = meter();
        let allowed = (0..10_000).take_while(|_| meter.feed(&frame(0x82, b"b")).is_ok()).count();
        assert_eq!(allowed, config.frame_burst as usize);
        assert_eq!(meter.feed(&frame(0x81, b"t")), Err(TOO_MANY_FRAMES));
    }

    #[tokio::test]
    async fn a_refused_stream_fails_one_read_then_drains_to_its_end() {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let (client, server) = tokio::io::duplex(1 << 20);
        let mut metered = FrameMeter::new(server, &Arc::new(Config::default()));
        let mut client = client;
        let mut flood = frame(0x01, b"{");
        for _ in 0..100 {
            flood.extend(frame(0x00, b""));
        }
        client.write_all(&flood).await.expect("written");
        let mut buf = [0u8; 4096];
        let error = metered.read(&mut buf).await.expect_err("refused");
        assert_eq!(FrameLimit::of(&error), Some(TOO_MANY_FRAGMENTS));
        assert!(metered.refused());
        client.write_all(&frame(0x81, b"more")).await.expect("written");
        drop(client);
        assert_eq!(metered.read(&mut buf).await.expect("the end"), 0, "the rest is thrown away");
    }
}
