fn main() {
    packlab_web::start();
}
