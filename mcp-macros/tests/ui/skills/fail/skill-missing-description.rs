fn main() {
    let _skills = mcp_runtime::skills!("../fixtures/missing-description");
}
