//! Opening-rule steps over the protocol: Yixin-Board's `yxswap2step1..3` and
//! `yxsoosorvstep1..6`, and the documented extension (`docs/opening-protocol.md`): `SWAPBOARD`,
//! `RIFSTEP*`, `YAMAGUCHISTEP*`, `SOOSYRVSTEP*`, `TARAGUCHISTEP*`, `FIFTHOFFER`, `FIFTHCHOOSE`.
//!
//! Each step is a pure function from the request to the reply lines (or an `ERROR` reason); the
//! engine's own board is not changed (the manager sends the follow-up `BOARD`).

use super::command::parse_xy;
use crate::board::Board;
use crate::eval::win_rate;
use crate::opening::{board_of, equivalent, rif_opening, Decider, RIF26};
use crate::rules;
use crate::types::{Color, Pos, Rule};
use std::time::Duration;

/// Everything a step needs.
pub struct StepRequest<'a> {
    /// Command word (upper case).
    pub name: &'a str,
    /// Number argument.
    pub n: Option<i64>,
    /// Stone lines (move order) — for the Yixin steps without payload, the engine's board.
    pub stones: Vec<Pos>,
    /// Offered fifths (choosing steps).
    pub offers: Vec<Pos>,
    /// Rule and board side.
    pub rule: Rule,
    /// Board side.
    pub size: usize,
    /// Time budget of the step.
    pub budget: Duration,
}

/// Parse `x,y` lines into cells of a board of side `size`.
///
/// # Errors
/// The first bad or off-board line.
pub fn parse_stones(lines: &[String], size: usize) -> Result<Vec<Pos>, String> {
    lines
        .iter()
        .map(|l| {
            let (x, y) = parse_xy(l).ok_or_else(|| format!("bad stone line '{l}'"))?;
            if x < 0 || y < 0 || x >= size as i64 || y >= size as i64 {
                return Err(format!("stone {x},{y} is off the board"));
            }
            Ok(Pos::new(x as usize, y as usize, size))
        })
        .collect()
}

/// Parse an offers line `x,y x,y ...`.
///
/// # Errors
/// A bad or off-board coordinate.
pub fn parse_offers(line: &str, size: usize) -> Result<Vec<Pos>, String> {
    let toks: Vec<String> = line.split_whitespace().map(str::to_string).collect();
    parse_stones(&toks, size)
}

fn xy(p: Pos, size: usize) -> String {
    p.to_gomocup(size)
}

fn yx_pair(p: Pos, size: usize) -> String {
    format!("{} {}", p.x(size), p.y(size))
}

fn join(ps: &[Pos], size: usize) -> String {
    ps.iter()
        .map(|&p| xy(p, size))
        .collect::<Vec<_>>()
        .join(" ")
}

fn expect_count(r: &StepRequest, counts: &[usize]) -> Result<Board, String> {
    if !counts.contains(&r.stones.len()) {
        return Err(format!(
            "{} expects {} stone(s), got {}",
            r.name,
            counts
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(" or "),
            r.stones.len()
        ));
    }
    board_of(r.rule, r.size, &r.stones)
}

fn n_in(r: &StepRequest, lo: i64, hi: i64, default: i64) -> Result<usize, String> {
    let n = r.n.unwrap_or(default);
    if n < lo || n > hi {
        return Err(format!("{}: N = {n} is out of range {lo}..={hi}", r.name));
    }
    Ok(n as usize)
}

/// Validate `offers` for the 4-stone position `b`: `n` distinct empty legal cells, pairwise
/// not equivalent.
fn check_offers(b: &mut Board, offers: &[Pos], n: usize) -> Result<(), String> {
    if offers.len() != n {
        return Err(format!(
            "expected {n} offered fifth(s), got {}",
            offers.len()
        ));
    }
    for (i, &p) in offers.iter().enumerate() {
        if !b.is_empty(p) || offers[..i].contains(&p) {
            return Err("an offered fifth is occupied or repeated".into());
        }
        if !rules::legal(b, p, Color::Black) {
            return Err("an offered fifth is a foul".into());
        }
        if offers[..i].iter().any(|&q| equivalent(b, p, q)) {
            return Err("two offered fifths are symmetric".into());
        }
    }
    Ok(())
}

