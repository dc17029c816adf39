//! Every opening file shipped in `openings/` parses with the arena's reader and is a legal
//! position for its rule and size (taken from the file name).

use arena::openings;
use renju_engine::types::Rule;

#[test]
fn shipped_opening_files_parse_and_are_legal() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../openings");
    let mut files = 0;
    for entry in std::fs::read_dir(dir).expect("openings/ exists") {
        let path = entry.unwrap().path();
        if path.extension().and_then(|e| e.to_str()) != Some("txt") {
            continue;
        }
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let rule = if name.starts_with("renju") {
            Rule::Renju
        } else if name.starts_with("standard") {
            Rule::Standard
        } else {
            Rule::Freestyle
        };
        let size = if name.contains("_20") { 20 } else { 15 };
        let list = openings::load(&path, size).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(!list.is_empty(), "{name}");
        for (i, o) in list.iter().enumerate() {
            o.to_board(size, rule)
                .unwrap_or_else(|e| panic!("{name} opening {}: {e}", i + 1));
        }
        files += 1;
    }
    assert!(
        files >= 5,
        "expected the shipped opening files, found {files}"
    );
}
