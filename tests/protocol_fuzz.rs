//! Random and mutated input to the protocol engine: it never panics, never writes to stderr,
//! answers every well-formed command and keeps running (docs/protocol.md, §10 checklist).
//!
//! The volume is set by `PROTOCOL_FUZZ_LINES` (default 100000; 10000 in unoptimised builds) and
//! the seed by `PROTOCOL_FUZZ_SEED`.

mod common;

use common::engine::{parse_moves, spawn_raw, wait_exit};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use std::collections::VecDeque;
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::RecvTimeoutError;
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

// ------------------------------------------------------------------------------------------------
// Fuzzing
// ------------------------------------------------------------------------------------------------

/// Command words, known and unknown (never `END`).
const WORDS: &[&str] = &[
    "START",
    "RECTSTART",
    "RESTART",
    "BEGIN",
    "TURN",
    "BOARD",
    "YXBOARD",
    "INFO",
    "ABOUT",
    "TAKEBACK",
    "PLAY",
    "SUGGEST",
    "SWAP2BOARD",
    "YXSHOWFORBID",
    "YXNBEST",
    "YXBALANCEONE",
    "YXBALANCETWO",
    "YXHASHCLEAR",
    "YXSHOWINFO",
    "YXSTOP",
    "STOP",
    "YXBLOCK",
    "YXBLOCKUNDO",
    "YXBLOCKRESET",
    "YXSEARCHDEFEND",
    "YXDRAW",
    "YXRESIGN",
    "YXSHOWHASHUSAGE",
    "DONE",
    "SWAP",
    "yxforbid",
    "YXPRINTFEATURE",
];
/// Multi-line heads (implemented or not).
const MULTI: &[&str] = &[
    "BOARD",
    "YXBOARD",
    "SWAP2BOARD",
    "YXBLOCK",
    "YXBLOCKUNDO",
    "YXBLOCKPATH",
    "YXBLOCKPATHUNDO",
    "YXQUERYDATABASEALL",
    "YXQUERYDATABASEONE",
    "YXQUERYDATABASETEXT",
    "YXEDITTVDDATABASE",
    "YXDELETEDATABASEALL",
    "YXSWAP2STEP2",
    "YXSOOSORVSTEP4",
    "RIFSTEP1",
    "FIFTHOFFER",
];
/// Commands followed by a path line.
const PATH: &[&str] = &[
    "YXHASHDUMP",
    "YXHASHLOAD",
    "YXSETDATABASE",
    "YXDBTOTXT",
    "YXSAVEDATABASE",
];
/// INFO keys the fuzzer may send with any value.
const SAFE_INFO: &[&str] = &[
    "rule",
    "game_type",
    "time_left",
    "folder",
    "caution_factor",
    "show_detail",
    "pondering",
    "evaluate",
    "vcthread",
    "nbestsym",
    "usedatabase",
    "time_increment",
    "start_depth",
    "thread_split_depth",
    "swapable",
    "analysis_mode",
    "some_unknown_key",
];
/// INFO keys the fuzzer must not change (searches must stay tiny).
const FIXED_INFO: &[&str] = &[
    "timeout_turn",
    "timeout_match",
    "max_node",
    "max_depth",
    "thread_num",
    "max_memory",
    "hash_size",
];
/// Odd numbers and non-numbers for coordinates and arguments.
const ODD_NUMBERS: &[&str] = &[
    "-1",
    "-7",
    "-2147483648",
    "2147483647",
    "2147483648",
    "9223372036854775807",
    "9223372036854775808",
    "-9223372036854775809",
    "99999999999999999999999999",
    "22",
    "23",
    "255",
    "256",
    "65536",
    "1e3",
    "0x10",
    "+5",
    "07",
    "1.5",
    "x",
    "",
    " ",
    "NaN",
    "٣",
    "½",
    "--1",
];

/// Whether the engine could read `bytes` as `END` or as an INFO for a fixed key (replicating
/// its line splitting and trimming).
fn is_forbidden(bytes: &[u8]) -> bool {
    bytes.split(|&b| b == b'\n' || b == b'\r').any(|part| {
        let s = String::from_utf8_lossy(part);
        let t = s.trim_matches(|c: char| c.is_whitespace() || c == '\0');
        let w = t
            .split_whitespace()
            .next()
            .unwrap_or("")
            .to_ascii_uppercase();
        if w == "END" {
            return true;
        }
        if w == "INFO" {
            let rest = t[w.len()..].trim();
            let key = rest
                .split(char::is_whitespace)
                .next()
                .unwrap_or("")
                .to_ascii_lowercase();
            return FIXED_INFO.contains(&key.as_str());
        }
        false
    })
}

