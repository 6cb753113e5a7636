//! Tasks on the runtime, all of one type.
//!
//! Tokio compiles its task machinery (the cell, the harness: poll, completion, cancellation,
//! the join handle's read) once for every future type that is spawned: about 4.5 KB of code per
//! type. Every task this crate spawns goes through [`spawn`], which boxes the future first, so
//! the machinery is compiled once for [`Task`] (BENCHMARKS.md, "Fifth round: the size of the
//! code"). A spawn costs one allocation more; none is on the path of a request that is
//! answered without waiting.

use std::future::Future;

use tokio::task::JoinHandle;

use crate::future::BoxFuture;

/// The one future type this crate spawns.
pub(crate) type Task = BoxFuture<'static, ()>;

/// Spawns `task` on the current runtime, boxed. Panics outside a runtime, as `tokio::spawn` does.
pub(crate) fn spawn(task: impl Future<Output = ()> + Send + 'static) -> JoinHandle<()> {
    spawn_boxed(Box::pin(task))
}

/// Spawns a task that is boxed already.
pub(crate) fn spawn_boxed(task: Task) -> JoinHandle<()> {
    tokio::spawn(task)
}

/// [`spawn`] on the runtime of `handle`.
pub(crate) fn spawn_on(
    handle: &tokio::runtime::Handle,
    task: impl Future<Output = ()> + Send + 'static,
) -> JoinHandle<()> {
    let task: Task = Box::pin(task);
    handle.spawn(task)
}

/// Runs `work` on the runtime's blocking pool, boxed like [`spawn`]'s tasks.
pub(crate) fn spawn_blocking(work: impl FnOnce() + Send + 'static) -> JoinHandle<()> {
    let work: Box<dyn FnOnce() + Send> = Box::new(work);
    tokio::task::spawn_blocking(work)
}
