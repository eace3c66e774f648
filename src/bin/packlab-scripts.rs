//! The page with the script engine, which Trunk builds beside the page's first download
//! (`packlab-web`, without it): www/boot.js loads this one for a link or a lab that runs a
//! script (docs/web.md, "Less to download").

fn main() {
    packlab_web::start();
}
