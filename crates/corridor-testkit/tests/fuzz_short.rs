//! A short seeded fuzz run of every target (readers, saved-ECM loader, update files):
//! no input may panic. The long run is `cargo run --release -p corridor-testkit
//! --example fuzz`.

mod fuzz_targets;

#[test]
fn no_target_panics_on_a_short_seeded_run() {
    for target in fuzz_targets::targets() {
        let report =
            corridor_testkit::fuzz::run(&target.corpus, target.tokens, 3_000, 25, &target.run);
        println!("{}: {report:?}", target.name);
        assert_eq!(
            report.panics,
            0,
            "{} panicked on {:?}",
            target.name,
            report
                .panicking
                .first()
                .map(|(i, b)| (i, String::from_utf8_lossy(b).into_owned()))
        );
    }
}
