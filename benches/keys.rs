//! Key encoding and decoding, side by side with the plain code a user would
//! otherwise write (`format!`, `write!` into a reused `String`, `push_str`,
//! `str::parse`). The baselines are not order-preserving or not strict;
//! they show what the guarantees cost.
//!
//! `cargo bench --bench keys` (about 40 s once built).

use std::fmt::Write as _;
use std::hint::black_box;
use std::time::Duration;

use chrono::{DateTime, Datelike, NaiveDate, TimeZone, Timelike, Utc};
use criterion::{Criterion, criterion_group, criterion_main};
use ddb_entity::key::{DecodeKeyPart, KeyBuf, KeyPart, KeyReader};

const EMAIL: &str = "alice.smith+orders@example.com";
const ESCAPES: &str = "Smith Jr. \"#1\" $5 off!";

/// Encodes into a reused buffer, as `KeyBuf` does for a whole key.
fn ours<P: KeyPart + ?Sized>(buf: &mut String, part: &P) {
    buf.clear();
    let _ = part.encode_key(buf);
}

fn u64_(c: &mut Criterion) {
    let n: u64 = 18_446_744_073_709_551;
    let mut g = c.benchmark_group("u64");
    let mut buf = String::with_capacity(64);
    g.bench_function("encode/ours", |b| b.iter(|| ours(&mut buf, black_box(&n))));
    g.bench_function("encode/format!(\"{:020}\")", |b| {
        b.iter(|| format!("{:020}", black_box(n)))
    });
    g.bench_function("encode/write!(reused, \"{:020}\")", |b| {
        b.iter(|| {
            buf.clear();
            let _ = write!(buf, "{:020}", black_box(n));
        })
    });
    let text = format!("{n:020}");
    g.bench_function("decode/ours", |b| {
        b.iter(|| u64::decode_key(black_box(&text)))
    });
    g.bench_function("decode/str::parse", |b| {
        b.iter(|| black_box(&text).parse::<u64>())
    });
    g.finish();
}

fn i64_(c: &mut Criterion) {
    let n: i64 = -4_611_686_018_427_387;
    let mut g = c.benchmark_group("i64");
    let mut buf = String::with_capacity(64);
    g.bench_function("encode/ours", |b| b.iter(|| ours(&mut buf, black_box(&n))));
    g.bench_function("encode/write!(reused, \"{:020}\")", |b| {
        b.iter(|| {
            buf.clear();
            let _ = write!(buf, "{:020}", black_box(n));
        })
    });
    let ours_text = ddb_entity::key::encode(&n).unwrap_or_default();
    let plain_text = format!("{n:020}");
    g.bench_function("decode/ours", |b| {
        b.iter(|| i64::decode_key(black_box(&ours_text)))
    });
    g.bench_function("decode/str::parse", |b| {
        b.iter(|| black_box(&plain_text).parse::<i64>())
    });
    g.finish();
}

fn f64_(c: &mut Criterion) {
    let x: f64 = -1234.5678e-9;
    let mut g = c.benchmark_group("f64");
    let mut buf = String::with_capacity(64);
    g.bench_function("encode/ours", |b| b.iter(|| ours(&mut buf, black_box(&x))));
    g.bench_function("encode/write!(reused, \"{:016x}\", bits)", |b| {
        b.iter(|| {
            buf.clear();
            let _ = write!(buf, "{:016x}", black_box(x).to_bits());
        })
    });
    let text = ddb_entity::key::encode(&x).unwrap_or_default();
    g.bench_function("decode/ours", |b| {
        b.iter(|| f64::decode_key(black_box(&text)))
    });
    g.bench_function("decode/u64::from_str_radix", |b| {
        b.iter(|| u64::from_str_radix(black_box(&text), 16).map(f64::from_bits))
    });
    g.finish();
}

