//! Prints tree-sitter-cuda's concrete syntax tree of a file, with field
//! names; for looking at how the grammar reads a construct:
//! `cargo run -p hone-frontend --example ts_dump -- file.cu`
fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: ts_dump FILE.cu");
        std::process::exit(2);
    };
    let src = match std::fs::read_to_string(&path) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(1);
        }
    };
    let mut p = tree_sitter::Parser::new();
    p.set_language(&tree_sitter_cuda::LANGUAGE.into())
        .expect("the bundled grammar matches tree-sitter's ABI");
    let Some(t) = p.parse(&src, None) else {
        eprintln!("{path}: parse failed");
        std::process::exit(1);
    };
    dump(t.root_node(), &src, 0, None);
}

fn dump(n: tree_sitter::Node, src: &str, d: usize, field: Option<&str>) {
    let txt = if n.child_count() == 0 {
        format!(" {:?}", src.get(n.byte_range()).unwrap_or(""))
    } else {
        String::new()
    };
    let kind = if n.is_named() {
        n.kind().to_string()
    } else {
        format!("'{}'", n.kind())
    };
    let field = field.map(|f| format!("{f}: ")).unwrap_or_default();
    let bad = if n.is_error() || n.is_missing() {
        " !!!"
    } else {
        ""
    };
    println!("{}{field}{kind}{txt}{bad}", "  ".repeat(d));
    let mut c = n.walk();
    for (i, ch) in n.children(&mut c).enumerate() {
        dump(ch, src, d + 1, n.field_name_for_child(i as u32));
    }
}
