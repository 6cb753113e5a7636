//! What a handler meets: its [`Context`](context::Context), the questions it can ask the client
//! (both eras), and the skeleton that runs it.

pub(crate) mod ask;
pub(crate) mod context;
pub(crate) mod invoke;
pub(crate) mod peer;
pub(crate) mod requests;
pub(crate) mod rounds;
pub(crate) mod sent_meta;
pub(crate) mod task_context;
pub(crate) mod task_port;
