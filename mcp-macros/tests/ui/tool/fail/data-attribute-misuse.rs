#[mcp_runtime::data(inputs)]
struct Area {
    city: String,
}

#[mcp_runtime::data]
fn not_a_type() {}

fn main() {
    let _ = Area { city: String::new() }.city;
    not_a_type();
}
