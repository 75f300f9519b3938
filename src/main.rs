//! The Lease Lab web app's entry point (built by Trunk).

fn main() {
    app::start();
}
