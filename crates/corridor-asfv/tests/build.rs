//! Building: validity (independent checker), coverage and regions per point on the
//! built-in scenes and hand-made environments; typed errors on bad input.

mod common;

use corridor_asfv::{AsfvError, AsfvOptions, Decomposition};
use corridor_geom::{Environment, Obstacle, Point, Ring};
use corridor_io::scenes::Scene;
use std::time::Instant;

#[test]
fn built_in_scenes_are_valid_and_covered() {
    for scene in Scene::ALL {
        let env = scene.build();
        let t = Instant::now();
        let d = Decomposition::build(&env, &AsfvOptions::default()).unwrap();
        let built = t.elapsed();
        let report = d
            .validate()
            .unwrap_or_else(|e| panic!("{}: {e}", scene.name()));
        let cov = d.coverage();
        println!(
            "{:10} regions {:6} links {:6} max/point {} coverage {:.4}% build {:?}",
            scene.name(),
            report.regions,
            report.links,
            report.max_regions_at_point,
            100.0 * cov.fraction(),
            built
        );
        assert!(
            cov.fraction() > 0.97,
            "{}: coverage {}",
            scene.name(),
            cov.fraction()
        );
        assert!(cov.fraction() <= 1.0 + 1e-9);
    }
}

#[test]
fn hand_made_environments_are_valid() {
    for (name, env) in common::hand_made() {
        let d = Decomposition::build(&env, &AsfvOptions::default()).unwrap();
        let report = d.validate().unwrap_or_else(|e| panic!("{name}: {e}"));
        let cov = d.coverage().fraction();
        println!(
            "{name:10} regions {:4} coverage {:.4}%",
            report.regions,
            100.0 * cov
        );
        assert!(cov > 0.97, "{name}: coverage {cov}");
    }
}

#[test]
fn bad_input_gives_typed_errors() {
    let env = Environment::rectangle(Point::new(0.0, 0.0), Point::new(10.0, 10.0));
    for params in [
        AsfvOptions {
            growth_step: 0.0,
            ..AsfvOptions::default()
        },
        AsfvOptions {
            seed_size: f64::NAN,
            ..AsfvOptions::default()
        },
        AsfvOptions {
            min_step: 2.0,
            ..AsfvOptions::default()
        },
        AsfvOptions {
            seed_size: 16.0,
            ..AsfvOptions::default()
        },
    ] {
        assert!(matches!(
            Decomposition::build(&env, &params),
            Err(AsfvError::InvalidParameter { .. })
        ));
    }
    let mut bowtie = env.clone();
    bowtie.insert(Obstacle::polygon(vec![
        Point::new(1.0, 1.0),
        Point::new(5.0, 5.0),
        Point::new(5.0, 1.0),
        Point::new(1.0, 5.0),
    ]));
    assert!(matches!(
        Decomposition::build(&bowtie, &AsfvOptions::default()),
        Err(AsfvError::Environment(_))
    ));
    let flat = Environment::new(Ring::new(vec![
        Point::new(0.0, 0.0),
        Point::new(1.0, 1.0),
        Point::new(2.0, 2.0),
    ]));
    assert!(Decomposition::build(&flat, &AsfvOptions::default()).is_err());
    let huge = Environment::rectangle(Point::new(0.0, 0.0), Point::new(50_000.0, 50_000.0));
    assert!(matches!(
        Decomposition::build(&huge, &AsfvOptions::default()),
        Err(AsfvError::TooLarge { .. })
    ));
    // An environment too small for any seed is valid and simply empty.
    let tiny = Environment::rectangle(Point::new(0.0, 0.0), Point::new(0.1, 0.1));
    let d = Decomposition::build(&tiny, &AsfvOptions::default()).unwrap();
    assert_eq!(d.region_count(), 0);
    d.validate().unwrap();
}

#[test]
fn regions_portals_and_graph_can_be_drawn() {
    use corridor_io::svg::{Style, SvgDocument};
    let env = Scene::Military.build();
    let d = Decomposition::build(&env, &AsfvOptions::default()).unwrap();
    let mut doc = SvgDocument::of_environment(&env, false);
    let regions = doc.layer("asfv-regions", Style::filled("#cde", "#79a", 0.5));
    for r in d.regions() {
        regions.ring(&r.ring());
    }
    let portals = doc.layer("asfv-portals", Style::stroke("#c33", 1.0));
    for p in d.portals() {
        portals.segment(p.segment.a, p.segment.b);
    }
    let graph = doc.layer("asfv-graph", Style::stroke("#333", 0.5));
    for s in d.graph_segments() {
        graph.segment(s.a, s.b);
    }
    let svg = doc.render();
    assert!(svg.contains("asfv-regions") && svg.contains("asfv-portals"));
    assert_eq!(d.portals().len(), d.graph_segments().len());
}
