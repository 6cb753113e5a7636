fn main() {
    let skills = mcp_runtime::skills!("../../../skills");
    assert_eq!(skills.entries()[0].uri, "skill://greeting/SKILL.md");
    assert_eq!(
        skills.file("skill://greeting/SKILL.md"),
        Some(&include_bytes!("../../../skills/greeting/SKILL.md")[..])
    );
}
