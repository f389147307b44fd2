//! Compiling ahead: a pool of threads that compiles keys (variants) in the
//! order they were queued, while the caller times others. A key needed before
//! its turn is compiled by the caller at once; one being compiled is waited
//! for. Tuners of templates and of library kernels both use it.

use std::collections::{HashMap, VecDeque};
use std::hash::Hash;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;

use hone_tuner::Invalid;

/// What compiling one key gave.
pub struct Compiled<T> {
    /// The compiled thing, or why there is none.
    pub result: Result<T, Invalid>,
    /// `Some(hit)` when a compilation was attempted (`hit`: the module cache
    /// had it); `None` when the key was refused before compiling.
    pub cache_hit: Option<bool>,
}

enum Slot<T> {
    Queued,
    Compiling,
    Done(Result<T, Invalid>),
}

struct State<K, T> {
    slots: HashMap<K, Slot<T>>,
    waiting: VecDeque<K>,
}

type CompileFn<K, T> = dyn Fn(&K) -> Compiled<T> + Send + Sync;

struct Shared<K, T> {
    state: Mutex<State<K, T>>,
    done: Condvar,
    /// (compilations, module-cache hits)
    counts: Mutex<(usize, usize)>,
    compile: Box<CompileFn<K, T>>,
}

impl<K: Eq + Hash + Clone, T: Clone> Shared<K, T> {
    fn lock(&self) -> MutexGuard<'_, State<K, T>> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Compiles `key` and publishes the result. A panic becomes an error:
    /// it must not leave the key marked as compiling, or its waiters would
    /// wait forever.
    fn run(&self, key: K) -> Result<T, Invalid> {
        let compiled =
            catch_unwind(AssertUnwindSafe(|| (self.compile)(&key))).unwrap_or_else(|panic| {
                Compiled {
                    result: Err(Invalid::runtime(format!(
                        "compilation panicked: {}",
                        panic
                            .downcast_ref::<String>()
                            .cloned()
                            .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                            .unwrap_or_default()
                    ))),
                    cache_hit: None,
                }
            });
        if let Some(hit) = compiled.cache_hit {
            let mut c = self.counts.lock().unwrap_or_else(|e| e.into_inner());
            c.0 += 1;
            c.1 += usize::from(hit);
        }
        self.lock()
            .slots
            .insert(key, Slot::Done(compiled.result.clone()));
        self.done.notify_all();
        compiled.result
    }
}

/// Compiles keys on background threads, in the order they were queued.
/// Clones share the queue, the results and the threads: the evaluators of
/// several devices of one architecture compile each variant once.
pub struct CompilePool<K, T> {
    shared: Arc<Shared<K, T>>,
    threads: Arc<Mutex<Vec<JoinHandle<()>>>>,
}

impl<K, T> Clone for CompilePool<K, T> {
    fn clone(&self) -> Self {
        CompilePool {
            shared: Arc::clone(&self.shared),
            threads: Arc::clone(&self.threads),
        }
    }
}

