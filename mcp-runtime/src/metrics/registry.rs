//! The registry behind [`Metrics`](super::Metrics): tables of series with atomics inside,
//! and their Prometheus text exposition (format 0.0.4).
//!
//! A table has a fixed number of slots, twice its bound on series, each a `OnceLock` claimed
//! once by the first label set that hashes to it (open addressing, linear probing). Finding an
//! existing series is a hash of the borrowed label values and atomic loads: no lock, no
//! allocation. A new series allocates its label values once. Past the bound, every new label
//! set is counted in one overflow series whose labels are all `_OTHER`.

use std::fmt::Write as _;
use std::hash::BuildHasher;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::Duration;

/// The conventions' bucket boundaries of every MCP duration histogram, in seconds.
pub(crate) const SECONDS: [f64; 14] = [
    0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0,
];

/// [`SECONDS`] in nanoseconds (each a whole number of them).
const NANOS: [u64; SECONDS.len()] = {
    let mut nanos = [0u64; SECONDS.len()];
    let mut k = 0;
    while k < SECONDS.len() {
        nanos[k] = (SECONDS[k] * 1e9 + 0.5) as u64;
        k += 1;
    }
    nanos
};

/// The label value of the overflow series.
pub(crate) const OTHER: &str = "_OTHER";

/// One histogram series: a count per bucket (not cumulative: summed when rendered), the count
/// and the sum in nanoseconds (exact, and one atomic add).
#[derive(Default)]
pub(crate) struct Histogram {
    buckets: [AtomicU64; SECONDS.len()],
    count: AtomicU64,
    sum_nanos: AtomicU64,
}

impl AsRef<Histogram> for Histogram {
    fn as_ref(&self) -> &Histogram {
        self
    }
}

impl Histogram {
    #[inline]
    pub(crate) fn observe(&self, elapsed: Duration) {
        let nanos = u64::try_from(elapsed.as_nanos()).unwrap_or(u64::MAX);
        // In whole nanoseconds: each bound is one (`NANOS`), and a duration is at or below a
        // bound in nanoseconds exactly when it is in seconds.
        if let Some(i) = NANOS.iter().position(|bound| nanos <= *bound) {
            self.buckets[i].fetch_add(1, Ordering::Relaxed);
        }
        self.sum_nanos.fetch_add(nanos, Ordering::Relaxed);
        self.count.fetch_add(1, Ordering::Relaxed);
    }
}

/// A series: its label values (the table's label names, in order; empty is absent) and its
/// cell.
struct Series<C> {
    values: Box<[Box<str>]>,
    cell: C,
}

/// A metric's series, bounded.
pub(crate) struct Table<C> {
    names: &'static [&'static str],
    max: usize,
    slots: Box<[OnceLock<Box<Series<C>>>]>,
    used: AtomicUsize,
    other: OnceLock<Box<Series<C>>>,
    /// The hash's keys (random per table).
    seeds: (u64, u64),
}

