use super::*;

fn cfg() -> Config {
    Config {
        variants: parse_variants("renju15,freestyle9").unwrap(),
        nodes: 300,
        balance: 150,
        seed: 7,
        hash_mb: 1,
    }
}

#[test]
fn records_round_trip_and_replay_legally() {
    let cfg = cfg();
    let mut s = Searcher::new(1, 1);
    for i in 0..4 {
        let g = play_game(&cfg, i, &mut s);
        let bytes = g.to_bytes();
        assert_eq!(bytes.len(), HEADER_BYTES + PLY_BYTES * g.plies.len());
        let (back, len) = GameRecord::from_bytes(&bytes).unwrap();
        assert_eq!(len, bytes.len());
        assert_eq!(back, g);
        assert!(g.board_at(g.plies.len()).is_some(), "game {i} replays");
        // A five ends a decided game unless the search proved the result first.
        let last = g.plies.last().unwrap();
        if g.result.is_some() && !is_mate(i32::from(last.score)) {
            let b = g.board_at(g.plies.len()).unwrap();
            assert!(rules::is_win(&b, last.mv), "game {i} ends with a five");
        }
        // Cut short anywhere, the record does not decode.
        assert!(GameRecord::from_bytes(&bytes[..bytes.len() - 1]).is_none());
    }
    // The same index gives the same game.
    assert_eq!(play_game(&cfg, 3, &mut s), play_game(&cfg, 3, &mut s));
}

