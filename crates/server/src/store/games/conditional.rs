//! What a plan of conditional moves stores (`docs/API.md`, "Correspondence"): one row per
//! reply, found by the ply and the position the opponent's move leads to
//! ([`swapboard_play::conditional`] made them), and the game's `conditional` mark that
//! spares a move of a game without a plan any read of them.

use sqlx::{Any, Row as _, Transaction};
use swapboard_play::conditional::Node;

use super::{MoveError, Status, number};
use crate::store::pool::Store;

/// A player's plan as stored: its replies and the ply it was set at.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StoredPlan {
    /// The ply the plan was set at (the opponent to move).
    pub base_ply: u32,
    /// Its replies.
    pub nodes: Vec<Node>,
}

impl Store {
    /// Replaces the plan of the player in `seat` of game `game_id` by `nodes`, made at `ply`
    /// (an empty plan clears it). Refused as [`MoveError::Stale`] when the game has moved
    /// on since, [`MoveError::NotPlaying`] when it is not being played.
    pub async fn set_plan(
        &self,
        game_id: &str,
        ply: u32,
        seat: u8,
        nodes: &[Node],
    ) -> Result<(), MoveError<std::convert::Infallible>> {
        let mut tx = self.begin_write().await?;
        let game = self.locked_game(&mut tx, game_id).await?;
        if game.status != Status::Playing {
            return Err(MoveError::NotPlaying(game.status));
        }
        if game.ply != ply {
            return Err(MoveError::Stale { ply: game.ply });
        }
        Self::drop_plan_in(&mut tx, game_id).await?;
        for node in nodes {
            sqlx::query(
                "INSERT INTO conditional_moves (game_id, ply, after, seat, path, reply, base_ply) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7)",
            )
            .bind(game_id)
            .bind(i64::from(node.ply))
            .bind(&node.after)
            .bind(i64::from(seat))
            .bind(&node.path)
            .bind(&node.reply)
            .bind(i64::from(ply))
            .execute(&mut *tx)
            .await?;
        }
        if !nodes.is_empty() {
            sqlx::query("UPDATE games SET conditional = 1 WHERE id = $1")
                .bind(game_id)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// The plan the player in `seat` keeps in game `game_id` (empty when none).
    pub async fn plan_of(&self, game_id: &str, seat: u8) -> anyhow::Result<StoredPlan> {
        let rows = sqlx::query(
            "SELECT ply, after, path, reply, base_ply FROM conditional_moves \
             WHERE game_id = $1 AND seat = $2 ORDER BY ply, path",
        )
        .bind(game_id)
        .bind(i64::from(seat))
        .fetch_all(&self.pool)
        .await?;
        let mut plan = StoredPlan::default();
        for row in &rows {
            plan.base_ply = number(row, "base_ply")?;
            plan.nodes.push(Node {
                ply: number(row, "ply")?,
                after: row.try_get("after")?,
                path: row.try_get("path")?,
                reply: row.try_get("reply")?,
            });
        }
        Ok(plan)
    }

    /// The plies (from 0) of game `game_id` that a plan played.
    pub async fn plies_by_condition(&self, game_id: &str) -> anyhow::Result<Vec<usize>> {
        let rows = sqlx::query("SELECT ply FROM moves WHERE game_id = $1 AND by_condition = 1")
            .bind(game_id)
            .fetch_all(&self.pool)
            .await?;
        rows.iter().map(|row| number(row, "ply")).collect()
    }

    /// The reply a plan keeps to the opponent's move at `ply` that led to `after`, within
    /// `tx`: its owner's seat, the plan's path up to that move, and the reply.
    pub(super) async fn conditional_reply_in(
        tx: &mut Transaction<'static, Any>,
        game_id: &str,
        ply: u32,
        after: &str,
    ) -> anyhow::Result<Option<(u8, String, String)>> {
        let row = sqlx::query(
            "SELECT seat, path, reply FROM conditional_moves \
             WHERE game_id = $1 AND ply = $2 AND after = $3",
        )
        .bind(game_id)
        .bind(i64::from(ply))
        .bind(after)
        .fetch_optional(&mut **tx)
        .await?;
        row.map(|row| {
            Ok((
                u8::try_from(row.try_get::<i64, _>("seat")?)?,
                row.try_get("path")?,
                row.try_get("reply")?,
            ))
        })
        .transpose()
    }

    /// Keeps, within `tx`, only the replies under the plan's `path` (the branch the game
    /// followed): whether any is left.
    pub(super) async fn keep_plan_under_in(
        tx: &mut Transaction<'static, Any>,
        game_id: &str,
        path: &str,
    ) -> anyhow::Result<bool> {
        let under = format!("{path} %");
        sqlx::query("DELETE FROM conditional_moves WHERE game_id = $1 AND path NOT LIKE $2")
            .bind(game_id)
            .bind(&under)
            .execute(&mut **tx)
            .await?;
        let left = sqlx::query("SELECT 1 FROM conditional_moves WHERE game_id = $1 LIMIT 1")
            .bind(game_id)
            .fetch_optional(&mut **tx)
            .await?;
        Ok(left.is_some())
    }

    /// Deletes, within `tx`, the plan kept in game `game_id` (the opponent left it, or its
    /// owner replaces it).
    pub(super) async fn drop_plan_in(
        tx: &mut Transaction<'static, Any>,
        game_id: &str,
    ) -> anyhow::Result<()> {
        sqlx::query("DELETE FROM conditional_moves WHERE game_id = $1")
            .bind(game_id)
            .execute(&mut **tx)
            .await?;
        Ok(())
    }
}