struct Fuzzer {
    rng: StdRng,
}

impl Fuzzer {
    fn number(&mut self) -> String {
        if self.rng.gen_bool(0.85) {
            self.rng.gen_range(0..22).to_string()
        } else {
            (*ODD_NUMBERS.choose(&mut self.rng).unwrap_or(&"0")).to_string()
        }
    }

    fn xy(&mut self) -> String {
        format!("{},{}", self.number(), self.number())
    }

    fn random_case(&mut self, s: &str) -> String {
        match self.rng.gen_range(0..4) {
            0 => s.to_ascii_lowercase(),
            1 => s
                .chars()
                .map(|c| {
                    if self.rng.gen_bool(0.5) {
                        c.to_ascii_lowercase()
                    } else {
                        c.to_ascii_uppercase()
                    }
                })
                .collect(),
            _ => s.to_string(),
        }
    }

    fn random_word(&mut self) -> String {
        if self.rng.gen_bool(0.6) {
            let w = *WORDS.choose(&mut self.rng).unwrap_or(&"ABOUT");
            self.random_case(w)
        } else {
            let n = self.rng.gen_range(1..12);
            (0..n)
                .map(|_| (b'A' + self.rng.gen_range(0..26)) as char)
                .collect()
        }
    }

    /// A payload line: a stone, a point, or junk.
    fn payload_line(&mut self) -> String {
        match self.rng.gen_range(0..10) {
            0..=4 => format!("{},{}", self.xy(), self.rng.gen_range(1..4)),
            5..=7 => self.xy(),
            8 => format!("{},{}", self.xy(), self.number()),
            _ => self.junk_text(20),
        }
    }

    fn junk_text(&mut self, max: usize) -> String {
        let n = self.rng.gen_range(0..max);
        (0..n)
            .map(|_| match self.rng.gen_range(0..10) {
                0 => ' ',
                1 => ',',
                2 => char::from_u32(self.rng.gen_range(0x80..0x3000)).unwrap_or('?'),
                3 => '\t',
                _ => (b' ' + self.rng.gen_range(1..95)) as char,
            })
            .collect()
    }

    /// A multi-line block with a random payload, ended by `DONE` most of the time.
    fn multi_line(&mut self, head: &str) -> Vec<Vec<u8>> {
        let mut v = vec![self.random_case(head).into_bytes()];
        let n = if self.rng.gen_bool(0.1) {
            self.rng.gen_range(0..60)
        } else {
            self.rng.gen_range(0..12)
        };
        for _ in 0..n {
            v.push(self.payload_line().into_bytes());
        }
        if self.rng.gen_bool(0.95) {
            v.push(self.random_case("DONE").into_bytes());
        }
        v
    }

