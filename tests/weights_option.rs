//! The protocol engine's options, `--weights RULE=FILE`, `--param NAME=VALUE` and `--threads N`: the
//! weights in the file are the ones evaluated, the parameters the ones searched with, and a bad
//! option ends the process before any protocol line.

mod common;

use common::engine::Engine;
use std::process::{Command, Stdio};
use std::time::Duration;

/// Field `field` of the `MESSAGE depth <depth>` line the engine prints on a fixed renju
/// position, started with `args` and given the `INFO` lines `settings`.
fn depth_line_field(args: &[&str], settings: &[&str], depth: u32, field: &str) -> String {
    let mut e = Engine::spawn_with(args);
    e.send("START 15");
    assert_eq!(e.answer(Duration::from_secs(5)), "OK");
    e.send("INFO rule 4");
    for s in settings {
        e.send(s);
    }
    e.send("BOARD\n7,7,1\n8,8,2\n6,8,1\n8,6,2\n8,7,1\nDONE");
    let lines = e.lines_to_reply(Duration::from_secs(60));
    let prefix = format!("MESSAGE depth {depth} ");
    let line = lines
        .iter()
        .find(|l| l.starts_with(&prefix))
        .unwrap_or_else(|| panic!("no depth-{depth} line in {lines:?}"));
    line.split_whitespace()
        .skip_while(|w| *w != field)
        .nth(1)
        .unwrap_or_else(|| panic!("no {field} field in {line}"))
        .to_string()
}

/// The evaluation the engine reports after its first iteration.
fn first_iteration_eval(args: &[&str]) -> String {
    depth_line_field(args, &["INFO timeout_turn 200"], 1, "ev")
}