fn choose_and_play(d: &mut Decider, b: &Board, offers: &[Pos], size: usize) -> Vec<String> {
    let f = d.choose_fifth(b, offers);
    let mut b6 = b.clone();
    b6.play_unchecked(f);
    let m6 = d.best_move(&b6);
    vec![format!("{} {}", xy(f, size), xy(m6, size))]
}

fn opening_three(d: &mut Decider, r: &StepRequest) -> [Pos; 3] {
    d.propose_three(r.rule, r.size)
}

/// Taraguchi zone of stone number `k` (1-based): Chebyshev distance from the centre ≤ k − 1.
fn in_zone(p: Pos, k: usize, size: usize) -> bool {
    let c = (size / 2) as i64;
    let dx = (p.x(size) as i64 - c).abs();
    let dy = (p.y(size) as i64 - c).abs();
    dx.max(dy) < k as i64
}

/// Execute one step; the reply lines, or an `ERROR` reason.
///
/// # Errors
/// An invalid request: wrong stone count, occupied or off-board stones, N out of range, bad
/// offers.
pub fn execute(r: &StepRequest) -> Result<Vec<String>, String> {
    execute_noted(r).map(|(_, lines)| lines)
}

/// [`execute`], with the decider's notes of what the decisions were based on (values, win
/// rates; for the log as `MESSAGE` lines).
///
/// # Errors
/// As [`execute`].
pub fn execute_noted(r: &StepRequest) -> Result<(Vec<String>, Vec<String>), String> {
    let d = &mut Decider::timed(r.budget.mul_f64(0.8));
    let lines = decide(d, r)?;
    Ok((std::mem::take(&mut d.notes), lines))
}

/// The reply lines of step `r`, decided by `d`.
fn decide(d: &mut Decider, r: &StepRequest) -> Result<Vec<String>, String> {
    match r.name {
        "YXSWAP2STEP1" | "YXSWAP2STEP2" | "YXSWAP2STEP3" => yixin_swap2(d, r),
        "YXSOOSORVSTEP1" | "YXSOOSORVSTEP2" | "YXSOOSORVSTEP3" => yixin_soosorv_first(d, r),
        "YXSOOSORVSTEP4" | "YXSOOSORVSTEP5" | "YXSOOSORVSTEP6" => yixin_soosorv_fifth(d, r),
        "SWAPBOARD" | "RIFSTEP1" | "YAMAGUCHISTEP1" | "SOOSYRVSTEP1" if r.stones.is_empty() => {
            propose_opening(d, r)
        }
        "SWAPBOARD" | "RIFSTEP2" | "YAMAGUCHISTEP2" | "SOOSYRVSTEP2" => swap_or_fourth(d, r),
        "RIFSTEP3" | "YAMAGUCHISTEP3" | "SOOSYRVSTEP3" => {
            let b = expect_count(r, &[3])?;
            fourth(d, r, &b)
        }
        "SOOSYRVSTEP4" => {
            let n = n_in(r, 1, 8, 1)?;
            let b = expect_count(r, &[4])?;
            if d.within(0.4, |d| d.should_swap(&b)) {
                return Ok(vec!["SWAP".into()]);
            }
            Ok(vec![join(&d.offer_fifths(&b, n), r.size)])
        }
        "RIFSTEP4" | "YAMAGUCHISTEP4" | "SOOSYRVSTEP5" | "TARAGUCHISTEP3" | "FIFTHOFFER" => {
            offer_fifths(d, r)
        }
        "RIFSTEP5" | "YAMAGUCHISTEP5" | "SOOSYRVSTEP6" | "TARAGUCHISTEP4" | "FIFTHCHOOSE" => {
            choose_fifth(d, r)
        }
        "TARAGUCHISTEP1" | "TARAGUCHISTEP2" => taraguchi_first(d, r),
        _ => Err(format!("{} is not valid here", r.name)),
    }
}

fn yes_no(yes: bool) -> &'static str {
    if yes {
        "YES"
    } else {
        "NO"
    }
}