    /// A well-formed command (possibly several lines).
    fn valid(&mut self) -> Vec<Vec<u8>> {
        let one = |s: String| vec![s.into_bytes()];
        match self.rng.gen_range(0..24) {
            0 => one(format!("START {}", self.rng.gen_range(5..23))),
            1 => one(format!("RECTSTART {0},{0}", self.rng.gen_range(5..23))),
            2 => one("RESTART".into()),
            3 => one("BEGIN".into()),
            4..=6 => one(format!("TURN {}", self.xy())),
            7 => one(format!("TAKEBACK {}", self.xy())),
            8 => one(format!("PLAY {}", self.xy())),
            9 | 10 => {
                let head = if self.rng.gen_bool(0.5) {
                    "BOARD"
                } else {
                    "YXBOARD"
                };
                let n = self.rng.gen_range(0..30);
                let mut v = vec![head.as_bytes().to_vec()];
                for i in 0..n {
                    let f = if self.rng.gen_bool(0.05) {
                        3
                    } else {
                        1 + i % 2
                    };
                    let (x, y) = (self.rng.gen_range(0..15), self.rng.gen_range(0..15));
                    v.push(format!("{x},{y},{f}").into_bytes());
                }
                v.push(b"DONE".to_vec());
                v
            }
            11 => {
                let key = *SAFE_INFO.choose(&mut self.rng).unwrap_or(&"rule");
                let value = match key {
                    "rule" => [0, 1, 2, 4, 5, 8, 9, 3, 16, -1]
                        .choose(&mut self.rng)
                        .copied()
                        .unwrap_or(0)
                        .to_string(),
                    "folder" => "/tmp/renju fuzz".to_string(),
                    "evaluate" => self.xy(),
                    _ => self.number(),
                };
                one(format!("INFO {key} {value}"))
            }
            12 => one("ABOUT".into()),
            13 => one("YXSHOWFORBID".into()),
            14 => one(format!("YXNBEST {}", self.rng.gen_range(1..4))),
            15 => one(format!("YXBALANCEONE {}", self.rng.gen_range(-500..500))),
            16 => one(format!("YXBALANCETWO {}", self.rng.gen_range(-500..500))),
            17 => one("YXHASHCLEAR".into()),
            18 => one("YXSHOWINFO".into()),
            19 => one(if self.rng.gen_bool(0.5) {
                "YXSTOP"
            } else {
                "STOP"
            }
            .into()),
            20 => {
                let head = ["YXBLOCK", "YXBLOCKUNDO"][self.rng.gen_range(0..2)];
                let mut v = vec![head.as_bytes().to_vec()];
                for _ in 0..self.rng.gen_range(0..5) {
                    v.push(self.xy().into_bytes());
                }
                v.push(b"DONE".to_vec());
                v
            }
            21 => one("YXBLOCKRESET".into()),
            22 => {
                let n = [0, 3, 5, 1, 4][self.rng.gen_range(0..5)];
                let mut v = vec![b"SWAP2BOARD".to_vec()];
                for _ in 0..n {
                    let (x, y) = (self.rng.gen_range(4..11), self.rng.gen_range(4..11));
                    v.push(format!("{x},{y}").into_bytes());
                }
                v.push(b"DONE".to_vec());
                v
            }
            _ => {
                let head = *PATH.choose(&mut self.rng).unwrap_or(&"YXHASHDUMP");
                if self.rng.gen_bool(0.5) {
                    vec![head.as_bytes().to_vec(), b"/tmp/fuzz path.db".to_vec()]
                } else {
                    one(format!("{head} /tmp/x"))
                }
            }
        }
    }

    /// Mutate one line.
    fn mutate(&mut self, line: &[u8]) -> Vec<u8> {
        let s = String::from_utf8_lossy(line).into_owned();
        let chars: Vec<char> = s.chars().collect();
        match self.rng.gen_range(0..9) {
            0 => self.random_case(&s).into_bytes(),
            1 => {
                let cut = self.rng.gen_range(0..=chars.len());
                chars[..cut].iter().collect::<String>().into_bytes()
            }
            2 => {
                let extra = match self.rng.gen_range(0..5) {
                    0 => format!(" {}", self.number()),
                    1 => format!(" {}", self.xy()),
                    2 => format!(",{}", self.number()),
                    3 => format!(" {} {}", self.random_word(), self.xy()),
                    _ => format!(" {}", self.junk_text(10)),
                };
                format!("{s}{extra}").into_bytes()
            }
            3 => {
                // Replace every number with an odd one.
                let mut out = String::new();
                let mut in_num = false;
                for c in chars {
                    if c.is_ascii_digit() {
                        if !in_num {
                            out.push_str(&self.number());
                        }
                        in_num = true;
                    } else {
                        in_num = false;
                        out.push(c);
                    }
                }
                out.into_bytes()
            }
            4 if !chars.is_empty() => {
                let i = self.rng.gen_range(0..chars.len());
                let mut c = chars;
                c.remove(i);
                c.into_iter().collect::<String>().into_bytes()
            }
            5 => {
                let i = self.rng.gen_range(0..=chars.len());
                let mut c = chars;
                let ins = match self.rng.gen_range(0..6) {
                    0 => '\0',
                    1 => '\t',
                    2 => ',',
                    3 => ' ',
                    4 => char::from_u32(self.rng.gen_range(0x80..0x1_0000)).unwrap_or('?'),
                    _ => (b' ' + self.rng.gen_range(1..95)) as char,
                };
                c.insert(i, ins);
                c.into_iter().collect::<String>().into_bytes()
            }
            6 => s
                .replace(',', [" ", ";", ",,", ", ", ""][self.rng.gen_range(0..5)])
                .into_bytes(),
            7 => {
                // Raw byte damage, possibly invalid UTF-8.
                let mut b = line.to_vec();
                let i = self.rng.gen_range(0..=b.len());
                b.insert(i, [0xff, 0xc3, 0x80, 0xfe, 0xe2][self.rng.gen_range(0..5)]);
                b
            }
            _ => {
                let mut w: Vec<&str> = s.split_whitespace().collect();
                w.shuffle(&mut self.rng);
                w.join(" ").into_bytes()
            }
        }
    }

