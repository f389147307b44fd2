//! The GPU worker as a program of its own: speaks the JSON-lines protocol of
//! `hone_gpu::protocol` on stdin and stdout (what `hone gpu-worker` does).

fn main() {
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    let code = hone_gpu::worker_main(stdin.lock(), stdout.lock());
    std::process::exit(code);
}
