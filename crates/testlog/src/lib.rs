//! Log lines captured for tests, without missing one whatever other tests run beside them.
//!
//! A test that reads what was logged (to check that no hidden card or seed is in it) must see every line.
//! A subscriber set for one thread (`tracing::subscriber::with_default`) cannot promise that: `tracing`
//! caches, once per process, whether a log statement is wanted at all, and it asks the subscriber of the
//! *first thread that reaches the statement*. When a test running beside the capturing one reaches it
//! first, on a thread with no subscriber, the statement is cached as "never" and the capture misses its
//! line from then on.
//!
//! So this crate sets **one subscriber for the whole test process**, and that subscriber wants every
//! statement; it keeps a line only where a capture is running ([`this_thread`] for the calling thread,
//! [`Everything`] for every thread, for tests of a server whose tasks run on a runtime's threads). The
//! subscriber is installed with the process's level filter still at "off", so that no statement is
//! cached before it is the default of every thread; it then opens the filter. The one thing it needs
//! from the test binary: no other subscriber, scoped or global, is ever set in it (setting one makes
//! [`this_thread`] and [`Everything::start`] panic, a failure that does not come and go).
//!
//! ```
//! let (sum, logs) = romirami_testlog::this_thread(|| {
//!     tracing::info!(seat = 2, "game started");
//!     1 + 1
//! });
//! assert_eq!(sum, 2);
//! assert!(logs.contains("game started seat=2"), "{logs}");
//! ```

use std::cell::RefCell;
use std::fmt::Write as _;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError};

use tracing::field::{Field, Visit};
use tracing::level_filters::LevelFilter;
use tracing::span::{Attributes, Id, Record};
use tracing::subscriber::{Interest, Subscriber};
use tracing::{Event, Level, Metadata};

/// Runs `work` while keeping every line logged on this thread, and gives its result and those lines.
///
/// # Panics
/// When another subscriber was set in this process (see the crate's documentation).
pub fn this_thread<R>(work: impl FnOnce() -> R) -> (R, String) {
    install();
    let previous = THIS_THREAD.with(|sink| sink.replace(Some(String::new())));
    let result = work();
    let lines = THIS_THREAD.with(|sink| sink.replace(previous)).unwrap_or_default();
    (result, lines)
}

/// Every line logged on any thread of the process from [`Everything::start`] on, until it is dropped.
///
/// Lines of other tests running at the same time are kept too: a test that checks that no line holds a
/// secret of its own only checks more lines for it.
#[derive(Debug)]
pub struct Everything {
    sink: Arc<Sink>,
}

/// Where an [`Everything`] keeps its lines, and down to which level.
#[derive(Debug)]
struct Sink {
    level: Level,
    lines: Mutex<String>,
}

impl Everything {
    /// Starts keeping every line of `level` or more severe (`Level::DEBUG`: debug, info, warn, error).
    ///
    /// # Panics
    /// When another subscriber was set in this process (see the crate's documentation).
    pub fn start(level: Level) -> Everything {
        install();
        let sink = Arc::new(Sink { level, lines: Mutex::new(String::new()) });
        sinks().push(Arc::clone(&sink));
        Everything { sink }
    }

    /// The lines kept so far.
    pub fn text(&self) -> String {
        self.sink.lines.lock().unwrap_or_else(PoisonError::into_inner).clone()
    }
}

impl Drop for Everything {
    fn drop(&mut self) {
        sinks().retain(|sink| !Arc::ptr_eq(sink, &self.sink));
    }
}

