//! A bounded producer pool: compile variants on several threads while the
//! consumer (the timing loop) works through those already compiled.
//!
//! The channel between them is bounded so that compilation runs only a few
//! variants ahead of timing: compiled images wait in memory, and a tuning run
//! that stops early has not paid for compiling everything.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{sync_channel, Receiver};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

/// Results of a parallel map, in completion order, each with its job's index.
pub struct Pipeline<R> {
    rx: Option<Receiver<(usize, R)>>,
    threads: Vec<JoinHandle<()>>,
    cancel: Arc<AtomicBool>,
}

impl<R: Send + 'static> Pipeline<R> {
    /// Runs `work` over `jobs` on `threads` threads, keeping at most `depth`
    /// finished results waiting for the consumer (plus one per thread that
    /// is blocked handing its result over).
    pub fn spawn<J, F>(jobs: Vec<J>, threads: usize, depth: usize, work: F) -> Pipeline<R>
    where
        J: Send + 'static,
        F: Fn(J) -> R + Send + Sync + 'static,
    {
        let queue: Arc<Mutex<VecDeque<(usize, J)>>> =
            Arc::new(Mutex::new(jobs.into_iter().enumerate().collect()));
        let (tx, rx) = sync_channel(depth);
        let cancel = Arc::new(AtomicBool::new(false));
        let work = Arc::new(work);
        let handles = (0..threads.max(1))
            .map(|i| {
                let queue = Arc::clone(&queue);
                let tx = tx.clone();
                let cancel = Arc::clone(&cancel);
                let work = Arc::clone(&work);
                std::thread::Builder::new()
                    .name(format!("hone-compile-{i}"))
                    .spawn(move || loop {
                        if cancel.load(Ordering::Relaxed) {
                            break;
                        }
                        let next = queue.lock().map(|mut q| q.pop_front()).unwrap_or(None);
                        let Some((index, job)) = next else { break };
                        let result = work(job);
                        if tx.send((index, result)).is_err() {
                            break;
                        }
                    })
                    .expect("spawning a compile thread")
            })
            .collect();
        Pipeline {
            rx: Some(rx),
            threads: handles,
            cancel,
        }
    }
}

impl<R> Iterator for Pipeline<R> {
    type Item = (usize, R);

    fn next(&mut self) -> Option<(usize, R)> {
        self.rx.as_ref()?.recv().ok()
    }
}

impl<R> Drop for Pipeline<R> {
    fn drop(&mut self) {
        self.cancel.store(true, Ordering::Relaxed);
        // Dropping the receiver fails the senders' pending sends, so no
        // thread stays blocked on a full channel.
        self.rx.take();
        for t in self.threads.drain(..) {
            let _ = t.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;
    use std::time::{Duration, Instant};

    #[test]
    fn every_job_is_delivered_once_with_its_index() {
        let jobs: Vec<u64> = (0..50).collect();
        let mut got: Vec<(usize, u64)> = Pipeline::spawn(jobs, 3, 2, |j| j * j).collect();
        got.sort();
        assert_eq!(got.len(), 50);
        for (i, (index, square)) in got.into_iter().enumerate() {
            assert_eq!(index, i);
            assert_eq!(square, (i * i) as u64);
        }
    }

    #[test]
    fn producers_stay_within_the_bound() {
        let produced = Arc::new(AtomicUsize::new(0));
        let p = Arc::clone(&produced);
        let (threads, depth) = (3, 2);
        let pipeline = Pipeline::spawn(
            (0..30).collect::<Vec<_>>(),
            threads,
            depth,
            move |j: i32| {
                p.fetch_add(1, Ordering::SeqCst);
                j
            },
        );
        let mut consumed = 0;
        for _ in pipeline {
            consumed += 1;
            std::thread::sleep(Duration::from_millis(2));
            let ahead = produced.load(Ordering::SeqCst) - consumed;
            assert!(
                ahead <= depth + threads,
                "{ahead} results ahead of the consumer"
            );
        }
        assert_eq!(consumed, 30);
    }

    #[test]
    fn compilation_overlaps_consumption() {
        let step = Duration::from_millis(40);
        let jobs = 8;
        let start = Instant::now();
        let pipeline = Pipeline::spawn((0..jobs).collect::<Vec<_>>(), 4, 2, move |j: u32| {
            std::thread::sleep(step);
            j
        });
        for _ in pipeline {
            std::thread::sleep(step);
        }
        let serial = step * (2 * jobs);
        let elapsed = start.elapsed();
        assert!(
            elapsed < serial * 3 / 4,
            "{elapsed:?} is not much shorter than the serial {serial:?}"
        );
    }

    #[test]
    fn dropping_early_stops_the_producers() {
        let produced = Arc::new(AtomicUsize::new(0));
        let p = Arc::clone(&produced);
        let mut pipeline = Pipeline::spawn((0..1000).collect::<Vec<_>>(), 2, 1, move |j: i32| {
            p.fetch_add(1, Ordering::SeqCst);
            j
        });
        assert!(pipeline.next().is_some());
        drop(pipeline);
        assert!(produced.load(Ordering::SeqCst) < 1000);
    }
}
