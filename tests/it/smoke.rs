use seedgen::source::SourceDb;

#[test]
fn smoke() {
    let text = std::fs::read_to_string("/tmp/smoke.bpl").unwrap();
    let mut db = SourceDb::new();
    let file = db.add("smoke.bpl", text.clone());
    let (program, errors) = seedgen::syntax::parse(file, &text);
    let diags: Vec<_> = errors.iter().map(|e| e.to_diagnostic()).collect();
    println!("{}", seedgen::diag::render_human_plain(&db, &diags));
    println!("{} decls", program.decls.len());
    assert!(errors.is_empty());
}
