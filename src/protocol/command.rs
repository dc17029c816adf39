//! Parsing protocol lines into commands: pure functions, no I/O.
//!
//! The reader assembles multi-line commands (a head line plus payload lines up to `DONE`)
//! before they reach the engine, so a payload line is never mistaken for a command.

/// A parsed command. Coordinates stay as raw `(x, y)` integers; the engine checks them against
/// the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `START N` or Yixin-Board's `START W H`.
    Start(Vec<i64>),
    /// `RECTSTART W,H`.
    RectStart(i64, i64),
    /// `RESTART`.
    Restart,
    /// `BEGIN`.
    Begin,
    /// `TURN x,y`.
    Turn(i64, i64),
    /// `BOARD` with its `x,y,f` lines (raw text, checked by the engine).
    Board(Vec<String>),
    /// `YXBOARD`: like `BOARD` but no move is wanted.
    YxBoard(Vec<String>),
    /// `INFO key value`.
    Info(String, String),
    /// `END`.
    End,
    /// `ABOUT`.
    About,
    /// `TAKEBACK x,y`.
    Takeback(i64, i64),
    /// `PLAY x,y` (after a `SUGGEST`).
    Play(i64, i64),
    /// `SWAP2BOARD` with its stone lines.
    Swap2Board(Vec<String>),
    /// `YXSHOWFORBID`.
    ShowForbid,
    /// `YXNBEST n`.
    NBest(i64),
    /// `YXSEARCHDEFEND`: every root move searched with a value of its own.
    SearchDefend,
    /// `YXBALANCEONE b`.
    BalanceOne(i64),
    /// `YXBALANCETWO b`.
    BalanceTwo(i64),
    /// `YXHASHCLEAR`.
    HashClear,
    /// `YXSHOWINFO`.
    ShowInfo,
    /// `YXSTOP` or `STOP`.
    Stop,
    /// `YXBLOCK` with its `x,y` lines.
    Block(Vec<String>),
    /// `YXBLOCKUNDO` with its `x,y` lines.
    BlockUndo(Vec<String>),
    /// `YXBLOCKRESET`.
    BlockReset,
    /// An opening-rule step (Yixin-Board's `YXSWAP2STEP*`/`YXSOOSORVSTEP*` or the documented
    /// extension in `docs/opening-protocol.md`): the command word, its number argument, the
    /// stone lines and, for the "choose a fifth" steps, the offers line.
    Step {
        /// Upper-cased command word.
        name: String,
        /// The integer after the word, if any.
        n: Option<i64>,
        /// Payload lines (stones in move order).
        stones: Vec<String>,
        /// The offers line read after `DONE`, for the choosing steps.
        offers: Option<String>,
    },
    /// A database command of Yixin-Board (`YXQUERYDATABASEALL`, `YXEDITLABELDATABASE`,
    /// `YXSETDATABASE`, `YXDBTOTXT`, ...): the upper-cased word. Its payload (a move list, or a
    /// path line) is consumed; the engine has no database and answers as an empty one.
    Database(String),
    /// A command we do not implement (its payload, if any, already consumed).
    Unknown(String),
    /// A known command with bad arguments.
    Malformed(String),
}

/// Commands followed by payload lines up to `DONE`.
const MULTI_LINE: &[&str] = &[
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
    "YXQUERYDATABASEALLT",
    "YXEDITTVDDATABASE",
    "YXEDITTEXTDATABASE",
    "YXEDITLABELDATABASE",
    "YXDELETEDATABASEONE",
    "YXDELETEDATABASEALL",
    "YXSETBESTMOVEDATABASE",
    "YXCLEARBESTMOVEDATABASE",
    "SWAP1STBOARD",
];

/// Opening-rule steps (payload or not, see [`is_multi_line`]).
const STEPS: &[&str] = &[
    "YXSWAP2STEP1",
    "YXSWAP2STEP2",
    "YXSWAP2STEP3",
    "YXSOOSORVSTEP1",
    "YXSOOSORVSTEP2",
    "YXSOOSORVSTEP3",
    "YXSOOSORVSTEP4",
    "YXSOOSORVSTEP5",
    "YXSOOSORVSTEP6",
    "SWAPBOARD",
    "RIFSTEP1",
    "RIFSTEP2",
    "RIFSTEP3",
    "RIFSTEP4",
    "RIFSTEP5",
    "YAMAGUCHISTEP1",
    "YAMAGUCHISTEP2",
    "YAMAGUCHISTEP3",
    "YAMAGUCHISTEP4",
    "YAMAGUCHISTEP5",
    "SOOSYRVSTEP1",
    "SOOSYRVSTEP2",
    "SOOSYRVSTEP3",
    "SOOSYRVSTEP4",
    "SOOSYRVSTEP5",
    "SOOSYRVSTEP6",
    "TARAGUCHISTEP1",
    "TARAGUCHISTEP2",
    "TARAGUCHISTEP3",
    "TARAGUCHISTEP4",
    "FIFTHOFFER",
    "FIFTHCHOOSE",
];