impl<C: Default> Table<C> {
    /// A table of at most `max` series (and the overflow one) labelled by `names`.
    pub(crate) fn new(names: &'static [&'static str], max: usize) -> Self {
        let slots = (0..max.saturating_mul(2).max(1))
            .map(|_| OnceLock::new())
            .collect();
        Self {
            names,
            max,
            slots,
            used: AtomicUsize::new(0),
            other: OnceLock::new(),
            seeds: seeds(),
        }
    }

    /// The cell of the series `values` (one per label name, `""` for absent), made when new,
    /// or the overflow series' once the table is full.
    pub(crate) fn get(&self, values: &[&str]) -> &C {
        self.find(values).1
    }

    /// The cell of the series at slot `index` (from [`find`](Self::find)).
    #[inline]
    pub(crate) fn at(&self, index: usize) -> Option<&C> {
        self.slots.get(index)?.get().map(|series| &series.cell)
    }

    /// [`get`](Self::get), and the slot of the series (`None` for the overflow series).
    pub(crate) fn find(&self, values: &[&str]) -> (Option<usize>, &C) {
        debug_assert_eq!(values.len(), self.names.len());
        let len = self.slots.len();
        let start = (self.hash(values) as usize) % len;
        let mut reserved = false;
        for step in 0..len {
            let index = (start + step) % len;
            let slot = &self.slots[index];
            if let Some(series) = slot.get() {
                if same(&series.values, values) {
                    if reserved {
                        self.used.fetch_sub(1, Ordering::Relaxed);
                    }
                    return (Some(index), &series.cell);
                }
                continue;
            }
            // An empty slot: the label set is new. Reserve a place within the bound first.
            if !reserved {
                let admitted = self
                    .used
                    .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| {
                        (n < self.max).then_some(n + 1)
                    })
                    .is_ok();
                if !admitted {
                    return (None, self.overflow());
                }
                reserved = true;
            }
            let mut made = None;
            let series = slot.get_or_init(|| {
                made = Some(());
                Box::new(Series {
                    values: values.iter().map(|v| Box::<str>::from(*v)).collect(),
                    cell: C::default(),
                })
            });
            if made.is_some() {
                return (Some(index), &series.cell);
            }
            // Another label set took the slot meanwhile: it may be this one.
            if same(&series.values, values) {
                self.used.fetch_sub(1, Ordering::Relaxed);
                return (Some(index), &series.cell);
            }
        }
        if reserved {
            self.used.fetch_sub(1, Ordering::Relaxed);
        }
        (None, self.overflow())
    }

    /// The hash of a label set, keyed by the table's two random seeds: each value's bytes,
    /// eight at a time, and its length, folded in by a 128-bit multiply (the high and low
    /// halves xored). A client names tools, and so label values, but not the seeds: it cannot
    /// aim at one chain of slots (and the table is bounded whatever it sends).
    fn hash(&self, values: &[&str]) -> u64 {
        let (mut h, k) = self.seeds;
        for value in values {
            let bytes = value.as_bytes();
            let mut words = bytes.chunks_exact(8);
            for word in &mut words {
                let mut w = [0u8; 8];
                w.copy_from_slice(word);
                h = fold(h ^ u64::from_le_bytes(w), k);
            }
            // The last bytes, shifted in one by one (no copy of a slice of unknown length).
            let tail = words
                .remainder()
                .iter()
                .rev()
                .fold(0u64, |w, &c| (w << 8) | u64::from(c));
            h = fold(h ^ tail, k ^ bytes.len() as u64);
        }
        fold(h, k)
    }

    /// Whether `cell` is the overflow series' (whose label values are all `_OTHER`).
    #[cfg_attr(not(feature = "otel"), allow(dead_code))]
    pub(crate) fn is_overflow(&self, cell: &C) -> bool {
        self.other
            .get()
            .is_some_and(|series| std::ptr::eq(&series.cell, cell))
    }

    fn overflow(&self) -> &C {
        &self
            .other
            .get_or_init(|| {
                Box::new(Series {
                    values: self.names.iter().map(|_| Box::<str>::from(OTHER)).collect(),
                    cell: C::default(),
                })
            })
            .cell
    }

    /// Every series, sorted by label values (a stable exposition), the overflow one last.
    fn series(&self) -> Vec<&Series<C>> {
        let mut all: Vec<&Series<C>> = self
            .slots
            .iter()
            .filter_map(|slot| slot.get().map(|b| &**b))
            .collect();
        all.sort_by(|a, b| a.values.cmp(&b.values));
        all.extend(self.other.get().map(|b| &**b));
        all
    }
}

/// Two random keys, from the standard library's per-process random hash keys; the second
/// odd (a multiplier).
pub(super) fn seeds() -> (u64, u64) {
    let state = std::hash::RandomState::new();
    (state.hash_one(1u64), state.hash_one(2u64) | 1)
}

/// The 128-bit product of `a` and `b`, its halves xored.
pub(super) fn fold(a: u64, b: u64) -> u64 {
    let m = u128::from(a) * u128::from(b);
    (m as u64) ^ ((m >> 64) as u64)
}

fn same(stored: &[Box<str>], values: &[&str]) -> bool {
    stored.len() == values.len() && stored.iter().zip(values).all(|(a, b)| **a == **b)
}

/// A label value as the exposition format writes it: `\`, `"` and line feeds escaped.
fn escape(out: &mut String, value: &str) {
    for c in value.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            c => out.push(c),
        }
    }
}

/// `{a="x",b="y"` (absent labels left out), with `extra` (`le="0.1"`) last; `}` closes it.
fn labels(out: &mut String, names: &[&str], values: &[Box<str>], extra: Option<(&str, &str)>) {
    let mut first = true;
    let pairs = names
        .iter()
        .zip(values.iter().map(|v| &**v))
        .filter(|(_, v)| !v.is_empty())
        .chain(extra.as_ref().map(|(n, v)| (n, *v)));
    for (name, value) in pairs {
        out.push(if first { '{' } else { ',' });
        first = false;
        out.push_str(name);
        out.push_str("=\"");
        escape(out, value);
        out.push('"');
    }
    if !first {
        out.push('}');
    }
}

/// The `# HELP` and `# TYPE` lines.
pub(crate) fn header(out: &mut String, name: &str, kind: &str, help: &str) {
    let _ = writeln!(out, "# HELP {name} {help}");
    let _ = writeln!(out, "# TYPE {name} {kind}");
}