/// The process started with `args` exits with status 2 and prints nothing.
fn assert_exits_2_silently(args: &[String]) {
    let out = Command::new(env!("CARGO_BIN_EXE_pbrain-renju-engine"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("engine runs");
    assert_eq!(out.status.code(), Some(2), "{args:?}");
    assert!(out.stdout.is_empty() && out.stderr.is_empty(), "{args:?}");
}

fn temp_file(name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("renju-weights-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_string_lossy().into_owned()
}

#[test]
fn the_weights_in_the_file_are_the_ones_evaluated() {
    let embedded = renju_engine::pattern::code::embedded(renju_engine::types::Rule::Renju);
    let same = temp_file("same.txt", embedded);
    // Only the scale line: every cell and combination weight zero.
    let zero = temp_file("zero.txt", "scale 470\n");
    let default = first_iteration_eval(&[]);
    assert_eq!(
        first_iteration_eval(&["--weights", &format!("renju={same}")]),
        default
    );
    let zeroed = first_iteration_eval(&["--weights", &format!("renju={zero}")]);
    assert_ne!(zeroed, default, "the zero weights were not used");
    // Weights of another rule leave renju alone.
    assert_eq!(
        first_iteration_eval(&["--weights", &format!("freestyle={zero}")]),
        default
    );
}

#[test]
fn a_bad_weights_option_exits_2_before_any_output() {
    let bad_rule = temp_file("ok.txt", "scale 100\n");
    let bad_text = temp_file("bad.txt", "scale 100\ncell mover nobody 3 4\n");
    for args in [
        vec!["--weights".to_string()],
        vec!["--weights".to_string(), "renju".to_string()],
        vec!["--weights".to_string(), format!("chess={bad_rule}")],
        vec![
            "--weights".to_string(),
            "renju=/nonexistent/weights.txt".to_string(),
        ],
        vec!["--weights".to_string(), format!("renju={bad_text}")],
    ] {
        assert_exits_2_silently(&args);
    }
}

/// The node count after depth 4, with `args` (from depth 5 the root VCT probe's budget follows
/// the clock, so the counts of deeper iterations vary by load).
fn depth4_nodes(args: &[&str]) -> String {
    let settings = [
        "INFO thread_num 1",
        "INFO max_depth 4",
        "INFO timeout_turn 60000",
    ];
    depth_line_field(args, &settings, 4, "n")
}

#[test]
fn the_param_option_sets_the_search_parameters() {
    let default = depth4_nodes(&[]);
    // The default value changes nothing; another value of a pruning parameter changes the tree.
    assert_eq!(depth4_nodes(&["--param", "lmr_divisor=200"]), default);
    assert_ne!(
        depth4_nodes(&["--param", "lmr_divisor=100", "--param", "lmp_base=0"]),
        default
    );
}

#[test]
fn a_bad_param_option_exits_2_before_any_output() {
    for args in [
        vec!["--param"],
        vec!["--param", "lmr_divisor"],
        vec!["--param", "no_such_parameter=3"],
        vec!["--param", "lmr_divisor=many"],
        vec!["--param", "lmr_divisor=100000"],
    ] {
        let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
        assert_exits_2_silently(&args);
    }
}

/// The `(depth, nodes)` of the `MESSAGE depth` lines up to depth 4 of a depth-8 search on the
/// fixed renju position, started with `args` and given the `INFO` lines `settings` (deeper
/// counts vary with the load: from depth 5 the root VCT probe's budget follows the clock).
fn shallow_lines(args: &[&str], settings: &[&str]) -> Vec<(u32, u64)> {
    depth_lines(args, settings)
        .into_iter()
        .filter(|&(d, _)| d <= 4)
        .collect()
}

/// The `(depth, nodes)` of every `MESSAGE depth` line of that search.
fn depth_lines(args: &[&str], settings: &[&str]) -> Vec<(u32, u64)> {
    let mut e = Engine::spawn_with(args);
    e.send("START 15");
    assert_eq!(e.answer(Duration::from_secs(5)), "OK");
    e.send("INFO rule 4");
    e.send("INFO max_depth 8");
    e.send("INFO timeout_turn 60000");
    for s in settings {
        e.send(s);
    }
    e.send("BOARD\n7,7,1\n8,8,2\n6,8,1\n8,6,2\n8,7,1\nDONE");
    e.lines_to_reply(Duration::from_secs(60))
        .iter()
        .filter_map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            match w.as_slice() {
                ["MESSAGE", "depth", d, "ev", _, "n", n, ..] => {
                    Some((d.parse().ok()?, n.parse().ok()?))
                }
                _ => None,
            }
        })
        .collect()
}

/// The thread counts the engine's log tells (`MESSAGE threads N`) over two searches, started
/// with `args` and given the `INFO` lines `settings` before the first search and `between`
/// before the second.
fn told_threads(args: &[&str], settings: &[&str], between: &[&str]) -> Vec<String> {
    let mut e = Engine::spawn_with(args);
    e.send("START 15");
    assert_eq!(e.answer(Duration::from_secs(5)), "OK");
    e.send("INFO rule 4");
    e.send("INFO max_depth 3");
    for s in settings {
        e.send(s);
    }
    e.send("BOARD\n7,7,1\n8,8,2\n6,8,1\n8,6,2\n8,7,1\nDONE");
    let mut lines = e.lines_to_reply(Duration::from_secs(60));
    for s in between {
        e.send(s);
    }
    e.send("TURN 0,0");
    lines.extend(e.lines_to_reply(Duration::from_secs(60)));
    lines
        .iter()
        .filter_map(|l| l.strip_prefix("MESSAGE threads "))
        .map(str::to_string)
        .collect()
}

#[test]
fn the_threads_option_sets_the_threads_until_the_manager_does() {
    let one = shallow_lines(&[], &[]);
    assert_eq!(one.len(), 4, "{one:?}");
    // One thread is deterministic, and the manager's `thread_num` wins over the option.
    assert_eq!(shallow_lines(&["--threads", "1"], &[]), one);
    assert_eq!(
        shallow_lines(&["--threads", "2"], &["INFO thread_num 1"]),
        one
    );
    // The log tells the count searched with: once while it stays, again when it changes.
    assert_eq!(told_threads(&[], &[], &[]), ["1"]);
    assert_eq!(told_threads(&["--threads", "2"], &[], &[]), ["2"]);
    assert_eq!(
        told_threads(&["--threads", "2"], &["INFO thread_num 1"], &[]),
        ["1"]
    );
    assert_eq!(
        told_threads(&["--threads", "2"], &[], &["INFO thread_num 3"]),
        ["2", "3"]
    );
    // Without the search lines (`show_detail 0`) nothing is told.
    assert!(told_threads(&["--threads", "2"], &["INFO show_detail 0"], &[]).is_empty());
}

#[test]
fn a_bad_threads_option_exits_2_before_any_output() {
    for args in [
        vec!["--threads"],
        vec!["--threads", "0"],
        vec!["--threads", "two"],
    ] {
        let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
        assert_exits_2_silently(&args);
    }
}

#[test]
fn a_bad_net_option_exits_2_before_any_output() {
    let junk = temp_file("junk.nn", "not a network");
    for args in [
        vec!["--net".to_string()],
        vec!["--net".to_string(), "/no/such/file.nn".to_string()],
        vec!["--net".to_string(), junk],
    ] {
        assert_exits_2_silently(&args);
    }
}

/// A network file given with `--net` is played: its value corrects the classical evaluation
/// (a network whose value is 0.5 everywhere adds 0.5 x scale to every leaf, so the first
/// iteration scores that much lower), and a network of zeros is the classical evaluation.
#[test]
fn the_net_option_plays_the_network() {
    use renju_engine::nnue::Network;
    use renju_engine::types::Rule;
    let mut flat = Network::random(Rule::Renju, 8, 4, 1);
    let mut v = flat.to_vec();
    v.iter_mut().for_each(|x| *x = 0.0);
    v[flat.layout().b2] = 0.5;
    flat.set_from(&v);
    let dir = std::env::temp_dir().join(format!("renju-net-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("flat.nn");
    std::fs::write(&path, flat.to_bytes()).unwrap();
    let scale = renju_engine::pattern::code::CodeWeights::get(Rule::Renju).scale;
    let with: i32 = first_iteration_eval(&["--net", path.to_str().unwrap()])
        .parse()
        .unwrap();
    let without: i32 = first_iteration_eval(&[]).parse().unwrap();
    assert_eq!(with, without - (0.5 * scale as f32) as i32);
    let zero = Network::random(Rule::Renju, 8, 4, 1);
    let mut z = zero.to_vec();
    z.iter_mut().for_each(|x| *x = 0.0);
    let mut zero = zero;
    zero.set_from(&z);
    let zpath = dir.join("zero.nn");
    std::fs::write(&zpath, zero.to_bytes()).unwrap();
    let with_zero: i32 = first_iteration_eval(&["--net", zpath.to_str().unwrap()])
        .parse()
        .unwrap();
    assert_eq!(with_zero, without);
}

/// With `--param net_value_pct=0` a network only orders moves: the evaluation stays the
/// classical one, and the tree is the classical one until `policy_weight` is set, when the
/// policy reorders the quiet moves (computed cell by cell: no accumulator is kept), or
/// `policy_lmr`, when it changes the reductions. `net_where` moves the value's use.
#[test]
fn a_network_without_its_value_orders_moves_by_its_policy() {
    use renju_engine::nnue::Network;
    use renju_engine::types::Rule;
    let net = Network::random(Rule::Renju, 8, 4, 7);
    let dir = std::env::temp_dir().join(format!("renju-policy-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("policy.nn");
    std::fs::write(&path, net.to_bytes()).unwrap();
    let path = path.to_str().unwrap();
    let value_off = ["--net", path, "--param", "net_value_pct=0"];
    assert_eq!(first_iteration_eval(&value_off), first_iteration_eval(&[]));
    let classical = depth4_nodes(&[]);
    assert_eq!(depth4_nodes(&value_off), classical);
    let ordered = [&value_off[..], &["--param", "policy_weight=1000"]].concat();
    assert_ne!(depth4_nodes(&ordered), classical);
    // The policy in the late-move reductions instead: another tree.
    let reduced = [&value_off[..], &["--param", "policy_lmr=100"]].concat();
    assert_ne!(depth4_nodes(&reduced), classical);
    // The first iteration's score is a stand-pat's: with the value only at the stand-pats it
    // is the network's, with the value only at the interior nodes the classical one.
    let value_on = ["--net", path];
    let with = |only: &str| first_iteration_eval(&[&value_on[..], &["--param", only]].concat());
    assert_eq!(with("net_where=1"), first_iteration_eval(&value_on));
    assert_eq!(with("net_where=2"), first_iteration_eval(&[]));
    // The value on as well: the evaluation changes.
    assert_ne!(
        first_iteration_eval(&["--net", path]),
        first_iteration_eval(&[])
    );
}
