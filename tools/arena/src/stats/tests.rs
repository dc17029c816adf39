use super::*;

/// Asserts `|a - b| <= tol` with a readable message.
fn close(a: f64, b: f64, tol: f64) {
    assert!((a - b).abs() <= tol, "{a} vs {b} (tol {tol})");
}

// Expected values below were computed with python3 (math module) from the formulas in
// the doc comments, in an independent script outside the repository, e.g.
//   elo = lambda s: -400*math.log10(1/s-1)
//   los = lambda W, L: 0.5*(1+math.erf((W-L)/math.sqrt(2*(W+L))))

#[test]
fn wld_basics() {
    let w = Wld::new(30, 20, 50);
    assert_eq!(w.games(), 100);
    close(w.score(), 0.55, 1e-15);
    close(w.draw_ratio(), 0.5, 1e-15);
    assert_eq!(w.swapped(), Wld::new(20, 30, 50));
    close(w.swapped().score(), 0.45, 1e-15);
    assert_eq!(w.to_string(), "+30 -20 =50");
    let empty = Wld::default();
    assert_eq!(empty.games(), 0);
    assert_eq!(empty.score(), 0.5);
    assert_eq!(empty.draw_ratio(), 0.0);
    assert_eq!(Wld::new(u32::MAX, 1, 1).games(), u32::MAX);
}

#[test]
fn elo_from_score_known_values() {
    // python: elo(0.75) = 190.848501887865, elo(0.25) = -190.84850188786498,
    // elo(0.6) = 70.43650362227247
    assert_eq!(elo_from_score(0.5), 0.0);
    close(elo_from_score(0.75), 190.848501887865, 1e-9);
    close(elo_from_score(0.25), -190.84850188786498, 1e-9);
    close(elo_from_score(0.6), 70.43650362227247, 1e-9);
    assert_eq!(elo_from_score(0.0), -MAX_ELO);
    assert_eq!(elo_from_score(1.0), MAX_ELO);
    assert_eq!(elo_from_score(-0.1), -MAX_ELO);
    assert_eq!(elo_from_score(1.5), MAX_ELO);
    assert_eq!(elo_from_score(1e-300), -MAX_ELO);
    assert!(elo_from_score(f64::NAN).is_nan());
}

#[test]
fn elo_interval_known_values() {
    assert_eq!(elo_interval(&Wld::default()), None);
    // python: mu = 0.6, v = (60*0.4**2 + 40*0.6**2)/100 = 0.24, s = sqrt(v/100),
    // [elo(mu), elo(mu - 1.959964*s), elo(mu + 1.959964*s)]
    //   = [70.43650362227247, 2.766872696246252, 143.90923363277008]
    let (e, lo, hi) = elo_interval(&Wld::new(60, 40, 0)).unwrap();
    close(e, 70.43650362227247, 1e-9);
    close(lo, 2.766872696246252, 1e-9);
    close(hi, 143.90923363277008, 1e-9);
    // python: mu = 0.55, v = (30*0.45**2 + 50*0.05**2 + 20*0.55**2)/100
    //   -> [34.86007028756008, -12.9296938468523, 84.01076304781154]
    let (e, lo, hi) = elo_interval(&Wld::new(30, 20, 50)).unwrap();
    close(e, 34.86007028756008, 1e-9);
    close(lo, -12.9296938468523, 1e-9);
    close(hi, 84.01076304781154, 1e-9);
    // python: W=5, L=5, D=0 -> [0, -251.7769130469192, 251.7769130469192]
    let (e, lo, hi) = elo_interval(&Wld::new(5, 5, 0)).unwrap();
    close(e, 0.0, 1e-9);
    close(lo, -251.7769130469192, 1e-9);
    close(hi, 251.7769130469192, 1e-9);
    // All wins: zero variance, everything clamped to +MAX_ELO.
    assert_eq!(
        elo_interval(&Wld::new(7, 0, 0)),
        Some((MAX_ELO, MAX_ELO, MAX_ELO))
    );
    // Interval crossing score 0: lower end clamped.
    let (_, lo, hi) = elo_interval(&Wld::new(1, 9, 0)).unwrap();
    assert_eq!(lo, -MAX_ELO);
    assert!(hi > -MAX_ELO && hi < 0.0);
}

