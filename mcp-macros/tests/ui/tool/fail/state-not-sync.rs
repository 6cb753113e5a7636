use std::cell::RefCell;

use mcp_runtime::prelude::*;

struct Counter {
    count: RefCell<u32>,
}

/// Counts.
#[tool]
async fn count(counter: State<Counter>) -> String {
    *counter.count.borrow_mut() += 1;
    counter.count.borrow().to_string()
}

/// Reads the count.
#[tool]
async fn read(counter: State<Counter>, ctx: Context) -> String {
    let _ = ctx;
    counter.count.borrow().to_string()
}

fn main() {
    // The one error: where the state is given.
    let _ = Server::builder(server_info!())
        .tool(count::TOOL)
        .tool(read::TOOL)
        .state(Counter { count: RefCell::new(0) });
}