/// A histogram's samples: `_bucket` (cumulative, `le` last, `+Inf` the count), `_sum` in
/// seconds, `_count`.
pub(crate) fn render_histograms<C: Default + AsRef<Histogram>>(
    out: &mut String,
    name: &str,
    help: &str,
    table: &Table<C>,
) {
    header(out, name, "histogram", help);
    for series in table.series() {
        let h = series.cell.as_ref();
        // The count is read first: the buckets, read after, may hold a few more observations
        // than it; `+Inf` is the larger, so that the buckets stay monotonic.
        let count = h.count.load(Ordering::Relaxed);
        let mut cumulative = 0u64;
        for (bound, bucket) in SECONDS.iter().zip(&h.buckets) {
            cumulative += bucket.load(Ordering::Relaxed);
            let le = bound.to_string();
            let _ = write!(out, "{name}_bucket");
            labels(out, table.names, &series.values, Some(("le", &le)));
            let _ = writeln!(out, " {cumulative}");
        }
        let _ = write!(out, "{name}_bucket");
        labels(out, table.names, &series.values, Some(("le", "+Inf")));
        let _ = writeln!(out, " {}", count.max(cumulative));
        let sum = h.sum_nanos.load(Ordering::Relaxed) as f64 / 1e9;
        let _ = write!(out, "{name}_sum");
        labels(out, table.names, &series.values, None);
        let _ = writeln!(out, " {sum}");
        let _ = write!(out, "{name}_count");
        labels(out, table.names, &series.values, None);
        let _ = writeln!(out, " {}", count.max(cumulative));
    }
}

/// A counter's samples (`name` ends in `_total`).
pub(crate) fn render_counters(out: &mut String, name: &str, help: &str, table: &Table<AtomicU64>) {
    header(out, name, "counter", help);
    for series in table.series() {
        let _ = write!(out, "{name}");
        labels(out, table.names, &series.values, None);
        let _ = writeln!(out, " {}", series.cell.load(Ordering::Relaxed));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bounds_in_nanoseconds_are_the_bounds_in_seconds() {
        assert_eq!(NANOS[0], 10_000_000);
        assert_eq!(NANOS[13], 300_000_000_000);
        for (nanos, seconds) in NANOS.iter().zip(SECONDS) {
            let at = Duration::from_nanos(*nanos);
            assert_eq!(at.as_secs_f64(), seconds);
            assert!(Duration::from_nanos(nanos + 1).as_secs_f64() > seconds);
            assert!(Duration::from_nanos(nanos - 1).as_secs_f64() < seconds);
        }
        let h = Histogram::default();
        h.observe(Duration::from_millis(10));
        h.observe(Duration::from_nanos(10_000_001));
        h.observe(Duration::from_secs(301));
        let counts: Vec<u64> = h
            .buckets
            .iter()
            .map(|b| b.load(Ordering::Relaxed))
            .collect();
        assert_eq!(counts, [1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
        assert_eq!(h.count.load(Ordering::Relaxed), 3);
    }

    #[test]
    fn bounded_with_overflow() {
        let table: Table<AtomicU64> = Table::new(&["a"], 2);
        for v in ["x", "y", "x", "z", "w"] {
            table.get(&[v]).fetch_add(1, Ordering::Relaxed);
        }
        let mut out = String::new();
        render_counters(&mut out, "n_total", "N.", &table);
        assert_eq!(
            out,
            "# HELP n_total N.\n# TYPE n_total counter\n\
             n_total{a=\"x\"} 2\nn_total{a=\"y\"} 1\nn_total{a=\"_OTHER\"} 2\n"
        );
    }

    #[test]
    fn histogram_buckets_are_cumulative() {
        let table: Table<Histogram> = Table::new(&["m", "e"], 4);
        let h = table.get(&["t", ""]);
        h.observe(Duration::from_millis(15));
        h.observe(Duration::from_millis(400));
        h.observe(Duration::from_secs(400));
        let mut out = String::new();
        render_histograms(&mut out, "d_seconds", "D.", &table);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines[2], "d_seconds_bucket{m=\"t\",le=\"0.01\"} 0");
        assert_eq!(lines[3], "d_seconds_bucket{m=\"t\",le=\"0.02\"} 1");
        assert_eq!(lines[7], "d_seconds_bucket{m=\"t\",le=\"0.5\"} 2");
        assert_eq!(lines[15], "d_seconds_bucket{m=\"t\",le=\"300\"} 2");
        assert_eq!(lines[16], "d_seconds_bucket{m=\"t\",le=\"+Inf\"} 3");
        assert_eq!(lines[17], "d_seconds_sum{m=\"t\"} 400.415");
        assert_eq!(lines[18], "d_seconds_count{m=\"t\"} 3");
    }

    #[test]
    fn label_values_are_escaped() {
        let mut out = String::new();
        let values: Box<[Box<str>]> = Box::new(["a\"b\\c\nd".into()]);
        labels(&mut out, &["x"], &values, None);
        assert_eq!(out, r#"{x="a\"b\\c\nd"}"#);
    }
}