thread_local! {
    /// The lines of this thread's running [`this_thread`] capture, if one runs.
    static THIS_THREAD: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// The running [`Everything`] captures.
fn sinks() -> MutexGuard<'static, Vec<Arc<Sink>>> {
    static SINKS: Mutex<Vec<Arc<Sink>>> = Mutex::new(Vec::new());
    SINKS.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Whether the subscriber is the process's default: until then it asks for no level at all.
static OPEN: AtomicBool = AtomicBool::new(false);

/// Sets the capturing subscriber as the process's default, once.
fn install() {
    static INSTALLED: OnceLock<()> = OnceLock::new();
    INSTALLED.get_or_init(|| {
        // While the level filter is "off" (it is, until a first subscriber exists, and this one asks for
        // nothing while `OPEN` is false), no log statement registers itself, so none can be cached as
        // "never" against a thread that has no subscriber yet.
        tracing::subscriber::set_global_default(Capture).expect(
            "romirami-testlog's subscriber must be the only one of the test process: another was set before it",
        );
        OPEN.store(true, Ordering::SeqCst);
        // Reads the new level hint (every level); each statement then registers against this subscriber.
        tracing::callsite::rebuild_interest_cache();
    });
    assert!(
        tracing::dispatcher::get_default(|default| default.is::<Capture>()),
        "romirami-testlog's subscriber must be the only one of the test process: another is set on this thread",
    );
}

/// The subscriber: wants every statement, writes a line where a capture runs.
struct Capture;

impl Subscriber for Capture {
    fn register_callsite(&self, _: &'static Metadata<'static>) -> Interest {
        Interest::always()
    }

    fn enabled(&self, _: &Metadata<'_>) -> bool {
        true
    }

    fn max_level_hint(&self) -> Option<LevelFilter> {
        Some(if OPEN.load(Ordering::SeqCst) { LevelFilter::TRACE } else { LevelFilter::OFF })
    }

    fn new_span(&self, span: &Attributes<'_>) -> Id {
        // A span's fields can hold what an event's can: they are kept as a line of their own.
        if !wanted(*span.metadata().level()) {
            return Id::from_u64(1);
        }
        let mut line = Line::start(span.metadata());
        span.record(&mut line);
        keep(*span.metadata().level(), line.0);
        Id::from_u64(1)
    }

    fn record(&self, _: &Id, values: &Record<'_>) {
        let mut line = Line(String::from("span record:"));
        values.record(&mut line);
        keep(Level::ERROR, line.0);
    }

    fn record_follows_from(&self, _: &Id, _: &Id) {}

    fn event(&self, event: &Event<'_>) {
        if !wanted(*event.metadata().level()) {
            return;
        }
        let mut line = Line::start(event.metadata());
        event.record(&mut line);
        keep(*event.metadata().level(), line.0);
    }

    fn enter(&self, _: &Id) {}

    fn exit(&self, _: &Id) {}
}

/// Whether a line of `level` is kept anywhere: most are not, and are not even written.
fn wanted(level: Level) -> bool {
    THIS_THREAD.with(|sink| sink.borrow().is_some()) || sinks().iter().any(|sink| level <= sink.level)
}

/// Adds `line`, of `level`, to this thread's capture and to every [`Everything`] that keeps that level.
fn keep(level: Level, line: String) {
    THIS_THREAD.with(|sink| {
        if let Some(lines) = sink.borrow_mut().as_mut() {
            lines.push_str(&line);
            lines.push('\n');
        }
    });
    for sink in sinks().iter().filter(|sink| level <= sink.level) {
        let mut lines = sink.lines.lock().unwrap_or_else(PoisonError::into_inner);
        lines.push_str(&line);
        lines.push('\n');
    }
}

/// One line: `LEVEL target: message field=value ...`.
struct Line(String);

impl Line {
    fn start(metadata: &Metadata<'_>) -> Line {
        Line(format!("{} {}:", metadata.level(), metadata.target()))
    }
}

impl Visit for Line {
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        let _ = if field.name() == "message" {
            write!(self.0, " {value:?}")
        } else {
            write!(self.0, " {}={value:?}", field.name())
        };
    }

    fn record_str(&mut self, field: &Field, value: &str) {
        let _ = if field.name() == "message" {
            write!(self.0, " {value}")
        } else {
            write!(self.0, " {}={value}", field.name())
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_thread_keeps_its_own_lines_only() {
        let other = std::thread::spawn(|| this_thread(|| tracing::warn!(who = "other", "not yours")).1);
        let ((), mine) = this_thread(|| tracing::info!(error = %"disk full", "a write failed"));
        assert!(mine.contains("INFO romirami_testlog::tests: a write failed error=disk full"), "{mine}");
        assert!(!mine.contains("not yours"), "{mine}");
        assert!(other.join().expect("no panic").contains("not yours"));
    }

    #[test]
    fn everything_keeps_lines_of_every_thread_while_it_runs() {
        tracing::debug!("before");
        let everything = Everything::start(Level::DEBUG);
        std::thread::spawn(|| {
            tracing::debug!(n = 7, "elsewhere");
            tracing::trace!("too fine");
        })
        .join()
        .expect("no panic");
        let text = everything.text();
        drop(everything);
        assert!(text.contains("DEBUG romirami_testlog::tests: elsewhere n=7"), "{text}");
        assert!(!text.contains("before") && !text.contains("too fine"), "{text}");
    }
}
