//! The VS Code extension folder is well formed: its JSON parses, the grammar it names exists
//! with the same scope, `.hph` is the language's extension, and the client starts `physis lsp`.

use serde_json::Value;

fn read(rel: &str) -> String {
    let path = format!("{}/../../editors/vscode/{rel}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn json(rel: &str) -> Value {
    serde_json::from_str(&read(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

#[test]
fn manifest_grammar_and_client_agree() {
    let pkg = json("package.json");
    let lang = &pkg["contributes"]["languages"][0];
    assert_eq!(lang["id"], "physis");
    assert_eq!(lang["extensions"][0], ".hph");
    let config = lang["configuration"]
        .as_str()
        .unwrap()
        .trim_start_matches("./");
    json(config);
    let grammar = &pkg["contributes"]["grammars"][0];
    let path = grammar["path"].as_str().unwrap().trim_start_matches("./");
    let tm = json(path);
    assert_eq!(tm["scopeName"], grammar["scopeName"]);
    for pattern in tm["patterns"].as_array().unwrap() {
        let key = pattern["include"].as_str().unwrap().trim_start_matches('#');
        assert!(tm["repository"].get(key).is_some(), "grammar lacks {key}");
    }
    let main = pkg["main"].as_str().unwrap().trim_start_matches("./");
    assert!(read(main).contains("args: ['lsp']"));
}