#[test]
fn los_known_values() {
    // python: los(10,5) = 0.9016471987705266, los(5,10) = 0.09835280122947343,
    // los(100,80) = 0.9319814359429281, los(3,0) = 0.9583677416682248, los(1,1) = 0.5
    close(los(&Wld::new(10, 5, 0)), 0.9016471987705266, 1e-12);
    close(los(&Wld::new(10, 5, 37)), 0.9016471987705266, 1e-12);
    close(los(&Wld::new(5, 10, 0)), 0.09835280122947343, 1e-12);
    close(los(&Wld::new(100, 80, 20)), 0.9319814359429281, 1e-12);
    close(los(&Wld::new(3, 0, 0)), 0.9583677416682248, 1e-12);
    close(los(&Wld::new(1, 1, 0)), 0.5, 1e-15);
    assert_eq!(los(&Wld::new(0, 0, 12)), 0.5);
    assert_eq!(los(&Wld::default()), 0.5);
}

#[test]
fn erf_matches_python() {
    // (x, math.erf(x), math.erfc(x)) from python3.
    let table = [
        (0.0, 0.0, 1.0),
        (1e-3, 0.0011283787909692365, 0.9988716212090307),
        (0.1, 0.1124629160182849, 0.8875370839817152),
        (0.5, 0.5204998778130465, 0.4795001221869535),
        (1.0, 0.8427007929497149, 0.15729920705028513),
        (1.5, 0.9661051464753108, 0.033894853524689274),
        (2.0, 0.9953222650189527, 0.004677734981047265),
        (2.5, 0.999593047982555, 0.0004069520174449589),
        (2.99, 0.9999764743969194, 2.3525603080640195e-05),
        (3.0, 0.9999779095030014, 2.2090496998585438e-05),
        (3.5, 0.9999992569016276, 7.430983723414128e-07),
        (4.0, 0.9999999845827421, 1.541725790028002e-08),
        (5.0, 0.9999999999984626, 1.5374597944280351e-12),
        (6.0, 1.0, 2.1519736712498916e-17),
        (-0.3, -0.3286267594591274, 1.3286267594591274),
        (-2.7, -0.9998656672600594, 1.9998656672600594),
        (-4.2, -0.9999999971445058, 1.9999999971445057),
    ];
    for (x, e, c) in table {
        close(erf(x), e, 1e-14);
        close(erfc(x), c, 1e-14);
        // Relative accuracy of erfc in the tail.
        assert!((erfc(x) - c).abs() <= 1e-12 * c, "erfc({x})");
        close(erf(-x), -e, 1e-14);
    }
    assert!(erf(f64::NAN).is_nan());
    assert_eq!(erf(f64::INFINITY), 1.0);
    assert_eq!(erf(f64::NEG_INFINITY), -1.0);
    assert_eq!(erfc(f64::INFINITY), 0.0);
}

#[test]
fn erf_is_monotone_and_continuous_at_switch() {
    let mut prev = erf(-7.0);
    let mut x = -7.0;
    while x < 7.0 {
        x += 0.001;
        let v = erf(x);
        assert!(v >= prev, "erf not monotone at {x}");
        prev = v;
    }
    // Both sides of the series / continued-fraction switch at x = 1, against python3's
    // math.erf / math.erfc at 1 - 1e-9, 1 and 1 + 1e-9.
    assert_eq!(ERF_SWITCH, 1.0);
    let table = [
        (0.999999999, 0.8427007925346074, 0.1572992074653926),
        (1.0, 0.8427007929497149, 0.15729920705028513),
        (1.000000001, 0.8427007933648224, 0.1572992066351776),
    ];
    for (x, e, c) in table {
        close(erf(x), e, 2e-16);
        close(erfc(x), c, 2e-16);
    }
    assert!(erf(0.999999999) < erf(1.0) && erf(1.0) < erf(1.000000001));
}

#[test]
fn sprt_bounds() {
    // python: math.log(0.05/0.95) = -2.9444389791664403, math.log(0.95/0.05) = +same
    let s = Sprt {
        elo0: 0.0,
        elo1: 5.0,
        alpha: 0.05,
        beta: 0.05,
    };
    let (lo, hi) = s.bounds();
    close(lo, -2.9444389791664403, 1e-12);
    close(hi, 2.9444389791664403, 1e-12);
    // python: math.log(0.1/0.95) = -2.251291798606495, math.log(0.9/0.05) = 2.8903717578961645
    let s = Sprt { beta: 0.1, ..s };
    let (lo, hi) = s.bounds();
    close(lo, -2.251291798606495, 1e-12);
    close(hi, 2.8903717578961645, 1e-12);
}

