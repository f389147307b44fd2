fn main() {
    let path = std::env::args().nth(1).unwrap();
    let src = std::fs::read_to_string(path).unwrap();
    let mut p = tree_sitter::Parser::new();
    p.set_language(&tree_sitter_cuda::LANGUAGE.into()).unwrap();
    let t = p.parse(&src, None).unwrap();
    dump(t.root_node(), &src, 0, None);
}
fn dump(n: tree_sitter::Node, src: &str, d: usize, field: Option<&str>) {
    let txt = if n.child_count() == 0 { format!(" {:?}", &src[n.byte_range()]) } else { String::new() };
    println!("{}{}{}{}{}", "  ".repeat(d), field.map(|f| format!("{f}: ")).unwrap_or_default(), if n.is_named() { n.kind().to_string() } else { format!("'{}'", n.kind()) }, txt, if n.is_error() || n.is_missing() { " !!!" } else { "" });
    let mut c = n.walk();
    for (i, ch) in n.children(&mut c).enumerate() {
        let f = n.field_name_for_child(i as u32);
        dump(ch, src, d + 1, f);
    }
}
