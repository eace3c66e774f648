//! The web app's binary, which Trunk builds: the page's first download, without the script
//! engine (`packlab-scripts` has it). It only starts the page ([`packlab_web::start`]).

fn main() {
    packlab_web::start();
}