    fn random_bytes(&mut self) -> Vec<u8> {
        let n = self.rng.gen_range(0..120);
        (0..n)
            .map(|_| {
                let b: u8 = self.rng.gen();
                // Mostly no line breaks; now and then a lone CR splits the line.
                if b == b'\n' || (b == b'\r' && self.rng.gen_bool(0.7)) {
                    b'#'
                } else {
                    b
                }
            })
            .collect()
    }

    fn long_line(&mut self) -> Vec<u8> {
        let n = self.rng.gen_range(1_000..100_000);
        match self.rng.gen_range(0..6) {
            0 => format!("TURN {},{}", "9".repeat(n), "1".repeat(n)),
            1 => format!("START {}", "1".repeat(n)),
            2 => "A".repeat(n),
            3 => format!("INFO folder {}", "x".repeat(n)),
            4 => format!("{} {}", self.random_word(), " ,".repeat(n / 2)),
            _ => (0..n)
                .map(|_| char::from(self.rng.gen_range(32u8..127)))
                .collect(),
        }
        .into_bytes()
    }

    /// The next group of lines to feed (never `END`, never a fixed INFO key).
    fn next(&mut self) -> Vec<Vec<u8>> {
        loop {
            let group = match self.rng.gen_range(0..1000) {
                0..=399 => self.valid(),
                400..=649 => {
                    let mut g = self.valid();
                    let i = self.rng.gen_range(0..g.len());
                    g[i] = self.mutate(&g[i]);
                    g
                }
                650..=779 => {
                    let w = self.random_word();
                    let mut l = w;
                    for _ in 0..self.rng.gen_range(0..4) {
                        l.push(' ');
                        let a = if self.rng.gen_bool(0.5) {
                            self.xy()
                        } else {
                            self.number()
                        };
                        l.push_str(&a);
                    }
                    vec![l.into_bytes()]
                }
                780..=879 => {
                    let head = *MULTI.choose(&mut self.rng).unwrap_or(&"BOARD");
                    self.multi_line(head)
                }
                880..=979 => vec![self.random_bytes()],
                980..=997 => vec![self.junk_text(60).into_bytes()],
                _ => vec![self.long_line()],
            };
            if !group.iter().any(|l| is_forbidden(l)) {
                return group;
            }
        }
    }
}

/// Whether `line` is a line the engine may print (§3).
fn well_formed(line: &str) -> bool {
    let texted = |prefix: &str| line.strip_prefix(prefix).is_some_and(|t| !t.is_empty());
    if line == "OK" || line == "SWAP" || line.starts_with("name=\"") {
        return true;
    }
    if texted("ERROR ") || texted("UNKNOWN ") || texted("MESSAGE ") || texted("DEBUG ") {
        return true;
    }
    if let Some(list) = line
        .strip_prefix("FORBID ")
        .and_then(|s| s.strip_suffix('.'))
    {
        return list.len() % 4 == 0
            && list.bytes().all(|b| b.is_ascii_digit())
            && (0..list.len() / 4).all(|i| {
                let x: i64 = list[i * 4..i * 4 + 2].parse().unwrap_or(99);
                let y: i64 = list[i * 4 + 2..i * 4 + 4].parse().unwrap_or(99);
                x < 22 && y < 22
            });
    }
    // Yixin-Board's analysis block (`show_detail` 2 and 3): a known key and a value.
    if let Some((key, value)) = line.strip_prefix("INFO ").and_then(|r| r.split_once(' ')) {
        let keys = [
            "PV",
            "NUMPV",
            "DEPTH",
            "SELDEPTH",
            "NODES",
            "TOTALNODES",
            "TOTALTIME",
            "SPEED",
            "EVAL",
            "WINRATE",
            "BESTLINE",
        ];
        return keys.contains(&key) && !value.is_empty();
    }
    parse_moves(line).is_some_and(|v| v.iter().all(|&(x, y)| x < 22 && y < 22))
}

/// Lines fed between two synchronisation points.
const CHUNK: usize = 250;

/// What the writer thread reports.
struct FeedReport {
    fed: usize,
    syncs: usize,
    error: Option<String>,
    last: VecDeque<String>,
}