#[test]
fn sprt_llr_known_values() {
    // Independent python implementation of the documented formula:
    //   if W+L+D == 0: return 0
    //   if W==0 or L==0 or D==0: W, L, D = W+.5, L+.5, D+.5
    //   N = W+L+D; mu = (W+.5*D)/N
    //   v = (W*(1-mu)**2 + D*(.5-mu)**2 + L*mu**2)/N
    //   p0 = 1/(1+10**(-e0/400)); p1 = 1/(1+10**(-e1/400))
    //   return N*(p1-p0)*(2*mu-p0-p1)/(2*v)
    // with e0 = 0, e1 = 5.
    let s = Sprt {
        elo0: 0.0,
        elo1: 5.0,
        alpha: 0.05,
        beta: 0.05,
    };
    let cases = [
        ((0, 0, 0), 0.0),
        ((10, 5, 20), 0.16740108393457115),
        ((120, 100, 280), 0.5383988767384338),
        ((1000, 900, 3000), 2.405332576026217),
        ((40, 60, 100), -0.629614180983724),
        ((3, 0, 2), 0.10561876351206834),
        ((5, 5, 0), -0.001244813964689118),
        ((2000, 1500, 4000), 13.88627242150777),
        ((1500, 2000, 4000), -17.246292665733705),
    ];
    for ((w, l, d), expected) in cases {
        close(s.llr(&Wld::new(w, l, d)), expected, 1e-6);
    }
}

#[test]
fn sprt_status_transitions() {
    let s = parse_sprt("0,5").unwrap();
    assert_eq!(s.status(&Wld::default()), SprtStatus::Continue);
    assert_eq!(s.status(&Wld::new(5, 5, 0)), SprtStatus::Continue);
    assert_eq!(s.status(&Wld::new(10, 5, 20)), SprtStatus::Continue);
    assert_eq!(s.status(&Wld::new(2000, 1500, 4000)), SprtStatus::AcceptH1);
    assert_eq!(s.status(&Wld::new(1500, 2000, 4000)), SprtStatus::AcceptH0);
    // An even match drifts to H0 (elo0 = 0 is closer to the truth than elo1 = 5).
    assert_eq!(s.status(&Wld::new(5000, 5000, 10000)), SprtStatus::AcceptH0);
    // Samples straddling the bounds ±2.9444389791664403 (LLRs from the python
    // implementation above): 1134/1000/2000 -> 2.9122305021290775,
    // 1136/1000/2000 -> 2.9665244704755733, 928/1000/2000 -> -2.9414748623072167,
    // 927/1000/2000 -> -2.971445038666696.
    assert_eq!(s.status(&Wld::new(1134, 1000, 2000)), SprtStatus::Continue);
    assert_eq!(s.status(&Wld::new(1136, 1000, 2000)), SprtStatus::AcceptH1);
    assert_eq!(s.status(&Wld::new(928, 1000, 2000)), SprtStatus::Continue);
    assert_eq!(s.status(&Wld::new(927, 1000, 2000)), SprtStatus::AcceptH0);
    assert_eq!(SprtStatus::AcceptH1.to_string(), "H1 accepted");
}

#[test]
fn sprt_status_with_random_games() {
    use rand::{rngs::StdRng, Rng, SeedableRng};
    // Simulate a player scoring ~0.57 (≈ +50 Elo): the SPRT [0, 5] must end in H1.
    let s = parse_sprt("0,5").unwrap();
    let mut rng = StdRng::seed_from_u64(7);
    let mut w = Wld::default();
    let mut status = SprtStatus::Continue;
    for _ in 0..100_000 {
        let r: f64 = rng.gen();
        if r < 0.37 {
            w.wins += 1;
        } else if r < 0.77 {
            w.draws += 1;
        } else {
            w.losses += 1;
        }
        status = s.status(&w);
        if status != SprtStatus::Continue {
            break;
        }
    }
    assert_eq!(status, SprtStatus::AcceptH1, "{w}");
}

#[test]
fn parse_sprt_accepts_and_rejects() {
    let s = parse_sprt("0,5").unwrap();
    assert_eq!(
        s,
        Sprt {
            elo0: 0.0,
            elo1: 5.0,
            alpha: 0.05,
            beta: 0.05
        }
    );
    let s = parse_sprt(" -1.5 , 4.5 , 0.1 , 0.2 ").unwrap();
    assert_eq!(
        s,
        Sprt {
            elo0: -1.5,
            elo1: 4.5,
            alpha: 0.1,
            beta: 0.2
        }
    );
    for bad in [
        "",
        "5",
        "0,5,0.05",
        "0,5,0.05,0.05,1",
        "a,5",
        "5,0",
        "5,5",
        "0,5,0,0.05",
        "0,5,0.05,0.5",
        "0,5,-0.1,0.05",
        "0,inf",
        "NaN,5",
    ] {
        assert!(parse_sprt(bad).is_err(), "accepted {bad:?}");
    }
}

