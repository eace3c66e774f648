//! Ordered structures that keep the cost of one scheduling step logarithmic.
//!
//! Policies ask questions such as "the lowest-index server with at least r free" or "the
//! earliest waiting job no larger than c". A scan would cost O(L) or O(queue) per question;
//! these segment trees answer in O(log n), and [`LengthBuckets`] finds every shortest queue in O(1).

mod fifo_index;
mod grouped_ids;
mod id_set;
mod length_buckets;
mod min_tree;
mod prefetch;
mod size_order;
mod sum_tree;

pub use fifo_index::FifoIndex;
pub use grouped_ids::GroupedIds;
pub use id_set::IdSet;
pub use length_buckets::LengthBuckets;
pub use min_tree::{MaxTree, MinTree};
pub use prefetch::prefetch;
pub use size_order::SizeOrder;
pub use sum_tree::SumTree;