/// The checks used by the fuzz test accept and refuse what they should.
#[test]
fn harness_self_check() {
    for good in [
        "OK",
        "SWAP",
        "7,7",
        "0,0 21,21",
        "7,7 8,7 6,8",
        "ERROR bad coordinates",
        "UNKNOWN command FOO",
        "MESSAGE depth 3",
        "DEBUG x",
        "FORBID .",
        "FORBID 07070812.",
        "name=\"x\", version=\"1\"",
        "INFO PV DONE",
        "INFO EVAL +M5",
        "INFO BESTLINE 7,7 8,8",
    ] {
        assert!(well_formed(good), "{good:?} should be accepted");
    }
    for bad in [
        "",
        "ERROR",
        "UNKNOWN",
        "MESSAGE",
        "7,7 ",
        "7,7  8,8",
        "22,0",
        "0,22",
        "-1,3",
        "7,7,1",
        "7",
        "FORBID 070.",
        "FORBID 0707",
        "FORBID 2200.",
        "SUGGEST 7,7",
        "ok",
        "garbage",
        "INFO",
        "INFO PV",
        "INFO timeout_turn 5",
    ] {
        assert!(!well_formed(bad), "{bad:?} should be refused");
    }
    for f in [
        &b"END"[..],
        b"end",
        b"  eNd  extra",
        b"\0END\0",
        b"junk\rEND",
        b"INFO TIMEOUT_TURN 99",
        b"info max_node 1",
        b"INFO  thread_num\t4",
    ] {
        assert!(
            is_forbidden(f),
            "{:?} should be filtered",
            String::from_utf8_lossy(f)
        );
    }
    for f in [&b"ENDX"[..], b"INFO rule 4", b"BEGIN", b"x END"] {
        assert!(
            !is_forbidden(f),
            "{:?} should pass",
            String::from_utf8_lossy(f)
        );
    }
}