impl<K, T> CompilePool<K, T>
where
    K: Eq + Hash + Clone + Send + 'static,
    T: Clone + Send + 'static,
{
    pub fn new(compile: impl Fn(&K) -> Compiled<T> + Send + Sync + 'static) -> Self {
        CompilePool {
            shared: Arc::new(Shared {
                state: Mutex::new(State {
                    slots: HashMap::new(),
                    waiting: VecDeque::new(),
                }),
                done: Condvar::new(),
                counts: Mutex::new((0, 0)),
                compile: Box::new(compile),
            }),
            threads: Arc::new(Mutex::new(Vec::new())),
        }
    }

    /// Queues the keys not seen before and keeps `threads` threads compiling.
    pub fn queue(&mut self, keys: impl IntoIterator<Item = K>, threads: usize) {
        {
            let mut s = self.shared.lock();
            for k in keys {
                if !s.slots.contains_key(&k) {
                    s.slots.insert(k.clone(), Slot::Queued);
                    s.waiting.push_back(k);
                }
            }
        }
        let mut running = self.threads.lock().unwrap_or_else(|e| e.into_inner());
        running.retain(|t| !t.is_finished());
        for _ in running.len()..threads.max(1) {
            let shared = Arc::clone(&self.shared);
            running.push(std::thread::spawn(move || loop {
                let next = {
                    let mut s = shared.lock();
                    let next = s.waiting.pop_front();
                    if let Some(k) = &next {
                        s.slots.insert(k.clone(), Slot::Compiling);
                    }
                    next
                };
                let Some(key) = next else { break };
                // Published to the waiters; nobody here needs it.
                let _ = shared.run(key);
            }));
        }
    }

    /// The result for `key`: ready, waited for, or compiled here now.
    pub fn wait(&self, key: &K) -> Result<T, Invalid> {
        let mut s = self.shared.lock();
        loop {
            match s.slots.get(key) {
                Some(Slot::Done(r)) => return r.clone(),
                Some(Slot::Compiling) => {
                    s = self.shared.done.wait(s).unwrap_or_else(|e| e.into_inner());
                }
                Some(Slot::Queued) | None => {
                    s.waiting.retain(|k| k != key);
                    s.slots.insert(key.clone(), Slot::Compiling);
                    drop(s);
                    return self.shared.run(key.clone());
                }
            }
        }
    }

    /// (compilations attempted, of which the module cache had)
    pub fn counts(&self) -> (usize, usize) {
        *self.shared.counts.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl<K, T> Drop for CompilePool<K, T> {
    fn drop(&mut self) {
        // The last of the clones: queued keys are not needed any more;
        // running compilations finish.
        if Arc::strong_count(&self.threads) > 1 {
            return;
        }
        if let Ok(mut s) = self.shared.state.lock() {
            s.waiting.clear();
        }
        let mut running = self.threads.lock().unwrap_or_else(|e| e.into_inner());
        for t in running.drain(..) {
            let _ = t.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn every_key_is_compiled_once_and_answers_every_waiter() {
        let calls = Arc::new(AtomicUsize::new(0));
        let c = Arc::clone(&calls);
        let mut pool = CompilePool::new(move |k: &u32| {
            c.fetch_add(1, Ordering::SeqCst);
            std::thread::sleep(std::time::Duration::from_millis(2));
            Compiled {
                result: if k.is_multiple_of(7) {
                    Err(Invalid::constraint(format!("{k} refused")))
                } else {
                    Ok(k * 10)
                },
                cache_hit: (!k.is_multiple_of(7)).then_some(k.is_multiple_of(2)),
            }
        });
        pool.queue(0..40, 4);
        // Asked for out of order, and twice: each compiled once.
        for k in (0..40).rev().chain(0..40) {
            match pool.wait(&k) {
                Ok(v) => assert_eq!(v, k * 10),
                Err(e) => assert_eq!(e, Invalid::constraint(format!("{k} refused"))),
            }
        }
        // A key never queued is compiled by the caller.
        assert_eq!(pool.wait(&41), Ok(410));
        assert_eq!(calls.load(Ordering::SeqCst), 41);
        // 6 keys (0, 7, ..., 35) were refused before compiling.
        let (compiled, hits) = pool.counts();
        assert_eq!(compiled, 41 - 6);
        let even_compiled = (0..40)
            .chain([41])
            .filter(|k: &u32| !k.is_multiple_of(7) && k.is_multiple_of(2));
        assert_eq!(hits, even_compiled.count());
    }

    #[test]
    fn a_panicking_compilation_is_an_error_not_a_hang() {
        let mut pool = CompilePool::new(|k: &u32| {
            if *k == 3 {
                panic!("boom");
            }
            Compiled {
                result: Ok(*k),
                cache_hit: Some(false),
            }
        });
        pool.queue(0..6, 2);
        let e = pool.wait(&3).unwrap_err();
        assert!(e.reason.contains("panicked: boom"), "{e}");
        assert_eq!(pool.wait(&5), Ok(5));
    }
}
