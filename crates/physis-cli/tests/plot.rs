//! `physis plot` as a user meets it: images that decode, carry the labelled axes and the
//! run's stop time, phase plots, field heat-maps and frames, ensembles, and refusals.

use crate::common;
use common::physis;
use std::path::PathBuf;

fn out_path(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("physis-plot-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir.join(name)
}

/// Plots `args` into a fresh SVG and returns its `<text>` contents.
fn svg_texts(name: &str, args: &[&str]) -> Vec<String> {
    let path = out_path(name);
    let p = path.to_str().expect("UTF-8 path");
    let mut all = vec!["plot"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["-o", p]);
    let (code, _, err) = physis(&all);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&path).expect("SVG written");
    let doc = roxmltree::Document::parse(&text).expect("SVG parses as XML");
    doc.descendants()
        .filter(|n| n.has_tag_name("text"))
        .map(|n| {
            let s: String = n
                .descendants()
                .filter(|d| d.is_text())
                .filter_map(|d| d.text())
                .collect();
            s.trim().to_string()
        })
        .collect()
}

/// Flight time of the bundled projectile (30 m/s at 45°, drag 0.1/s), by Newton on the
/// closed-form height y(t) = (v sin a + g/k)(1 − e^{−kt})/k − g t/k.
fn ground_time() -> f64 {
    let (v, a, k, g) = (30.0_f64, std::f64::consts::FRAC_PI_4, 0.1, 9.80665);
    let vy = v * a.sin();
    let mut t = 2.0 * vy / g;
    for _ in 0..50 {
        let y = (vy + g / k) * (1.0 - (-k * t).exp()) / k - g * t / k;
        let dy = (vy + g / k) * (-k * t).exp() - g / k;
        t -= y / dy;
    }
    t
}

#[test]
fn projectile_svg_has_labelled_panels_and_the_stop_time() {
    let t = svg_texts("projectile.svg", &["examples/projectile.hph"]);
    let has = |s: &str| t.iter().filter(|x| x.as_str() == s).count();
    assert_eq!(has("Projectile"), 1);
    assert_eq!(has("t [s]"), 2, "one time axis per panel: {t:?}");
    assert_eq!(has("height [m]"), 1);
    assert_eq!(has("speed [m/s]"), 1);
    let stop = format!("when: x[1] < 0 m ∧ t > 0 s at t = {:.3} s", ground_time());
    assert_eq!(has(&stop), 2, "the stop is marked on both panels: {t:?}");
}

#[test]
fn projectile_png_decodes() {
    let path = out_path("projectile.png");
    let p = path.to_str().expect("UTF-8 path");
    let (code, _, err) = physis(&[
        "plot",
        "examples/projectile.hph",
        "--width",
        "700",
        "--height",
        "500",
        "-o",
        p,
    ]);
    assert_eq!(code, 0, "{err}");
    let bytes = std::fs::read(&path).expect("PNG written");
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    // IHDR: width and height, big-endian, right after the signature and chunk header.
    assert_eq!(&bytes[12..16], b"IHDR");
    assert_eq!(u32::from_be_bytes(bytes[16..20].try_into().unwrap()), 700);
    assert_eq!(u32::from_be_bytes(bytes[20..24].try_into().unwrap()), 500);
    let mut reader = png::Decoder::new(std::io::Cursor::new(&bytes))
        .read_info()
        .expect("PNG header");
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).expect("PNG decodes");
    assert_eq!((info.width, info.height), (700, 500));
}

#[test]
fn phase_plot_of_the_trajectory() {
    let t = svg_texts(
        "trajectory.svg",
        &["examples/projectile.hph", "--x", "x[0]", "--y", "x[1]"],
    );
    for label in ["x[0] [m]", "x[1] [m]"] {
        assert!(t.iter().any(|x| x == label), "{label} in {t:?}");
    }
    assert!(t.iter().any(|x| x.starts_with("when: x[1] < 0 m")), "{t:?}");
}

#[test]
fn heat_map_of_a_rod_and_frame_of_a_plate() {
    let t = svg_texts("rod.svg", &["examples/heated_rod.hph"]);
    for label in ["HeatedRod", "x [m]", "t [s]", "u [K]"] {
        assert!(t.iter().any(|x| x == label), "{label} in {t:?}");
    }
    let t = svg_texts("plate.svg", &["examples/poisson.hph", "--at", "0.5 s"]);
    for label in ["x [m]", "y [m]", "φ", "Poisson at t = 0.5 s"] {
        assert!(t.iter().any(|x| x == label), "{label} in {t:?}");
    }
}

#[test]
fn ensemble_mean_and_band_of_a_noisy_velocity() {
    let t = svg_texts(
        "ou.svg",
        &[
            "examples/ornstein_uhlenbeck.hph",
            "--ensemble",
            "20",
            "--seed",
            "3",
        ],
    );
    for label in ["v [m/s]", "v mean", "v 5-95 %", "t [s]"] {
        assert!(t.iter().any(|x| x == label), "{label} in {t:?}");
    }
    assert!(t.iter().any(|x| x.contains("of 20 members")), "{t:?}");
}

#[test]
fn refusals_are_usage_errors() {
    let o = out_path("x.svg");
    let o = o.to_str().expect("UTF-8 path");
    let cases: [(&[&str], &str); 5] = [
        (&["examples/projectile.hph", "-o", "x.jpeg"], ".svg or .png"),
        (
            &["examples/projectile.hph", "--y", "nope", "-o", o],
            "no column `nope`",
        ),
        (
            &["examples/projectile.hph", "--y", "x[2]", "-o", o],
            "out of range",
        ),
        (&["examples/projectile.hph", "--at", "1 s", "-o", o], "--at"),
        (
            &["examples/projectile.hph", "--field", "u", "-o", o],
            "no field `u`",
        ),
    ];
    for (args, needle) in cases {
        let mut all = vec!["plot"];
        all.extend_from_slice(args);
        let (code, _, err) = physis(&all);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}