fn string(c: &mut Criterion, name: &str, value: &str) {
    let mut g = c.benchmark_group(name);
    let mut buf = String::with_capacity(64);
    g.bench_function("encode/ours", |b| {
        b.iter(|| ours(&mut buf, black_box(value)))
    });
    g.bench_function("encode/push_str", |b| {
        b.iter(|| {
            buf.clear();
            buf.push_str(black_box(value));
        })
    });
    let text = ddb_entity::key::encode(value).unwrap_or_default();
    g.bench_function("decode/ours", |b| {
        b.iter(|| String::decode_key(black_box(&text)))
    });
    g.bench_function("decode/to_owned", |b| {
        b.iter(|| black_box(value).to_owned())
    });
    g.finish();
}

fn strings(c: &mut Criterion) {
    string(c, "string (email, no escapes)", EMAIL);
    string(c, "string (6 escapes)", ESCAPES);
}

fn datetime(c: &mut Criterion) {
    let at: DateTime<Utc> = Utc
        .with_ymd_and_hms(2026, 3, 14, 9, 31, 26)
        .single()
        .unwrap_or_default();
    let mut g = c.benchmark_group("DateTime<Utc>");
    let mut buf = String::with_capacity(64);
    g.bench_function("encode/ours", |b| b.iter(|| ours(&mut buf, black_box(&at))));
    g.bench_function("encode/write!(reused, fields)", |b| {
        b.iter(|| {
            let at = black_box(at);
            buf.clear();
            let _ = write!(
                buf,
                "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:09}Z",
                at.year(),
                at.month(),
                at.day(),
                at.hour(),
                at.minute(),
                at.second(),
                at.nanosecond()
            );
        })
    });
    let text = ddb_entity::key::encode(&at).unwrap_or_default();
    g.bench_function("decode/ours", |b| {
        b.iter(|| DateTime::<Utc>::decode_key(black_box(&text)))
    });
    g.bench_function("decode/DateTime::parse_from_rfc3339", |b| {
        b.iter(|| DateTime::parse_from_rfc3339(black_box(&text)))
    });
    g.finish();
}

fn whole_key(c: &mut Criterion) {
    let placed = NaiveDate::from_ymd_opt(2026, 3, 14).unwrap_or_default();
    let order_id: u64 = 1_234_567;
    let mut g = c.benchmark_group("key ORDER#{date}#{u64}");
    g.bench_function("build/ours (KeyBuf)", |b| {
        b.iter(|| {
            let mut key = KeyBuf::with_capacity(48);
            let _ = key
                .literal("ORDER")
                .part(black_box(&placed))
                .and_then(|k| k.part(black_box(&order_id)));
            key.finish()
        })
    });
    g.bench_function("build/format!", |b| {
        b.iter(|| {
            let d = black_box(placed);
            format!(
                "ORDER#{:04}-{:02}-{:02}#{:020}",
                d.year(),
                d.month(),
                d.day(),
                black_box(order_id)
            )
        })
    });
    let key = format!("ORDER#2026-03-14#{order_id:020}");
    g.bench_function("parse/ours (KeyReader)", |b| {
        b.iter(|| {
            let mut r = KeyReader::new(black_box(&key));
            r.literal("ORDER")?;
            let placed: NaiveDate = r.part()?;
            let id: u64 = r.part()?;
            r.finish()?;
            Ok::<_, ddb_entity::key::KeyError>((placed, id))
        })
    });
    g.bench_function("parse/split + parse", |b| {
        b.iter(|| {
            let mut parts = black_box(&key).split('#');
            let _literal = parts.next()?;
            let placed = parts.next()?.parse::<NaiveDate>().ok()?;
            let id = parts.next()?.parse::<u64>().ok()?;
            Some((placed, id))
        })
    });
    g.finish();
}

fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_millis(700))
        .sample_size(50)
}

criterion_group! {
    name = keys;
    config = config();
    targets = u64_, i64_, f64_, strings, datetime, whole_key
}
criterion_main!(keys);
