//! The test-only job's work (the `test-commands` feature): it misbehaves on purpose, to
//! prove the pool contains it.

use paw_jobs::JobFailure;
use paw_jobs::testing::TestJob;

use crate::Run;

impl Run for TestJob {
    fn run(self, _: Vec<u8>) -> Result<((), Vec<u8>), JobFailure> {
        misbehave(&self.action);
        Ok(((), Vec::new()))
    }
}

fn misbehave(action: &str) {
    match action {
        "crash" => std::process::abort(),
        "panic" => panic!("a test job panicked"),
        "hog" => {
            // Touch every page so the cap is met by real use, not only by reservation.
            let mut hoard: Vec<Vec<u8>> = Vec::new();
            loop {
                hoard.push(vec![1u8; 16 << 20]);
                std::hint::black_box(&hoard);
            }
        }
        "spin" => {
            let mut x = 0u64;
            loop {
                x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
            }
        }
        "overflow" => {
            fn deep(n: u64) -> u64 {
                let pad = std::hint::black_box([n; 64]);
                if pad[1] == u64::MAX {
                    return 0;
                }
                deep(n + 1).wrapping_add(pad[0])
            }
            std::hint::black_box(deep(0));
        }
        "escape" => {
            // What the sandbox must refuse even though OCR runs in it: opening Tesseract's
            // language data (and any other file), starting a thread (OpenMP), a socket.
            // The worker dies if any of it works, so the call fails.
            let mut paths: Vec<String> = paw_jobs::doc::TESSDATA_DIRS
                .iter()
                .map(|d| format!("{d}/eng.traineddata"))
                .collect();
            paths.push("/etc/hostname".into());
            let opened = paths.iter().any(|p| std::fs::File::open(p).is_ok());
            let thread = std::thread::Builder::new().spawn(|| ()).is_ok();
            let socket = std::net::UdpSocket::bind("127.0.0.1:0").is_ok();
            if opened || thread || socket {
                std::process::abort();
            }
        }
        _ => {}
    }
}