/// Steps whose `DONE` is followed by one line of offered fifth moves.
const CHOOSE_STEPS: &[&str] = &[
    "RIFSTEP5",
    "YAMAGUCHISTEP5",
    "SOOSYRVSTEP6",
    "TARAGUCHISTEP4",
    "FIFTHCHOOSE",
];

/// Whether the command word `w` is followed, after its `DONE`, by an offers line.
#[must_use]
pub fn takes_offers_line(w: &str) -> bool {
    CHOOSE_STEPS.contains(&w)
}

/// Commands followed by exactly one path line when the head line has no argument.
const PATH_LINE: &[&str] = &[
    "YXHASHDUMP",
    "YXHASHLOAD",
    "YXSETDATABASE",
    "YXDBTOTXT",
    "YXDBTOTXTALL",
    "YXDBTOPOS",
    "YXTXTTODB",
    "YXLIBTODB",
    "YXDBTOLIB",
    "YXDBSPLIT",
    "YXDBMERGE",
    "YXSAVEDATABASE",
];

/// The upper-cased command word of a line.
#[must_use]
pub fn word(line: &str) -> String {
    line.split_whitespace()
        .next()
        .unwrap_or("")
        .to_ascii_uppercase()
}

/// Opening steps sent without payload (the Yixin steps that act on the `yxboard` position, or
/// on an empty board).
const NO_PAYLOAD_STEPS: &[&str] = &[
    "YXSWAP2STEP1",
    "YXSWAP2STEP2",
    "YXSWAP2STEP3",
    "YXSOOSORVSTEP1",
];

/// Whether the command word `w` takes payload lines up to `DONE`.
#[must_use]
pub fn is_multi_line(w: &str) -> bool {
    MULTI_LINE.contains(&w) || (STEPS.contains(&w) && !NO_PAYLOAD_STEPS.contains(&w))
}

/// Whether the command line `line` (word `w`) is followed by one path line.
#[must_use]
pub fn takes_path_line(w: &str, line: &str) -> bool {
    PATH_LINE.contains(&w) && line.split_whitespace().count() == 1
}

/// Parse `x,y` (spaces around the comma allowed).
#[must_use]
pub fn parse_xy(s: &str) -> Option<(i64, i64)> {
    let (a, b) = s.split_once(',')?;
    Some((a.trim().parse().ok()?, b.trim().parse().ok()?))
}

/// Parse `x,y,f`.
#[must_use]
pub fn parse_xyf(s: &str) -> Option<(i64, i64, i64)> {
    let mut it = s.split(',');
    let x = it.next()?.trim().parse().ok()?;
    let y = it.next()?.trim().parse().ok()?;
    let f = it.next()?.trim().parse().ok()?;
    if it.next().is_some() {
        return None;
    }
    Some((x, y, f))
}