/// Yixin-Board swap2: step 1 the three stones, step 2 swap / stay / two more stones, step 3
/// swap or not, each as `MESSAGE SWAP2 ...` lines with row-first coordinates.
fn yixin_swap2(d: &mut Decider, r: &StepRequest) -> Result<Vec<String>, String> {
    let size = r.size;
    match r.name {
        "YXSWAP2STEP1" => {
            let s = opening_three(d, r);
            Ok((0..3)
                .map(|i| format!("MESSAGE SWAP2 MOVE{} {}", i + 1, yx_pair(s[i], size)))
                .collect())
        }
        "YXSWAP2STEP2" => {
            let b = expect_count(r, &[3])?;
            Ok(match d.swap2_after_three(&b) {
                None => vec!["MESSAGE SWAP2 SWAP1 YES".into()],
                Some(v) if v.len() == 1 => vec!["MESSAGE SWAP2 SWAP1 NO".into()],
                Some(v) => vec![
                    format!("MESSAGE SWAP2 MOVE4 {}", yx_pair(v[0], size)),
                    format!("MESSAGE SWAP2 MOVE5 {}", yx_pair(v[1], size)),
                ],
            })
        }
        _ => {
            let b = expect_count(r, &[5])?;
            // White to move: swap (take black) when white is worse.
            Ok(vec![format!(
                "MESSAGE SWAP2 SWAP2 {}",
                yes_no(d.should_swap(&b))
            )])
        }
    }
}

/// Yixin-Board Soosorv steps 1-3: the three stones, the first swap, the fourth move with the
/// number of fifths to ask for.
fn yixin_soosorv_first(d: &mut Decider, r: &StepRequest) -> Result<Vec<String>, String> {
    let size = r.size;
    match r.name {
        "YXSOOSORVSTEP1" => {
            let s = d.propose_three(Rule::Renju, size);
            Ok((0..3)
                .map(|i| format!("MESSAGE SOOSORV MOVE{} {}", i + 1, yx_pair(s[i], size)))
                .collect())
        }
        "YXSOOSORVSTEP2" => {
            let b = expect_count(r, &[3])?;
            let yes = d.should_swap(&b);
            Ok(vec![format!("MESSAGE SOOSORV SWAP1 {}", &yes_no(yes)[..1])])
        }
        _ => {
            let b = expect_count(r, &[3])?;
            let (m4, n) = fourth_and_count(d, &b, 8);
            Ok(vec![format!(
                "MESSAGE SOOSORV MOVE4 {} {n}",
                yx_pair(m4, size)
            )])
        }
    }
}

/// Yixin-Board Soosorv steps 4-6: the second swap, the offered fifths, the choice among them.
fn yixin_soosorv_fifth(d: &mut Decider, r: &StepRequest) -> Result<Vec<String>, String> {
    let size = r.size;
    match r.name {
        "YXSOOSORVSTEP4" => {
            n_in(r, 1, 8, 1)?;
            let b = expect_count(r, &[4])?;
            let yes = d.should_swap(&b);
            Ok(vec![format!("MESSAGE SOOSORV SWAP2 {}", &yes_no(yes)[..1])])
        }
        "YXSOOSORVSTEP5" => {
            let n = n_in(r, 1, 8, 1)?;
            let b = expect_count(r, &[4])?;
            let mut out: Vec<String> = d
                .offer_fifths(&b, n)
                .into_iter()
                .map(|p| format!("MESSAGE SOOSORV MOVE5 {}", yx_pair(p, size)))
                .collect();
            out.push("MESSAGE SOOSORV MOVE5 DONE".into());
            Ok(out)
        }
        _ => {
            if r.stones.len() < 5 {
                return Err("YXSOOSORVSTEP6 expects 4 stones and the offers".into());
            }
            let (pos, offers) = r.stones.split_at(4);
            let mut b = board_of(r.rule, size, pos)?;
            check_offers(&mut b, offers, offers.len())?;
            let f = d.choose_fifth(&b, offers);
            Ok(vec![format!("MESSAGE SOOSORV MOVE5C {}", yx_pair(f, size))])
        }
    }
}

