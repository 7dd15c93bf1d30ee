//! A from-scratch reading of the rule sheet, written for clarity, not speed: every candidate
//! swap is tried on a copy of the board and judged there. The engine's incremental move
//! generation must agree with it.

#![allow(dead_code, unreachable_pub)]

use std::collections::BTreeSet;

/// The board of a position text as `grid[row][col]` (row 0 = row 1), the mover's letter,
/// and the passes field.
pub struct Plain {
    pub grid: Vec<Vec<char>>,
    pub mover: char,
    pub passes: u8,
}

impl Plain {
    pub fn read(text: &str) -> Plain {
        let fields: Vec<&str> = text.split_whitespace().collect();
        let mut grid: Vec<Vec<char>> = fields[1].split('/').map(|r| r.chars().collect()).collect();
        grid.reverse();
        Plain {
            grid,
            mover: fields[2].chars().next().unwrap(),
            passes: fields[3].parse().unwrap(),
        }
    }

    pub fn n(&self) -> usize {
        self.grid.len()
    }

    fn neighbours(&self, (r, c): (usize, usize)) -> Vec<(usize, usize)> {
        let n = self.n() as isize;
        [(1, 0), (-1, 0), (0, 1), (0, -1)]
            .iter()
            .map(|(dr, dc)| (r as isize + dr, c as isize + dc))
            .filter(|&(r, c)| r >= 0 && c >= 0 && r < n && c < n)
            .map(|(r, c)| (r as usize, c as usize))
            .collect()
    }

    fn friends(grid: &[Vec<char>], plain: &Plain, cell: (usize, usize)) -> usize {
        plain
            .neighbours(cell)
            .into_iter()
            .filter(|&(r, c)| grid[r][c] == grid[cell.0][cell.1])
            .count()
    }

    /// Network label of every cell (breadth-first, from scratch).
    pub fn networks(&self) -> Vec<Vec<usize>> {
        let n = self.n();
        let mut label = vec![vec![usize::MAX; n]; n];
        let mut next = 0;
        for r in 0..n {
            for c in 0..n {
                if label[r][c] != usize::MAX {
                    continue;
                }
                let mut queue = vec![(r, c)];
                label[r][c] = next;
                while let Some(cell) = queue.pop() {
                    for (nr, nc) in self.neighbours(cell) {
                        if label[nr][nc] == usize::MAX && self.grid[nr][nc] == self.grid[r][c] {
                            label[nr][nc] = next;
                            queue.push((nr, nc));
                        }
                    }
                }
                next += 1;
            }
        }
        label
    }

    pub fn is_terminal(&self, cell: (usize, usize)) -> bool {
        Plain::friends(&self.grid, self, cell) <= 1
    }

    /// Whether the piece is in a 2 x 2 block whose other three cells hold the other colour.
    pub fn is_cornered(&self, (r, c): (usize, usize)) -> bool {
        let n = self.n() as isize;
        let me = self.grid[r][c];
        [(0, 0), (0, -1), (-1, 0), (-1, -1)]
            .iter()
            .any(|&(dr, dc)| {
                let (r0, c0) = (r as isize + dr, c as isize + dc);
                if r0 < 0 || c0 < 0 || r0 + 1 >= n || c0 + 1 >= n {
                    return false;
                }
                let cells = [(r0, c0), (r0 + 1, c0), (r0, c0 + 1), (r0 + 1, c0 + 1)];
                cells
                    .iter()
                    .filter(|&&(a, b)| (a as usize, b as usize) != (r, c))
                    .all(|&(a, b)| self.grid[a as usize][b as usize] != me)
            })
    }

    fn name((r, c): (usize, usize)) -> String {
        format!("{}{}", (b'a' + c as u8) as char, r + 1)
    }

    /// Every legal move as text, by trying each candidate swap on a copy of the board.
    pub fn legal_moves(&self) -> BTreeSet<String> {
        let mut out = BTreeSet::new();
        if self.passes >= 2 {
            return out;
        }
        let n = self.n();
        let label = self.networks();
        let cells: Vec<(usize, usize)> = (0..n).flat_map(|r| (0..n).map(move |c| (r, c))).collect();
        // Pairs of adjacent networks.
        let mut touching = BTreeSet::new();
        for &a in &cells {
            for b in self.neighbours(a) {
                touching.insert((label[a.0][a.1], label[b.0][b.1]));
            }
        }
        for &p in &cells {
            if self.grid[p.0][p.1] != self.mover || !self.is_terminal(p) {
                continue;
            }
            for &q in &cells {
                if self.grid[q.0][q.1] == self.mover
                    || !touching.contains(&(label[p.0][p.1], label[q.0][q.1]))
                {
                    continue;
                }
                let mut g = self.grid.clone();
                let t = g[p.0][p.1];
                g[p.0][p.1] = g[q.0][q.1];
                g[q.0][q.1] = t;
                let mono = (0..n - 1).any(|r| {
                    (0..n - 1).any(|c| {
                        g[r][c] == g[r + 1][c]
                            && g[r][c] == g[r][c + 1]
                            && g[r][c] == g[r + 1][c + 1]
                    })
                });
                if !mono && Plain::friends(&g, self, p) >= 2 && Plain::friends(&g, self, q) >= 2 {
                    out.insert(format!("{}-{}", Plain::name(p), Plain::name(q)));
                }
            }
        }
        if out.is_empty() {
            out.insert("pass".to_string());
        }
        out
    }
}