/// Parse one assembled command: the head line and, for multi-line commands, the payload lines
/// (without `DONE`).
#[must_use]
pub fn parse(head: &str, payload: Vec<String>) -> Command {
    let w = word(head);
    let rest = head.trim()[w.len().min(head.trim().len())..].trim();
    let arg_xy = |name: &str, f: fn(i64, i64) -> Command| match parse_xy(rest) {
        Some((x, y)) => f(x, y),
        None => Command::Malformed(format!("{name} expects x,y")),
    };
    let arg_int = |name: &str, f: fn(i64) -> Command, default: Option<i64>| match rest
        .split_whitespace()
        .next()
        .map(str::parse::<i64>)
    {
        Some(Ok(v)) => f(v),
        None if default.is_some() => f(default.unwrap_or(0)),
        _ => Command::Malformed(format!("{name} expects a number")),
    };
    match w.as_str() {
        "START" => {
            let nums: Result<Vec<i64>, _> = rest
                .split(|c: char| c.is_whitespace() || c == ',')
                .filter(|t| !t.is_empty())
                .map(str::parse::<i64>)
                .collect();
            match nums {
                Ok(v) if !v.is_empty() => Command::Start(v),
                _ => Command::Malformed("START expects a board size".into()),
            }
        }
        "RECTSTART" => match parse_xy(rest) {
            Some((a, b)) => Command::RectStart(a, b),
            None => Command::Malformed("RECTSTART expects width,height".into()),
        },
        "RESTART" => Command::Restart,
        "BEGIN" => Command::Begin,
        "TURN" => arg_xy("TURN", Command::Turn),
        "TAKEBACK" => arg_xy("TAKEBACK", Command::Takeback),
        "PLAY" => arg_xy("PLAY", Command::Play),
        "BOARD" => Command::Board(payload),
        "YXBOARD" => Command::YxBoard(payload),
        "SWAP2BOARD" => Command::Swap2Board(payload),
        "INFO" => {
            let mut it = rest.splitn(2, char::is_whitespace);
            let key = it.next().unwrap_or("").to_ascii_lowercase();
            let value = it.next().unwrap_or("").trim().to_string();
            Command::Info(key, value)
        }
        "END" => Command::End,
        "ABOUT" => Command::About,
        "YXSHOWFORBID" => Command::ShowForbid,
        "YXNBEST" => arg_int("YXNBEST", Command::NBest, None),
        "YXSEARCHDEFEND" => Command::SearchDefend,
        "YXBALANCEONE" => arg_int("YXBALANCEONE", Command::BalanceOne, Some(0)),
        "YXBALANCETWO" => arg_int("YXBALANCETWO", Command::BalanceTwo, Some(0)),
        "YXHASHCLEAR" => Command::HashClear,
        "YXSHOWINFO" => Command::ShowInfo,
        "YXSTOP" | "STOP" => Command::Stop,
        "YXBLOCK" => Command::Block(payload),
        "YXBLOCKUNDO" => Command::BlockUndo(payload),
        "YXBLOCKRESET" => Command::BlockReset,
        _ if STEPS.contains(&w.as_str()) => {
            let n = match rest.split_whitespace().next() {
                None => None,
                Some(t) => match t.parse::<i64>() {
                    Ok(v) => Some(v),
                    Err(_) => return Command::Malformed(format!("{w} expects a number")),
                },
            };
            Command::Step {
                name: w,
                n,
                stones: payload,
                offers: None,
            }
        }
        _ if is_database(&w) => Command::Database(w),
        _ => Command::Unknown(w),
    }
}

/// Whether `w` is one of Yixin-Board's database commands (every name with `DATABASE` in it,
/// and the `YXDB*` and `*TODB` file conversions).
#[must_use]
pub fn is_database(w: &str) -> bool {
    w.starts_with("YX") && (w.contains("DATABASE") || w.starts_with("YXDB") || w.ends_with("TODB"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_standard_commands() {
        assert_eq!(parse("start 15", vec![]), Command::Start(vec![15]));
        assert_eq!(parse("START 15 15", vec![]), Command::Start(vec![15, 15]));
        assert_eq!(parse("TURN 10,11", vec![]), Command::Turn(10, 11));
        assert_eq!(parse("turn 10, 11", vec![]), Command::Turn(10, 11));
        assert!(matches!(parse("TURN 10", vec![]), Command::Malformed(_)));
        assert!(matches!(parse("START x", vec![]), Command::Malformed(_)));
        assert_eq!(parse("RECTSTART 20,15", vec![]), Command::RectStart(20, 15));
        assert_eq!(
            parse("INFO timeout_turn 5000", vec![]),
            Command::Info("timeout_turn".into(), "5000".into())
        );
        assert_eq!(
            parse("INFO folder C:\\a b", vec![]),
            Command::Info("folder".into(), "C:\\a b".into())
        );
        assert_eq!(parse("yxbalanceone", vec![]), Command::BalanceOne(0));
        assert!(matches!(parse("YXNBEST", vec![]), Command::Malformed(_)));
        assert_eq!(parse("FOO 1 2", vec![]), Command::Unknown("FOO".into()));
        assert!(is_multi_line("YXQUERYDATABASEALL"));
        for w in [
            "YXQUERYDATABASEALL",
            "YXEDITLABELDATABASE",
            "YXSETDATABASE",
            "YXDBTOTXT",
            "YXLIBTODB",
            "YXCLEARBESTMOVEDATABASE",
        ] {
            assert!(is_database(w), "{w}");
            assert_eq!(parse(w, Vec::new()), Command::Database(w.to_string()));
        }
        for w in ["YXBLOCKPATH", "YXHASHDUMP", "YXSHOWINFO", "DATABASE"] {
            assert!(!is_database(w), "{w}");
        }
        assert!(takes_path_line("YXHASHDUMP", "yxhashdump"));
        assert!(!takes_path_line("YXHASHDUMP", "yxhashdump /tmp/x"));
        assert_eq!(parse_xyf("1,2,3"), Some((1, 2, 3)));
        assert_eq!(parse_xyf("1,2"), None);
        assert_eq!(parse_xyf("1,2,3,4"), None);
    }
}
