//! Hexagonal boards. (Filled in for Swap 61.)