/// §1, §3, §10: a long random session never crashes the engine, never makes it print a
/// malformed line, and ends with exit code 0 on END.
#[test]
fn fuzz_random_and_mutated_lines() {
    // Unoptimised builds are about ten times slower; they feed fewer lines unless asked.
    let default_total = if cfg!(debug_assertions) {
        10_000
    } else {
        100_000
    };
    let total: usize = std::env::var("PROTOCOL_FUZZ_LINES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default_total);
    let seed: u64 = std::env::var("PROTOCOL_FUZZ_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0x5eed_2024);
    println!("fuzz: {total} lines, seed {seed}");
    let started = Instant::now();
    let (mut child, mut stdin, lines, stderr, bad_utf8) = spawn_raw(&[]);
    let acked = Arc::new(AtomicUsize::new(0));
    let done_writing = Arc::new(AtomicBool::new(false));
    let writer = {
        let acked = acked.clone();
        let done_writing = done_writing.clone();
        thread::spawn(move || {
            let mut fz = Fuzzer {
                rng: StdRng::seed_from_u64(seed),
            };
            let mut rep = FeedReport {
                fed: 0,
                syncs: 0,
                error: None,
                last: VecDeque::new(),
            };
            let mut buf: Vec<u8> = Vec::new();
            let put = |buf: &mut Vec<u8>, rep: &mut FeedReport, l: &[u8]| {
                buf.extend_from_slice(l);
                buf.push(b'\n');
                if rep.last.len() == 60 {
                    rep.last.pop_front();
                }
                let shown: String = String::from_utf8_lossy(l).chars().take(200).collect();
                rep.last.push_back(shown);
            };
            for l in [
                "INFO timeout_turn 5",
                "INFO max_node 300",
                "INFO max_depth 64",
                "INFO thread_num 1",
            ] {
                put(&mut buf, &mut rep, l.as_bytes());
            }
            let mut in_chunk = 0;
            while rep.fed < total {
                for l in fz.next() {
                    put(&mut buf, &mut rep, &l);
                    rep.fed += 1;
                    in_chunk += 1;
                }
                if in_chunk >= CHUNK || rep.fed >= total {
                    in_chunk = 0;
                    // DONE ends any open payload or path line, then a unique unknown word.
                    rep.syncs += 1;
                    let s = format!("DONE\nZZSYNC_{}", rep.syncs);
                    put(&mut buf, &mut rep, s.as_bytes());
                    if let Err(err) = stdin.write_all(&buf).and_then(|()| stdin.flush()) {
                        rep.error = Some(format!("write failed: {err}"));
                        return rep;
                    }
                    buf.clear();
                    // Stay at most two chunks ahead of the engine.
                    let wait = Instant::now();
                    while rep.syncs > acked.load(Ordering::Relaxed) + 2 {
                        if wait.elapsed() > Duration::from_secs(30) {
                            rep.error = Some("no progress for 30 s".into());
                            return rep;
                        }
                        thread::sleep(Duration::from_millis(1));
                    }
                }
            }
            let wait = Instant::now();
            while rep.syncs > acked.load(Ordering::Relaxed) {
                if wait.elapsed() > Duration::from_secs(30) {
                    rep.error = Some("the last chunk was not processed within 30 s".into());
                    return rep;
                }
                thread::sleep(Duration::from_millis(1));
            }
            done_writing.store(true, Ordering::Relaxed);
            if let Err(err) = stdin.write_all(b"DONE\nEND\n").and_then(|()| stdin.flush()) {
                rep.error = Some(format!("write of END failed: {err}"));
            }
            rep
        })
    };
    // Read and check every output line until the engine closes stdout.
    let mut answered = 0usize;
    let mut kinds = [0usize; 6];
    let mut malformed: Vec<String> = Vec::new();
    let mut after_end: Vec<String> = Vec::new();
    let mut tail: VecDeque<String> = VecDeque::new();
    let deadline = Instant::now() + Duration::from_secs(300);
    loop {
        match lines.recv_timeout(Duration::from_millis(200)) {
            Ok(l) => {
                answered += 1;
                let kind = ["OK", "ERROR", "UNKNOWN", "MESSAGE", "FORBID"]
                    .iter()
                    .position(|k| l.starts_with(k))
                    .unwrap_or(5);
                kinds[kind] += 1;
                if !well_formed(&l) && malformed.len() < 20 {
                    malformed.push(l.chars().take(300).collect());
                }
                if let Some(k) = l
                    .strip_prefix("UNKNOWN command ZZSYNC_")
                    .and_then(|k| k.parse::<usize>().ok())
                {
                    acked.store(k, Ordering::Relaxed);
                }
                if done_writing.load(Ordering::Relaxed) {
                    after_end.push(l.clone());
                }
                if tail.len() == 30 {
                    tail.pop_front();
                }
                tail.push_back(l.chars().take(200).collect());
            }
            Err(RecvTimeoutError::Disconnected) => break,
            Err(RecvTimeoutError::Timeout) => {
                if Instant::now() > deadline {
                    break;
                }
            }
        }
    }
    let rep = writer.join().expect("writer thread");
    let status = wait_exit(&mut child, Duration::from_secs(5));
    if status.is_none() {
        let _ = child.kill();
        let _ = child.wait();
    }
    let elapsed = started.elapsed();
    println!(
        "fuzz: fed {} lines in {} chunks, {answered} output lines, {elapsed:?}",
        rep.fed, rep.syncs
    );
    println!(
        "fuzz: output kinds: OK {}, ERROR {}, UNKNOWN {}, MESSAGE {}, FORBID {}, moves/other {}",
        kinds[0], kinds[1], kinds[2], kinds[3], kinds[4], kinds[5]
    );
    let context = format!(
        "last lines fed:\n{}\nlast lines received:\n{}",
        rep.last.iter().cloned().collect::<Vec<_>>().join("\n"),
        tail.iter().cloned().collect::<Vec<_>>().join("\n")
    );
    assert!(rep.error.is_none(), "fuzz: {:?}\n{context}", rep.error);
    match status {
        Some(s) if s.code() == Some(0) => {}
        other => {
            panic!("fuzz: the engine did not exit with code 0 after END: {other:?}\n{context}")
        }
    }
    assert!(
        malformed.is_empty(),
        "fuzz: malformed output lines: {malformed:#?}\n{context}"
    );
    let err = stderr.lock().unwrap().clone();
    assert!(
        err.is_empty(),
        "fuzz: the engine wrote to stderr: {:?}",
        String::from_utf8_lossy(&err)
    );
    assert_eq!(
        bad_utf8.load(Ordering::Relaxed),
        0,
        "fuzz: non-UTF-8 output"
    );
    assert!(rep.fed >= total, "fuzz: only {} lines fed", rep.fed);
    assert!(
        after_end
            .iter()
            .all(|l| l.starts_with("UNKNOWN command DONE")),
        "fuzz: output after the final DONE/END: {after_end:?}"
    );
}