#[test]
fn append_resumes_and_drops_a_torn_record() {
    let dir = std::env::temp_dir().join(format!("datagen-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("d.bin");
    let _ = std::fs::remove_file(&path);
    let cfg = cfg();
    let t = run(&cfg, &path, 3, 2, &mut std::io::sink()).unwrap();
    assert_eq!((t.games, t.new_games), (3, 3));
    // A torn record at the end (a killed run) is dropped on resume.
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(&path)
        .unwrap();
    f.write_all(&[2, 15, 1, 0, 9, 0]).unwrap();
    drop(f);
    assert_eq!(read_file(&path).unwrap().len(), 3);
    let t = run(&cfg, &path, 5, 1, &mut std::io::sink()).unwrap();
    assert_eq!((t.games, t.new_games), (5, 2));
    let games = read_file(&path).unwrap();
    assert_eq!(games.len(), 5);
    // Resumed games are the ones a single run would have made (index 3 and 4).
    let mut s = Searcher::new(cfg.hash_mb, 1);
    let want: Vec<GameRecord> = (0..5).map(|i| play_game(&cfg, i, &mut s)).collect();
    let mut got = games.clone();
    let key = |g: &GameRecord| g.to_bytes();
    got.sort_by_key(key);
    let mut want = want;
    want.sort_by_key(key);
    assert_eq!(got, want);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn variants_parse() {
    assert_eq!(
        parse_variants("renju15, freestyle20").unwrap(),
        vec![
            Variant {
                rule: Rule::Renju,
                size: 15
            },
            Variant {
                rule: Rule::Freestyle,
                size: 20
            }
        ]
    );
    assert!(parse_variants("renju").is_err());
    assert!(parse_variants("renju40").is_err());
    assert!(parse_variants("chess15").is_err());
    assert!(parse_variants("").is_err());
}

/// `record_of_moves`: the result is read from the board (the last stone's five, or a draw),
/// every ply is `Recorded` and survives the file format; a foul, a stone after a five and a
/// pass are refused.
#[test]
fn match_games_become_records_with_their_results() {
    let p = |x: usize, y: usize| Pos::new(x, y, 15);
    // Black makes an exact five on row 8 while white plays the a-file.
    let black_five = [
        p(7, 7),
        p(0, 0),
        p(8, 7),
        p(0, 2),
        p(9, 7),
        p(0, 4),
        p(10, 7),
        p(0, 6),
        p(11, 7),
    ];
    let g = record_of_moves(Rule::Renju, 15, &black_five).unwrap();
    assert_eq!(g.result, Some(Color::Black));
    assert_eq!(g.plies.len(), 9);
    assert!(g
        .plies
        .iter()
        .zip(&black_five)
        .all(|(r, &m)| r.mv == m && r.best == m && r.score == 0 && r.kind == PlyKind::Recorded));
    let bytes = g.to_bytes();
    assert_eq!(
        GameRecord::from_bytes(&bytes),
        Some((g.clone(), bytes.len()))
    );
    // An unknown kind byte does not decode.
    let mut bad = bytes.clone();
    bad[HEADER_BYTES + 6] = 3;
    assert!(GameRecord::from_bytes(&bad).is_none());
    // Without its last stone the game is a draw; with a stone after the five it is refused.
    assert_eq!(
        record_of_moves(Rule::Renju, 15, &black_five[..8])
            .unwrap()
            .result,
        None
    );
    let mut after = black_five.to_vec();
    after.push(p(14, 14));
    assert!(record_of_moves(Rule::Renju, 15, &after).is_err());
    // White wins with five on the a-file while black scatters its stones.
    let white_five = [
        p(7, 7),
        p(0, 5),
        p(11, 2),
        p(0, 6),
        p(3, 11),
        p(0, 7),
        p(12, 12),
        p(0, 8),
        p(2, 2),
        p(0, 9),
    ];
    let g = record_of_moves(Rule::Renju, 15, &white_five).unwrap();
    assert_eq!(g.result, Some(Color::White));
    // Black's double three at h8 (open threes h8-i8-j8 and h8-h9-h10) is a foul in renju,
    // a legal move in freestyle.
    let double_three = [
        p(8, 7),
        p(0, 0),
        p(9, 7),
        p(0, 2),
        p(7, 8),
        p(0, 4),
        p(7, 9),
        p(0, 14),
        p(7, 7),
    ];
    let e = record_of_moves(Rule::Renju, 15, &double_three).unwrap_err();
    assert!(e.starts_with("stone 9"), "{e}");
    assert!(record_of_moves(Rule::Freestyle, 15, &double_three).is_ok());
    assert!(record_of_moves(Rule::Renju, 15, &[p(7, 7), Pos::PASS]).is_err());
    assert!(record_of_moves(Rule::Renju, 4, &[]).is_err());
}

/// Recording stand-pats changes nothing in the search; each recorded leaf extends the root's
/// moves, replays legally and is a stand-pat position (no five to make or to stop).
#[test]
fn sampled_leaves_leave_the_search_alone_and_extend_the_root() {
    use crate::search::threats::find_five;
    let mut s = Searcher::new(1, 1);
    let mut total = 0;
    for &(rule, size, moves) in crate::bench::POSITIONS.iter().take(4) {
        let board = crate::bench::position(rule, size, moves).unwrap();
        let limits = |every| Limits {
            max_nodes: Some(3000),
            sample_leaves: every,
            ..Limits::default()
        };
        s.clear();
        let plain = s.search(&board, limits(0), &mut Silent);
        assert!(s.take_leaves().is_empty());
        s.clear();
        let sampled = s.search(&board, limits(7), &mut Silent);
        assert_eq!(
            (plain.best, plain.score, plain.nodes, &plain.pv),
            (sampled.best, sampled.score, sampled.nodes, &sampled.pv)
        );
        let root: Vec<Pos> = board.history().map(|(p, _)| p).collect();
        let leaves = s.take_leaves();
        assert!(s.take_leaves().is_empty(), "taken once");
        for l in &leaves {
            assert!(l.len() > root.len() && l.starts_with(&root), "{l:?}");
            let b = crate::opening::board_of(rule, size, l).expect("a leaf replays");
            let me = b.side_to_move();
            assert!(find_five(&b, me).is_none() && find_five(&b, me.opponent()).is_none());
        }
        total += leaves.len();
    }
    assert!(total > 40, "every 7th node of 12,000: {total} leaves");
}

/// A game's labelled leaves: records of opening plies up to the leaf and one searched ply,
/// no result, at most the kept number per searched position, the same for the same index.
#[test]
fn labelled_leaves_replay_and_repeat() {
    use super::leaves::{leaves_of, LeafConfig};
    let cfg = cfg();
    let mut s = Searcher::new(1, 1);
    let game = play_game(&cfg, 0, &mut s);
    let lc = LeafConfig {
        nodes: 400,
        every: 5,
        per_position: 2,
        label_nodes: 300,
        seed: 3,
        hash_mb: 1,
    };
    let (mut a, mut b) = (Searcher::new(1, 1), Searcher::new(1, 1));
    let leaves = leaves_of(&game, 5, &lc, &mut a, &mut b);
    let searched = game
        .plies
        .iter()
        .filter(|p| p.kind == PlyKind::Searched)
        .count();
    assert!(!leaves.is_empty() && leaves.len() <= 2 * searched);
    for r in &leaves {
        let (last, rest) = r.plies.split_last().unwrap();
        assert_eq!(last.kind, PlyKind::Searched);
        assert!(rest.iter().all(|p| p.kind == PlyKind::Opening));
        assert_eq!((r.rule, r.size, r.result), (game.rule, game.size, None));
        assert!(
            r.board_at(r.plies.len()).is_some(),
            "replays with its label move"
        );
        // The leaf lies in the tree of one of the game's positions: it starts with the game.
        let opening = game
            .plies
            .iter()
            .take_while(|p| p.kind == PlyKind::Opening)
            .count();
        assert!(rest.len() > opening);
        assert!(rest
            .iter()
            .zip(&game.plies)
            .take(opening)
            .all(|(a, b)| a.mv == b.mv));
    }
    assert_eq!(leaves, leaves_of(&game, 5, &lc, &mut a, &mut b));
    assert_ne!(
        leaves,
        leaves_of(&game, 6, &lc, &mut a, &mut b),
        "another index draws others"
    );
}
