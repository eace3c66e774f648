//! The web app's binary, which Trunk builds: it only mounts the page ([`packlab_web::start`]).

fn main() {
    packlab_web::start();
}