/// Step 1 of the extension's swap rules: the three opening stones (Yamaguchi adds the number
/// of fifths black will offer).
fn propose_opening(d: &mut Decider, r: &StepRequest) -> Result<Vec<String>, String> {
    if r.name == "SOOSYRVSTEP1" {
        n_in(r, 1, 8, 8)?;
    }
    let (s, v) = if r.name == "SWAPBOARD" {
        d.propose_three_valued(r.rule, r.size)
    } else {
        d.propose_three_valued(Rule::Renju, r.size)
    };
    let mut line = join(&s, r.size);
    if r.name == "YAMAGUCHISTEP1" {
        // Declare more fifths when white (to move) is worse off, so the choice among them
        // evens the game: two, and one more per 2.5 points of white's win rate below one half.
        let short = (0.5 - win_rate(v, Rule::Renju)).max(0.0);
        let n = (2 + (short * 40.0) as i64).clamp(1, 12);
        line.push_str(&format!(" {n}"));
    }
    Ok(vec![line])
}

/// Step 2: swap, or play the fourth move (Soosyrv also names the number of fifths).
fn swap_or_fourth(d: &mut Decider, r: &StepRequest) -> Result<Vec<String>, String> {
    if r.name == "SOOSYRVSTEP2" {
        n_in(r, 1, 8, 8)?;
    }
    if r.name == "YAMAGUCHISTEP2" {
        n_in(r, 1, 12, 2)?;
    }
    let b = expect_count(r, &[3])?;
    if d.within(0.5, |d| d.should_swap(&b)) {
        return Ok(vec!["SWAP".into()]);
    }
    fourth(d, r, &b)
}

/// The fourth move on the three-stone `b` (Soosyrv: with the number of fifths to ask for).
fn fourth(d: &mut Decider, r: &StepRequest, b: &Board) -> Result<Vec<String>, String> {
    if r.name.starts_with("SOOSYRV") {
        let max = n_in(r, 1, 8, 8)?;
        let (m4, n) = fourth_and_count(d, b, max);
        return Ok(vec![format!("{} {n}", xy(m4, r.size))]);
    }
    Ok(vec![xy(d.best_move(b), r.size)])
}

/// Offer N non-symmetric fifths (RIF: two).
fn offer_fifths(d: &mut Decider, r: &StepRequest) -> Result<Vec<String>, String> {
    if r.name == "TARAGUCHISTEP3" {
        check_zones(&r.stones, r.size)?;
    }
    let n = if r.name == "RIFSTEP4" {
        2
    } else {
        n_in(r, 1, 64, 2)?
    };
    let b = expect_count(r, &[4])?;
    let offers = d.offer_fifths(&b, n);
    if offers.len() < n {
        return Err(format!("only {} non-symmetric fifths exist", offers.len()));
    }
    Ok(vec![join(&offers, r.size)])
}

/// Choose one of the offered fifths and play the sixth move.
fn choose_fifth(d: &mut Decider, r: &StepRequest) -> Result<Vec<String>, String> {
    if r.name == "TARAGUCHISTEP4" {
        check_zones(&r.stones, r.size)?;
    }
    let mut b = expect_count(r, &[4])?;
    let n = match r.n {
        Some(_) if r.name != "RIFSTEP5" => n_in(r, 1, 64, 2)?,
        _ => r.offers.len().max(1),
    };
    if r.name == "RIFSTEP5" && r.offers.len() != 2 {
        return Err("RIFSTEP5 expects two offered fifths".into());
    }
    check_offers(&mut b, &r.offers, n)?;
    Ok(choose_and_play(d, &b, &r.offers, r.size))
}