#[test]
fn sprt_llr_pairs_known_values() {
    // Independent python implementation of the documented formula:
    //   x = [0, .25, .5, .75, 1]; c = counts
    //   if sum(c) == 0: return 0
    //   if fewer than two counts > 0: c[0], c[2], c[4] += .5
    //   N = sum(c); mu = sum(c[i]*x[i])/N; v = sum(c[i]*(x[i]-mu)**2)/N
    //   return N*(p1-p0)*(2*mu-p0-p1)/(2*v)
    let s = |e0: f64, e1: f64| Sprt {
        elo0: e0,
        elo1: e1,
        alpha: 0.05,
        beta: 0.05,
    };
    let cases = [
        ([0, 0, 0, 0, 0], (0.0, 5.0), 0.0),
        ([17, 4, 116, 10, 30], (0.0, 10.0), 1.396_824_366_611_251_9),
        ([40, 3, 50, 7, 60], (-5.0, 0.0), 0.535_852_810_381_279_5),
        ([0, 0, 7, 0, 0], (0.0, 5.0), -0.007_480_649_515_589_237),
        ([0, 0, 0, 0, 3], (0.0, 5.0), 0.096_085_276_755_994_96),
        ([1, 2, 3, 4, 5], (0.0, 5.0), 0.181_022_762_742_469_4),
    ];
    for (pairs, (e0, e1), expected) in cases {
        close(s(e0, e1).llr_pairs(&pairs), expected, 1e-9);
    }
}

#[test]
fn sprt_llr_pairs_without_half_points_is_the_trinomial_llr() {
    // A pair of 0, 1 or 2 points has the mean score of a lost, drawn or won game.
    let s = parse_sprt("0,5").unwrap();
    for (w, l, d) in [
        (10, 5, 20),
        (120, 100, 280),
        (40, 60, 100),
        (2000, 1500, 4000),
    ] {
        close(
            s.llr_pairs(&[l, 0, d, 0, w]),
            s.llr(&Wld::new(w, l, d)),
            1e-9,
        );
    }
}

/// One simulated SPRT on game pairs with a book that favours white (`white_elo`), the tested
/// side `elo` stronger: the number of games to the decision and the decision, by the pair
/// form (`pairs`) or the trinomial one.
fn simulate(seed: u64, elo: f64, white_elo: f64, pairs: bool) -> (u32, SprtStatus) {
    use rand::{rngs::StdRng, Rng, SeedableRng};
    let s = parse_sprt("0,10").unwrap();
    let mut rng = StdRng::seed_from_u64(seed);
    let mut penta = [0u32; 5];
    let mut w = Wld::default();
    for games in (2..=200_000).step_by(2) {
        // The tested side wins as black against `white_elo - elo`, as white with `white_elo + elo`.
        let black = u32::from(rng.gen::<f64>() < score_from_elo(elo - white_elo));
        let white = u32::from(rng.gen::<f64>() < score_from_elo(elo + white_elo));
        penta[(2 * (black + white)) as usize] += 1;
        w.wins += black + white;
        w.losses += 2 - black - white;
        let st = if pairs {
            s.decide(s.llr_pairs(&penta))
        } else {
            s.status(&w)
        };
        if st != SprtStatus::Continue {
            return (games, st);
        }
    }
    (200_000, SprtStatus::Continue)
}

#[test]
fn sprt_on_pairs_keeps_its_error_rates_and_decides_sooner_on_a_one_sided_book() {
    // A book white wins 76% of (+200 Elo for white), as the renju book at 0.5 s a move. A
    // shift of 14 Elo in each game is +10.2 over the match (the logistic curve is flatter
    // away from 50%: (score(-186) + score(214)) / 2 = 0.5147).
    let runs = 200u64;
    let false_h1 = (0..runs)
        .filter(|&k| simulate(k, 0.0, 200.0, true).1 == SprtStatus::AcceptH1)
        .count();
    assert!(
        false_h1 <= 20,
        "H1 accepted at 0 Elo in {false_h1} of {runs}"
    );
    let false_h0 = (0..runs)
        .filter(|&k| simulate(1000 + k, 14.0, 200.0, true).1 == SprtStatus::AcceptH0)
        .count();
    assert!(
        false_h0 <= 20,
        "H0 accepted at +10 Elo in {false_h0} of {runs}"
    );
    let mean = |pairs: bool| {
        (0..runs)
            .map(|k| f64::from(simulate(2000 + k, 14.0, 200.0, pairs).0))
            .sum::<f64>()
            / runs as f64
    };
    let (by_pairs, by_games) = (mean(true), mean(false));
    assert!(
        by_pairs < 0.8 * by_games,
        "games to a decision at +10 Elo: {by_pairs} by pairs, {by_games} by games"
    );
}