/// Taraguchi-10 steps 1 and 2: the next stone inside its zone (step 2 may swap first); after
/// four stones one fifth or N offered fifths, after five the sixth move.
fn taraguchi_first(d: &mut Decider, r: &StepRequest) -> Result<Vec<String>, String> {
    let size = r.size;
    let n = n_in(r, 1, 64, 10)?;
    let k = r.stones.len();
    if k > 5 || (r.name == "TARAGUCHISTEP2" && k == 0) {
        let want = if r.name == "TARAGUCHISTEP2" {
            "1..=5"
        } else {
            "0..=5"
        };
        return Err(format!("{} expects {want} stones, got {k}", r.name));
    }
    check_zones(&r.stones, size)?;
    let b = board_of(r.rule, size, &r.stones)?;
    if r.name == "TARAGUCHISTEP2" && d.within(0.4, |d| d.should_swap(&b)) {
        return Ok(vec!["SWAP".into()]);
    }
    if k == 0 {
        let c = size / 2;
        return Ok(vec![xy(Pos::new(c, c, size), size)]);
    }
    if k == 5 {
        // After a single fifth (choice 1): the sixth move, anywhere.
        return Ok(vec![xy(d.best_move(&b), size)]);
    }
    let mut bb = b.clone();
    if k == 4 {
        // Choice 1 (one fifth in the 9x9) or choice 2 (offer N fifths): offer when the best
        // single fifth leaves black worse off than white's pick among N offers.
        let single = d.within(0.3, |d| best_in_zone(d, &mut bb, 5))?;
        let offers = d.within(0.5, |d| d.offer_fifths(&b, n));
        d.plan(1 + offers.len());
        let v_single = value_after(d, &b, single);
        let v_offers = offers
            .iter()
            .map(|&p| value_after(d, &b, p))
            .min()
            .unwrap_or(i32::MIN);
        if offers.len() == n && v_offers > v_single {
            return Ok(vec![join(&offers, size)]);
        }
        return Ok(vec![xy(single, size)]);
    }
    Ok(vec![xy(best_in_zone(d, &mut bb, k + 1)?, size)])
}

/// Every stone of a Taraguchi opening inside its zone.
fn check_zones(stones: &[Pos], size: usize) -> Result<(), String> {
    for (i, &p) in stones.iter().enumerate().take(5) {
        if !in_zone(p, i + 1, size) {
            return Err(format!("stone {} lies outside its Taraguchi zone", i + 1));
        }
    }
    Ok(())
}

/// Black's value after black plays `p` on `b` (white to move then).
fn value_after(d: &mut Decider, b: &Board, p: Pos) -> i32 {
    let mut c = b.clone();
    c.play_unchecked(p);
    -d.value(&c)
}

/// The best move of the side to move inside the zone of stone number `k`.
///
/// # Errors
/// No legal cell inside the zone.
fn best_in_zone(d: &mut Decider, b: &mut Board, k: usize) -> Result<Pos, String> {
    let size = b.size();
    let me = b.side_to_move();
    let mut cands: Vec<Pos> = Decider::candidates(b, 12)
        .into_iter()
        .filter(|&p| in_zone(p, k, size))
        .collect();
    if cands.is_empty() {
        let all: Vec<Pos> = b.empty_cells().filter(|&p| in_zone(p, k, size)).collect();
        cands = all
            .into_iter()
            .filter(|&p| rules::legal(b, p, me))
            .collect();
    }
    let mut best: Option<(i32, Pos)> = None;
    d.plan(cands.len().min(8));
    for p in cands.iter().copied().take(8) {
        let v = value_after(d, b, p);
        if best.is_none_or(|(bv, _)| v > bv) {
            best = Some((v, p));
        }
    }
    best.map(|(_, p)| p)
        .ok_or_else(|| format!("no legal cell inside the zone of stone {k}"))
}

/// White's fourth move and the number of fifths to ask for (Soosorv): more offers when black
/// is better after the fourth (white then picks from more), at most `max`.
fn fourth_and_count(d: &mut Decider, b: &Board, max: usize) -> (Pos, usize) {
    d.plan(2);
    let m4 = d.best_move(b);
    let mut c = b.clone();
    c.play_unchecked(m4);
    let v_black = d.value(&c);
    // One fifth, and one more per 3 points of black's win rate above one half.
    let over = (win_rate(v_black, b.rule()) - 0.5).max(0.0);
    let n = (1 + (over * 33.0) as usize).clamp(1, max);
    (m4, n)
}

/// The names of the canonical openings, for documentation and tests.
#[must_use]
pub fn rif_names() -> Vec<&'static str> {
    RIF26.iter().map(|r| r.1).collect()
}

/// The canonical opening `i` as a move line.
#[must_use]
pub fn rif_line(i: usize, size: usize) -> String {
    join(&rif_opening(i, size), size)
}
